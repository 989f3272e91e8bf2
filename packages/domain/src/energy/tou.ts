/**
 * China time-of-use electricity (issue 13): the sharp-peak, peak, flat and valley periods
 * (尖/峰/平/谷), a company's schedule of local hours for each, the period of an instant, energy
 * split by period and its cost.
 *
 * A schedule gives each period a list of hour ranges of the local day, in the company's zone:
 * { from: 8, to: 11 } is 08:00 up to 11:00, { from: 23, to: 7 } runs past midnight, 11.5 is
 * 11:30 (whole minutes only). Together the ranges cover the 24 hours exactly once. Provinces set
 * the hours, so there is no default schedule. Hours are wall-clock hours: in a zone with daylight
 * saving the valley of 00:00–08:00 lasts 7 hours on the spring-forward day and 9 on the
 * fall-back day.
 *
 * Prices are integer cents per kWh; a cost is rounded to whole cents per period, half away from
 * zero. The rule that the peak price be at least 3 times the valley price (4 times where the
 * peak-valley load difference exceeds 40 %) is a warning, not a refusal: the tariff is the
 * grid's, the platform only points out one that looks mistyped.
 */

import { DEFAULT_TIME_ZONE, offsetAt, zonedParts } from '../data/time';
import { roundTo } from '../data/values';
import type { Lang } from '../errors';
import { READING_DECIMALS } from './meter';

export const TOU_PERIODS = ['sharp', 'peak', 'flat', 'valley'] as const;
export type TouPeriod = (typeof TOU_PERIODS)[number];

export const TOU_PERIOD_LABELS: Record<TouPeriod, Record<Lang, string>> = {
  sharp: { zh: '尖', en: 'sharp peak' },
  peak: { zh: '峰', en: 'peak' },
  flat: { zh: '平', en: 'flat' },
  valley: { zh: '谷', en: 'valley' },
};

/** Local hours [from, to); to ≤ from runs past midnight. 0 ≤ from < 24, 0 < to ≤ 24. */
export interface HourRange {
  from: number;
  to: number;
}

/** A company's time-of-use hours: the ranges of each period (a period may have none). */
export type TouSchedule = Partial<Record<TouPeriod, readonly HourRange[]>>;

export type TouScheduleIssue =
  /** A range that is not within the day, not whole minutes, or empty. */
  | { reason: 'range'; period: TouPeriod; index: number }
  /** Hours no period covers, [from, to) in hours. */
  | { reason: 'gap'; from: number; to: number }
  /** Hours two ranges cover (the same period twice, or two periods). */
  | { reason: 'overlap'; from: number; to: number; periods: [TouPeriod, TouPeriod] };

const DAY_MINUTES = 1440;

function toMinute(hours: number): number | null {
  if (!Number.isFinite(hours)) return null;
  const minutes = Math.round(hours * 60);
  return Math.abs(hours * 60 - minutes) < 1e-6 ? minutes : null;
}

/** The minutes a range covers, or null for a range that is not one. */
function rangeMinutes(range: HourRange): number[] | null {
  const from = toMinute(range.from);
  const to = toMinute(range.to);
  if (from === null || to === null || from < 0 || from >= DAY_MINUTES || to <= 0 || to > DAY_MINUTES)
    return null;
  if (from === to) return null;
  const minutes: number[] = [];
  const end = to > from ? to : to + DAY_MINUTES;
  for (let m = from; m < end; m++) minutes.push(m % DAY_MINUTES);
  return minutes;
}

interface Coverage {
  owners: (TouPeriod | null)[];
  issue: TouScheduleIssue | null;
}

function cover(schedule: TouSchedule): Coverage {
  const owners: (TouPeriod | null)[] = new Array(DAY_MINUTES).fill(null);
  const second: (TouPeriod | null)[] = new Array(DAY_MINUTES).fill(null);
  for (const period of TOU_PERIODS) {
    const ranges = schedule[period] ?? [];
    for (let index = 0; index < ranges.length; index++) {
      const minutes = rangeMinutes(ranges[index]!);
      if (!minutes) return { owners, issue: { reason: 'range', period, index } };
      for (const m of minutes) {
        if (owners[m] === null) owners[m] = period;
        else if (second[m] === null) second[m] = period;
      }
    }
  }
  // the first gap or overlap of the day, as the run of minutes it lasts
  for (let m = 0; m < DAY_MINUTES; m++) {
    const owner = owners[m] ?? null;
    const other = second[m] ?? null;
    if (owner !== null && other === null) continue;
    let end = m + 1;
    while (end < DAY_MINUTES && owners[end] === owner && second[end] === other) end++;
    const from = m / 60;
    const to = end / 60;
    return {
      owners,
      issue:
        owner === null
          ? { reason: 'gap', from, to }
          : { reason: 'overlap', from, to, periods: [owner, other as TouPeriod] },
    };
  }
  return { owners, issue: null };
}

/** Whether the schedule covers every minute of the day exactly once; else its first fault. */
export function validateTouSchedule(
  schedule: TouSchedule,
): { ok: true } | ({ ok: false } & TouScheduleIssue) {
  const { issue } = cover(schedule);
  return issue ? { ok: false, ...issue } : { ok: true };
}

const tables = new WeakMap<TouSchedule, Coverage>();

function coverage(schedule: TouSchedule): Coverage {
  let c = tables.get(schedule);
  if (!c) {
    c = cover(schedule);
    tables.set(schedule, c);
  }
  return c;
}

function minuteOfDay(instantMs: number, tz: string): number {
  const w = zonedParts(instantMs, tz);
  return w.hour * 60 + w.minute;
}

