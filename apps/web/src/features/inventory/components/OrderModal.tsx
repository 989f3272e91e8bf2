import { useQuery } from '@tanstack/react-query';
import { App, AutoComplete, Form, Input, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { get } from '../../../app/http/client';
import type { Page } from '../../../shared/paging';
import { validated } from '../../../shared/validated';
import type { SalesOrder } from '../../sales/api';
import { inventoryApi, type Order, type OrderFields, useStock } from '../api';
import {
  CATEGORY_KINDS,
  type CategoryKind,
  inventoryPaths,
  type OrderKind,
  showOnField,
  useHasCode,
} from '../model';
import { FormModal } from './FormModal';

type Values = OrderFields & { source?: CategoryKind };

const FIELDS = [
  'source',
  'warehouse',
  'salesOrderId',
  'customer',
  'contact',
  'phone',
  'address',
  'notes',
] as const;

/**
 * A new order (`editing` null), opened on its page once made, or an open order's header edited.
 * An entry names the goods it brings (own products, SIM cards, other goods) and its warehouse;
 * an exit its customer (required), where it goes and the warehouse it leaves, and the sales order
 * it delivers (for those who see sales orders): choosing one fills the blank customer fields.
 */
export function OrderModal({
  kind,
  open,
  editing,
  onClose,
  onDone,
}: {
  kind: OrderKind;
  open: boolean;
  editing: Order | null;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('inventory');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const has = useHasCode();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  // the warehouses the stock knows, offered (only to those who may read the stock)
  const stock = useStock(open && has('im_inventory'));
  const warehouses = [...new Set((stock.data ?? []).map((s) => s.warehouse).filter(Boolean))]
    .sort()
    .map((w) => ({ value: w }));
  // the sales orders an exit may deliver (not cancelled), searched by number or customer
  const seesSales = kind === 'exit' && (has('ss_order_management') || has('ss_submit_order'));
  const [saleSearch, setSaleSearch] = useState('');
  const sales = useQuery({
    queryKey: ['sales', 'orders', 'forExit', saleSearch],
    queryFn: () =>
      get<Page<SalesOrder>>('/sales/order/list', {
        pageNum: 1,
        pageSize: 20,
        ...(saleSearch.trim() ? { keyword: saleSearch.trim() } : {}),
      }),
    enabled: open && seesSales,
  });
  const saleOptions = [
    ...(editing?.salesOrderId && editing.salesOrderNumber
      ? [{ value: editing.salesOrderId, label: editing.salesOrderNumber }]
      : []),
    ...(sales.data?.list ?? [])
      .filter((o) => o.status !== 'cancelled' && o.id !== editing?.salesOrderId)
      .map((o) => ({ value: o.id, label: `${o.number} · ${o.customer}`, order: o })),
  ];
  const fillFromSale = (order: SalesOrder | undefined) => {
    if (!order) return;
    const current = form.getFieldsValue();
    const blank = (v: string | undefined) => !v?.trim();
    form.setFieldsValue({
      ...(blank(current.customer) ? { customer: order.customer } : {}),
      ...(blank(current.contact) ? { contact: order.contact } : {}),
      ...(blank(current.phone) ? { phone: order.phone } : {}),
      ...(blank(current.address) ? { address: order.address } : {}),
    });
  };

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing)
      form.setFieldsValue({
        warehouse: editing.warehouse,
        customer: editing.customer,
        contact: editing.contact,
        phone: editing.phone,
        address: editing.address,
        notes: editing.notes,
        salesOrderId: editing.salesOrderId,
      });
  }, [open, editing, form]);

  const save = async () => {
    const values = await validated(form);
    if (!values) return;
    const fields = {
      warehouse: values.warehouse.trim(),
      notes: values.notes?.trim() ?? '',
      ...(kind === 'exit'
        ? {
            customer: values.customer?.trim() ?? '',
            contact: values.contact?.trim() ?? '',
            phone: values.phone?.trim() ?? '',
            address: values.address?.trim() ?? '',
            ...(seesSales ? { salesOrderId: values.salesOrderId ?? null } : {}),
          }
        : {}),
    };
    setSaving(true);
    try {
      if (editing) {
        const envelope = await inventoryApi.updateOrder({ id: editing.id, ...fields });
        message.success(envelope.message);
        onDone();
        onClose();
      } else {
        const envelope = await inventoryApi.createOrder({
          kind,
          ...(kind === 'entry' ? { source: values.source } : {}),
          ...fields,
        });
        message.success(envelope.message);
        onDone();
        onClose();
        const { id } = envelope.data;
        navigate(inventoryPaths.order({ id, kind, source: values.source ?? null, state: 'open' }));
      }
    } catch (error) {
      showOnField(form, error, FIELDS);
    } finally {
      setSaving(false);
    }
  };

  const required = (message: string) => [{ required: true, whitespace: true, message }];

  return (
    <FormModal
      open={open}
      title={editing ? t('order.editHeader') : t(`order.${kind}.new`)}
      okText={editing ? undefined : t('order.create')}
      saving={saving}
      onOk={save}
      onClose={onClose}
      width={620}
    >
      <Form form={form} layout="vertical" initialValues={{ source: 'own' }} data-testid="inv-order-form">
        {kind === 'entry' && !editing ? (
          <Form.Item name="source" label={t('fields.source')} rules={[{ required: true }]}>
            <Select
              options={CATEGORY_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))}
              data-testid="inv-order-source"
            />
          </Form.Item>
        ) : null}
        {seesSales ? (
          <Form.Item name="salesOrderId" label={t('fields.salesOrder')} extra={t('order.salesOrderHint')}>
            <Select<number>
              allowClear
              showSearch={{ filterOption: false, onSearch: setSaleSearch }}
              placeholder={t('order.salesOrderPlaceholder')}
              loading={sales.isFetching}
              options={saleOptions}
              onChange={(_, option) => fillFromSale((option as { order?: SalesOrder } | undefined)?.order)}
              data-testid="inv-order-sale"
            />
          </Form.Item>
        ) : null}
        {kind === 'exit' ? (
          <>
            <Form.Item
              name="customer"
              label={t('fields.customer')}
              rules={required(t('order.customerRequired'))}
            >
              <Input maxLength={100} data-testid="inv-order-customer" />
            </Form.Item>
            <div className="inv-form-grid">
              <Form.Item name="contact" label={t('fields.contact')}>
                <Input maxLength={50} data-testid="inv-order-contact" />
              </Form.Item>
              <Form.Item name="phone" label={t('fields.phone')}>
                <Input maxLength={30} data-testid="inv-order-phone" />
              </Form.Item>
            </div>
            <Form.Item name="address" label={t('fields.address')}>
              <Input maxLength={200} data-testid="inv-order-address" />
            </Form.Item>
          </>
        ) : null}
        <Form.Item
          name="warehouse"
          label={t('fields.warehouse')}
          rules={required(t('order.warehouseRequired'))}
        >
          <AutoComplete
            options={warehouses}
            showSearch={{ filterOption: (input, option) => (option?.value ?? '').includes(input) }}
          >
            <Input maxLength={50} data-testid="inv-order-warehouse" />
          </AutoComplete>
        </Form.Item>
        <Form.Item name="notes" label={t('fields.notes')}>
          <Input.TextArea
            maxLength={500}
            autoSize={{ minRows: 2, maxRows: 4 }}
            data-testid="inv-order-notes"
          />
        </Form.Item>
      </Form>
    </FormModal>
  );
}
