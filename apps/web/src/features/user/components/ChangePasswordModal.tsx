import { App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passwordRules } from '../../../shared/rules';
import { validated } from '../../../shared/validated';
import { userApi } from '../api';

interface Values {
  oldPassword: string;
  password: string;
  confirm: string;
}

export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('user');
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
      const envelope = await userApi.updatePassword({
        oldPassword: values.oldPassword,
        password: values.password,
      });
      message.success(envelope.message);
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
      title={t('password.title', '修改密码')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={close}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="password-form">
        <Form.Item
          name="oldPassword"
          label={t('password.old', '当前密码')}
          rules={[{ required: true, message: t('password.oldRequired', '请输入当前密码') }]}
        >
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('password.new', '新密码')}
          extra={t('password.hint', '8 至 64 位，须包含字母和数字')}
          rules={passwordRules(t('password.weak', '密码须为 8 至 64 位，且包含字母和数字'))}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label={t('password.confirm', '确认新密码')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('password.confirmRequired', '请再次输入新密码') },
            ({ getFieldValue }) => ({
              validator: async (_rule, value) => {
                if (value && value !== getFieldValue('password')) {
                  throw new Error(t('password.mismatch', '两次输入的密码不一致'));
                }
              },
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
