import { App, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_COUNT, nameRules } from '../../../shared/rules';
import { validated } from '../../../shared/validated';
import { userApi } from '../api';

/** Create a company owned by the caller (who becomes its administrator). */
export function CreateCompanyModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void | Promise<void>;
}) {
  const { t } = useTranslation('user');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);

  const close = () => {
    form.resetFields();
    onClose();
  };

  const submit = async () => {
    const checked = await validated(form);
    if (!checked) return;
    const { name } = checked;
    setSaving(true);
    try {
      const envelope = await userApi.addCompany(name.trim());
      message.success(envelope.message);
      form.resetFields();
      onClose();
      await onCreated();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('companies.create', '创建公司')}
      okText={t('companies.createOk', '创建')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={close}
      forceRender
    >
      <Typography.Paragraph type="secondary">
        {t('companies.createHint', '您将成为新公司的管理员，之后可以邀请成员加入。')}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" data-testid="create-company-form" onFinish={submit}>
        <Form.Item
          name="name"
          label={t('companies.name', '公司名称')}
          rules={nameRules({
            required: t('rules.nameRequired', '请输入名称'),
            tooLong: t('rules.nameTooLong', '名称长度不能超过 25 个字符'),
          })}
        >
          <Input count={NAME_COUNT} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
