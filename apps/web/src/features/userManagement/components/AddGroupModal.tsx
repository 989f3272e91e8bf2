import { App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_COUNT, nameRules } from '../../../shared/rules';
import { validated } from '../../../shared/validated';
import { umApi } from '../api';

interface Values {
  name: string;
  description?: string;
}

export function AddGroupModal({
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
      const envelope = await umApi.addGroup({
        name: values.name.trim(),
        description: values.description?.trim() || undefined,
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
      title={t('group.add', '新增用户组')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={close}
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="add-group-form">
        <Form.Item
          name="name"
          label={t('group.name', '组名称')}
          rules={nameRules({
            required: t('rules.nameRequired', '请输入名称'),
            tooLong: t('rules.nameTooLong', '名称长度不能超过 25 个字符'),
          })}
        >
          <Input count={NAME_COUNT} data-testid="add-group-name" />
        </Form.Item>
        <Form.Item name="description" label={t('group.description', '描述')}>
          <Input.TextArea rows={3} maxLength={200} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}
