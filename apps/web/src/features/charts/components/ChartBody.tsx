/**
 * A chart drawn from its configuration and data: ECharts for the graphic types, a number card
 * (value, percentage colour, trend line) and a table in React. Shows an empty state when the
 * item has no data in the range. Used by ChartView (stored charts) and the editor's preview.
 */
import { type ChartConfig, chartColors, percentColor, percentOf } from '@platform/domain';
import { Empty, Table, Typography } from 'antd';
import { type MutableRefObject, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../shared/time';
import type { SeriesData } from '../api';
import { chartOption } from '../options';
import EChart, { type ChartInstance } from './EChart';

interface Props {
  config: ChartConfig;
  series: SeriesData[];
  height: number | string;
  instanceRef?: MutableRefObject<ChartInstance | null>;
}

const round = (v: number) => Number(v.toPrecision(6));

/** Whether there is nothing to draw: no point in any raw series, no value in any value series. */
export function isEmpty(config: ChartConfig, series: SeriesData[]): boolean {
  const raw = config.series.every((s) => s.method === 'raw');
  return raw ? series.every((s) => s.points.length === 0) : series.every((s) => s.value === null);
}

export default function ChartBody({ config, series, height, instanceRef }: Props) {
  const { t } = useTranslation('charts');
  const label = useMemo(
    () => (s: SeriesData) => {
      const name = s.unit ? `${s.name} (${s.unit})` : s.name;
      return s.method === 'raw' ? name : `${name} · ${t(`method.${s.method}`)}`;
    },
    [t],
  );
  const option = useMemo(() => chartOption(config, series, { label }), [config, series, label]);
  const points = series.reduce((n, s) => n + s.points.length, 0);

  if (isEmpty(config, series)) {
    return (
      <div
        style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        data-testid="chart-empty"
      >
        <Empty description={t('view.noData')} />
      </div>
    );
  }

  if (config.type === 'card') {
    const s = series[0]!;
    const pct = percentOf(s.value, config.min ?? 0, config.max ?? 100);
    const color = config.percentScale
      ? (percentColor(pct) ?? chartColors(config)[0])
      : chartColors(config)[0];
    const trend = {
      animation: false,
      grid: { left: 0, right: 0, top: 4, bottom: 0 },
      xAxis: { type: 'time', show: false },
      yAxis: { type: 'value', show: false, scale: true },
      tooltip: { trigger: 'axis', confine: true },
      series: [
        {
          type: 'line',
          data: s.points,
          showSymbol: false,
          lineStyle: { color },
          areaStyle: { color, opacity: 0.15 },
        },
      ],
    };
    return (
      <div style={{ height, display: 'flex', flexDirection: 'column' }} data-testid="chart-card">
        <Typography.Text type="secondary">{label(s)}</Typography.Text>
        <div style={{ fontSize: 40, fontWeight: 600, color, lineHeight: 1.3 }} data-testid="chart-card-value">
          {s.value === null ? '—' : round(s.value)}
          {s.unit ? <span style={{ fontSize: 18, marginLeft: 6 }}>{s.unit}</span> : null}
        </div>
        {config.percentScale && pct !== null ? (
          <Typography.Text type="secondary">{t('view.percent', { pct: Math.round(pct) })}</Typography.Text>
        ) : null}
        <div style={{ flex: 1, minHeight: 40 }}>
          <EChart
            option={trend}
            height="100%"
            instanceRef={instanceRef}
            points={s.points.length}
            label={t('view.trend')}
          />
        </div>
      </div>
    );
  }

  if (config.type === 'table') {
    const raw = config.series.every((x) => x.method === 'raw');
    if (!raw) {
      return (
        <Table
          size="small"
          rowKey="key"
          pagination={false}
          scroll={{ y: typeof height === 'number' ? height - 40 : undefined }}
          dataSource={series.map((s, i) => ({
            key: i,
            name: label(s),
            value: s.value === null ? '—' : round(s.value),
          }))}
          columns={[
            { title: t('view.series'), dataIndex: 'name' },
            { title: t('view.value'), dataIndex: 'value', align: 'right' },
          ]}
          data-testid="chart-table"
        />
      );
    }
    const byTime = new Map<number, Record<string, number>>();
    series.forEach((s, i) => {
      for (const [ts, v] of s.points) byTime.set(ts, { ...byTime.get(ts), [`s${i}`]: round(v) });
    });
    const rows = [...byTime.entries()].sort((a, b) => b[0] - a[0]).map(([ts, v]) => ({ key: ts, ts, ...v }));
    return (
      <Table
        size="small"
        rowKey="key"
        dataSource={rows}
        pagination={{ pageSize: 50, showSizeChanger: false, size: 'small' }}
        scroll={{ y: typeof height === 'number' ? height - 90 : undefined }}
        columns={[
          { title: t('view.time'), dataIndex: 'ts', render: (v: number) => formatTime(v), width: 180 },
          ...series.map((s, i) => ({ title: label(s), dataIndex: `s${i}`, align: 'right' as const })),
        ]}
        data-testid="chart-table"
      />
    );
  }

  return (
    <EChart
      option={option}
      height={height}
      instanceRef={instanceRef}
      testId="chart-canvas"
      points={points}
      label={series.map(label).join(', ')}
    />
  );
}
