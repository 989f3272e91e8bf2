import type { CabinNodeType, ItemKind } from '@platform/domain';
import { Form, Input, Modal, Radio, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NAME_COUNT } from '../../../shared/rules';
import { validated } from '../../../shared/validated';
import { cabinNameRule } from '../cabin';

export const KINDS: ItemKind[] = [10, 11, 13];

interface Values {
  name: string;
  kind?: ItemKind;
}

/**
 * One dialog for the three name entries of the cabin: a new directory, a new data item (with
 * its kind) and a rename. Names are checked with the server's own rules before sending.
 */
export function NameModal({
  open,
  mode,
  type,
  initialName,
  where,
  onClose,
  onSubmit,
}: {
  open: boolean;
  mode: 'create' | 'rename';
  type: CabinNodeType;
  initialName?: string;
  /** the directory the entry goes into, shown for orientation */
  where?: string;
  onClose: () => void;
  onSubmit: (values: { name: string; kind?: ItemKind }) => Promise<boolean>;
}) {
  const { t } = useTranslation('datacabin');
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (open) form.setFieldsValue({ name: initialName ?? '', kind: 10 });
  }, [open, initialName, form]);

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const ok = await onSubmit({
        name: values.name.trim(),
        kind: type === 'dataItem' ? values.kind : undefined,
      });
      if (ok) onClose();
    } finally {
      setSaving(false);
    }
  };

  const title =
    mode === 'rename'
      ? t('cabin.rename', '重命名')
      : type === 'dataItem'
        ? t('cabin.newItem', '新建数据项')
        : type === 'report'
          ? t('reports:newReport', '新建报表')
          : t('cabin.newDirectory', '新建目录');

  return (
    <Modal
      open={open}
      title={title}
      okText={t('common.ok', '确定')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" data-testid="cabin-name-form" onFinish={submit}>
        {where != null && mode === 'create' && (
          <Typography.Paragraph type="secondary">
            {t('cabin.createIn', '位置：{{where}}', { where })}
          </Typography.Paragraph>
        )}
        <Form.Item name="name" label={t('cabin.name', '名称')} rules={[cabinNameRule(type)]}>
          <Input count={NAME_COUNT} autoFocus data-testid="cabin-name-input" />
        </Form.Item>
        {type === 'dataItem' && mode === 'create' && (
          <Form.Item name="kind" label={t('cabin.kind', '数据项类型')} rules={[{ required: true }]}>
            <Radio.Group className="dc-kind-group" data-testid="cabin-kind">
              {KINDS.map((kind) => (
                <Radio key={kind} value={kind} data-testid={`cabin-kind-${kind}`}>
                  <div className="dc-kind-option">
                    <strong>{t(`kind.${kind}`, String(kind))}</strong>
                    <Typography.Text type="secondary">{t(`kindHelp.${kind}`, '')}</Typography.Text>
                  </div>
                </Radio>
              ))}
            </Radio.Group>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
