/**
 * The twelve acquisition methods of intelligent analysis (spec point 3), over one numeric field's
 * series. methodWindow gives each method's half-open window [from, to) and reduction, so the
 * server's SQL and this in-memory reference compute the very same thing:
 *
 *   latest               last value with ts <= now
 *   totalYesterday/Today/ThisMonth      sum over yesterday / today (to now) / this month (to now)
 *   lastOfYesterday/DayBefore/LastMonth/MonthBefore   value of the last point in that window
 *   rangeSum/Avg/Max/Min                over rangeBounds(range)
 *
 * A window without points gives null (as SQL's SUM/AVG/MAX/MIN do), never 0.
 */
import { rangeBounds, TimeRangeError } from './time';
import { type AcquisitionMethod, type Aggregate, DEFAULT_TIME_ZONE, type TimeRange } from './types';

export type Reduce = 'sum' | 'avg' | 'max' | 'min' | 'last';
export interface SeriesPoint {
  ts: number;
  value: number;
}
export interface MethodWindow {
  from: number;
  to: number;
  reduce: Reduce;
}
export interface AcquireOptions {
  now: number;
  tz?: string;
  range?: TimeRange;
  from?: number | string | null;
  to?: number | string | null;
}

/** The earliest instant a Date can hold: "since the beginning" for `latest`. */
export const EARLIEST_INSTANT = -8_640_000_000_000_000;

const FIXED: Partial<Record<AcquisitionMethod, { range: TimeRange; reduce: Reduce }>> = {
  totalYesterday: { range: 'yesterday', reduce: 'sum' },
  totalToday: { range: 'today', reduce: 'sum' },
  totalThisMonth: { range: 'thisMonth', reduce: 'sum' },
  lastOfYesterday: { range: 'yesterday', reduce: 'last' },
  lastOfDayBefore: { range: 'dayBefore', reduce: 'last' },
  lastOfLastMonth: { range: 'lastMonth', reduce: 'last' },
  lastOfMonthBefore: { range: 'monthBefore', reduce: 'last' },
};
const RANGE_REDUCE: Partial<Record<AcquisitionMethod, Reduce>> = {
  rangeSum: 'sum',
  rangeAvg: 'avg',
  rangeMax: 'max',
  rangeMin: 'min',
};

/**
 * The window and reduction of a method. Range methods need `range` (and from/to for 'period');
 * a missing or bad one throws TimeRangeError (key 'timeRangeInvalid').
 */
export function methodWindow(
  method: AcquisitionMethod,
  now: number,
  tz: string = DEFAULT_TIME_ZONE,
  range?: TimeRange,
  from?: number | string | null,
  to?: number | string | null,
): MethodWindow {
  if (method === 'latest') return { from: EARLIEST_INSTANT, to: now + 1, reduce: 'last' };
  const fixed = FIXED[method];
  if (fixed) return { ...rangeBounds(fixed.range, now, tz), reduce: fixed.reduce };
  const reduce = RANGE_REDUCE[method];
  if (!reduce) throw new TypeError(`unknown acquisition method ${String(method)}`);
  if (!range) throw new TimeRangeError('range');
  return { ...rangeBounds(range, now, tz, from, to), reduce };
}

/** Index of the first point with ts >= t in a series sorted by ts. */
function lowerBound(series: readonly SeriesPoint[], t: number): number {
  let lo = 0;
  let hi = series.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (series[mid]!.ts < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The points of a sorted series inside [from, to). */
export function windowPoints(
  series: readonly SeriesPoint[],
  from: number,
  to: number,
): readonly SeriesPoint[] {
  return series.slice(lowerBound(series, from), lowerBound(series, to));
}

/** Reduces values in series order; null when there are none. */
export function reduceValues(reduce: Reduce, values: readonly number[]): number | null {
  if (values.length === 0) return null;
  switch (reduce) {
    case 'last':
      return values[values.length - 1]!;
    case 'max':
      return values.reduce((a, b) => (b > a ? b : a));
    case 'min':
      return values.reduce((a, b) => (b < a ? b : a));
    case 'sum':
      return values.reduce((a, b) => a + b, 0);
    case 'avg':
      return values.reduce((a, b) => a + b, 0) / values.length;
  }
}

/** One method over a series sorted by ts (ties keep their order: the later one is "last"). */
export function acquire(
  method: AcquisitionMethod,
  series: readonly SeriesPoint[],
  opts: AcquireOptions,
): number | null {
  const w = methodWindow(method, opts.now, opts.tz ?? DEFAULT_TIME_ZONE, opts.range, opts.from, opts.to);
  return reduceValues(
    w.reduce,
    windowPoints(series, w.from, w.to).map((p) => p.value),
  );
}

/** Combines several sources' results; nulls are ignored, all null gives null. */
export function combine(aggregate: Aggregate, values: readonly (number | null | undefined)[]): number | null {
  const present = values.filter((v): v is number => typeof v === 'number' && !Number.isNaN(v));
  return reduceValues(aggregate === 'SUM' ? 'sum' : aggregate === 'MAX' ? 'max' : 'min', present);
}
