import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type AmountUnit, UNIT_TEXT } from '../model';
import { notNegativeRule, positiveRule } from '../rules';
import { ComponentSelect } from './ComponentSelect';

/** A row the add button adds (and a form starts with): its amount in %. */
export const NEW_AMOUNT_ROW: { unit: AmountUnit } = { unit: 'percent' };

/**
 * The form's `components` list: a row a component with its amount, (its U at k = 2,) its unit
 * and a remove button; below, the add button. Rows are `{ component, amount, expanded?, unit }`.
 * The data-testids are `${testPrefix}-components` on the list and `${testPrefix}-component` on a row.
 */
export function AmountRows({
  testPrefix,
  title,
  exclude,
  uncertainty = false,
  keepOne = false,
  addTestId,
}: {
  testPrefix: string;
  /** the list's heading */
  title: string;
  /** the components row `index` may not pick (the balance gas, the other rows') */
  exclude: (index: number) => string[];
  /** each row states its expanded uncertainty (k = 2) too: a reference material's certified values */
  uncertainty?: boolean;
  /** the last row cannot be removed */
  keepOne?: boolean;
  /** the add button's data-testid */
  addTestId?: string;
}) {
  const { t } = useTranslation('gas');
  const component = t('fields.component', '组分');
  const amount = t('fields.amount', '含量');
  return (
    <Form.List name="components">
      {(fields, { add, remove }, { errors }) => (
        <div className="gas-list" data-testid={`${testPrefix}-components`}>
          <div className="gas-list-head">
            <Typography.Text strong>{title}</Typography.Text>
          </div>
          {fields.map((field) => (
            <div
              key={field.key}
              className={`gas-row ${uncertainty ? 'gas-row-reference' : 'gas-row-amount'}`}
              data-testid={`${testPrefix}-component`}
            >
              <Form.Item
                name={[field.name, 'component']}
                className="gas-cell-component"
                rules={[{ required: true, message: t('rules.componentRequired', '请选择组分') }]}
              >
                <ComponentSelect exclude={exclude(field.name)} aria-label={component} />
              </Form.Item>
              <Form.Item
                name={[field.name, 'amount']}
                className={uncertainty ? undefined : 'gas-cell-amount'}
                rules={[
                  { required: true, message: t('rules.amountRequired', '请输入含量') },
                  positiveRule(t('rules.positive', '必须大于 0')),
                ]}
              >
                <InputNumber<number> style={{ width: '100%' }} aria-label={amount} placeholder={amount} />
              </Form.Item>
              {uncertainty ? (
                <Form.Item
                  name={[field.name, 'expanded']}
                  rules={[
                    { required: true, message: t('rules.expandedRequired', '请输入不确定度') },
                    notNegativeRule(t('rules.notNegative', '不能小于 0')),
                  ]}
                >
                  <InputNumber<number>
                    style={{ width: '100%' }}
                    prefix="±"
                    aria-label={t('fields.expandedShort', 'U (k=2)')}
                    placeholder="U"
                  />
                </Form.Item>
              ) : null}
              <Form.Item name={[field.name, 'unit']} className="gas-cell-unit">
                <Select<AmountUnit>
                  aria-label={t('fields.unit', '单位')}
                  popupMatchSelectWidth={false}
                  options={[
                    { value: 'percent', label: t('product.unitPercent', '% mol/mol') },
                    { value: 'umol', label: UNIT_TEXT.umol },
                  ]}
                />
              </Form.Item>
              <Button
                type="text"
                danger
                className="gas-cell-remove"
                icon={<DeleteOutlined />}
                disabled={keepOne ? fields.length === 1 : undefined}
                onClick={() => remove(field.name)}
                aria-label={t('common.remove', '移除')}
              />
            </div>
          ))}
          <Form.ErrorList errors={errors} />
          <Button
            type="dashed"
            block
            icon={<PlusOutlined />}
            onClick={() => add({ ...NEW_AMOUNT_ROW })}
            data-testid={addTestId}
          >
            {t('product.addComponent', '添加组分')}
          </Button>
        </div>
      )}
    </Form.List>
  );
}
