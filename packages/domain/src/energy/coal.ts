/**
 * Standard coal equivalent (issue 13, the energy data platform: coal, gas, steam consumed and
 * steam produced): amounts of each energy kind in tonnes of standard coal equivalent (tce), and
 * the change of a figure against the previous period or the same period a year before.
 *
 *   1 kgce = 7000 kcal = 29 307.6 kJ, so 1 tce = 29.3076 GJ
 *   raw coal 0.7143 tce/t · natural gas 1.2143 kgce/m³ · electricity (equivalent value)
 *   0.1229 kgce/kWh · heat 1/29.3076 tce/GJ (0.0341 to three figures, 0.03412 as GB/T 2589 prints it)
 *   steam: tonnes → GJ by enthalpy (h_steam − h_feedwater); saturated steam at 1.1 MPa abs,
 *   about 2781 kJ/kg, with feedwater at 20 °C, 83.9 kJ/kg, is 2.697 GJ/t (about 2.70)
 *
 * Heat is converted by the definition rather than by the rounded 0.0341: 500 GJ is then
 * 17.06 tce as the reference example has it (0.0341 would give 17.05). The factors are a default
 * table a company may override kind by kind. Results are rounded to TCE_DECIMALS against binary
 * noise.
 */
import { roundTo } from '../data/values';
import type { Lang } from '../errors';

export const ENERGY_KINDS = ['rawCoal', 'naturalGas', 'electricity', 'heat', 'steam'] as const;
export type EnergyKind = (typeof ENERGY_KINDS)[number];

export const ENERGY_KIND_LABELS: Record<EnergyKind, Record<Lang, string> & { unit: string }> = {
  rawCoal: { zh: '原煤', en: 'raw coal', unit: 't' },
  naturalGas: { zh: '天然气', en: 'natural gas', unit: 'm³' },
  electricity: { zh: '电力', en: 'electricity', unit: 'kWh' },
  heat: { zh: '热力', en: 'heat', unit: 'GJ' },
  steam: { zh: '蒸汽', en: 'steam', unit: 't' },
};

/** GJ in one tonne of standard coal equivalent: 1000 kg × 29 307.6 kJ. */
export const GJ_PER_TCE = 29.3076;

/** Decimals kept of a tce figure (a gram of coal equivalent). */
export const TCE_DECIMALS = 6;

/** The heat one tonne of steam carries, GJ/t, from its enthalpy and the feedwater's (kJ/kg). */
export function steamGjPerTonne(steamEnthalpyKjPerKg: number, feedwaterEnthalpyKjPerKg: number): number {
  return roundTo((steamEnthalpyKjPerKg - feedwaterEnthalpyKjPerKg) / 1000, TCE_DECIMALS);
}

/** Saturated steam at 1.1 MPa abs (about 2781 kJ/kg) over feedwater at 20 °C (83.9 kJ/kg). */
export const DEFAULT_STEAM_GJ_PER_TONNE = steamGjPerTonne(2781, 83.9);

/** tce per unit of each kind (per t, m³, kWh, GJ, t of steam). */
export type CoalFactors = Record<EnergyKind, number>;

export const DEFAULT_COAL_FACTORS: CoalFactors = {
  rawCoal: 0.7143,
  naturalGas: 1.2143 / 1000,
  electricity: 0.1229 / 1000,
  heat: 1 / GJ_PER_TCE,
  steam: DEFAULT_STEAM_GJ_PER_TONNE / GJ_PER_TCE,
};

export type CoalFactorsResult =
  | { ok: true; factors: CoalFactors }
  | { ok: false; reason: 'factor'; field: EnergyKind };

/** A company's factors: the default table with its own where it has them (positive, finite). */
export function coalFactors(overrides: Partial<CoalFactors> = {}): CoalFactorsResult {
  const factors = { ...DEFAULT_COAL_FACTORS };
  for (const kind of ENERGY_KINDS) {
    const own = overrides[kind];
    if (own === undefined) continue;
    if (!Number.isFinite(own) || own <= 0) return { ok: false, reason: 'factor', field: kind };
    factors[kind] = own;
  }
  return { ok: true, factors };
}

export type TceResult =
  | { ok: true; tce: number }
  | { ok: false; reason: 'notFinite'; field: 'amount' | 'factor' };

/** An amount of one kind (in its unit) in tce. Negative amounts (corrections) convert as they are. */
export function toTce(
  kind: EnergyKind,
  amount: number,
  factors: CoalFactors = DEFAULT_COAL_FACTORS,
): TceResult {
  if (!Number.isFinite(amount)) return { ok: false, reason: 'notFinite', field: 'amount' };
  const factor = factors[kind];
  if (!Number.isFinite(factor)) return { ok: false, reason: 'notFinite', field: 'factor' };
  return { ok: true, tce: roundTo(amount * factor, TCE_DECIMALS) };
}

/**
 * A figure against an earlier one (the previous period, or the same period a year before):
 * the absolute change and the change in percent of the earlier figure's size; the percent is
 * null when the earlier figure is 0. Both are rounded to TCE_DECIMALS against binary noise.
 */
export function periodChange(
  current: number,
  previous: number,
): { absolute: number; percent: number | null } {
  const absolute = roundTo(current - previous, TCE_DECIMALS);
  return {
    absolute,
    percent: previous === 0 ? null : roundTo((absolute / Math.abs(previous)) * 100, TCE_DECIMALS),
  };
}
