import { CalculatorOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Grid, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { type FillResult, gasApi, type Product } from '../api';
import { formatAmount, formatMolarMass, formatNumber, formTarget, placeFieldError } from '../model';
import { ConditionFields, useConditionLabels } from './ConditionFields';
import { Formula } from './Formula';

interface Conditions {
  volumeL: number;
  pressureMPa: number;
  temperatureC: number;
  z: number;
}

type Row = FillResult['components'][number];

/**
 * Forward calculation: the recipe's filling conditions (prefilled from the product, editable
 * here without changing it) → the amount of substance and the mass of each component to weigh in.
 */
export function FillSection({ product }: { product: Product }) {
  const { t } = useTranslation('gas');
  const [form] = Form.useForm<Conditions>();
  const labels = useConditionLabels();
  const [result, setResult] = useState<FillResult | null>(null);
  const [stale, setStale] = useState(false);
  const [busy, setBusy] = useState(false);
  const wide = Grid.useBreakpoint().md === true;

  const calculate = async () => {
    const values = await validated(form);
    if (!values) return;
    setBusy(true);
    try {
      const envelope = await gasApi.fill({
        balance: product.balance,
        components: product.components,
        ...values,
      });
      setResult(envelope.data);
      setStale(false);
    } catch (error) {
      placeFieldError(
        form,
        error,
        formTarget(['volumeL', 'pressureMPa', 'temperatureC', 'z'], {}, (n) => labels[n]),
      );
    } finally {
      setBusy(false);
    }
  };

  const isBalance = (index: number) => result !== null && index === result.components.length - 1;
  const balanceTag = <Tag className="gas-balance-tag">{t('fields.balance', '平衡气')}</Tag>;
  const molColumn: ColumnsType<Row>[number] = {
    title: t('fields.mol', '物质的量 (mol)'),
    dataIndex: 'mol',
    width: 130,
    align: 'right',
    render: (mol: number) => <span className="gas-number">{formatNumber(mol, 3)}</span>,
  };
  const massColumn: ColumnsType<Row>[number] = {
    title: t('fields.targetMass', '目标质量 (g)'),
    dataIndex: 'massG',
    width: 130,
    align: 'right',
    render: (massG: number, row) => (
      <Typography.Text strong className="gas-number" data-testid={`gas-fill-mass-${row.component}`}>
        {formatNumber(massG, 2)}
      </Typography.Text>
    ),
  };

  const columns: ColumnsType<Row> = [
    {
      title: t('fields.component', '组分'),
      dataIndex: 'component',
      width: 110,
      render: (component: string, _row, index) => (
        <span>
          <Formula value={component} />
          {isBalance(index) ? balanceTag : null}
        </span>
      ),
    },
    {
      title: t('fields.fraction', '摩尔分数'),
      dataIndex: 'fraction',
      width: 130,
      align: 'right',
      render: (fraction: number) => <span className="gas-number">{formatAmount(fraction)}</span>,
    },
    molColumn,
    massColumn,
  ];

  // a phone: the component with its fraction, the mol and the mass to weigh
  const phoneColumns: ColumnsType<Row> = [
    {
      title: t('fields.component', '组分'),
      dataIndex: 'component',
      render: (component: string, row, index) => (
        <div className="gas-phone-cell">
          <span>
            <Formula value={component} />
            {isBalance(index) ? balanceTag : null}
          </span>
          <span className="gas-muted gas-number">{formatAmount(row.fraction)}</span>
        </div>
      ),
    },
    { ...molColumn, title: 'mol', width: 90 },
    { ...massColumn, title: t('fields.massShort', '质量 (g)'), width: 100 },
  ];

  const totalMass = result ? result.components.reduce((sum, c) => sum + c.massG, 0) : 0;

  return (
    <Card
      variant="borderless"
      title={t('calc.fillTitle', '目标质量')}
      className="gas-section"
      data-testid="gas-fill"
    >
      <Typography.Paragraph type="secondary">
        {t(
          'calc.fillHint',
          '按 n = pV / (Z·R·T) 计算钢瓶内的总物质的量，再按摩尔分数和摩尔质量得到每个组分应充入的质量。此处修改条件不会改动产品。',
        )}
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          volumeL: product.volumeL,
          pressureMPa: product.pressureMPa,
          temperatureC: product.temperatureC,
          z: product.z,
        }}
        onValuesChange={() => setStale(true)}
        data-testid="gas-fill-form"
      >
        <ConditionFields testPrefix="gas-fill" />
      </Form>
      <Button
        type="primary"
        icon={<CalculatorOutlined />}
        loading={busy}
        onClick={calculate}
        data-testid="gas-fill-calculate"
      >
        {t('calc.fillButton', '计算目标质量')}
      </Button>
      {result ? (
        <div className={`gas-result${stale ? ' gas-stale' : ''}`} data-testid="gas-fill-result">
          {stale ? (
            <Alert
              type="warning"
              showIcon
              className="gas-alert"
              title={t('calc.stale', '条件已修改，请重新计算')}
            />
          ) : null}
          <div className="gas-figures">
            <div className="gas-figure">
              <span className="gas-figure-label">{t('calc.totalMol', '总物质的量')}</span>
              <span className="gas-figure-value" data-testid="gas-fill-total-mol">
                {formatNumber(result.totalMol, 3)}
              </span>
              <span className="gas-figure-unit">mol</span>
            </div>
            <div className="gas-figure">
              <span className="gas-figure-label">{t('calc.totalMass', '总质量')}</span>
              <span className="gas-figure-value" data-testid="gas-fill-total-mass">
                {formatNumber(totalMass, 2)}
              </span>
              <span className="gas-figure-unit">g</span>
            </div>
            <div className="gas-figure">
              <span className="gas-figure-label">{t('calc.molarMass', '混合气摩尔质量')}</span>
              <span className="gas-figure-value" data-testid="gas-fill-molar-mass">
                {formatMolarMass(result.molarMass)}
              </span>
              <span className="gas-figure-unit">g/mol</span>
            </div>
          </div>
          <Table<Row>
            rowKey="component"
            size="small"
            columns={wide ? columns : phoneColumns}
            dataSource={result.components}
            pagination={false}
            scroll={wide ? { x: 500 } : undefined}
            summary={() => (
              <Table.Summary.Row className="gas-total-row">
                <Table.Summary.Cell index={0}>{t('calc.total', '合计')}</Table.Summary.Cell>
                {wide ? (
                  <Table.Summary.Cell index={1} align="right">
                    <span className="gas-number">100 %</span>
                  </Table.Summary.Cell>
                ) : null}
                <Table.Summary.Cell index={wide ? 2 : 1} align="right">
                  <span className="gas-number">{formatNumber(result.totalMol, 3)}</span>
                </Table.Summary.Cell>
                <Table.Summary.Cell index={wide ? 3 : 2} align="right">
                  <Typography.Text strong className="gas-number">
                    {formatNumber(totalMass, 2)}
                  </Typography.Text>
                </Table.Summary.Cell>
              </Table.Summary.Row>
            )}
            data-testid="gas-fill-table"
          />
        </div>
      ) : null}
    </Card>
  );
}
