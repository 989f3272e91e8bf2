import { App, Form, Input, Select, Switch } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { type Category, inventoryApi } from '../api';
import { CATEGORY_KINDS, type CategoryKind, showOnField } from '../model';
import { FormModal } from './FormModal';

interface Values {
  name: string;
  kind: CategoryKind;
  counted: boolean;
  model?: string;
  unit?: string;
  notes?: string;
}

const FIELDS = ['name', 'kind', 'model', 'unit', 'notes'] as const;

/**
 * Add a category (`editing` null) or edit one: own products and SIM cards always carry serial
 * numbers; other goods may be counted instead. The server's refusals (a name taken, a kind
 * that cannot change once it holds goods) show beside their field.
 */
export function CategoryModal({
  open,
  editing,
  onClose,
  onDone,
}: {
  open: boolean;
  editing: Category | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('inventory');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const kind = Form.useWatch('kind', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({
        name: editing.name,
        kind: editing.kind,
        counted: !editing.serialized,
        model: editing.model,
        unit: editing.unit,
        notes: editing.notes,
      });
  }, [open, editing, form]);

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await inventoryApi.saveCategory({
        ...(editing ? { id: editing.id } : {}),
        name: values.name.trim(),
        kind: values.kind,
        serialized: values.kind !== 'other' || !values.counted,
        model: values.model?.trim() ?? '',
        unit: values.unit?.trim() ?? '',
        notes: values.notes?.trim() ?? '',
      });
      message.success(envelope.message);
      onDone();
      onClose();
    } catch (error) {
      showOnField(form, error, FIELDS);
    } finally {
      setSaving(false);
    }
  };

  return (
    <FormModal
      open={open}
      title={editing ? t('category.edit') : t('category.add')}
      saving={saving}
      onOk={save}
      onClose={onClose}
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ kind: 'own', counted: false }}
        data-testid="inv-category-form"
      >
        <Form.Item
          name="name"
          label={t('fields.name')}
          rules={[{ required: true, whitespace: true, message: t('category.nameRequired') }]}
        >
          <Input maxLength={50} data-testid="inv-category-name" />
        </Form.Item>
        <div className="inv-form-grid">
          <Form.Item name="kind" label={t('fields.kind')} rules={[{ required: true }]}>
            <Select
              options={CATEGORY_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
              data-testid="inv-category-kind"
            />
          </Form.Item>
          {kind === 'other' ? (
            <Form.Item
              name="counted"
              label={t('category.counted')}
              tooltip={t('category.countedHint')}
              valuePropName="checked"
            >
              <Switch data-testid="inv-category-counted" />
            </Form.Item>
          ) : (
            <Form.Item label={t('fields.tracking')}>
              <span className="inv-muted">{t('tracking.serialized')}</span>
            </Form.Item>
          )}
          <Form.Item name="model" label={t('fields.model')}>
            <Input maxLength={50} data-testid="inv-category-model" />
          </Form.Item>
          <Form.Item name="unit" label={t('fields.unit')}>
            <Input
              maxLength={10}
              placeholder={t('category.unitPlaceholder')}
              data-testid="inv-category-unit"
            />
          </Form.Item>
        </div>
        <Form.Item name="notes" label={t('fields.notes')}>
          <Input.TextArea
            maxLength={200}
            autoSize={{ minRows: 2, maxRows: 4 }}
            data-testid="inv-category-notes"
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
