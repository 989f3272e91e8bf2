/**
 * Electricity meters (issue 13): the two meter types, CT and PT ratios, and the energy a
 * cumulative register gives between two readings, across a register rollover and across a
 * meter replacement.
 *
 *   energy (kWh) = (last reading − first reading) × CT ratio × PT ratio
 *
 * 12345.67 → 12678.90 with CT 200/5 (×40) and PT 10000/100 (×100) is 1 332 920 kWh. In binary
 * floating point the difference is 333.2299999…, so the register difference is rounded to
 * READING_DECIMALS (far below any register's resolution, far above the noise) and the energy to
 * KWH_DECIMALS (a watt-hour): the example then comes out as exactly 1332920.
 *
 * A register that counts past its capacity wraps to zero (a 99999.99 register reads 00012.34
 * after 99999.99 + 12.35): a decrease is a rollover only when the wrapped advance is plausible,
 * anything else is refused, never guessed. A replaced meter ends with its final reading and the
 * new one starts at its initial reading: each meter's energy is counted on its own register and
 * the two add up.
 */

import { roundTo } from '../data/values';
import type { Lang } from '../errors';

/** Meter type codes as the product stores them: 101 standard (a physical meter), 100 virtual (a formula). */
export const METER_TYPES = { standard: 101, virtual: 100 } as const;
export type MeterKind = keyof typeof METER_TYPES;
export type MeterTypeCode = (typeof METER_TYPES)[MeterKind];

export const METER_KIND_LABELS: Record<MeterKind, Record<Lang, string>> = {
  standard: { zh: '标准电表', en: 'standard meter' },
  virtual: { zh: '虚拟电表', en: 'virtual meter' },
};

/** The kind of a stored type code, or null for a code the product does not know. */
export function meterKindOf(code: number): MeterKind | null {
  if (code === METER_TYPES.standard) return 'standard';
  if (code === METER_TYPES.virtual) return 'virtual';
  return null;
}

/** Decimals kept of a register difference (binary noise sits around the 10th). */
export const READING_DECIMALS = 6;
/** Decimals kept of an energy in kWh: a watt-hour. */
export const KWH_DECIMALS = 3;

export interface MeterRatios {
  /** Current transformer ratio, primary / secondary (200/5 → 40); 1 without a CT. */
  ct: number;
  /** Voltage (potential) transformer ratio, primary / secondary (10000/100 → 100); 1 without a PT. */
  pt: number;
}

export const NO_TRANSFORMERS: MeterRatios = { ct: 1, pt: 1 };

export type RatioResult =
  | { ok: true; ratio: number }
  | { ok: false; reason: 'notFinite' | 'notPositive'; field: 'primary' | 'secondary' };

/**
 * A transformer ratio from its nameplate, primary over secondary: CT 200 A / 5 A = 40,
 * PT 10 000 V / 100 V = 100. Both sides must be positive finite numbers.
 */
export function transformerRatio(primary: number, secondary: number): RatioResult {
  for (const [field, value] of [
    ['primary', primary],
    ['secondary', secondary],
  ] as const) {
    if (!Number.isFinite(value)) return { ok: false, reason: 'notFinite', field };
    if (value <= 0) return { ok: false, reason: 'notPositive', field };
  }
  return { ok: true, ratio: primary / secondary };
}

/** A current transformer's ratio (200 A / 5 A = 40). */
export const ctRatio = transformerRatio;
/** A voltage transformer's ratio (10 000 V / 100 V = 100). */
export const ptRatio = transformerRatio;

export type EnergyRefusal =
  | { reason: 'notFinite'; field: 'first' | 'last' | 'ct' | 'pt' | 'capacity' | 'readings'; index?: number }
  | { reason: 'notPositive'; field: 'ct' | 'pt' | 'capacity' }
  /** The register went down and that is not a rollover (or no capacity was given). */
  | { reason: 'decrease'; field: 'last' | 'readings'; index?: number }
  /** A reading outside the register, below zero or at/above its capacity. */
  | { reason: 'outOfRange'; field: 'readings'; index: number }
  /** An advance above the plausible step the caller gave. */
  | { reason: 'jump'; field: 'readings'; index: number }
  | { reason: 'replacement'; field: 'oldFinal' | 'newInitial' };

