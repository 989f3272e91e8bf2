import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { MAX_SUBSCRIPTION_MONTHS } from '@platform/domain';
import { Button, Col, Form, Input, InputNumber, Row, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { currentLang } from '../../../app/i18n';
import { formatYuan } from '../../user/format';
import type { Catalogue } from '../api';
import { type LineValues, liveTotals } from '../model';

const NEW_LINE: Record<LineValues['kind'], LineValues> = {
  product: { kind: 'product', quantity: 1 },
  service: { kind: 'service', quantity: 1, months: 12 },
};

/**
 * The order's lines (Form.List `lines`): a product line names an inventory category, a service
 * line a plan and its months per period; each has a quantity and a unit price in yuan. Each
 * line's amount and the order's total follow what is typed. Data-testids: `sales-line` on each
 * line, `sales-line-category`, `-plan`, `-months`, `-quantity`, `-price`, `-amount`, `-remove`
 * in it; `sales-add-product`, `sales-add-service`, `sales-total`.
 */
export function OrderLines({
  catalogue,
  lines,
}: {
  catalogue: Catalogue | undefined;
  lines: LineValues[] | undefined;
}) {
  const { t } = useTranslation('sales');
  const lang = currentLang();
  const { amounts, totalCents } = liveTotals(lines);
  const productOptions = (catalogue?.products ?? []).map((p) => ({
    value: p.id,
    label: [p.name, p.model].filter(Boolean).join(' '),
  }));
  const planOptions = (catalogue?.plans ?? []).map((p) => ({ value: p.index, label: p.name }));

  return (
    <Form.List
      name="lines"
      rules={[
        {
          validator: async (_rule, value: unknown[] | undefined) => {
            if (!value?.length) throw new Error(t('submit.noLines'));
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <>
          {fields.map((field, index) => {
            const kind = lines?.[index]?.kind ?? 'product';
            return (
              <div key={field.key} className="sales-line" data-testid="sales-line">
                <div className="sales-line-head">
                  <Tag color={kind === 'service' ? 'blue' : 'gold'}>{t(`kinds.${kind}`)}</Tag>
                  <span className="sales-line-amount" data-testid="sales-line-amount">
                    {t('submit.lineTotal')} {formatYuan(amounts[index] ?? 0, lang)}
                  </span>
                  <Button
                    type="text"
                    danger
                    size="small"
                    icon={<DeleteOutlined />}
                    aria-label={t('submit.remove')}
                    title={t('submit.remove')}
                    onClick={() => remove(field.name)}
                    data-testid="sales-line-remove"
                  />
                </div>
                <Form.Item name={[field.name, 'kind']} hidden>
                  <Input />
                </Form.Item>
                <Row gutter={12}>
                  {kind === 'product' ? (
                    <Col xs={24} md={12}>
                      <Form.Item
                        name={[field.name, 'categoryId']}
                        label={t('fields.product')}
                        rules={[{ required: true, message: t('submit.productRequired') }]}
                      >
                        <Select
                          showSearch={{ optionFilterProp: 'label' }}
                          options={productOptions}
                          placeholder={t('submit.productPlaceholder')}
                          notFoundContent={t('submit.noProducts')}
                          data-testid="sales-line-category"
                        />
                      </Form.Item>
                    </Col>
                  ) : (
                    <>
                      <Col xs={24} md={8}>
                        <Form.Item
                          name={[field.name, 'plan']}
                          label={t('fields.plan')}
                          rules={[{ required: true, message: t('submit.planRequired') }]}
                        >
                          <Select
                            options={planOptions}
                            placeholder={t('submit.planPlaceholder')}
                            data-testid="sales-line-plan"
                          />
                        </Form.Item>
                      </Col>
                      <Col xs={24} md={4}>
                        <Form.Item
                          name={[field.name, 'months']}
                          label={t('fields.months')}
                          rules={[{ required: true, message: t('submit.monthsRequired') }]}
                        >
                          <InputNumber
                            min={1}
                            max={MAX_SUBSCRIPTION_MONTHS}
                            precision={0}
                            className="sales-number"
                            data-testid="sales-line-months"
                          />
                        </Form.Item>
                      </Col>
                    </>
                  )}
                  <Col xs={12} md={5}>
                    <Form.Item
                      name={[field.name, 'quantity']}
                      label={t('fields.quantity')}
                      rules={[{ required: true, message: t('submit.quantityRequired') }]}
                    >
                      <InputNumber
                        min={1}
                        max={100_000}
                        precision={0}
                        className="sales-number"
                        data-testid="sales-line-quantity"
                      />
                    </Form.Item>
                  </Col>
                  <Col xs={12} md={7}>
                    <Form.Item
                      name={[field.name, 'unitPrice']}
                      label={t('fields.unitPrice')}
                      rules={[{ required: true, message: t('submit.priceRequired') }]}
                    >
                      <InputNumber
                        min={0}
                        max={10_000_000}
                        precision={2}
                        step={100}
                        className="sales-number"
                        data-testid="sales-line-price"
                      />
                    </Form.Item>
                  </Col>
                </Row>
              </div>
            );
          })}
          <Form.ErrorList errors={errors} />
          <div className="sales-lines-foot">
            <Space wrap>
              <Button
                icon={<PlusOutlined />}
                onClick={() => add(NEW_LINE.product)}
                data-testid="sales-add-product"
              >
                {t('submit.addProduct')}
              </Button>
              <Button
                icon={<PlusOutlined />}
                onClick={() => add(NEW_LINE.service)}
                data-testid="sales-add-service"
              >
                {t('submit.addService')}
              </Button>
            </Space>
            <Typography.Text strong className="sales-total" data-testid="sales-total">
              {t('fields.total')} {formatYuan(totalCents, lang)}
            </Typography.Text>
          </div>
        </>
      )}
    </Form.List>
  );
}
