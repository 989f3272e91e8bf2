import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Form, Input, Result, Row, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ApiError } from '../../../app/http/client';
import { currentLang } from '../../../app/i18n';
import { LoadFailed } from '../../../shared/LoadFailed';
import { validated } from '../../../shared/validated';
import { formatYuan } from '../../user/format';
import { salesApi, salesKeys, useCatalogue } from '../api';
import { OrderLines } from '../components/OrderLines';
import { fieldPath, type OrderValues, toOrderInput } from '../model';
import '../sales.css';

const ORDERS_PATH = '/smartSale/ordermanagement';
/** The customer's contact fields and their longest text (the server's limits). */
const CONTACT_FIELDS = [
  ['contact', 50],
  ['phone', 30],
  ['address', 200],
] as const;
const INITIAL: OrderValues = { lines: [{ kind: 'product', quantity: 1 }] };

/**
 * /smartSale/submitorder (ss_submit_order): an order of products and service subscriptions to a
 * customer company of the platform or a customer named here. A refusal's message stands under
 * the field the server names (a line's field too).
 */
export default function SubmitOrderPage() {
  const { t } = useTranslation('sales');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const catalogue = useCatalogue();
  const [form] = Form.useForm<OrderValues>();
  const lines = Form.useWatch('lines', form);
  const company = Form.useWatch('customerCompanyId', form);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ number: string; totalCents: number } | null>(null);
  const lang = currentLang();
  const needsCompany = company == null && (lines ?? []).some((line) => line?.kind === 'service');

  const submit = async () => {
    const values = await validated(form);
    if (!values) return;
    const input = toOrderInput(values);
    setBusy(true);
    try {
      const envelope = await salesApi.submit(input);
      message.success(envelope.message);
      void queryClient.invalidateQueries({ queryKey: salesKeys.all });
      setDone({
        number: envelope.data.number,
        totalCents: input.lines.reduce((sum, l) => sum + l.quantity * l.unitPriceCents, 0),
      });
      form.resetFields();
    } catch (error) {
      // the http client showed the notification; the field it names shows the message too
      const field = error instanceof ApiError ? (error.data as { field?: unknown } | null)?.field : null;
      if (typeof field === 'string' && field !== 'lines') {
        form.setFields([{ name: fieldPath(field) as never, errors: [(error as ApiError).message] }]);
      }
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <Card
        variant="borderless"
        data-testid="sales-submit-done"
        // the form was scrolled down to its submit button: the answer shows from the top
        ref={(card) => (card ? window.scrollTo({ top: 0 }) : undefined)}
      >
        <Result
          status="success"
          title={t('submit.doneTitle')}
          subTitle={
            <span data-testid="sales-submit-number">
              {t('submit.doneSubtitle', { number: done.number, total: formatYuan(done.totalCents, lang) })}
            </span>
          }
          extra={[
            <Link key="orders" to={ORDERS_PATH} data-testid="sales-to-orders">
              <Button type="primary">{t('submit.toOrders')}</Button>
            </Link>,
            <Button key="again" onClick={() => setDone(null)} data-testid="sales-submit-again">
              {t('submit.another')}
            </Button>,
          ]}
        />
      </Card>
    );
  }

  return (
    <Card variant="borderless" data-testid="sales-submit" className="sales-card">
      <Typography.Title level={4} className="sales-title">
        {t('submit.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('submit.hint')}</Typography.Paragraph>
      {catalogue.isError ? <LoadFailed onRetry={() => void catalogue.refetch()} /> : null}
      <Form<OrderValues> form={form} layout="vertical" initialValues={INITIAL} className="sales-form">
        <Typography.Title level={5}>{t('submit.customerSection')}</Typography.Title>
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="customerCompanyId"
              label={t('fields.customerCompany')}
              extra={
                needsCompany ? (
                  <span className="sales-warning" data-testid="sales-company-hint">
                    {t('submit.serviceNeedsCompany')}
                  </span>
                ) : undefined
              }
            >
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                loading={catalogue.isLoading}
                placeholder={t('submit.companyPlaceholder')}
                options={(catalogue.data?.customers ?? []).map((c) => ({ value: c.id, label: c.name }))}
                data-testid="sales-company"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="customer"
              label={t('fields.customerName')}
              dependencies={['customerCompanyId']}
              rules={[
                ({ getFieldValue }) => ({
                  required: getFieldValue('customerCompanyId') == null,
                  validator: async (_rule, value: string | undefined) => {
                    if (getFieldValue('customerCompanyId') == null && !value?.trim())
                      throw new Error(t('submit.customerRequired'));
                  },
                }),
              ]}
            >
              <Input
                maxLength={100}
                placeholder={t('submit.customerPlaceholder')}
                data-testid="sales-customer"
              />
            </Form.Item>
          </Col>
          {CONTACT_FIELDS.map(([name, maxLength]) => (
            <Col xs={24} md={8} key={name}>
              <Form.Item name={name} label={t(`fields.${name}`)}>
                <Input maxLength={maxLength} data-testid={`sales-${name}`} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        <Typography.Title level={5}>{t('submit.linesSection')}</Typography.Title>
        <OrderLines catalogue={catalogue.data} lines={lines} />
        <Form.Item name="notes" label={t('fields.notes')} className="sales-notes">
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 5 }} data-testid="sales-notes" />
        </Form.Item>
        <div className="sales-actions">
          <Button onClick={() => form.resetFields()} data-testid="sales-reset">
            {t('submit.reset')}
          </Button>
          <Button type="primary" loading={busy} onClick={submit} data-testid="sales-submit-button">
            {t('submit.submit')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