export type EnergyResult = { ok: true; kWh: number } | ({ ok: false } & EnergyRefusal);

function checkRatios(ratios: MeterRatios): EnergyRefusal | null {
  for (const field of ['ct', 'pt'] as const) {
    if (!Number.isFinite(ratios[field])) return { reason: 'notFinite', field };
    if (ratios[field] <= 0) return { reason: 'notPositive', field };
  }
  return null;
}

function scale(registerDelta: number, ratios: MeterRatios): number {
  return roundTo(roundTo(registerDelta, READING_DECIMALS) * ratios.ct * ratios.pt, KWH_DECIMALS);
}

/**
 * Energy in kWh between two readings of a cumulative register: (last − first) × CT × PT.
 * A decrease is refused: a rollover needs energyWithRollover and the register's capacity.
 */
export function energyBetween(
  first: number,
  last: number,
  ratios: MeterRatios = NO_TRANSFORMERS,
): EnergyResult {
  if (!Number.isFinite(first)) return { ok: false, reason: 'notFinite', field: 'first' };
  if (!Number.isFinite(last)) return { ok: false, reason: 'notFinite', field: 'last' };
  const bad = checkRatios(ratios);
  if (bad) return { ok: false, ...bad };
  const delta = roundTo(last - first, READING_DECIMALS);
  if (delta < 0) return { ok: false, reason: 'decrease', field: 'last' };
  return { ok: true, kWh: scale(delta, ratios) };
}

/** The capacity of a register with this many integer digits: 5 digits (99999.99) wrap at 100000. */
export function registerCapacity(integerDigits: number): number {
  return 10 ** integerDigits;
}

export interface RolloverOptions {
  /**
   * The largest advance the register can plausibly make between two consecutive readings, in
   * register units. A decrease counts as a rollover only when its wrapped advance
   * (capacity − previous + next) stays within it, and a forward step above it is refused as a
   * jump. Default: half the capacity, and forward steps are not checked.
   */
  maxStep?: number;
}

export type RolloverResult =
  | {
      ok: true;
      /** The register's total advance over the series, in register units. */
      registerDelta: number;
      kWh: number;
      /** Indexes of the readings that came after a wrap (the 00012.34 of 99999.99 → 00012.34). */
      rollovers: number[];
    }
  | ({ ok: false } & EnergyRefusal);

/**
 * Energy over a series of readings of one register in time order, where the register wraps to
 * zero at `capacity` (100000 for a 99999.99 register, see registerCapacity). Each step's advance
 * is next − previous, or capacity − previous + next when the register went down and that wrapped
 * advance is plausible (at most options.maxStep, default capacity / 2). Any other decrease is
 * refused with the index of the reading: a reset, a replacement or a misread needs a person.
 */
export function energyWithRollover(
  readings: readonly number[],
  capacity: number,
  ratios: MeterRatios = NO_TRANSFORMERS,
  options: RolloverOptions = {},
): RolloverResult {
  if (!Number.isFinite(capacity)) return { ok: false, reason: 'notFinite', field: 'capacity' };
  if (capacity <= 0) return { ok: false, reason: 'notPositive', field: 'capacity' };
  const bad = checkRatios(ratios);
  if (bad) return { ok: false, ...bad };
  const maxWrap = options.maxStep ?? capacity / 2;
  let total = 0;
  const rollovers: number[] = [];
  for (let i = 0; i < readings.length; i++) {
    const value = readings[i]!;
    if (!Number.isFinite(value)) return { ok: false, reason: 'notFinite', field: 'readings', index: i };
    if (value < 0 || value >= capacity)
      return { ok: false, reason: 'outOfRange', field: 'readings', index: i };
    if (i === 0) continue;
    const step = roundTo(value - readings[i - 1]!, READING_DECIMALS);
    if (step >= 0) {
      if (options.maxStep !== undefined && step > options.maxStep)
        return { ok: false, reason: 'jump', field: 'readings', index: i };
      total += step;
    } else {
      const wrapped = roundTo(capacity + step, READING_DECIMALS);
      if (wrapped > maxWrap) return { ok: false, reason: 'decrease', field: 'readings', index: i };
      total += wrapped;
      rollovers.push(i);
    }
  }
  const registerDelta = roundTo(total, READING_DECIMALS);
  return { ok: true, registerDelta, kWh: scale(registerDelta, ratios), rollovers };
}

