import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Empty,
  Result,
  Segmented,
  Select,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { formatTime, fromPickerValue, toPickerValue } from '../../../shared/time';
import { saveText, toCsv } from '../../devices/csv';
import {
  type Bucket,
  type DevicePoint,
  MAX_RANGE_DAYS,
  MAX_SERIES_POINTS,
  useDevicePoints,
  useSeries,
} from '../api';
import { DeviceHeader } from '../components/DeviceHeader';
import { type FlowEvent, useDeviceFlow } from '../live';
import {
  byUnit,
  csvRows,
  DEFAULT_POINTS,
  joined,
  LIVE_WINDOWS,
  liveBuckets,
  pointLabel,
  WINDOWS,
  type WindowKey,
  windowRange,
} from '../model';
import '../deviceviews.css';

const PointChart = lazy(() => import('../components/PointChart'));

/** live readings kept per point at most (a long stay on "last hour") */
const MAX_LIVE = 2000;

/**
 * /dtuChart/:deviceId — the device's points over time: choose points (all by default, up to
 * the limit), a window (the spec's 30, 60, 720, 1440 minutes, a week, or one's own range), one
 * chart per unit. While a window of the last 30 or 60 minutes is shown, records stored from the
 * device are appended as they arrive. What is shown can be exported as CSV.
 */
