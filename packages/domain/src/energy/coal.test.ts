import { describe, expect, it } from 'vitest';
import { roundTo } from '../data/values';
import {
  coalFactors,
  DEFAULT_COAL_FACTORS,
  DEFAULT_STEAM_GJ_PER_TONNE,
  periodChange,
  steamGjPerTonne,
  toTce,
} from './coal';

describe('standard coal equivalent', () => {
  it('converts every example of the reference', () => {
    expect(toTce('rawCoal', 1000)).toEqual({ ok: true, tce: 714.3 });
    expect(toTce('naturalGas', 100_000)).toEqual({ ok: true, tce: 121.43 });
    expect(toTce('electricity', 10_000)).toEqual({ ok: true, tce: 1.229 });
    const heat = toTce('heat', 500);
    expect(heat.ok && roundTo(heat.tce, 2)).toBe(17.06);
    expect(heat).toEqual({ ok: true, tce: 17.060421 });
  });

  it('derives heat from 1 kgce = 29 307.6 kJ; the rounded 0.0341 would give 17.05', () => {
    expect(roundTo(DEFAULT_COAL_FACTORS.heat, 4)).toBe(0.0341);
    expect(roundTo(DEFAULT_COAL_FACTORS.heat, 5)).toBe(0.03412);
    const rounded = coalFactors({ heat: 0.0341 });
    expect(rounded.ok && toTce('heat', 500, rounded.factors)).toEqual({ ok: true, tce: 17.05 });
  });

  it('takes steam through its enthalpy: about 2.70 GJ/t for 1.1 MPa saturated steam over 20 °C feedwater', () => {
    expect(DEFAULT_STEAM_GJ_PER_TONNE).toBe(2.6971);
    expect(roundTo(DEFAULT_STEAM_GJ_PER_TONNE, 2)).toBe(2.7);
    expect(steamGjPerTonne(2781, 83.9)).toBe(2.6971);
    // 100 t of steam = 269.71 GJ = 9.2027 tce
    const steam = toTce('steam', 100);
    expect(steam.ok && roundTo(steam.tce, 4)).toBe(9.2027);
  });

  it('lets a company override a factor, and refuses one that is not positive', () => {
    const own = coalFactors({ rawCoal: 0.8 });
    expect(own.ok && own.factors.rawCoal).toBe(0.8);
    expect(own.ok && own.factors.naturalGas).toBe(DEFAULT_COAL_FACTORS.naturalGas);
    expect(own.ok && toTce('rawCoal', 1000, own.factors)).toEqual({ ok: true, tce: 800 });
    expect(coalFactors({ naturalGas: 0 })).toEqual({ ok: false, reason: 'factor', field: 'naturalGas' });
    expect(coalFactors({ heat: Number.NaN })).toEqual({ ok: false, reason: 'factor', field: 'heat' });
  });

  it('refuses an amount that is not a number', () => {
    expect(toTce('rawCoal', Number.NaN)).toEqual({ ok: false, reason: 'notFinite', field: 'amount' });
    expect(toTce('rawCoal', -10)).toEqual({ ok: true, tce: -7.143 });
  });
});

describe('period-over-period and year-over-year change', () => {
  it('gives the absolute change and the percent of the earlier figure', () => {
    expect(periodChange(121.43, 100)).toEqual({ absolute: 21.43, percent: 21.43 });
    expect(periodChange(90, 120)).toEqual({ absolute: -30, percent: -25 });
    expect(periodChange(0.3, 0.1)).toEqual({ absolute: 0.2, percent: 200 });
    expect(periodChange(5, 5)).toEqual({ absolute: 0, percent: 0 });
  });

  it('has no percent against zero', () => {
    expect(periodChange(714.3, 0)).toEqual({ absolute: 714.3, percent: null });
    expect(periodChange(0, 0)).toEqual({ absolute: 0, percent: null });
  });

  it('measures against the size of a negative earlier figure', () => {
    expect(periodChange(-50, -100)).toEqual({ absolute: 50, percent: 50 });
  });
});
