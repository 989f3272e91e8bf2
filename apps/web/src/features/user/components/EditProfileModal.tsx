import { App, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loadSession } from '../../../app/store/loader';
import { useSession } from '../../../app/store/session';
import { nameRules } from '../../../shared/rules';
import { validated } from '../../../shared/validated';
import { userApi } from '../api';

interface Values {
  userName: string;
  email?: string;
}

export function EditProfileModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('user');
  const { message } = App.useApp();
  const { user } = useSession();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (open) form.setFieldsValue({ userName: user?.userName ?? '', email: user?.email ?? '' });
  }, [open, user, form]);

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await userApi.updateUser({
        userName: values.userName.trim(),
        email: values.email?.trim() ?? '',
      });
      message.success(envelope.message);
      await loadSession();
      onClose();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('profile.edit', '编辑资料')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      forceRender
    >
      <Form form={form} layout="vertical" requiredMark="optional" data-testid="profile-form">
        <Form.Item
          name="userName"
          label={t('profile.userName', '用户名')}
          rules={nameRules({
            required: t('rules.nameRequired', '请输入名称'),
            tooLong: t('rules.nameTooLong', '名称长度不能超过 25 个字符'),
          })}
        >
          <Input maxLength={50} autoComplete="name" />
        </Form.Item>
        <Form.Item
          name="email"
          label={t('profile.email', '邮箱')}
          rules={[{ type: 'email', message: t('rules.emailInvalid', '请输入正确的邮箱地址') }]}
        >
          <Input maxLength={120} autoComplete="email" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
