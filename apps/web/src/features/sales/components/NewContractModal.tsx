import { Form, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { currentLang } from '../../../app/i18n';
import { validated } from '../../../shared/validated';
import { formatYuan } from '../../user/format';
import { type SalesOrder, useOrder, useOrders } from '../api';
import { type Contract, contractApi, useContractTemplates } from '../contracts-api';

interface Values {
  orderId?: number;
  templateId?: number;
}

/**
 * Make the contract of an order: the order (searched by number or customer; cancelled ones are
 * not offered, the server refuses them too) and the template. `orderId` comes chosen when the
 * form is opened from an order.
 */
export function NewContractModal({
  open,
  orderId,
  onClose,
  onMade,
}: {
  open: boolean;
  orderId: number | null;
  onClose: () => void;
  onMade: (contract: Contract) => void | Promise<void>;
}) {
  const { t } = useTranslation('sales');
  const lang = currentLang();
  const [form] = Form.useForm<Values>();
  const [search, setSearch] = useState('');
  const [saving, setSaving] = useState(false);
  const orders = useOrders({ pageNum: 1, pageSize: 20, keyword: search });
  const given = useOrder(open ? orderId : null);
  const templates = useContractTemplates();

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (orderId != null) form.setFieldsValue({ orderId });
  }, [open, orderId, form]);

  // one template: chosen already
  useEffect(() => {
    const list = templates.data ?? [];
    if (open && list.length === 1 && form.getFieldValue('templateId') == null)
      form.setFieldsValue({ templateId: list[0]!.id });
  }, [open, templates.data, form]);

  const offered = [...(given.data ? [given.data] : []), ...(orders.data?.list ?? [])].filter(
    (order, i, all) => order.status !== 'cancelled' && all.findIndex((o) => o.id === order.id) === i,
  );
  const label = (order: SalesOrder) =>
    `${order.number} · ${order.customer} · ${formatYuan(order.totalCents, lang)}`;

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    setSaving(true);
    try {
      const envelope = await contractApi.create(values.orderId!, values.templateId!);
      await onMade(envelope.data);
    } catch {
      // the http client showed the error, beside its field when it names one
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('contracts.new')}
      onCancel={onClose}
      onOk={submit}
      okText={t('contracts.make')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'contract-new-ok' }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="contract-new-form">
        <Form.Item
          name="orderId"
          label={t('contracts.order')}
          rules={[{ required: true, message: t('contracts.orderRequired') }]}
        >
          <Select<number>
            showSearch={{ filterOption: false, onSearch: setSearch }}
            placeholder={t('contracts.orderPlaceholder')}
            loading={orders.isFetching}
            options={offered.map((order) => ({ value: order.id, label: label(order) }))}
            data-testid="contract-order"
          />
        </Form.Item>
        <Form.Item
          name="templateId"
          label={t('contracts.template')}
          rules={[{ required: true, message: t('contracts.templateRequired') }]}
          extra={
            templates.data && templates.data.length === 0 ? (
              <Typography.Text type="warning">
                {t('contracts.noTemplates')} <Link to="/smartSale/saletemplate">{t('templates.title')}</Link>
              </Typography.Text>
            ) : null
          }
        >
          <Select<number>
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('contracts.templatePlaceholder')}
            options={(templates.data ?? []).map((tpl) => ({ value: tpl.id, label: tpl.name }))}
            data-testid="contract-template"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
