/**
 * A chart's configuration (issue 11 point 1) and its one validation, used by the server before
 * it stores or draws a chart and by the web form before it sends one.
 *
 * A chart belongs to one data item. Each series is one numeric field of that item with either
 *   - method 'raw': the field's points over a time range (spec point 3 ranges, 'period' with
 *     from/to), downsampled on the server to the chart's width; or
 *   - an acquisition method (spec point 3, data/acquisition.ts): one value, over the method's own
 *     window or over the series' range for the range methods.
 * Which kind a chart type takes:
 *   line, area, scatter, calendar  raw series only (a curve, dots, a heat calendar of days)
 *   bar, table                     all raw (over time) or all values (one bar / row per series)
 *   pie                            values only, one slice per series
 *   gauge, card                    exactly one series with a value; the card also draws the
 *                                  field's raw trend over the same window
 */

import { rangeBounds, TimeRangeError } from '../data/time';
import {
  ACQUISITION_METHODS,
  type AcquisitionMethod,
  type FieldDef,
  NUMERIC_FIELD_TYPES,
  RANGE_METHODS,
  TIME_RANGES,
  type TimeRange,
} from '../data/types';
import type { ErrorKey } from '../errors';
import { DOWNSAMPLE_METHODS, type DownsampleMethod } from './downsample';
import { CHART_COLORS } from './palette';

export const CHART_TYPES = [
  'line',
  'bar',
  'area',
  'pie',
  'gauge',
  'card',
  'table',
  'scatter',
  'calendar',
] as const;
export type ChartType = (typeof CHART_TYPES)[number];

export const SERIES_METHODS = ['raw', ...ACQUISITION_METHODS] as const;
export type SeriesMethod = 'raw' | AcquisitionMethod;

/** one colour of the palette per series at most */
export const MAX_CHART_SERIES = CHART_COLORS.length;
/** the longest range a chart may draw, days (the device charts' bound too) */
export const MAX_CHART_RANGE_DAYS = 93;
/** the narrowest and widest chart, pixels: the data route answers at most `width` points per series */
export const MIN_CHART_WIDTH = 16;
export const MAX_CHART_WIDTH = 4096;

const RAW_ONLY: readonly ChartType[] = ['line', 'area', 'scatter', 'calendar'];
const VALUES_ONLY: readonly ChartType[] = ['pie', 'gauge', 'card'];
const SINGLE: readonly ChartType[] = ['gauge', 'card'];

export interface ChartSeries {
  /** field key of a numeric field of the chart's item */
  field: string;
  method: SeriesMethod;
  /** raw and range methods */
  range?: TimeRange;
  /** range 'period': ISO instants */
  from?: string;
  to?: string;
  /** a colour of its own; else the palette's colour for its place */
  color?: string;
}

export interface ChartConfig {
  type: ChartType;
  series: ChartSeries[];
  /** value axis bounds (gauge and card: the 0…100 % span); null = from the data */
  min: number | null;
  max: number | null;
  /** how raw series are cut down to the chart's width */
  downsample: DownsampleMethod;
  /** gauge and card: colour by the percentage scale */
  percentScale: boolean;
}

export type ChartConfigCheck =
  | { ok: true; config: ChartConfig }
  | { ok: false; key: ErrorKey; field: string; params?: Record<string, string | number> };

const COLOR = /^#[0-9a-fA-F]{6}$/;
const DAY_MS = 86_400_000;

