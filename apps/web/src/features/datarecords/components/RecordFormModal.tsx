import type { FieldDef } from '@platform/domain';
import { App, DatePicker, Form, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fromPickerValue, pickerNow } from '../../../shared/time';
import { validated } from '../../../shared/validated';
import { ZoneHint } from '../../../shared/ZoneHint';
import { type DataRecord, drApi } from '../api';
import { type FormValue, fieldLabel, fromFormValues, toFormValues } from '../format';
import { FieldInput } from './FieldInput';

interface RecordFormModalProps {
  itemId: number;
  fields: FieldDef[];
  /** null: closed; 'new': add; a record: edit */
  target: DataRecord | 'new' | null;
  /** child records: the parent record the new one hangs under */
  parentId?: number;
  onClose: () => void;
  onDone: () => void;
}

const TS_KEY = '__ts';

/** Add or edit one record: a form generated from the item's fields. */
export function RecordFormModal({ itemId, fields, target, parentId, onClose, onDone }: RecordFormModalProps) {
  const { t } = useTranslation('datarecords');
  const { message } = App.useApp();
  const [form] = Form.useForm<Record<string, FormValue>>();
  const [saving, setSaving] = useState(false);
  const editing = target !== null && target !== 'new' ? target : null;

  useEffect(() => {
    if (target === null) return;
    form.resetFields();
    if (editing) form.setFieldsValue(toFormValues(fields, editing.values));
    else form.setFieldsValue({ [TS_KEY]: pickerNow() });
  }, [target, editing, fields, form]);

  const submit = async () => {
    const raw = await validated(form);
    if (!raw) return;
    const values = fromFormValues(fields, raw);
    const ts = raw[TS_KEY] as Dayjs | undefined;
    setSaving(true);
    try {
      const envelope = editing
        ? await drApi.update({ itemId, id: editing.id, values })
        : await drApi.add({
            itemId,
            values,
            ts: ts ? fromPickerValue(ts) : undefined,
            parentId,
          });
      message.success(envelope.message);
      onDone();
      onClose();
    } catch {
      // the http client showed the error (a bad field names itself in the message)
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={target !== null}
      title={editing ? t('records.edit', '编辑数据') : t('records.add', '新增数据')}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      confirmLoading={saving}
      onOk={submit}
      onCancel={onClose}
      destroyOnHidden
      width={640}
      okButtonProps={{ 'data-testid': 'record-save' }}
    >
      <Form form={form} layout="vertical" data-testid="record-form" preserve={false}>
        {editing ? null : (
          <Form.Item
            name={TS_KEY}
            label={
              <>
                {t('records.time', '时间')}
                <ZoneHint full />
              </>
            }
          >
            <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" style={{ width: '100%' }} />
          </Form.Item>
        )}
        {fields.map((field) => (
          <Form.Item
            key={field.key}
            name={field.key}
            label={fieldLabel(field)}
            rules={
              field.required
                ? [{ required: true, message: t('form.required', '请填写{{name}}', { name: field.name }) }]
                : []
            }
          >
            <FieldInput itemId={itemId} field={field} testId={`record-field-${field.name}`} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