/** The period an instant falls in by the local clock of the zone; null when the schedule is not valid. */
export function periodAt(
  schedule: TouSchedule,
  instantMs: number,
  tz: string = DEFAULT_TIME_ZONE,
): TouPeriod | null {
  const { owners, issue } = coverage(schedule);
  if (issue) return null;
  return owners[minuteOfDay(instantMs, tz)] ?? null;
}

/**
 * The period at an instant and the instant it ends: the next local minute the schedule changes
 * period, or an earlier change of the zone's UTC offset (after which the wall clock reads
 * other hours, so the period is looked up again).
 */
function runAt(
  owners: readonly (TouPeriod | null)[],
  t: number,
  tz: string,
): { period: TouPeriod | null; until: number } {
  const w = zonedParts(t, tz);
  const minute = w.hour * 60 + w.minute;
  const period = owners[minute] ?? null;
  let next = minute + 1;
  while (next < DAY_MINUTES && owners[next] === period) next++;
  const wallMs = (minute * 60 + w.second) * 1000 + w.millisecond;
  let until = t + (next * 60_000 - wallMs);
  const offset = offsetAt(t, tz);
  if (offsetAt(until - 1, tz) !== offset) {
    let lo = t;
    let hi = until - 1;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(mid, tz) === offset) lo = mid;
      else hi = mid;
    }
    until = hi;
  }
  return { period, until };
}

/** Energy over a span of time: kWh used from start up to end (instants, ms). */
export interface EnergyInterval {
  start: number;
  end: number;
  kWh: number;
}

export type TouEnergy = Record<TouPeriod, number>;

export type SplitResult =
  | { ok: true; kWh: TouEnergy }
  | { ok: false; reason: 'schedule'; issue: TouScheduleIssue }
  | { ok: false; reason: 'interval'; index: number };

/**
 * kWh per period. An interval that crosses a period boundary is split in proportion to the time
 * it spends in each period (its energy is taken as spread evenly over it). Intervals must have
 * end > start and a finite energy; the schedule must be valid. Sums are rounded to
 * READING_DECIMALS against binary noise.
 */
export function splitByPeriod(
  intervals: readonly EnergyInterval[],
  schedule: TouSchedule,
  tz: string = DEFAULT_TIME_ZONE,
): SplitResult {
  const { owners, issue } = coverage(schedule);
  if (issue) return { ok: false, reason: 'schedule', issue };
  const sums: TouEnergy = { sharp: 0, peak: 0, flat: 0, valley: 0 };
  for (let index = 0; index < intervals.length; index++) {
    const { start, end, kWh } = intervals[index]!;
    if (!Number.isFinite(start) || !Number.isFinite(end) || !(end > start) || !Number.isFinite(kWh))
      return { ok: false, reason: 'interval', index };
    let t = start;
    while (t < end) {
      const run = runAt(owners, t, tz);
      const stop = Math.min(run.until, end);
      sums[run.period as TouPeriod] += (kWh * (stop - t)) / (end - start);
      t = stop;
    }
  }
  for (const period of TOU_PERIODS) sums[period] = roundTo(sums[period], READING_DECIMALS);
  return { ok: true, kWh: sums };
}

/** Integer cents per kWh for each period the tariff has. */
export type TouPrices = Partial<Record<TouPeriod, number>>;

export type TouCostResult =
  | { ok: true; cents: TouEnergy; totalCents: number }
  /** A period with energy but no price, or a price that is not a whole number of cents ≥ 0. */
  | { ok: false; reason: 'price'; period: TouPeriod };

/** The cost of energy per period at the tariff's prices: whole cents per period, and their sum. */
export function touCost(kWh: Partial<TouEnergy>, prices: TouPrices): TouCostResult {
  const cents: TouEnergy = { sharp: 0, peak: 0, flat: 0, valley: 0 };
  let totalCents = 0;
  for (const period of TOU_PERIODS) {
    const energy = kWh[period] ?? 0;
    const price = prices[period];
    if (price === undefined) {
      if (energy !== 0) return { ok: false, reason: 'price', period };
      continue;
    }
    if (!Number.isSafeInteger(price) || price < 0) return { ok: false, reason: 'price', period };
    cents[period] = roundTo(energy * price, 0);
    totalCents += cents[period];
  }
  return { ok: true, cents, totalCents };
}

export type TouPriceWarning =
  /** peak ÷ valley below the minimum (3, or 4 with a large peak-valley load difference). */
  | { key: 'peakValleyRatio'; ratio: number; min: number }
  /** A period priced below the next cheaper one (sharp ≥ peak ≥ flat ≥ valley). */
  | { key: 'periodOrder'; period: TouPeriod; cheaper: TouPeriod };

/**
 * Warnings about a tariff: a peak:valley ratio below 3:1 (4:1 when the peak-valley load
 * difference exceeds 40 %: largeLoadGap) and periods out of order. The ratio is given to two
 * decimals.
 */
export function touPriceWarnings(
  prices: TouPrices,
  options: { largeLoadGap?: boolean } = {},
): TouPriceWarning[] {
  const warnings: TouPriceWarning[] = [];
  const min = options.largeLoadGap ? 4 : 3;
  const { peak, valley } = prices;
  if (peak !== undefined && valley !== undefined && valley > 0 && peak < min * valley)
    warnings.push({ key: 'peakValleyRatio', ratio: roundTo(peak / valley, 2), min });
  const priced = TOU_PERIODS.filter((p) => prices[p] !== undefined);
  for (let i = 0; i + 1 < priced.length; i++) {
    const period = priced[i]!;
    const cheaper = priced[i + 1]!;
    if (prices[period]! < prices[cheaper]!) warnings.push({ key: 'periodOrder', period, cheaper });
  }
  return warnings;
}
