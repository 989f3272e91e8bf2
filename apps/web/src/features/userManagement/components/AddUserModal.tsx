import { App, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_COUNT, nameRules, phoneRules } from '../../../shared/rules';
import { validated } from '../../../shared/validated';
import { umApi } from '../api';
import { RoleSelect } from './RoleSelect';

interface Values {
  phone: string;
  userName: string;
  roleIds: number[];
}

/**
 * Add a user to the company, which invites them: they join, with the roles chosen, when they
 * accept. The server answers alike whether or not the phone has an account; the list shows
 * the person as invited under the name given here until they accept.
 */
export function AddUserModal({
  open,
  onClose,
  onDone,
}: {
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('userManagement');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  const close = () => {
    form.resetFields();
    onClose();
  };

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await umApi.addSysUser({
        phone: values.phone.trim(),
        userName: values.userName.trim(),
        roleIds: values.roleIds ?? [],
      });
      message.success(envelope.message);
      onDone();
      close();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('users.add', '新增用户')}
      okText={t('users.inviteOk', '发送邀请')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={close}
      forceRender
    >
      <Typography.Paragraph type="secondary" data-testid="add-user-hint">
        {t(
          'users.addHint',
          '对方会收到本公司的邀请，同意后加入并获得所选角色。手机号尚未注册时，对方用该号码注册或以短信验证码登录后，即可在“个人中心”看到邀请。',
        )}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" data-testid="add-user-form" initialValues={{ roleIds: [] }}>
        <Form.Item
          name="phone"
          label={t('users.phone', '手机号')}
          rules={phoneRules(t('rules.phoneInvalid', '请输入正确的手机号码'))}
        >
          <Input maxLength={11} inputMode="numeric" autoComplete="off" data-testid="add-user-phone" />
        </Form.Item>
        <Form.Item
          name="userName"
          label={t('users.userName', '姓名')}
          extra={t('users.nameHint', '对方接受邀请前，本公司以此名称称呼对方')}
          rules={nameRules({
            required: t('rules.nameRequired', '请输入名称'),
            tooLong: t('rules.nameTooLong', '名称长度不能超过 25 个字符'),
          })}
        >
          <Input count={NAME_COUNT} autoComplete="off" data-testid="add-user-name" />
        </Form.Item>
        <Form.Item name="roleIds" label={t('users.roles', '角色')}>
          <RoleSelect testId="add-user-roles" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
