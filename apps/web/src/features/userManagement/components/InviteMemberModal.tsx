import { App, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { phoneRules } from '../../../shared/rules';
import { umApi } from '../api';
import { RoleSelect } from './RoleSelect';

interface Values {
  phone: string;
  roleIds: number[];
}

/** Invite a registered person by phone; they join (with these roles) when they agree. */
export function InviteMemberModal({
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
      const envelope = await umApi.inviteMember({
        phone: values.phone.trim(),
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
      title={t('users.invite', '邀请成员')}
      okText={t('users.inviteOk', '发送邀请')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={close}
      forceRender
    >
      <Typography.Paragraph type="secondary">
        {t('users.inviteHint', '被邀请人须已注册。对方在“个人中心”同意邀请后加入本公司，并获得所选角色。')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" data-testid="invite-form" initialValues={{ roleIds: [] }}>
        <Form.Item
          name="phone"
          label={t('users.phone', '手机号')}
          rules={phoneRules(t('rules.phoneInvalid', '请输入正确的手机号码'))}
        >
          <Input maxLength={11} inputMode="numeric" autoComplete="off" data-testid="invite-phone" />
        </Form.Item>
        <Form.Item name="roleIds" label={t('users.roles', '角色')}>
          <RoleSelect testId="invite-roles" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