export default function DtuChartPage() {
  const { t } = useTranslation('deviceviews');
  const id = Number(useParams().deviceId);
  const view = useDevicePoints(id);
  const numeric = useMemo(() => (view.data?.points ?? []).filter((p) => p.numeric), [view.data]);
  const [chosen, setChosen] = useState<string[] | null>(null);
  const keys = useMemo(() => chosen ?? numeric.slice(0, DEFAULT_POINTS).map((p) => p.key), [chosen, numeric]);
  const [windowKey, setWindowKey] = useState<WindowKey>('60');
  const [custom, setCustom] = useState<[string, string] | null>(null);
  const [range, setRange] = useState(() => windowRange('60'));
  const [online, setOnline] = useState<boolean | null>(null);
  const [live, setLive] = useState<Map<string, Bucket[]>>(new Map());

  const customTooLong =
    custom != null && Date.parse(custom[1]) - Date.parse(custom[0]) > MAX_RANGE_DAYS * 86_400_000;
  const from = windowKey === 'custom' ? (customTooLong ? null : (custom?.[0] ?? null)) : range.from;
  const to = windowKey === 'custom' ? (customTooLong ? null : (custom?.[1] ?? null)) : range.to;
  const series = useSeries(id, keys, from, to);
  const isLive = LIVE_WINDOWS.includes(windowKey);

  // a new answer from the server holds what was heard live until then
  // biome-ignore lint/correctness/useExhaustiveDependencies: cleared on each new answer
  useEffect(() => setLive(new Map()), [series.data]);

  const chosenPoints = useMemo(
    () => keys.flatMap((k) => numeric.find((p) => p.key === k) ?? []),
    [keys, numeric],
  );
  const onFlow = useCallback(
    (event: FlowEvent | { type: 'device'; online: boolean }) => {
      if (event.type === 'device') {
        setOnline(event.online);
        return;
      }
      if (event.kind !== 'record' || !isLive) return;
      const heard = liveBuckets(chosenPoints, event.itemId, event.ts, event.values);
      if (heard.length === 0) return;
      setLive((before) => {
        const next = new Map(before);
        for (const [key, bucket] of heard) next.set(key, [...(next.get(key) ?? []), bucket].slice(-MAX_LIVE));
        return next;
      });
    },
    [chosenPoints, isLive],
  );
  const { watching } = useDeviceFlow(id, onFlow, view.data != null);

  // the live window slides: its start follows the clock
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!isLive) return;
    const timer = window.setInterval(() => setNow(Date.now()), 15_000);
    return () => window.clearInterval(timer);
  }, [isLive]);

  const fromMs = isLive ? now - Number(windowKey) * 60_000 : from ? Date.parse(from) : 0;
  const toMs = isLive ? Math.max(now, Date.parse(range.to) - 60_000) : to ? Date.parse(to) : 0;
  const shown = useMemo(() => {
    const out = new Map<string, Bucket[]>();
    for (const s of series.data?.series ?? [])
      out.set(s.key, joined(s.buckets, live.get(s.key) ?? [], fromMs));
    return out;
  }, [series.data, live, fromMs]);
  const total = [...shown.values()].reduce((n, b) => n + b.length, 0);
  const words = useMemo(
    () => ({ min: t('chart.min'), max: t('chart.max'), readings: t('chart.readings') }),
    [t],
  );

  if (!Number.isInteger(id) || id <= 0) return <Result status="404" title={t('common.badLink')} />;
  if (view.isLoading)
    return (
      <div className="dv-loading" data-testid="dv-loading">
        <Spin />
      </div>
    );
  if (!view.data) return <Result status="404" title={t('common.notFound')} />;
  const data = view.data;

  const chooseWindow = (key: WindowKey) => {
    setWindowKey(key);
    if (key !== 'custom') setRange(windowRange(key));
    else if (!custom) setCustom([windowRange('1440').from, new Date().toISOString()]);
  };
  const refresh = () => {
    if (windowKey !== 'custom') setRange(windowRange(windowKey));
    else void series.refetch();
    setNow(Date.now());
  };
  const exportCsv = () => {
    const header = [
      t('csv.time'),
      t('csv.point'),
      t('csv.unit'),
      t('csv.average'),
      t('csv.minimum'),
      t('csv.maximum'),
      t('csv.count'),
    ];
    const rows = csvRows(chosenPoints, shown, header, (ms) => formatTime(ms));
    saveText(toCsv(rows), `${data.device.name}-${formatTime(Date.now()).replace(/\D/g, '')}.csv`);
  };

  const body = () => {
    if (data.version == null)
      return <Empty description={t('chart.noConfig')} data-testid="dv-no-config" className="dv-empty" />;
    if (numeric.length === 0)
      return <Empty description={t('chart.noPoints')} data-testid="dv-no-points" className="dv-empty" />;
    if (keys.length === 0) return <Empty description={t('chart.choose')} className="dv-empty" />;
    if (customTooLong)
      return <Alert type="warning" showIcon title={t('chart.tooLong', { days: MAX_RANGE_DAYS })} />;
    if (series.isLoading)
      return (
        <div className="dv-loading" data-testid="dv-loading">
          <Spin />
        </div>
      );
    if (series.isError) return <Alert type="error" showIcon title={t('chart.failed')} />;
    if (total === 0 && !isLive)
      return <Empty description={t('chart.noData')} data-testid="dv-no-data" className="dv-empty" />;
    return (
      <Suspense
        fallback={
          <div className="dv-loading">
            <Spin />
          </div>
        }
      >
        <div className="dv-charts">
          {byUnit(chosenPoints).map((group) => (
            <Card
              key={group.unit ?? ''}
              size="small"
              title={group.unit ? t('chart.unit', { unit: group.unit }) : t('chart.noUnit')}
              className="dv-chart-card"
            >
              <PointChart
                unit={group.unit}
                lines={group.points.map((p) => ({
                  key: p.key,
                  name: pointLabel(p),
                  buckets: shown.get(p.key) ?? [],
                }))}
                fromMs={fromMs}
                toMs={toMs}
                words={words}
                testId={`dv-chart-${group.unit ?? 'none'}`}
              />
            </Card>
          ))}
        </div>
      </Suspense>
    );
  };

  return (
    <Card variant="borderless" className="dv-page" data-testid="dv-chart-page">
      <DeviceHeader
        title={t('chart.title')}
        device={data.device}
        online={online ?? data.device.online}
        version={data.version}
        extra={
          <Space wrap>
            <Button icon={<ReloadOutlined />} onClick={refresh}>
              {t('common.refresh')}
            </Button>
            <Button
              icon={<DownloadOutlined />}
              onClick={exportCsv}
              disabled={total === 0}
              data-testid="dv-export"
            >
              {t('chart.export')}
            </Button>
          </Space>
        }
      />
      {data.hidden > 0 && (
        <Alert className="dv-note" type="info" showIcon title={t('common.hidden', { count: data.hidden })} />
      )}
      {numeric.length > 0 && (
        <div className="dv-controls">
          <Select<string[]>
            mode="multiple"
            className="dv-point-select"
            data-testid="dv-points"
            value={keys}
            maxCount={MAX_SERIES_POINTS}
            maxTagCount="responsive"
            placeholder={t('chart.choose')}
            onChange={setChosen}
            options={numeric.map((p: DevicePoint) => ({
              value: p.key,
              label: `${pointLabel(p)}${p.unit ? ` (${p.unit})` : ''}`,
            }))}
            optionFilterProp="label"
          />
          <Segmented<WindowKey>
            value={windowKey}
            onChange={chooseWindow}
            data-testid="dv-window"
            options={WINDOWS.map((w) => ({ value: w, label: t(`windows.${w}`) }))}
          />
          {windowKey === 'custom' && (
            <DatePicker.RangePicker
              showTime={{ format: 'HH:mm' }}
              format="YYYY-MM-DD HH:mm"
              allowClear={false}
              value={custom ? [toPickerValue(custom[0]), toPickerValue(custom[1])] : null}
              onChange={(values) => {
                const [a, b] = (values ?? []) as [Dayjs | null, Dayjs | null];
                if (a && b) setCustom([fromPickerValue(a), fromPickerValue(b)]);
              }}
            />
          )}
          <Space size={4} wrap className="dv-meta">
            {isLive && (
              <Tag color={watching ? 'processing' : 'default'} data-testid="dv-live">
                {watching ? t('chart.live') : t('chart.connecting')}
              </Tag>
            )}
            {series.data && (
              <Typography.Text type="secondary" className="dv-small">
                {t('chart.bucket', { seconds: series.data.bucketS })}
              </Typography.Text>
            )}
          </Space>
        </div>
      )}
      {body()}
    </Card>
  );
}
