import { describe, expect, it } from 'vitest';
import { coalFactors, DEFAULT_COAL_FACTORS, periodChange, toTce } from './coal';
import {
  checkEnergyPeriod,
  checkEnergyQuantity,
  comparisonRanges,
  ENERGY_DATA_KIND_INFO,
  monthEnd,
} from './energy-data';

describe('energy data records', () => {
  it('converts each page with its energy kind: the reference examples', () => {
    const tce = (kind: keyof typeof ENERGY_DATA_KIND_INFO, amount: number) =>
      toTce(ENERGY_DATA_KIND_INFO[kind].energy, amount, DEFAULT_COAL_FACTORS);
    expect(tce('coal', 1000)).toEqual({ ok: true, tce: 714.3 });
    expect(tce('gas', 100_000)).toEqual({ ok: true, tce: 121.43 });
    // 100 t of steam at 2.6971 GJ/t is 269.71 GJ, / 29.3076 GJ/tce = 9.202732 tce
    expect(tce('steamConsume', 100)).toEqual({ ok: true, tce: 9.202732 });
    expect(tce('steamOutput', 100)).toEqual({ ok: true, tce: 9.202732 });
    // a company's own coal factor
    const own = coalFactors({ rawCoal: 0.5714 });
    expect(own.ok && toTce('rawCoal', 1000, own.factors)).toEqual({ ok: true, tce: 571.4 });
  });

  it('takes a positive finite quantity only', () => {
    expect(checkEnergyQuantity(12.5)).toEqual({ ok: true, value: 12.5 });
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2e9, '3'])
      expect(checkEnergyQuantity(bad)).toMatchObject({ ok: false, field: 'quantity' });
  });

  it('stores a month as its first day, and refuses a period not yet begun', () => {
    expect(checkEnergyPeriod('month', '2025-03', '2025-03-10')).toEqual({ ok: true, value: '2025-03-01' });
    expect(checkEnergyPeriod('month', '2025-03-17', '2025-03-10')).toEqual({ ok: true, value: '2025-03-01' });
    expect(checkEnergyPeriod('day', '2025-03-10', '2025-03-10')).toEqual({ ok: true, value: '2025-03-10' });
    expect(checkEnergyPeriod('day', '2025-03-11', '2025-03-10')).toMatchObject({ key: 'energyPeriodFuture' });
    expect(checkEnergyPeriod('month', '2025-04', '2025-03-31')).toMatchObject({ key: 'energyPeriodFuture' });
    expect(checkEnergyPeriod('day', '2025-02-29', '2025-03-10')).toMatchObject({ key: 'validation' });
    expect(checkEnergyPeriod('day', '2025-03', '2025-03-10')).toMatchObject({ field: 'periodOn' });
  });

  it('compares whole months with the months before and a year before', () => {
    expect(monthEnd('2024-02-10')).toBe('2024-02-29');
    expect(comparisonRanges('2025-04-01', '2025-06-30')).toEqual({
      previous: { from: '2025-01-01', to: '2025-03-31' },
      lastYear: { from: '2024-04-01', to: '2024-06-30' },
    });
    expect(comparisonRanges('2025-03-01', '2025-03-31')).toEqual({
      previous: { from: '2025-02-01', to: '2025-02-28' },
      lastYear: { from: '2024-03-01', to: '2024-03-31' },
    });
    expect(comparisonRanges('2024-02-01', '2024-02-29').lastYear).toEqual({
      from: '2023-02-01',
      to: '2023-02-28',
    });
    // ten days: the ten days before
    expect(comparisonRanges('2025-03-05', '2025-03-14')).toEqual({
      previous: { from: '2025-02-23', to: '2025-03-04' },
      lastYear: { from: '2024-03-05', to: '2024-03-14' },
    });
  });

  it('reports the change in tce: 714.3 against 571.44 is +142.86, +25 %', () => {
    expect(periodChange(714.3, 571.44)).toEqual({ absolute: 142.86, percent: 25 });
  });
});
