import { describe, expect, it } from 'vitest';
import {
  ctRatio,
  energyAcrossReplacement,
  energyBetween,
  energyWithRollover,
  METER_TYPES,
  meterKindOf,
  ptRatio,
  registerCapacity,
  splitAtReplacement,
} from './meter';

describe('meter types', () => {
  it('knows 101 standard and 100 virtual, nothing else', () => {
    expect(METER_TYPES).toEqual({ standard: 101, virtual: 100 });
    expect([101, 100, 102, 0].map(meterKindOf)).toEqual(['standard', 'virtual', null, null]);
  });
});

describe('transformer ratios', () => {
  it('divides primary by secondary', () => {
    expect(ctRatio(200, 5)).toEqual({ ok: true, ratio: 40 });
    expect(ptRatio(10_000, 100)).toEqual({ ok: true, ratio: 100 });
    expect(ctRatio(75, 5)).toEqual({ ok: true, ratio: 15 });
  });

  it('refuses sides that are not positive finite numbers', () => {
    expect(ctRatio(0, 5)).toEqual({ ok: false, reason: 'notPositive', field: 'primary' });
    expect(ctRatio(200, -5)).toEqual({ ok: false, reason: 'notPositive', field: 'secondary' });
    expect(ptRatio(10_000, Number.NaN)).toEqual({ ok: false, reason: 'notFinite', field: 'secondary' });
    expect(ptRatio(Number.POSITIVE_INFINITY, 100)).toEqual({
      ok: false,
      reason: 'notFinite',
      field: 'primary',
    });
  });
});

describe('energy between two readings', () => {
  it('gives the domain-facts month exactly: 12345.67 → 12678.90, CT 200/5, PT 10000/100', () => {
    // 333.23 × 40 × 100; unrounded, binary floating point would give 1332919.9999999…
    expect(energyBetween(12_345.67, 12_678.9, { ct: 40, pt: 100 })).toEqual({ ok: true, kWh: 1_332_920 });
  });

  it('without transformers is the register difference', () => {
    expect(energyBetween(0.1, 0.3)).toEqual({ ok: true, kWh: 0.2 });
    expect(energyBetween(500, 500)).toEqual({ ok: true, kWh: 0 });
  });

  it('refuses a decrease, a non-number and a bad ratio', () => {
    expect(energyBetween(100, 99.99)).toEqual({ ok: false, reason: 'decrease', field: 'last' });
    expect(energyBetween(Number.NaN, 1)).toEqual({ ok: false, reason: 'notFinite', field: 'first' });
    expect(energyBetween(1, 2, { ct: 0, pt: 1 })).toEqual({ ok: false, reason: 'notPositive', field: 'ct' });
  });
});

describe('register rollover', () => {
  it('counts a wrap of a 99999.99 register', () => {
    expect(registerCapacity(5)).toBe(100_000);
    // 99990.00 → 99999.99 is 9.99, 99999.99 → 00012.34 wraps: 0.01 + 12.34 = 12.35; 22.34 in all
    expect(energyWithRollover([99_990, 99_999.99, 12.34], 100_000, { ct: 40, pt: 1 })).toEqual({
      ok: true,
      registerDelta: 22.34,
      kWh: 893.6,
      rollovers: [2],
    });
  });

  it('is the plain difference when nothing wraps, and zero for one reading', () => {
    expect(energyWithRollover([10, 20.5, 30], 100_000)).toEqual({
      ok: true,
      registerDelta: 20,
      kWh: 20,
      rollovers: [],
    });
    expect(energyWithRollover([10], 100_000)).toEqual({ ok: true, registerDelta: 0, kWh: 0, rollovers: [] });
  });

  it('refuses a decrease that is no plausible rollover', () => {
    // wrapped, 50000 → 49990 would be an advance of 99990: the register went back
    expect(energyWithRollover([50_000, 49_990], 100_000)).toEqual({
      ok: false,
      reason: 'decrease',
      field: 'readings',
      index: 1,
    });
    // with a plausible step of 10, the wrap of 12.35 is too much
    expect(energyWithRollover([99_999.99, 12.34], 100_000, undefined, { maxStep: 10 })).toMatchObject({
      ok: false,
      reason: 'decrease',
      index: 1,
    });
    expect(energyWithRollover([100, 200], 100_000, undefined, { maxStep: 50 })).toEqual({
      ok: false,
      reason: 'jump',
      field: 'readings',
      index: 1,
    });
  });

  it('refuses readings outside the register and a bad capacity', () => {
    expect(energyWithRollover([5, 100_000], 100_000)).toMatchObject({
      ok: false,
      reason: 'outOfRange',
      index: 1,
    });
    expect(energyWithRollover([-1], 100_000)).toMatchObject({ ok: false, reason: 'outOfRange', index: 0 });
    expect(energyWithRollover([1], 0)).toEqual({ ok: false, reason: 'notPositive', field: 'capacity' });
  });
});

describe('meter replacement', () => {
  const readings = [
    { at: 1, value: 1000 },
    { at: 2, value: 1100 },
    { at: 4, value: 30.5 },
    { at: 5, value: 80.5 },
  ];
  const replacement = { at: 3, oldFinal: 1150, newInitial: 0.5 };

  it('splits the series at the replacement', () => {
    expect(splitAtReplacement(readings, replacement)).toEqual({
      before: [
        { at: 1, value: 1000 },
        { at: 2, value: 1100 },
        { at: 3, value: 1150 },
      ],
      after: [
        { at: 3, value: 0.5 },
        { at: 4, value: 30.5 },
        { at: 5, value: 80.5 },
      ],
    });
  });

  it('adds the old meter up to its final reading to the new one from its initial reading', () => {
    // 1000 → 1150 is 150, 0.5 → 80.5 is 80: 230, where last − first would be 80.5 − 1000
    expect(energyAcrossReplacement(readings, replacement, { ct: 1, pt: 1 })).toEqual({
      ok: true,
      kWh: 230,
      oldKWh: 150,
      newKWh: 80,
    });
    // the new meter came with a 300/5 CT: 150 × 40 + 80 × 60
    expect(energyAcrossReplacement(readings, replacement, { ct: 40, pt: 1 }, { ct: 60, pt: 1 })).toEqual({
      ok: true,
      kWh: 10_800,
      oldKWh: 6000,
      newKWh: 4800,
    });
  });

  it('refuses a final reading below the last one and an initial reading above the first one', () => {
    expect(energyAcrossReplacement(readings, { ...replacement, oldFinal: 1050 }, { ct: 1, pt: 1 })).toEqual({
      ok: false,
      reason: 'replacement',
      field: 'oldFinal',
    });
    expect(energyAcrossReplacement(readings, { ...replacement, newInitial: 40 }, { ct: 1, pt: 1 })).toEqual({
      ok: false,
      reason: 'replacement',
      field: 'newInitial',
    });
  });

  it('lets an old register wrap before its final reading', () => {
    const wrapped = [
      { at: 1, value: 99_900 },
      { at: 4, value: 10 },
    ];
    const r = energyAcrossReplacement(
      wrapped,
      { at: 3, oldFinal: 50, newInitial: 0 },
      { ct: 1, pt: 1, capacity: 100_000 },
      { ct: 1, pt: 1 },
    );
    // 99900 → 100000 → 50 is 150, 0 → 10 is 10
    expect(r).toEqual({ ok: true, kWh: 160, oldKWh: 150, newKWh: 10 });
  });
});
