import { App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_COUNT, nameRules, passwordRules, phoneRules } from '../../../shared/rules';
import { umApi } from '../api';
import { RoleSelect } from './RoleSelect';

interface Values {
  phone: string;
  userName: string;
  password?: string;
  roleIds: number[];
}

/** Add a user to the company: a new account for a new phone, else the existing person joins. */
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
    const values = await form.validateFields();
    setSaving(true);
    try {
      const envelope = await umApi.addSysUser({
        phone: values.phone.trim(),
        userName: values.userName.trim(),
        password: values.password || undefined,
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
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={close}
      forceRender
    >
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
          rules={nameRules({
            required: t('rules.nameRequired', '请输入名称'),
            tooLong: t('rules.nameTooLong', '名称长度不能超过 25 个字符'),
          })}
        >
          <Input count={NAME_COUNT} autoComplete="off" data-testid="add-user-name" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('users.password', '初始密码')}
          extra={t(
            'users.passwordHint',
            '8 至 64 位，含字母和数字。该手机号已注册时可不填，对方用原密码登录。',
          )}
          rules={passwordRules(t('rules.passwordWeak', '密码须为 8 至 64 位，且包含字母和数字'), false)}
        >
          <Input.Password autoComplete="new-password" data-testid="add-user-password" />
        </Form.Item>
        <Form.Item name="roleIds" label={t('users.roles', '角色')}>
          <RoleSelect testId="add-user-roles" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