/** A register reading at an instant (ms since the epoch). */
export interface MeterReading {
  at: number;
  value: number;
}

/** A meter swapped for another at an instant: the old one's last reading, the new one's first. */
export interface MeterReplacement {
  at: number;
  oldFinal: number;
  newInitial: number;
}

/**
 * A reading series split at a replacement: the old meter's readings before the instant closed
 * by its final reading, and the new meter's opened by its initial reading followed by its
 * readings after the instant. Readings at the very instant are left out: the replacement's two
 * readings stand for it.
 */
export function splitAtReplacement(
  readings: readonly MeterReading[],
  replacement: MeterReplacement,
): { before: MeterReading[]; after: MeterReading[] } {
  const sorted = [...readings].sort((a, b) => a.at - b.at);
  return {
    before: [
      ...sorted.filter((r) => r.at < replacement.at),
      { at: replacement.at, value: replacement.oldFinal },
    ],
    after: [
      { at: replacement.at, value: replacement.newInitial },
      ...sorted.filter((r) => r.at > replacement.at),
    ],
  };
}

/** One physical meter's register: its ratios and, when it can wrap, its capacity. */
export interface MeterRegister extends MeterRatios {
  capacity?: number;
}

export type ReplacementResult =
  | { ok: true; kWh: number; oldKWh: number; newKWh: number }
  | ({ ok: false } & EnergyRefusal);

function seriesEnergy(values: readonly number[], register: MeterRegister): RolloverResult {
  if (register.capacity !== undefined) return energyWithRollover(values, register.capacity, register);
  for (let i = 0; i < values.length; i++) {
    if (!Number.isFinite(values[i])) return { ok: false, reason: 'notFinite', field: 'readings', index: i };
    if (i > 0 && roundTo(values[i]! - values[i - 1]!, READING_DECIMALS) < 0)
      return { ok: false, reason: 'decrease', field: 'readings', index: i };
  }
  const first = values[0] ?? 0;
  const last = values.at(-1) ?? first;
  const r = energyBetween(first, last, register);
  if (!r.ok) return r;
  return { ok: true, registerDelta: roundTo(last - first, READING_DECIMALS), kWh: r.kWh, rollovers: [] };
}

/**
 * Energy over a series that spans a meter replacement: the old meter's energy up to its final
 * reading plus the new meter's from its initial reading, each with its own ratios (a new meter
 * may come with other transformers). A final reading below the old meter's last, or an initial
 * reading above the new meter's first, is refused (unless the old register can wrap).
 */
export function energyAcrossReplacement(
  readings: readonly MeterReading[],
  replacement: MeterReplacement,
  oldMeter: MeterRegister,
  newMeter: MeterRegister = oldMeter,
): ReplacementResult {
  const { before, after } = splitAtReplacement(readings, replacement);
  const old = seriesEnergy(
    before.map((r) => r.value),
    oldMeter,
  );
  if (!old.ok)
    return old.reason === 'decrease' && old.index === before.length - 1
      ? { ok: false, reason: 'replacement', field: 'oldFinal' }
      : old;
  const next = seriesEnergy(
    after.map((r) => r.value),
    newMeter,
  );
  if (!next.ok)
    return next.reason === 'decrease' && next.index === 1
      ? { ok: false, reason: 'replacement', field: 'newInitial' }
      : next;
  return { ok: true, kWh: roundTo(old.kWh + next.kWh, KWH_DECIMALS), oldKWh: old.kWh, newKWh: next.kWh };
}
