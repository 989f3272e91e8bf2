import { describe, expect, it } from 'vitest';
import type { FieldDef } from '../data/types';
import { chartColors, checkChartConfig, defaultChartConfig, MAX_CHART_SERIES } from './config';
import { CHART_COLORS } from './palette';

const FIELDS: FieldDef[] = [
  { key: 'f1', name: '电压', unit: 'V', type: 1 },
  { key: 'f2', name: '计数', type: 10 },
  { key: 'f3', name: '备注', type: 5 },
];
const raw = (field = 'f1', range = 'today') => ({ field, method: 'raw', range });
const check = (config: unknown) => checkChartConfig(config, FIELDS);
const failure = (config: unknown) => {
  const r = check(config);
  return r.ok ? null : { key: r.key, field: r.field };
};

describe('checkChartConfig', () => {
  it('accepts a line of raw series and fills the defaults', () => {
    const r = check({ type: 'line', series: [raw('f1'), raw('f2', 'yesterday')] });
    expect(r).toEqual({
      ok: true,
      config: {
        type: 'line',
        series: [
          { field: 'f1', method: 'raw', range: 'today' },
          { field: 'f2', method: 'raw', range: 'yesterday' },
        ],
        min: null,
        max: null,
        downsample: 'lttb',
        percentScale: false,
      },
    });
  });

  it('accepts a gauge of one value and turns the percentage scale on by default', () => {
    const r = check({ type: 'gauge', series: [{ field: 'f1', method: 'latest' }], min: 0, max: 250 });
    expect(r.ok && r.config.percentScale).toBe(true);
    // a fixed-window method carries no range of its own
    const r2 = check({ type: 'card', series: [{ field: 'f1', method: 'totalToday', range: 'lastMonth' }] });
    expect(r2.ok && r2.config.series[0]).toEqual({ field: 'f1', method: 'totalToday' });
  });

  it('names the broken field', () => {
    expect(failure(null)).toEqual({ key: 'validation', field: 'config' });
    expect(failure({ type: 'radar', series: [raw()] })).toEqual({
      key: 'chartTypeInvalid',
      field: 'config.type',
    });
    expect(failure({ type: 'line', series: [] })).toEqual({
      key: 'chartSeriesCount',
      field: 'config.series',
    });
    expect(
      failure({ type: 'line', series: Array.from({ length: MAX_CHART_SERIES + 1 }, () => raw()) }),
    ).toEqual({
      key: 'chartSeriesCount',
      field: 'config.series',
    });
    expect(failure({ type: 'line', series: [raw('f9')] })).toEqual({
      key: 'chartFieldUnknown',
      field: 'config.series[0].field',
    });
    expect(failure({ type: 'line', series: [raw('f1'), raw('f3')] })).toEqual({
      key: 'chartFieldNotNumeric',
      field: 'config.series[1].field',
    });
    expect(failure({ type: 'line', series: [{ field: 'f1', method: 'average' }] })).toEqual({
      key: 'validation',
      field: 'config.series[0].method',
    });
    expect(failure({ type: 'line', series: [{ field: 'f1', method: 'raw', range: 'lastYear' }] })).toEqual({
      key: 'validation',
      field: 'config.series[0].range',
    });
    expect(
      failure({ type: 'line', series: [raw(), { field: 'f1', method: 'rangeAvg', range: 'today' }] }),
    ).toEqual({
      key: 'chartMethodForType',
      field: 'config.series[1].method',
    });
    expect(failure({ type: 'pie', series: [raw()] })).toEqual({
      key: 'chartMethodForType',
      field: 'config.series[0].method',
    });
    expect(failure({ type: 'bar', series: [raw(), { field: 'f2', method: 'latest' }] })).toEqual({
      key: 'chartMethodsMixed',
      field: 'config.series',
    });
    expect(
      failure({
        type: 'gauge',
        series: [
          { field: 'f1', method: 'latest' },
          { field: 'f2', method: 'latest' },
        ],
      }),
    ).toEqual({ key: 'chartSeriesOne', field: 'config.series' });
    expect(failure({ type: 'gauge', series: [{ field: 'f1', method: 'latest' }], min: 10, max: 10 })).toEqual(
      {
        key: 'chartMinMax',
        field: 'config.max',
      },
    );
    expect(failure({ type: 'line', series: [{ ...raw(), color: 'red' }] })).toEqual({
      key: 'validation',
      field: 'config.series[0].color',
    });
    expect(failure({ type: 'line', series: [raw()], downsample: 'average' })).toEqual({
      key: 'validation',
      field: 'config.downsample',
    });
  });

  it('checks a specified period: readable, from before to, at most 93 days for raw series', () => {
    const period = (from: string, to: string, method = 'raw') => ({
      type: method === 'raw' ? 'line' : 'bar',
      series: [{ field: 'f1', method, range: 'period', from, to }],
    });
    expect(failure(period('2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z'))).toEqual({
      key: 'timeRangeInvalid',
      field: 'config.series[0].to',
    });
    expect(failure(period('yesterday', '2026-01-01T00:00:00Z'))).toEqual({
      key: 'timeRangeInvalid',
      field: 'config.series[0].from',
    });
    expect(failure(period('2026-01-01T00:00:00Z', '2026-04-05T00:00:00Z'))).toEqual({
      key: 'seriesRangeTooLong',
      field: 'config.series[0].to',
    });
    // a value over a long period reads one number, not a curve
    expect(check(period('2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z', 'rangeSum')).ok).toBe(true);
    const r = check(period('2026-01-01T08:00:00+08:00', '2026-01-02T00:00:00Z'));
    expect(r.ok && r.config.series[0]).toMatchObject({
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T00:00:00.000Z',
    });
  });

  it('gives each series its own colour or the palette colour of its place', () => {
    expect(chartColors({ series: [raw(), { ...raw(), color: '#123456' } as never, raw()] as never })).toEqual(
      [CHART_COLORS[0], '#123456', CHART_COLORS[2]],
    );
  });

  it('starts a new chart as a line of the first number field over today, which checks', () => {
    const config = defaultChartConfig(FIELDS);
    expect(config.series).toEqual([{ field: 'f1', method: 'raw', range: 'today' }]);
    expect(check(config).ok).toBe(true);
    expect(defaultChartConfig([FIELDS[2]!]).series).toEqual([]);
  });
});
