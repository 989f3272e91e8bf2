/**
 * Energy data records filled from a data item's number field (docs/energy-data.md, source
 * `item`): the quantity of each company day from the field's readings, in one of two modes.
 *
 * - `counter`: the field is a cumulative reading (a gas meter's total m³, a steam flow
 *   totaliser). A day's quantity is the reading at its end minus the reading at its start, each
 *   the last reading at or before the boundary. When there is no reading at or before the
 *   day's start (the meter's history begins that day), the day starts at its own first
 *   reading: what was counted before the first reading is not known, so it is not guessed. A
 *   reading lower than the one before (a reset or a replaced meter) is a new start: the day's
 *   quantity is the sum of its increases, reading to reading. A reading exactly at midnight
 *   ends the day before and starts the day it opens.
 * - `sum`: each reading is a quantity of its own period (a shift's or an hour's consumption);
 *   a day's quantity is the sum of the readings taken in it, [start, end).
 *
 * A day with no reading of its own (counter: none in (start, end]; sum: none in [start, end))
 * has no quantity (null): no record is written for it, and it is not a day of zero.
 */
import { roundTo } from '../data/values';

export const ENERGY_FILL_MODES = ['counter', 'sum'] as const;
export type EnergyFillMode = (typeof ENERGY_FILL_MODES)[number];

/** The most days one fill covers (a leap year). */
export const ENERGY_FILL_MAX_DAYS = 366;

/** Decimals kept of a day's quantity (binary noise sits around the 10th). */
export const FILL_DECIMALS = 6;

export interface FieldReading {
  /** epoch ms */
  at: number;
  value: number;
}

/**
 * The quantity of each day [bounds[i], bounds[i + 1]) from a field's readings: one entry per
 * day (bounds.length − 1 of them), null for a day without readings. `bounds` ascend (the
 * company's midnights, dayStartInstant of each day and of the day after the last); readings
 * may come in any order, and those that are not finite numbers are left out.
 */
export function dayQuantities(
  readings: readonly FieldReading[],
  bounds: readonly number[],
  mode: EnergyFillMode,
): Array<number | null> {
  const sorted = readings
    .filter((r) => Number.isFinite(r.at) && Number.isFinite(r.value))
    .sort((x, y) => x.at - y.at);
  const out: Array<number | null> = [];
  let k = 0;
  for (let i = 0; i + 1 < bounds.length; i += 1) {
    const start = bounds[i]!;
    const end = bounds[i + 1]!;
    if (mode === 'sum') {
      while (k < sorted.length && sorted[k]!.at < start) k += 1;
      let total = 0;
      let seen = false;
      for (let j = k; j < sorted.length && sorted[j]!.at < end; j += 1) {
        total += sorted[j]!.value;
        seen = true;
      }
      out.push(seen ? roundTo(total, FILL_DECIMALS) : null);
      continue;
    }
    // counter: from the last reading at or before the start, through the readings up to the end
    while (k < sorted.length && sorted[k]!.at <= start) k += 1;
    let previous = k > 0 ? sorted[k - 1]!.value : null;
    let total = 0;
    let seen = false;
    for (let j = k; j < sorted.length && sorted[j]!.at <= end; j += 1) {
      const value = sorted[j]!.value;
      if (previous !== null && value > previous) total += value - previous;
      previous = value;
      seen = true;
    }
    out.push(seen ? roundTo(total, FILL_DECIMALS) : null);
  }
  return out;
}

/** A unit factor (kg → t is 0.001): a positive finite number. */
export function isFillFactor(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}
