import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Form, InputNumber, Select } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { inventoryApi, type OrderDetail, type OrderLine, useCategoryChoices } from '../api';
import { type Refused, refusedOf } from '../model';
import { FormModal } from './FormModal';
import { ListTable } from './ListTable';
import { RefusalAlert } from './RefusalAlert';

interface Values {
  lines: Array<{ categoryId?: number; quantity?: number | null }>;
}

/** `lines[1].categoryId` → ['lines', 1, 'categoryId'] */
function linePath(field: string | null): ['lines', number, 'categoryId' | 'quantity'] | null {
  const match = field ? /^lines\[(\d+)\]\.(categoryId|quantity)$/.exec(field) : null;
  return match ? ['lines', Number(match[1]), match[2] as 'categoryId' | 'quantity'] : null;
}

/**
 * The counted lines of an order (categories without serial numbers): the quantities, and while
 * the order is open an editor that sets the whole list at once.
 */
export function CountedLines({
  order,
  editable,
  onDone,
}: {
  order: OrderDetail;
  editable: boolean;
  onDone: () => void;
}) {
  const { t } = useTranslation('inventory');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);
  const categories = useCategoryChoices();
  const counted = order.lines.filter((l) => l.sn === null);
  const choices = (categories.data?.list ?? []).filter(
    (c) => !c.serialized && (order.kind === 'exit' || c.kind === order.source),
  );

  useEffect(() => {
    if (!open) return;
    setRefused(null);
    const now = order.lines.filter((l) => l.sn === null);
    form.setFieldsValue({
      lines: now.length
        ? now.map((l) => ({ categoryId: l.categoryId, quantity: l.quantity }))
        : [{ categoryId: undefined, quantity: 1 }],
    });
  }, [open, form, order.lines]);

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    setRefused(null);
    try {
      const lines = values.lines.map((l) => ({ categoryId: l.categoryId!, quantity: l.quantity! }));
      const envelope = await inventoryApi.setQuantities(order.id, lines);
      message.success(envelope.message);
      setOpen(false);
      onDone();
    } catch (error) {
      const why = refusedOf(error);
      const path = linePath(why.field);
      if (path) form.setFields([{ name: path, errors: [why.message] }]);
      else setRefused(why);
    } finally {
      setSaving(false);
    }
  };

  const columns: ColumnsType<OrderLine> = [
    { title: t('fields.category'), dataIndex: 'categoryName', width: 180 },
    { title: t('fields.model'), dataIndex: 'model', width: 140, render: (v: string) => v || '—' },
    {
      title: t('fields.quantity'),
      key: 'quantity',
      width: 120,
      align: 'right',
      render: (_, line) => (
        <span className="inv-number" data-testid="inv-counted-quantity">
          {line.quantity} {line.unit}
        </span>
      ),
    },
  ];

  return (
    <div className="inv-section" data-testid="inv-counted">
      <div className="inv-section-head">
        <span className="inv-section-title">{t('detail.counted')}</span>
        {editable ? (
          <Button icon={<EditOutlined />} onClick={() => setOpen(true)} data-testid="inv-counted-edit">
            {t('detail.editCounted')}
          </Button>
        ) : null}
      </div>
      <ListTable<OrderLine>
        testId="inv-counted-table"
        rows={counted}
        columns={columns}
        scrollX={440}
        empty={t('detail.noCounted')}
      />
      <FormModal
        open={open}
        title={t('detail.editCounted')}
        saving={saving}
        onOk={save}
        onClose={() => setOpen(false)}
        width={560}
      >
        <RefusalAlert refused={refused} onClose={() => setRefused(null)} testId="inv-counted-refusal" />
        <p className="inv-muted">{t('detail.countedHint')}</p>
        <Form form={form} layout="vertical" data-testid="inv-counted-form">
          <Form.List name="lines">
            {(fields, { add, remove }) => (
              <>
                {fields.map((field) => (
                  <div key={field.key} className="inv-counted-row" data-testid="inv-counted-row">
                    <Form.Item
                      name={[field.name, 'categoryId']}
                      rules={[{ required: true, message: t('detail.pickCategory') }]}
                    >
                      <Select
                        showSearch={{ optionFilterProp: 'label' }}
                        placeholder={t('fields.category')}
                        options={choices.map((c) => ({
                          value: c.id,
                          label: c.unit ? `${c.name} (${c.unit})` : c.name,
                        }))}
                        aria-label={t('fields.category')}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'quantity']}
                      rules={[{ required: true, message: t('detail.quantityRequired') }]}
                    >
                      <InputNumber
                        min={1}
                        max={1_000_000}
                        precision={0}
                        className="inv-full"
                        aria-label={t('fields.quantity')}
                      />
                    </Form.Item>
                    <Button
                      danger
                      type="text"
                      icon={<DeleteOutlined />}
                      aria-label={t('common.remove')}
                      onClick={() => remove(field.name)}
                    />
                  </div>
                ))}
                <Button
                  type="dashed"
                  block
                  icon={<PlusOutlined />}
                  onClick={() => add({ quantity: 1 })}
                  data-testid="inv-counted-add"
                >
                  {t('detail.addCounted')}
                </Button>
              </>
            )}
          </Form.List>
        </Form>
      </FormModal>
    </div>
  );
}
