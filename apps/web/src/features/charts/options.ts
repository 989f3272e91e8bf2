/**
 * The ECharts option of a chart from its configuration and its data: one function, used by the
 * chart view, the dialog and the editor's preview. Cards and tables are drawn by React, not here.
 */
import { type ChartConfig, chartColors, gaugeBands, PERCENT_COLOR_STOPS, zonedParts } from '@platform/domain';
import { companyZone, formatTime } from '../../shared/time';
import type { SeriesData } from './api';

export interface Words {
  /** series label: "name (unit) · method" */
  label: (s: SeriesData) => string;
}

const round = (v: number) => Number(v.toPrecision(6));

/** The date yyyy-MM-dd of an instant in the company's zone, as every other time the app shows. */
function localDate(ms: number, tz = companyZone()): string {
  const d = zonedParts(ms, tz);
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** Daily averages of the points, for the calendar view: days of the company's zone. */
export function dailyAverages(points: Array<[number, number]>, tz = companyZone()): Array<[string, number]> {
  const days = new Map<string, { sum: number; n: number }>();
  for (const [ts, v] of points) {
    const key = localDate(ts, tz);
    const d = days.get(key) ?? { sum: 0, n: 0 };
    d.sum += v;
    d.n += 1;
    days.set(key, d);
  }
  return [...days.entries()].map(([day, d]) => [day, round(d.sum / d.n)]);
}

export function chartOption(
  config: ChartConfig,
  series: SeriesData[],
  words: Words,
): Record<string, unknown> {
  const colors = chartColors(config);
  const min = config.min ?? undefined;
  const max = config.max ?? undefined;
  const base = { color: colors, animation: false, tooltip: { confine: true } };
  const raw = config.series.every((s) => s.method === 'raw');

  if (config.type === 'pie') {
    return {
      ...base,
      tooltip: { trigger: 'item', confine: true },
      legend: { type: 'scroll', bottom: 0 },
      series: [
        {
          type: 'pie',
          radius: ['35%', '65%'],
          data: series.map((s, i) => ({
            name: words.label(s),
            value: s.value,
            itemStyle: { color: colors[i] },
          })),
          label: { formatter: '{b}: {c}' },
        },
      ],
    };
  }

  if (config.type === 'gauge') {
    const s = series[0];
    const unit = s?.unit ? ` ${s.unit}` : '';
    return {
      ...base,
      series: [
        {
          type: 'gauge',
          min: min ?? 0,
          max: max ?? 100,
          splitNumber: 5,
          axisLine: {
            lineStyle: { width: 18, color: config.percentScale ? gaugeBands() : [[1, colors[0]]] },
          },
          pointer: { itemStyle: { color: 'auto' } },
          detail: { valueAnimation: false, formatter: (v: number) => `${round(v)}${unit}`, fontSize: 24 },
          title: { offsetCenter: [0, '75%'] },
          data: [{ value: s?.value ?? 0, name: s ? words.label(s) : '' }],
        },
      ],
    };
  }

  if (config.type === 'calendar') {
    const s = series[0];
    const days = s ? dailyAverages(s.points) : [];
    const from = s?.from ? localDate(Date.parse(s.from)) : (days[0]?.[0] ?? localDate(Date.now()));
    const to = s?.to ? localDate(Date.parse(s.to) - 1) : (days[days.length - 1]?.[0] ?? from);
    const values = days.map((d) => d[1]);
    return {
      ...base,
      tooltip: {
        confine: true,
        formatter: (p: { value: [string, number] }) => `${p.value[0]}: ${p.value[1]}`,
      },
      visualMap: {
        min: min ?? (values.length ? Math.min(...values) : 0),
        max: max ?? (values.length ? Math.max(...values) : 1),
        calculable: true,
        orient: 'horizontal',
        left: 'center',
        bottom: 0,
        inRange: { color: PERCENT_COLOR_STOPS.map((c) => c.color) },
      },
      calendar: { range: [from, to], top: 40, left: 40, right: 20, cellSize: ['auto', 'auto'], bottom: 60 },
      series: [{ type: 'heatmap', coordinateSystem: 'calendar', name: s ? words.label(s) : '', data: days }],
    };
  }

  if (config.type === 'bar' && !raw) {
    return {
      ...base,
      tooltip: { trigger: 'axis', confine: true },
      grid: { left: 8, right: 16, top: 24, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: series.map((s) => words.label(s)), axisLabel: { hideOverlap: true } },
      yAxis: { type: 'value', min, max },
      series: [
        {
          type: 'bar',
          data: series.map((s, i) => ({ value: s.value, itemStyle: { color: colors[i] } })),
          label: { show: true, position: 'top' },
        },
      ],
    };
  }

  // time series: line, area, scatter, bar over time
  const times = series.flatMap((s) => (s.from && s.to ? [Date.parse(s.from), Date.parse(s.to)] : []));
  return {
    ...base,
    tooltip: {
      trigger: config.type === 'scatter' ? 'item' : 'axis',
      confine: true,
      valueFormatter: (v: number) => (typeof v === 'number' ? String(round(v)) : String(v)),
    },
    legend: { type: 'scroll', top: 0, left: 0, right: 0 },
    grid: { left: 8, right: 16, top: 36, bottom: 36, containLabel: true },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 4 }],
    xAxis: {
      type: 'time',
      min: times.length ? Math.min(...times) : undefined,
      max: times.length ? Math.max(...times) : undefined,
      axisLabel: { hideOverlap: true, formatter: (v: number) => formatTime(v).slice(5, 16) },
    },
    yAxis: { type: 'value', scale: min === undefined && max === undefined, min, max },
    series: series.map((s, i) => ({
      name: words.label(s),
      type: config.type === 'scatter' ? 'scatter' : config.type === 'bar' ? 'bar' : 'line',
      showSymbol: config.type === 'scatter' || s.points.length < 60,
      symbolSize: config.type === 'scatter' ? 6 : 4,
      areaStyle: config.type === 'area' ? { opacity: 0.25 } : undefined,
      sampling: undefined,
      itemStyle: { color: colors[i] },
      data: s.points,
    })),
  };
}
