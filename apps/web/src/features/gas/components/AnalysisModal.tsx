import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, InputNumber, Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validated } from '../../../shared/validated';
import { type Analysis, type Cylinder, gasApi, gasKeys, useReferenceChoices } from '../api';
import {
  type AmountUnit,
  certifiedValue,
  placeFieldError,
  toFraction,
  toUnit,
  twoSignificant,
  UNIT_TEXT,
  unitFor,
} from '../model';
import { positiveRule } from '../rules';
import { Formula } from './Formula';

interface Row {
  component: string;
  unit: AmountUnit;
  analysed?: number | null;
  analysedU?: number | null;
  referenceMaterialId?: number | null;
}

/**
 * Quality control of one cylinder: an analysis result and its expanded uncertainty (k = 2) for
 * each component, typed in the unit its gravimetric value is stated in. Components left empty
 * are not sent; the server wants every component of the recipe.
 */
export function AnalysisModal({ cylinder, onClose }: { cylinder: Cylinder | null; onClose: () => void }) {
  const { t } = useTranslation('gas');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ rows: Row[] }>();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ passed: boolean; results: Analysis[] } | null>(null);
  const references = useReferenceChoices(cylinder !== null);
  const values = cylinder?.values.filter((v) => v.component !== cylinder.balance) ?? [];

  useEffect(() => {
    if (!cylinder) return;
    setOutcome(null);
    form.setFieldsValue({
      rows: cylinder.values
        .filter((v) => v.component !== cylinder.balance)
        .map((v) => {
          const unit = unitFor(v.fraction);
          const earlier = cylinder.analyses.find((a) => a.component === v.component);
          return {
            component: v.component,
            unit,
            analysed: earlier ? toUnit(earlier.analysed, unit) : null,
            analysedU: earlier ? toUnit(earlier.analysedU, unit) : null,
            referenceMaterialId: earlier?.referenceMaterialId ?? null,
          };
        }),
    });
  }, [cylinder, form]);

  const labels: Record<string, string> = {
    analysed: t('fields.analysed', '分析值'),
    analysedU: t('fields.analysedU', '分析 U (k=2)'),
    referenceMaterialId: t('fields.reference', '标准物质'),
    analyses: t('fields.analyses', '分析结果'),
  };

  const save = async () => {
    if (!cylinder) return;
    const entered = await validated(form);
    if (!entered) return;
    // the rows typed in, with their index in the form (the server names `analyses[i]` of what was sent)
    // the form keeps only its fields: the component and unit of a row are those of its value
    const sent = (entered.rows ?? []).flatMap((row, index) => {
      const value = values[index];
      if (!value || typeof row.analysed !== 'number') return [];
      return [{ row: { ...row, component: value.component, unit: unitFor(value.fraction) }, index }];
    });
    setBusy(true);
    try {
      const envelope = await gasApi.saveAnalysis({
        id: cylinder.id,
        analyses: sent.map(({ row }) => ({
          component: row.component,
          analysed: toFraction(row.analysed ?? 0, row.unit),
          analysedU: toFraction(row.analysedU ?? 0, row.unit),
          ...(row.referenceMaterialId ? { referenceMaterialId: row.referenceMaterialId } : {}),
        })),
      });
      setOutcome(envelope.data);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: gasKeys.all });
    } catch (error) {
      placeFieldError(form, error, {
        label: (n) => labels[n],
        place: (path) => {
          const [head, index, name] = path;
          if (head !== 'analyses') return null;
          if (path.length === 1) return null;
          const row = typeof index === 'number' ? sent[index]?.index : undefined;
          if (row === undefined || typeof name !== 'string' || !(name in labels)) return null;
          return ['rows', row, name === 'component' ? 'analysed' : name];
        },
      });
    } finally {
      setBusy(false);
    }
  };

  const resultOf = (component: string) => outcome?.results.find((r) => r.component === component);

  return (
    <Modal
      open={cylinder !== null}
      title={t('quality.analyseTitle', '录入分析结果 · {{sn}}', { sn: cylinder?.serialNumber ?? '' })}
      okText={t('quality.verify', '保存并验证')}
      cancelText={t('common.close', '关闭')}
      confirmLoading={busy}
      onOk={save}
      onCancel={onClose}
      width={820}
      forceRender
    >
      <Typography.Paragraph type="secondary">
        {t(
          'quality.analyseHint',
          '按 ISO 6142-1 验证：|称量值 − 分析值| ≤ √(U称量² + U分析²) 时该组分通过。未填写的组分不提交；配方中的组分必须填写。',
        )}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" data-testid="gas-analysis-form">
        <div className="gas-row gas-row-analysis gas-row-head" aria-hidden>
          <span>{t('fields.component', '组分')}</span>
          <span>{t('fields.gravimetric', '称量值 ± U')}</span>
          <span>{labels.analysed}</span>
          <span>{labels.analysedU}</span>
          <span>{labels.referenceMaterialId}</span>
        </div>
        <Form.List name="rows">
          {(fields) =>
            fields.map((field) => {
              const value = values[field.name];
              if (!value) return null;
              const unit = unitFor(value.fraction);
              const result = resultOf(value.component);
              return (
                <div
                  key={field.key}
                  className="gas-row gas-row-analysis"
                  data-testid={`gas-analysis-${value.component}`}
                >
                  <span className="gas-cell-name">
                    <Formula value={value.component} />{' '}
                    {result ? (
                      result.passed ? (
                        <CheckCircleFilled className="gas-pass" aria-label={t('quality.pass', '通过')} />
                      ) : (
                        <CloseCircleFilled className="gas-fail" aria-label={t('quality.fail', '不通过')} />
                      )
                    ) : null}
                  </span>
                  <span className="gas-number gas-cell-gravimetric">
                    {certifiedValue(value.fraction, unit)} ± {twoSignificant(toUnit(value.expanded, unit))}{' '}
                    {UNIT_TEXT[unit]}
                  </span>
                  <Form.Item
                    name={[field.name, 'analysed']}
                    rules={[positiveRule(t('rules.positive', '必须大于 0'))]}
                  >
                    <InputNumber<number>
                      style={{ width: '100%' }}
                      suffix={UNIT_TEXT[unit]}
                      aria-label={`${value.component} ${labels.analysed}`}
                      data-testid="gas-analysis-value"
                    />
                  </Form.Item>
                  <Form.Item
                    name={[field.name, 'analysedU']}
                    dependencies={[['rows', field.name, 'analysed']]}
                    rules={[
                      ({ getFieldValue }) => ({
                        validator: async (_rule, u: unknown) => {
                          const analysed = getFieldValue(['rows', field.name, 'analysed']);
                          if (typeof analysed !== 'number') return;
                          if (!(typeof u === 'number' && u > 0))
                            throw new Error(t('rules.analysedURequired', '请输入大于 0 的分析不确定度'));
                        },
                      }),
                    ]}
                  >
                    <InputNumber<number>
                      style={{ width: '100%' }}
                      prefix="±"
                      suffix={UNIT_TEXT[unit]}
                      aria-label={`${value.component} ${labels.analysedU}`}
                      data-testid="gas-analysis-u"
                    />
                  </Form.Item>
                  <Form.Item name={[field.name, 'referenceMaterialId']}>
                    <Select<number>
                      allowClear
                      showSearch={{ optionFilterProp: 'label' }}
                      loading={references.isLoading}
                      placeholder={t('quality.pickReference', '可选')}
                      aria-label={`${value.component} ${labels.referenceMaterialId}`}
                      popupMatchSelectWidth={false}
                      options={(references.data?.list ?? []).map((r) => ({
                        value: r.id,
                        label: `${r.name} (${r.certificateNo})`,
                      }))}
                      data-testid="gas-analysis-reference"
                    />
                  </Form.Item>
                  {result ? (
                    <span className="gas-muted gas-number gas-cell-ratio" data-testid="gas-analysis-ratio">
                      {t('quality.ratio', '|Δ| / 限值 = {{ratio}}', {
                        ratio: result.ratio >= 1e9 ? '∞' : twoSignificant(result.ratio),
                      })}
                    </span>
                  ) : null}
                </div>
              );
            })
          }
        </Form.List>
      </Form>
      {outcome ? (
        <Alert
          type={outcome.passed ? 'success' : 'error'}
          showIcon
          className="gas-alert"
          data-testid="gas-analysis-outcome"
          title={
            outcome.passed
              ? t(
                  'quality.passed',
                  '验证通过：每个组分的分析值与称量值在合成扩展不确定度内一致，可以出具证书。',
                )
              : t(
                  'quality.failed',
                  '验证未通过：标记 ✕ 的组分差值超出合成扩展不确定度。请复查称量或重新分析。',
                )
          }
        />
      ) : null}
    </Modal>
  );
}
