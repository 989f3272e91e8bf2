/**
 * chart/chartConfig/:itemId/:chartId/:itemName/:id: the chart editor (chartId 0 makes a new one).
 * The form on the left, the live preview on the right: the configuration is checked in the
 * browser with the server's own check (packages/domain checkChartConfig) and, when it passes,
 * drawn from the server's preview route a moment after the last change.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ACQUISITION_METHODS,
  CHART_COLORS,
  CHART_TYPES,
  type ChartConfig,
  type ChartSeries,
  type ChartType,
  checkChartConfig,
  checkName,
  DOWNSAMPLE_METHODS,
  defaultChartConfig,
  type FieldDef,
  MAX_CHART_SERIES,
  messageFor,
  NUMERIC_FIELD_TYPES,
  type SeriesMethod,
  TIME_RANGES,
  type TimeRange,
  takesRange,
} from '@platform/domain';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  ColorPicker,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Result,
  Row,
  Select,
  Skeleton,
  Space,
  Switch,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { currentLang } from '../../../app/i18n';
import { fromPickerValue, toPickerValue } from '../../../shared/time';
import { useDataItem } from '../../datarecords/api';
import { getChart, previewChart, saveChart } from '../api';
import ChartBody from '../components/ChartBody';
import { useBoxWidth } from '../components/ChartView';
import { chartPagePath } from '../paths';

const RAW_ONLY: readonly ChartType[] = ['line', 'area', 'scatter', 'calendar'];
const VALUES_ONLY: readonly ChartType[] = ['pie', 'gauge', 'card'];

/** Methods a type offers: raw series, values, or both (bar and table). */
function methodsFor(type: ChartType): SeriesMethod[] {
  if (RAW_ONLY.includes(type)) return ['raw'];
  if (VALUES_ONLY.includes(type)) return [...ACQUISITION_METHODS];
  return ['raw', ...ACQUISITION_METHODS];
}

/** The configuration moved to another type: series kept where they still fit. */
function retype(config: ChartConfig, type: ChartType): ChartConfig {
  const allowed = methodsFor(type);
  let series = config.series.map((s) =>
    allowed.includes(s.method) ? s : { ...s, method: allowed[0]!, range: s.range ?? ('today' as TimeRange) },
  );
  if (type === 'gauge' || type === 'card') series = series.slice(0, 1);
  const percentScale = type === 'gauge' || type === 'card' ? true : config.percentScale;
  return { ...config, type, series, percentScale };
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = window.setTimeout(() => setV(value), ms);
    return () => window.clearTimeout(id);
  }, [value, ms]);
  return v;
}

export default function ChartConfigPage() {
  const { t } = useTranslation('charts');
  const params = useParams();
  const itemId = Number(params.itemId);
  const chartId = Number(params.chartId);
  const item = useDataItem(itemId);
  const existing = useQuery({
    queryKey: ['chart', itemId, chartId],
    queryFn: () => getChart(itemId, chartId),
    enabled: itemId > 0 && chartId > 0,
  });

  if (!Number.isInteger(itemId) || itemId <= 0 || !Number.isInteger(chartId) || chartId < 0) {
    return <Result status="404" title={t('editor.badLink')} />;
  }
  if (item.isError || existing.isError) return <Result status="404" title={t('editor.notFound')} />;
  if (!item.data || (chartId > 0 && !existing.data)) {
    return (
      <Card variant="borderless">
        <Skeleton active />
      </Card>
    );
  }
  return (
    <Editor
      key={`${itemId}:${chartId}`}
      item={item.data}
      chartId={chartId}
      initialName={existing.data?.chart.name ?? ''}
      initialConfig={existing.data?.chart.config ?? defaultChartConfig(item.data.fields)}
    />
  );
}

interface EditorProps {
  item: { id: number; name: string; nodeId: number; level: number; fields: FieldDef[] };
  chartId: number;
  initialName: string;
  initialConfig: ChartConfig;
}