/** Whether the method takes a time range of its own choice (raw and the range methods). */
export function takesRange(method: SeriesMethod): boolean {
  return method === 'raw' || RANGE_METHODS.includes(method as AcquisitionMethod);
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const optNumber = (v: unknown): v is number | null | undefined =>
  v === undefined || v === null || (typeof v === 'number' && Number.isFinite(v));

/**
 * Check a chart configuration against the item's fields; the answer is the configuration
 * normalised (defaults filled, periods as ISO instants) or the first broken field's error.
 */
export function checkChartConfig(input: unknown, fields: readonly FieldDef[]): ChartConfigCheck {
  const fail = (
    key: ErrorKey,
    field: string,
    params?: Record<string, string | number>,
  ): ChartConfigCheck => ({
    ok: false,
    key,
    field,
    params,
  });
  if (!isObject(input)) return fail('validation', 'config');
  const type = input.type;
  if (typeof type !== 'string' || !CHART_TYPES.includes(type as ChartType))
    return fail('chartTypeInvalid', 'config.type');
  const chartType = type as ChartType;
  const list = input.series;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_CHART_SERIES)
    return fail('chartSeriesCount', 'config.series', { max: MAX_CHART_SERIES });
  if (SINGLE.includes(chartType) && list.length !== 1) return fail('chartSeriesOne', 'config.series');
  const series: ChartSeries[] = [];
  for (const [i, s] of list.entries()) {
    const at = `config.series[${i}]`;
    if (!isObject(s)) return fail('validation', at);
    const field = fields.find((f) => f.key === s.field);
    if (typeof s.field !== 'string' || !field) return fail('chartFieldUnknown', `${at}.field`);
    if (!NUMERIC_FIELD_TYPES.includes(field.type))
      return fail('chartFieldNotNumeric', `${at}.field`, { name: field.name });
    const method = s.method;
    if (typeof method !== 'string' || !SERIES_METHODS.includes(method as SeriesMethod))
      return fail('validation', `${at}.method`);
    if (method === 'raw' && VALUES_ONLY.includes(chartType))
      return fail('chartMethodForType', `${at}.method`);
    if (method !== 'raw' && RAW_ONLY.includes(chartType)) return fail('chartMethodForType', `${at}.method`);
    const out: ChartSeries = { field: field.key, method: method as SeriesMethod };
    if (takesRange(out.method)) {
      const range = s.range;
      if (typeof range !== 'string' || !TIME_RANGES.includes(range as TimeRange))
        return fail('validation', `${at}.range`);
      out.range = range as TimeRange;
      if (range === 'period') {
        if (typeof s.from !== 'string' || s.from.length > 40) return fail('timeRangeInvalid', `${at}.from`);
        if (typeof s.to !== 'string' || s.to.length > 40) return fail('timeRangeInvalid', `${at}.to`);
        let b: { from: number; to: number };
        try {
          b = rangeBounds('period', 0, undefined, s.from, s.to);
        } catch (e) {
          if (e instanceof TimeRangeError) return fail('timeRangeInvalid', `${at}.${e.field}`);
          throw e;
        }
        if (out.method === 'raw' && b.to - b.from > MAX_CHART_RANGE_DAYS * DAY_MS)
          return fail('seriesRangeTooLong', `${at}.to`, { days: MAX_CHART_RANGE_DAYS });
        out.from = new Date(b.from).toISOString();
        out.to = new Date(b.to).toISOString();
      }
    }
    if (s.color !== undefined && s.color !== null) {
      if (typeof s.color !== 'string' || !COLOR.test(s.color)) return fail('validation', `${at}.color`);
      out.color = s.color.toLowerCase();
    }
    series.push(out);
  }
  const kinds = new Set(series.map((s) => s.method === 'raw'));
  if (kinds.size > 1) return fail('chartMethodsMixed', 'config.series');
  if (!optNumber(input.min)) return fail('validation', 'config.min');
  if (!optNumber(input.max)) return fail('validation', 'config.max');
  const min = (input.min as number | null | undefined) ?? null;
  const max = (input.max as number | null | undefined) ?? null;
  if (min !== null && max !== null && min >= max) return fail('chartMinMax', 'config.max');
  const ds = input.downsample ?? 'lttb';
  if (typeof ds !== 'string' || !DOWNSAMPLE_METHODS.includes(ds as DownsampleMethod))
    return fail('validation', 'config.downsample');
  const percentScale = input.percentScale ?? SINGLE.includes(chartType);
  if (typeof percentScale !== 'boolean') return fail('validation', 'config.percentScale');
  return {
    ok: true,
    config: { type: chartType, series, min, max, downsample: ds as DownsampleMethod, percentScale },
  };
}

/** The series' colours: its own or the palette's for its place. */
export function chartColors(config: Pick<ChartConfig, 'series'>): string[] {
  return config.series.map((s, i) => s.color ?? CHART_COLORS[i % CHART_COLORS.length]!);
}

/** A new chart's configuration: a line of the first numeric field over today. */
export function defaultChartConfig(fields: readonly FieldDef[]): ChartConfig {
  const field = fields.find((f) => NUMERIC_FIELD_TYPES.includes(f.type));
  return {
    type: 'line',
    series: field ? [{ field: field.key, method: 'raw', range: 'today' }] : [],
    min: null,
    max: null,
    downsample: 'lttb',
    percentScale: false,
  };
}
