import { DeleteOutlined, ExperimentOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Form, Grid, InputNumber, Select, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { validated } from '../../../shared/validated';
import { type CertifyResult, gasApi, usePureGasChoices, type WeighedParent } from '../api';
import {
  certifiedValue,
  formatMolarMass,
  formatPurity,
  formTarget,
  placeFieldError,
  twoSignificant,
  UNIT_TEXT,
  unitFor,
} from '../model';
import { notNegativeRule, positiveRule } from '../rules';
import { Formula } from './Formula';
import { SaveCylinder } from './SaveCylinder';

interface Parent {
  pureGasId?: number;
  massG?: number | null;
  uMassG?: number | null;
}

interface Values {
  parents?: Parent[];
}

/** A balance of 0.01 g resolution read twice: a fair first guess of a weighing's standard uncertainty. */
const DEFAULT_U_MASS = 0.005;
const NEW_PARENT: Parent = { uMassG: DEFAULT_U_MASS };

type Row = CertifyResult['components'][number];

/**
 * Inverse calculation: the parent gases actually weighed in (mass and its standard uncertainty)
 * → the certified composition, with the expanded uncertainty U (k = 2) of each component.
 */
export function CertifySection({ productId }: { productId: number }) {
  const { t } = useTranslation('gas');
  const [form] = Form.useForm<Values>();
  const choices = usePureGasChoices();
  const [result, setResult] = useState<CertifyResult | null>(null);
  const [weighed, setWeighed] = useState<WeighedParent[]>([]);
  const [stale, setStale] = useState(false);
  const [busy, setBusy] = useState(false);
  const gases = choices.data?.list ?? [];
  const wide = Grid.useBreakpoint().md === true;

  const labels: Record<string, string> = {
    pureGasId: t('fields.pureGas', '纯气'),
    massG: t('fields.massG', '称量质量'),
    uMassG: t('fields.uMassG', '称量标准不确定度 u(m)'),
  };

  const certify = async () => {
    const values = await validated(form);
    if (!values) return;
    setBusy(true);
    try {
      const parents = (values.parents ?? []).map((p) => ({
        pureGasId: p.pureGasId ?? 0,
        massG: p.massG ?? 0,
        ...(typeof p.uMassG === 'number' ? { uMassG: p.uMassG } : {}),
      }));
      const envelope = await gasApi.certify(parents);
      setResult(envelope.data);
      setWeighed(parents);
      setStale(false);
    } catch (error) {
      placeFieldError(
        form,
        error,
        formTarget(
          [],
          { parents: { pureGasId: 'pureGasId', massG: 'massG', uMassG: 'uMassG' } },
          (n) => labels[n],
        ),
      );
    } finally {
      setBusy(false);
    }
  };

  /** U (k = 2) in the unit of the value it belongs to */
  const expandedText = (row: Row) => {
    const unit = unitFor(row.fraction);
    const value = unit === 'percent' ? row.expanded * 100 : row.expanded * 1e6;
    return `${twoSignificant(value)} ${UNIT_TEXT[unit]}`;
  };
  const relativeText = (row: Row) =>
    row.fraction > 0 ? `${twoSignificant((row.expanded / row.fraction) * 100)} %` : '—';

  const valueColumn: ColumnsType<Row>[number] = {
    title: t('fields.certified', '定值'),
    dataIndex: 'fraction',
    width: 150,
    align: 'right',
    render: (fraction: number, row) => {
      const unit = unitFor(fraction);
      const value = (
        <Typography.Text strong className="gas-number" data-testid={`gas-cert-value-${row.component}`}>
          {certifiedValue(fraction, unit)} {UNIT_TEXT[unit]}
        </Typography.Text>
      );
      if (wide) return value;
      // a phone: U and the relative U under the value
      return (
        <div className="gas-phone-cell gas-phone-right">
          {value}
          <span className="gas-muted gas-number" data-testid={`gas-cert-u-${row.component}`}>
            U {expandedText(row)} ({relativeText(row)})
          </span>
        </div>
      );
    },
  };

  const componentColumn: ColumnsType<Row>[number] = {
    title: t('fields.component', '组分'),
    dataIndex: 'component',
    width: 100,
    render: (component: string) => <Formula value={component} />,
  };

  const columns: ColumnsType<Row> = [
    componentColumn,
    valueColumn,
    {
      title: t('fields.expanded', '扩展不确定度 U (k=2)'),
      dataIndex: 'expanded',
      width: 170,
      align: 'right',
      render: (_, row) => (
        <span className="gas-number" data-testid={`gas-cert-u-${row.component}`}>
          {expandedText(row)}
        </span>
      ),
    },
    {
      title: t('fields.relativeU', '相对扩展不确定度'),
      key: 'relative',
      width: 150,
      align: 'right',
      render: (_, row) => <span className="gas-number">{relativeText(row)}</span>,
    },
  ];

  const phoneColumns: ColumnsType<Row> = [
    { ...componentColumn, width: 80 },
    { ...valueColumn, title: t('fields.certifiedWithU', '定值 ± U (k=2)') },
  ];

  return (
    <Card
      variant="borderless"
      title={t('calc.certifyTitle', '称量与定值')}
      className="gas-section"
      data-testid="gas-certify"
    >
      <Typography.Paragraph type="secondary">
        {t(
          'calc.certifyHint',
          '根据实际充入的纯气、称量质量及纯气的杂质表计算混合气组成；U (k = 2) 由称量的标准不确定度传递得到。',
        )}
      </Typography.Paragraph>
      {choices.isSuccess && gases.length === 0 ? (
        <Alert
          type="info"
          showIcon
          className="gas-alert"
          title={t('calc.noPureGas', '还没有纯气。')}
          description={<Link to="/setgas/puregas">{t('calc.addPureGas', '前往纯气页面添加原料气')}</Link>}
        />
      ) : null}
      {choices.isError ? (
        <Alert
          type="error"
          showIcon
          className="gas-alert"
          title={t('calc.pureLoadFailed', '无法加载纯气列表')}
        />
      ) : null}
      <Form
        form={form}
        layout="vertical"
        initialValues={{ parents: [{ ...NEW_PARENT }] }}
        onValuesChange={() => setStale(true)}
        data-testid="gas-certify-form"
      >
        <Form.List name="parents">
          {(fields, { add, remove }, { errors }) => (
            <div className="gas-list">
              <div className="gas-row gas-row-parent gas-row-head" aria-hidden>
                <span>{labels.pureGasId}</span>
                <span>{t('fields.massGUnit', '称量质量 (g)')}</span>
                <span>{t('fields.uMassGUnit', 'u(m) (g)')}</span>
                <span />
              </div>
              {fields.map((field) => (
                <div key={field.key} className="gas-row gas-row-parent" data-testid="gas-parent">
                  <Form.Item
                    name={[field.name, 'pureGasId']}
                    className="gas-cell-gas"
                    rules={[{ required: true, message: t('rules.pureGasRequired', '请选择纯气') }]}
                  >
                    <Select<number>
                      showSearch={{ optionFilterProp: 'search' }}
                      loading={choices.isLoading}
                      placeholder={t('calc.pickPureGas', '选择纯气')}
                      aria-label={labels.pureGasId}
                      popupMatchSelectWidth={false}
                      options={gases.map((g) => ({
                        value: g.id,
                        search: `${g.name} ${g.main} ${g.lot} ${g.cylinder}`,
                        label: (
                          <span>
                            {g.name}{' '}
                            <span className="gas-muted">{`${g.main} ${formatPurity(g.purity)}`}</span>
                          </span>
                        ),
                      }))}
                      data-testid="gas-parent-gas"
                    />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'massG']}
                    className="gas-cell-mass"
                    rules={[
                      { required: true, message: t('rules.massRequired', '请输入称量质量') },
                      positiveRule(t('rules.massPositive', '称量质量必须大于 0')),
                    ]}
                  >
                    <InputNumber<number>
                      style={{ width: '100%' }}
                      suffix="g"
                      step={0.01}
                      placeholder={labels.massG}
                      aria-label={labels.massG}
                      data-testid="gas-parent-mass"
                    />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'uMassG']}
                    className="gas-cell-u"
                    rules={[notNegativeRule(t('rules.notNegative', '不能小于 0'))]}
                  >
                    <InputNumber<number>
                      style={{ width: '100%' }}
                      prefix="u"
                      suffix="g"
                      step={0.001}
                      aria-label={labels.uMassG}
                      data-testid="gas-parent-u"
                    />
                  </Form.Item>
                  <Button
                    type="text"
                    danger
                    className="gas-cell-remove"
                    icon={<DeleteOutlined />}
                    disabled={fields.length === 1}
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
                onClick={() => add({ ...NEW_PARENT })}
                data-testid="gas-parent-add"
              >
                {t('calc.addParent', '添加原料气')}
              </Button>
            </div>
          )}
        </Form.List>
      </Form>
      <Button
        type="primary"
        icon={<ExperimentOutlined />}
        loading={busy}
        onClick={certify}
        className="gas-action"
        data-testid="gas-certify-button"
      >
        {t('calc.certifyButton', '计算定值')}
      </Button>
      {result ? (
        <div className={`gas-result${stale ? ' gas-stale' : ''}`} data-testid="gas-cert-result">
          {stale ? (
            <Alert
              type="warning"
              showIcon
              className="gas-alert"
              title={t('calc.staleWeighing', '称量数据已修改，请重新计算')}
            />
          ) : null}
          <div className="gas-figures">
            <div className="gas-figure">
              <span className="gas-figure-label">{t('calc.molarMass', '混合气摩尔质量')}</span>
              <span className="gas-figure-value" data-testid="gas-cert-molar-mass">
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
            scroll={wide ? { x: 570 } : undefined}
            data-testid="gas-cert-table"
          />
          {stale ? null : <SaveCylinder productId={productId} parents={weighed} />}
        </div>
      ) : null}
    </Card>
  );
}