function Editor({ item, chartId, initialName, initialConfig }: EditorProps) {
  const { t } = useTranslation('charts');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState(initialName);
  const [config, setConfig] = useState<ChartConfig>(initialConfig);
  const [saving, setSaving] = useState(false);
  const [nameTouched, setNameTouched] = useState(false);
  const [box, width] = useBoxWidth();
  const numeric = item.fields.filter((f) => NUMERIC_FIELD_TYPES.includes(f.type));
  const canEdit = item.level >= 2;
  const lang = currentLang();

  const checked = useMemo(() => checkChartConfig(config, item.fields), [config, item.fields]);
  const problem = checked.ok
    ? null
    : messageFor(checked.key, lang, { field: checked.field, ...checked.params });
  const nameProblem = checkName(name);
  const debounced = useDebounced(checked.ok ? checked.config : null, 400);
  const preview = useQuery({
    queryKey: ['chartPreview', item.id, width, debounced],
    queryFn: () => previewChart(item.id, debounced!, width),
    enabled: debounced !== null && width > 0,
    placeholderData: keepPreviousData,
  });

  const setSeries = (i: number, patch: Partial<ChartSeries>) =>
    setConfig((c) => ({ ...c, series: c.series.map((s, j) => (j === i ? { ...s, ...patch } : s)) }));

  const save = async () => {
    setNameTouched(true);
    if (nameProblem || !checked.ok) return;
    setSaving(true);
    try {
      const res = await saveChart({
        itemId: item.id,
        id: chartId > 0 ? chartId : undefined,
        name: name.trim(),
        config: checked.config,
      });
      if (res.code !== 0) return;
      message.success(res.message);
      await queryClient.invalidateQueries({ queryKey: ['chart', item.id] });
      await queryClient.invalidateQueries({ queryKey: ['charts', item.id] });
      navigate(
        chartPagePath({
          itemId: item.id,
          itemName: item.name,
          chartId: res.data.id,
          chartName: name.trim(),
          type: config.type,
        }),
        { replace: true },
      );
    } finally {
      setSaving(false);
    }
  };

  if (numeric.length === 0) {
    return <Result status="info" title={t('editor.noNumeric')} />;
  }
  const methods = methodsFor(config.type);
  const single = config.type === 'gauge' || config.type === 'card';

  return (
    <Row gutter={[16, 16]} data-testid="chart-config-page">
      <Col xs={24} lg={10}>
        <Card
          variant="borderless"
          title={`${item.name} · ${chartId > 0 ? t('editor.titleEdit') : t('editor.titleNew')}`}
        >
          {!canEdit ? (
            <Alert type="info" showIcon title={t('editor.readOnly')} style={{ marginBottom: 12 }} />
          ) : null}
          <Form layout="vertical" disabled={!canEdit}>
            <Form.Item
              label={t('editor.name')}
              required
              validateStatus={nameTouched && nameProblem ? 'error' : undefined}
              help={nameTouched && nameProblem ? messageFor(nameProblem, lang) : undefined}
            >
              <Input
                value={name}
                maxLength={25}
                onChange={(e) => setName(e.target.value)}
                onBlur={() => setNameTouched(true)}
                data-testid="chart-name"
              />
            </Form.Item>
            <Form.Item label={t('editor.type')}>
              <Select<ChartType>
                value={config.type}
                onChange={(type) => setConfig((c) => retype(c, type))}
                options={CHART_TYPES.map((ty) => ({ value: ty, label: t(`type.${ty}`) }))}
                data-testid="chart-type"
              />
            </Form.Item>
            <Form.Item label={t('editor.series')}>
              <Space direction="vertical" style={{ width: '100%' }}>
                {config.series.map((s, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a series is its place in the list, and every input in it is controlled
                  <Card size="small" key={i} data-testid="chart-series">
                    <Space wrap>
                      <ColorPicker
                        size="small"
                        value={s.color ?? CHART_COLORS[i % CHART_COLORS.length]}
                        presets={[{ label: t('editor.palette'), colors: [...CHART_COLORS] }]}
                        onChangeComplete={(c) => setSeries(i, { color: c.toHexString().slice(0, 7) })}
                        aria-label={t('editor.color')}
                      />
                      <Select
                        style={{ width: 150 }}
                        value={s.field}
                        onChange={(field) => setSeries(i, { field })}
                        options={numeric.map((f) => ({
                          value: f.key,
                          label: f.unit ? `${f.name} (${f.unit})` : f.name,
                        }))}
                        aria-label={t('editor.field')}
                        data-testid="chart-series-field"
                      />
                      <Select<SeriesMethod>
                        style={{ width: 190 }}
                        value={s.method}
                        onChange={(method) =>
                          setSeries(i, {
                            method,
                            range: takesRange(method) ? (s.range ?? 'today') : undefined,
                          })
                        }
                        options={methods.map((m) => ({ value: m, label: t(`method.${m}`) }))}
                        aria-label={t('editor.method')}
                        data-testid="chart-series-method"
                      />
                      {takesRange(s.method) ? (
                        <Select<TimeRange>
                          style={{ width: 130 }}
                          value={s.range ?? 'today'}
                          onChange={(range) => setSeries(i, { range })}
                          options={TIME_RANGES.map((r) => ({ value: r, label: t(`range.${r}`) }))}
                          aria-label={t('editor.range')}
                          data-testid="chart-series-range"
                        />
                      ) : null}
                      {takesRange(s.method) && s.range === 'period' ? (
                        <DatePicker.RangePicker
                          showTime
                          value={s.from && s.to ? [toPickerValue(s.from), toPickerValue(s.to)] : null}
                          onChange={(r) =>
                            setSeries(i, {
                              from: r?.[0] ? fromPickerValue(r[0]) : undefined,
                              to: r?.[1] ? fromPickerValue(r[1]) : undefined,
                            })
                          }
                          aria-label={t('editor.period')}
                        />
                      ) : null}
                      {config.series.length > 1 ? (
                        <Button
                          type="text"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('editor.removeSeries')}
                          onClick={() =>
                            setConfig((c) => ({ ...c, series: c.series.filter((_, j) => j !== i) }))
                          }
                        />
                      ) : null}
                    </Space>
                  </Card>
                ))}
                {!single && config.series.length < MAX_CHART_SERIES ? (
                  <Button
                    icon={<PlusOutlined />}
                    onClick={() =>
                      setConfig((c) => ({
                        ...c,
                        series: [
                          ...c.series,
                          {
                            field: numeric[c.series.length % numeric.length]!.key,
                            method: c.series[0]?.method ?? methods[0]!,
                            range: takesRange(c.series[0]?.method ?? methods[0]!) ? 'today' : undefined,
                          },
                        ],
                      }))
                    }
                    data-testid="chart-series-add"
                  >
                    {t('editor.addSeries')}
                  </Button>
                ) : null}
              </Space>
            </Form.Item>
            <Space wrap>
              <Form.Item label={t('editor.min')}>
                <InputNumber
                  value={config.min}
                  placeholder={t('editor.auto')}
                  onChange={(min) => setConfig((c) => ({ ...c, min: min ?? null }))}
                />
              </Form.Item>
              <Form.Item label={t('editor.max')}>
                <InputNumber
                  value={config.max}
                  placeholder={t('editor.auto')}
                  onChange={(max) => setConfig((c) => ({ ...c, max: max ?? null }))}
                />
              </Form.Item>
              <Form.Item label={t('editor.downsample')}>
                <Select
                  style={{ width: 250 }}
                  value={config.downsample}
                  onChange={(downsample) => setConfig((c) => ({ ...c, downsample }))}
                  options={DOWNSAMPLE_METHODS.map((m) => ({ value: m, label: t(`downsample.${m}`) }))}
                />
              </Form.Item>
            </Space>
            {single ? (
              <Form.Item label={t('editor.percentScale')}>
                <Switch
                  checked={config.percentScale}
                  onChange={(percentScale) => setConfig((c) => ({ ...c, percentScale }))}
                />
              </Form.Item>
            ) : null}
            {problem ? (
              <Alert type="error" showIcon title={problem} data-testid="chart-config-error" />
            ) : null}
            <Space style={{ marginTop: 12 }}>
              <Button type="primary" loading={saving} onClick={() => void save()} data-testid="chart-save">
                {t('editor.save')}
              </Button>
              <Button onClick={() => navigate(-1)}>{t('editor.cancel')}</Button>
            </Space>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={14}>
        <Card variant="borderless" title={t('editor.preview')} data-testid="chart-preview">
          <div ref={box} style={{ width: '100%' }}>
            {preview.data && checked.ok ? (
              <ChartBody config={checked.config} series={preview.data.series} height={420} />
            ) : (
              <Skeleton active />
            )}
          </div>
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            <Space size={4} wrap>
              {t('editor.palette')}:
              {CHART_COLORS.map((c) => (
                <span
                  key={c}
                  style={{ display: 'inline-block', width: 14, height: 14, background: c, borderRadius: 2 }}
                />
              ))}
            </Space>
          </Typography.Paragraph>
        </Card>
      </Col>
    </Row>
  );
}
