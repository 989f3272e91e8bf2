/**
 * How the grid-tied photovoltaic string inverter (`pvInverter`, models.ts holds its register
 * map) moves: a roof of panels on a 25 kW inverter under the sun of a day in China (UTC+8).
 *
 * - The light: nothing at night, a half-sine from 06:00 to 18:30 local time, highest at 12:15;
 *   each day a little clearer or hazier than the next (90-100 % of a clear day), clouds passing
 *   (another 0-10 % less, moving every five minutes).
 * - DC power: 21-22 kW (by seed) at a clear noon times the light; below 50 W the inverter waits
 *   in standby (status 0, no power), above it it is grid-connected and generating (status 1).
 * - AC power: DC power × the efficiency, 96 % at the lightest load rising to 98.5 % at a third
 *   of the rating and easing to 98 % near full load: about 20 kW at noon.
 * - Daily yield: the integral of the AC power since local midnight, by trapezoids on a
 *   five-minute grid and straight between its points, so it only grows during a day and is back
 *   at 0 at midnight (a clear day makes about 150 kWh).
 * - Total yield: 18 650.4 kWh at the local midnight that began 2024, plus every day's yield
 *   since: it only grows, by exactly the daily yield during a day.
 * - Internal temperature: the room's 18-28 °C over the day plus up to 18 °C at full load.
 * - String voltage: 2-3 V at night, 560-715 V in daylight (higher in brighter light), whenever
 *   it generates.
 *
 * Status 2 (fault) and 3 (shut down) are in the map as real inverters have them; the simulated
 * one never faults nor is shut down.
 */
import type { Lookup, SlaveParams } from './models';
import {
  DAY,
  daily,
  HOUR,
  hash01,
  localDay,
  localMidnight,
  MINUTE,
  noise,
  SECOND_MS,
  seeded,
  sunBell,
} from './signals';

export const PV_STATUS = { standby: 0, generating: 1, fault: 2, shutDown: 3 } as const;

/** The inverter's rated AC power, kW. */
export const PV_RATED_KW = 25;
/** Local hours of sunrise and sunset. */
export const PV_SUNRISE = 6;
export const PV_SUNSET = 18.5;
/** The lifetime yield at PV_TOTAL_FROM (kWh). */
export const PV_TOTAL_START = 18_650.4;
/** Local midnight beginning 2024-01-01 in China. */
export const PV_TOTAL_FROM = Date.UTC(2023, 11, 31, 16);
/** The efficiency's bounds while generating. */
export const PV_EFFICIENCY = { min: 0.96, max: 0.985 } as const;

/** Below this DC power (kW) the inverter waits in standby. */
const MIN_DC_KW = 0.05;
/** The yields' integration grid, and the clouds' step: five minutes. */
const GRID = 5 * MINUTE;
const CELLS = DAY / GRID;
const FROM_DAY = localDay(PV_TOTAL_FROM);

/** How much of a clear noon's light reaches the panels at `t` (0-1). */
function light(seed: number, t: number): number {
  const sun = sunBell(t, PV_SUNRISE, PV_SUNSET);
  if (sun <= 0) return 0;
  const clarity = 0.9 + 0.1 * hash01(seed ^ 0x5017, localDay(t));
  const clouds = 1 - 0.05 * (1 + noise(seed + 7, t, GRID));
  return sun * clarity * clouds;
}

/** The DC input power (kW): 0 in standby. */
function dcKw(seed: number, t: number): number {
  const dc = seeded(seed, 1, 21, 22) * light(seed, t);
  return dc >= MIN_DC_KW ? dc : 0;
}

/** The conversion efficiency (0-1) at a load of `fraction` of the rating. */
export function pvEfficiency(fraction: number): number {
  const x = Math.min(1, Math.max(0, fraction));
  return PV_EFFICIENCY.max - 0.025 * Math.exp(-x / 0.08) - 0.006 * x * x;
}

