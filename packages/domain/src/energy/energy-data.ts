/**
 * The energy data platform (issue 13 point 5, /energy): four pages over one view, each a kind of
 * record of a site for a day or a month (coal, gas and steam consumed, steam produced), with
 * the energy kind whose standard coal factor converts it (coal.ts) and the page's menu code.
 * Pure checks of a record's values and the ranges a chosen range is compared with.
 */
import { addCalendarMonths } from '../business/subscription';
import { addCalendarDays, isCalendarDate } from '../devices/records';
import type { Lang } from '../errors';
import type { EnergyKind } from './coal';

export const ENERGY_DATA_KINDS = ['coal', 'gas', 'steamConsume', 'steamOutput'] as const;
export type EnergyDataKind = (typeof ENERGY_DATA_KINDS)[number];

export interface EnergyDataKindInfo {
  /** the page's path under /energy, and the kind's segment of its API paths */
  path: 'coal' | 'gas' | 'steamconsume' | 'steamoutput';
  /** the page's menu code */
  code: 'edp_coal' | 'edp_gas' | 'edp_steam_consume' | 'edp_steam_output';
  /** the energy kind whose coal factor converts it */
  energy: EnergyKind;
  unit: string;
  direction: 'consume' | 'output';
  label: Record<Lang, string>;
}

export const ENERGY_DATA_KIND_INFO: Record<EnergyDataKind, EnergyDataKindInfo> = {
  coal: {
    path: 'coal',
    code: 'edp_coal',
    energy: 'rawCoal',
    unit: 't',
    direction: 'consume',
    label: { zh: '耗煤', en: 'Coal consumed' },
  },
  gas: {
    path: 'gas',
    code: 'edp_gas',
    energy: 'naturalGas',
    unit: 'm³',
    direction: 'consume',
    label: { zh: '耗气', en: 'Gas consumed' },
  },
  steamConsume: {
    path: 'steamconsume',
    code: 'edp_steam_consume',
    energy: 'steam',
    unit: 't',
    direction: 'consume',
    label: { zh: '耗汽', en: 'Steam consumed' },
  },
  steamOutput: {
    path: 'steamoutput',
    code: 'edp_steam_output',
    energy: 'steam',
    unit: 't',
    direction: 'output',
    label: { zh: '产汽', en: 'Steam produced' },
  },
};

export const ENERGY_SITE_TYPES = ['plant', 'boilerHouse', 'workshop'] as const;
export type EnergySiteType = (typeof ENERGY_SITE_TYPES)[number];

export const ENERGY_PERIOD_TYPES = ['day', 'month'] as const;
export type EnergyPeriodType = (typeof ENERGY_PERIOD_TYPES)[number];

export const ENERGY_RECORD_SOURCES = ['entry', 'import', 'item'] as const;
export type EnergyRecordSource = (typeof ENERGY_RECORD_SOURCES)[number];

/** The largest quantity a record takes (a billion tonnes or m³ is a typing error). */
export const ENERGY_QUANTITY_MAX = 1e9;

export type EnergyValueCheck<T> =
  | { ok: true; value: T }
  | { ok: false; field: string; key: 'energyQuantity' | 'energyPeriodFuture' | 'validation' };

/** A quantity in the kind's unit: a finite number greater than 0, at most ENERGY_QUANTITY_MAX. */
export function checkEnergyQuantity(quantity: unknown): EnergyValueCheck<number> {
  if (
    typeof quantity !== 'number' ||
    !Number.isFinite(quantity) ||
    quantity <= 0 ||
    quantity > ENERGY_QUANTITY_MAX
  )
    return { ok: false, field: 'quantity', key: 'energyQuantity' };
  return { ok: true, value: quantity };
}

/**
 * A record's period as stored: a day YYYY-MM-DD, or a month (YYYY-MM or any of its days) as
 * its first day. The period must have begun by `today` (the company's calendar day).
 */
export function checkEnergyPeriod(
  periodType: EnergyPeriodType,
  periodOn: string,
  today: string,
): EnergyValueCheck<string> {
  const text = periodType === 'month' && /^\d{4}-\d{2}$/.test(periodOn) ? `${periodOn}-01` : periodOn;
  if (!isCalendarDate(text)) return { ok: false, field: 'periodOn', key: 'validation' };
  const value = periodType === 'month' ? `${text.slice(0, 7)}-01` : text;
  if (value > today) return { ok: false, field: 'periodOn', key: 'energyPeriodFuture' };
  return { ok: true, value };
}

/** The last day of the month of `day`. */
export function monthEnd(day: string): string {
  return addCalendarDays(addCalendarMonths(`${day.slice(0, 7)}-01`, 1), -1);
}

/** Days from `from` to `to`, both counted. */
function dayCount(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

export interface DayRange {
  from: string;
  to: string;
}

/**
 * The ranges a chosen range [from, to] is compared with: the period just before it, of the
 * same length (whole months when the range is whole months: January–March before April–June),
 * and the same range a year before (29 February falls on the 28th).
 */
export function comparisonRanges(from: string, to: string): { previous: DayRange; lastYear: DayRange } {
  const wholeMonths = from.endsWith('-01') && to === monthEnd(to);
  let previous: DayRange;
  if (wholeMonths) {
    const months =
      (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 +
      (Number(to.slice(5, 7)) - Number(from.slice(5, 7))) +
      1;
    previous = { from: addCalendarMonths(from, -months), to: addCalendarDays(from, -1) };
  } else {
    const days = dayCount(from, to);
    previous = { from: addCalendarDays(from, -days), to: addCalendarDays(from, -1) };
  }
  const lastYear = {
    from: addCalendarMonths(from, -12),
    to: wholeMonths ? monthEnd(addCalendarMonths(`${to.slice(0, 7)}-01`, -12)) : addCalendarMonths(to, -12),
  };
  return { previous, lastYear };
}
