import { SIM_NOTES_MAX, SIM_PLAN_MB_MAX } from '@platform/domain';
import { App, Form, Input, InputNumber, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Side, type SimRow, simApi } from '../api';

interface Values {
  planMb: number | null;
  notes: string;
}

/** A card's plan (MB a month, empty for none) and notes. */
export function EditSimModal({
  side,
  card,
  onClose,
  onDone,
}: {
  side: Side;
  card: SimRow | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('sims');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (card) form.setFieldsValue({ planMb: card.planMb, notes: card.notes });
  }, [card, form]);

  const save = async () => {
    if (!card) return;
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return; // the form shows what is wrong
    }
    setSaving(true);
    try {
      const envelope = await simApi.update(side, {
        id: card.id,
        planMb: values.planMb ?? null,
        notes: values.notes ?? '',
      });
      message.success(envelope.message);
      onDone();
      onClose();
    } catch {
      // the http client showed the error
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={card !== null}
      title={t('edit.title', '编辑 SIM 卡')}
      onCancel={onClose}
      onOk={save}
      confirmLoading={saving}
      okText={t('common.save', '保存')}
      cancelText={t('common.cancel', '取消')}
      destroyOnHidden
      forceRender
    >
      <div className="sim-muted sim-edit-iccid">{card?.iccid}</div>
      <Form form={form} layout="vertical" data-testid="sim-edit-form">
        <Form.Item
          name="planMb"
          label={t('edit.plan', '套餐（每月 MB，留空为无套餐）')}
          rules={[
            {
              type: 'number',
              min: 0,
              max: SIM_PLAN_MB_MAX,
              message: t('edit.planRange', '套餐须为 0 至 10000000 之间的 MB 数'),
            },
          ]}
        >
          <InputNumber
            min={0}
            max={SIM_PLAN_MB_MAX}
            precision={2}
            style={{ width: '100%' }}
            addonAfter="MB"
          />
        </Form.Item>
        <Form.Item name="notes" label={t('fields.notes', '备注')}>
          <Input.TextArea maxLength={SIM_NOTES_MAX} showCount autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