function acKw(seed: number, t: number): number {
  const dc = dcKw(seed, t);
  return dc * pvEfficiency(dc / PV_RATED_KW);
}

/** The AC energy of the local day `day` at each grid point (kWh from its midnight). */
const curves = new Map<string, Float64Array>();
function dayCurve(seed: number, day: number): Float64Array {
  const key = `${seed}/${day}`;
  let curve = curves.get(key);
  if (curve) return curve;
  curve = new Float64Array(CELLS + 1);
  const midnight = localMidnight(day);
  let before = acKw(seed, midnight);
  for (let k = 1; k <= CELLS; k++) {
    const now = acKw(seed, midnight + k * GRID);
    curve[k] = curve[k - 1]! + ((before + now) / 2) * (GRID / HOUR);
    before = now;
  }
  // a few days of a few slaves: the oldest goes first
  if (curves.size >= 64) curves.delete(curves.keys().next().value!);
  curves.set(key, curve);
  return curve;
}

/** A whole day's yield (kWh), as dayCurve ends, without keeping the curve. */
function dayTotal(seed: number, day: number): number {
  const midnight = localMidnight(day);
  let sum = 0;
  let before = acKw(seed, midnight);
  for (let k = 1; k <= CELLS; k++) {
    const now = acKw(seed, midnight + k * GRID);
    sum += ((before + now) / 2) * (GRID / HOUR);
    before = now;
  }
  return sum;
}

function dailyYield(seed: number, t: number): number {
  const day = localDay(t);
  const curve = dayCurve(seed, day);
  const x = (t - localMidnight(day)) / GRID;
  const k = Math.floor(x);
  if (k >= CELLS) return curve[CELLS]!;
  return curve[k]! + (curve[k + 1]! - curve[k]!) * (x - k);
}

/** By seed: the sum of the whole days' yields from FROM_DAY, [0, day 0, days 0-1, …]. */
const sums = new Map<number, number[]>();
function yieldBefore(seed: number, day: number): number {
  const i = day - FROM_DAY;
  if (i < 0) {
    let sum = 0;
    for (let d = day; d < FROM_DAY; d++) sum -= dayTotal(seed, d);
    return sum;
  }
  let list = sums.get(seed);
  if (!list) {
    if (sums.size >= 256) sums.clear();
    list = [0];
    sums.set(seed, list);
  }
  while (list.length <= i) list.push(list.at(-1)! + dayTotal(seed, FROM_DAY + list.length - 1));
  return list[i]!;
}

/** The physical value of an inverter's measurement at `t`; settings come from the slave. */
export function pvValue(name: string, t: number, p: SlaveParams, get: Lookup): number {
  const s = p.seed;
  switch (name) {
    case 'dcPower':
      return dcKw(s, t);
    case 'acPower':
      return acKw(s, t);
    case 'efficiency': {
      const dc = dcKw(s, t);
      return dc > 0 ? 100 * pvEfficiency(dc / PV_RATED_KW) : 0;
    }
    case 'status':
      return dcKw(s, t) > 0 ? PV_STATUS.generating : PV_STATUS.standby;
    case 'dailyYield':
      return dailyYield(s, t);
    case 'totalYield':
      return Math.max(0, PV_TOTAL_START + yieldBefore(s, localDay(t)) + dailyYield(s, t));
    case 'temperature': {
      const room = 23 + seeded(s, 3, -2, 2) + 3 * daily(t, 15);
      return room + 18 * (acKw(s, t) / PV_RATED_KW) + 0.3 * noise(s + 3, t, 2 * MINUTE);
    }
    case 'dcVoltage': {
      const g = light(s, t);
      if (g <= 0) return 2.5 + 0.5 * noise(s + 5, t, MINUTE);
      const v = 560 + 150 * Math.sqrt(g) + 4 * noise(s + 5, t, 30 * SECOND_MS);
      // the string wakes up in the first half-minute of light (and sleeps in the last), before
      // there is enough of it to generate
      return v * Math.min(1, g / 0.002);
    }
    default:
      return get(name);
  }
}
