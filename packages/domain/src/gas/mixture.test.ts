import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  certifiedComposition,
  compositionFromMasses,
  fillTargets,
  MOLAR_MASSES,
  molarMassOf,
  purityTable,
  verifyComposition,
  type WeighedParent,
} from './mixture';

// domain-facts.md, "Gravimetric gas mixtures": 10 % CO2 in N2, 10 L, 10.0 MPa, 20 °C
const EXAMPLE = { composition: { CO2: 0.1, N2: 0.9 }, volumeL: 10, pressureMPa: 10, temperatureC: 20 };

const massOf = (target: { components: Array<{ component: string; massG: number }> }, c: string) =>
  target.components.find((x) => x.component === c)!.massG;

describe('filling targets (forward)', () => {
  it('ideal gas: n = 41.028 mol, CO2 180.56 g, N2 1034.41 g', () => {
    const result = fillTargets({ ...EXAMPLE, z: 1 });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value.totalMol.toFixed(3)).toBe('41.028');
    expect(massOf(result.value, 'CO2').toFixed(2)).toBe('180.56');
    expect(massOf(result.value, 'N2').toFixed(2)).toBe('1034.41');
  });

  it('with Z = 0.9705: n = 42.275 mol, CO2 186.05 g, N2 1065.86 g', () => {
    const result = fillTargets({ ...EXAMPLE, z: 0.9705 });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value.totalMol.toFixed(3)).toBe('42.275');
    expect(massOf(result.value, 'CO2').toFixed(2)).toBe('186.05');
    // the reference worked from n rounded to 42.275 mol (0.9 · 42.275 · 28.014 = 1065.86); from
    // the unrounded n (42.27468…) it is 1065.855: within that rounding, 0.01 g in a kilogram
    expect(Math.abs(massOf(result.value, 'N2') - 1065.86)).toBeLessThanOrEqual(0.011);
    expect(Math.abs(massOf(result.value, 'N2') - 0.9 * 42.275 * 28.014)).toBeLessThanOrEqual(0.011);
  });

  it('names every bad field and computes nothing', () => {
    const result = fillTargets({
      composition: { CO2: 0.1, N2: 0.8, XY: 0.1 },
      volumeL: 0,
      pressureMPa: -1,
      temperatureC: -300,
      z: Number.NaN,
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { field: 'composition.XY', reason: 'unknownComponent' },
      { field: 'volumeL', reason: 'notPositive' },
      { field: 'pressureMPa', reason: 'notPositive' },
      { field: 'z', reason: 'notPositive' },
      { field: 'temperatureC', reason: 'notPositive' },
    ]);
  });

  it('refuses a composition that does not sum to 1, and one with a fraction out of range', () => {
    const short = fillTargets({ ...EXAMPLE, composition: { CO2: 0.1, N2: 0.8 }, z: 1 });
    expect(short).toEqual({ ok: false, errors: [{ field: 'composition', reason: 'sumNotOne' }] });
    const negative = fillTargets({ ...EXAMPLE, composition: { CO2: -0.1, N2: 1.1 }, z: 1 });
    expect(negative.ok).toBe(false);
    if (!negative.ok)
      expect(negative.errors.map((e) => e.field)).toEqual(['composition.CO2', 'composition.N2']);
  });
});

describe('composition from weighed masses (inverse)', () => {
  it('carries the parents’ impurities: CO2 0.099998, N2 0.899993, O2 9.0 µmol/mol', () => {
    const result = compositionFromMasses([
      { name: 'CO2', massG: 186.05, composition: purityTable('CO2', { N2: 50e-6 }) },
      { name: 'N2', massG: 1065.86, composition: purityTable('N2', { O2: 10e-6 }) },
    ]);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value.CO2!.toFixed(6)).toBe('0.099998');
    expect(result.value.N2!.toFixed(6)).toBe('0.899993');
    expect((result.value.O2! * 1e6).toFixed(1)).toBe('9.0');
  });

  it('a purity table is its impurities and the rest of the main component', () => {
    expect(purityTable('N2', { O2: 10e-6 })).toEqual({ O2: 10e-6, N2: 1 - 10e-6 });
    expect(purityTable('Ar')).toEqual({ Ar: 1 });
  });

  it('names the parent whose mass or table is bad', () => {
    const result = compositionFromMasses([
      { name: 'CO2', massG: 10, composition: { CO2: 0.9 } },
      { name: 'N2', massG: 0, composition: { N2: 1 } },
    ]);
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: 'parents[0].composition', reason: 'sumNotOne' },
        { field: 'parents[1].massG', reason: 'notPositive' },
      ],
    });
    expect(compositionFromMasses([])).toEqual({ ok: false, errors: [{ field: 'parents', reason: 'empty' }] });
  });

  const components = Object.keys(MOLAR_MASSES);
  /** a composition of 1 to 4 distinct known components */
  const composition = fc
    .uniqueArray(fc.constantFrom(...components), { minLength: 1, maxLength: 4 })
    .chain((names) =>
      fc
        .array(fc.double({ min: 0.01, max: 1, noNaN: true }), {
          minLength: names.length,
          maxLength: names.length,
        })
        .map((weights) => {
          const sum = weights.reduce((a, b) => a + b, 0);
          return Object.fromEntries(names.map((n, i) => [n, weights[i]! / sum]));
        }),
    );

  it('filling pure parents with the forward masses certifies the target composition back', () => {
    fc.assert(
      fc.property(composition, fc.double({ min: 0.5, max: 1.2, noNaN: true }), (target, z) => {
        const fill = fillTargets({ composition: target, volumeL: 10, pressureMPa: 10, temperatureC: 20, z });
        if (!fill.ok) return false;
        const back = compositionFromMasses(
          fill.value.components.map((c) => ({
            name: c.component,
            massG: c.massG,
            composition: { [c.component]: 1 },
          })),
        );
        if (!back.ok) return false;
        for (const [c, x] of Object.entries(target)) expect(back.value[c]).toBeCloseTo(x, 12);
        return true;
      }),
    );
  });

  it('sums to 1 and does not change when every mass is scaled alike', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ composition, massG: fc.double({ min: 0.1, max: 5000, noNaN: true }) }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.double({ min: 0.01, max: 100, noNaN: true }),
        (parents, k) => {
          const named = parents.map((p, i) => ({ ...p, name: `p${i}` }));
          const a = compositionFromMasses(named);
          const b = compositionFromMasses(named.map((p) => ({ ...p, massG: p.massG * k })));
          if (!a.ok || !b.ok) return false;
          expect(Object.values(a.value).reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
          for (const [c, x] of Object.entries(a.value)) expect(b.value[c]).toBeCloseTo(x, 12);
          return true;
        },
      ),
    );
  });

  it('a mixture’s molar mass is the fraction-weighted mean', () => {
    expect(molarMassOf({ CO2: 0.1, N2: 0.9 })).toBeCloseTo(0.1 * 44.009 + 0.9 * 28.014, 12);
  });
});

describe('certified values with their uncertainty (k = 2)', () => {
  const M = MOLAR_MASSES;
  // two pure parents: x_a = (m_A/M_a) / (m_A/M_a + m_B/M_b), whose derivatives are, by hand,
  // ∂x_a/∂m_A = x_a·x_b/m_A, ∂x_a/∂m_B = −x_a·x_b/m_B, ∂x_a/∂M_a = −x_a·x_b/M_a, ∂x_a/∂M_b = x_a·x_b/M_b
  const pure: WeighedParent[] = [
    { name: 'CO2', massG: 186.05, composition: { CO2: 1 } },
    { name: 'N2', massG: 1065.86, composition: { N2: 1 } },
  ];
  const nA = 186.05 / M.CO2!;
  const nB = 1065.86 / M.N2!;
  const xa = nA / (nA + nB);
  const xb = 1 - xa;

  it('weighing alone: u(x) = x_a·x_b·√((u_A/m_A)² + (u_B/m_B)²), both components alike', () => {
    const result = certifiedComposition(pure, { massG: [0.005, 0.02] });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const expected = xa * xb * Math.hypot(0.005 / 186.05, 0.02 / 1065.86);
    for (const value of result.value) {
      expect(value.standard / expected).toBeCloseTo(1, 5);
      expect(value.expanded).toBe(2 * value.standard);
    }
    expect(result.value.find((v) => v.component === 'CO2')!.fraction).toBeCloseTo(xa, 12);
  });

  it('molar masses alone: u(x) = x_a·x_b·√((u(M_a)/M_a)² + (u(M_b)/M_b)²)', () => {
    const result = certifiedComposition(pure, { molarMass: { CO2: 0.001, N2: 0.0004 } });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const expected = xa * xb * Math.hypot(0.001 / M.CO2!, 0.0004 / M.N2!);
    expect(result.value[0]!.standard / expected).toBeCloseTo(1, 5);
  });

  it('an impurity’s analysis carries into the mixture by its parent’s share of the moles', () => {
    const parents = [
      { name: 'CO2', massG: 186.05, composition: purityTable('CO2', { N2: 50e-6 }) },
      { name: 'N2', massG: 1065.86, composition: purityTable('N2', { O2: 10e-6 }) },
    ];
    const result = certifiedComposition(parents, { fractions: [{}, { O2: 1e-6 }] });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    const o2 = result.value.find((v) => v.component === 'O2')!;
    const share =
      1065.86 /
      molarMassOf(parents[1]!.composition) /
      (186.05 / molarMassOf(parents[0]!.composition) + 1065.86 / molarMassOf(parents[1]!.composition));
    // moving O2 up moves N2 down in that parent: its molar mass barely changes, so the slope is the share
    expect(o2.standard / (share * 1e-6)).toBeCloseTo(1, 3);
    // the main component is the rest of the parent: its own entry is not an independent input
    const none = certifiedComposition(parents, { fractions: [{ CO2: 1e-3 }, {}] });
    if (!none.ok) throw new Error(JSON.stringify(none.errors));
    expect(none.value.every((v) => v.standard === 0)).toBe(true);
  });

  it('combines the sources as a root sum of squares', () => {
    const mass = certifiedComposition(pure, { massG: [0.005, 0.02] });
    const molar = certifiedComposition(pure, { molarMass: { CO2: 0.001 } });
    const both = certifiedComposition(pure, { massG: [0.005, 0.02], molarMass: { CO2: 0.001 } });
    if (!mass.ok || !molar.ok || !both.ok) throw new Error('refused');
    expect(both.value[0]!.standard).toBeCloseTo(
      Math.hypot(mass.value[0]!.standard, molar.value[0]!.standard),
      15,
    );
  });

  it('refuses what compositionFromMasses refuses', () => {
    expect(certifiedComposition([], {})).toEqual({
      ok: false,
      errors: [{ field: 'parents', reason: 'empty' }],
    });
  });
});

describe('verification against an analysis (ISO 6142-1)', () => {
  const co2 = { component: 'CO2', gravimetric: 0.1, gravimetricU: 0.0003 };

  it('passes when the difference is within √(U_grav² + U_anal²), fails beyond', () => {
    // U = √(0.0003² + 0.0004²) = 0.0005
    const inside = verifyComposition([{ ...co2, analysed: 0.1005, analysedU: 0.0004 }]);
    expect(inside.results[0]!.limit).toBeCloseTo(0.0005, 15);
    expect(inside.results[0]!.ratio).toBeCloseTo(1, 9);
    const outside = verifyComposition([{ ...co2, analysed: 0.09945, analysedU: 0.0004 }]);
    expect(outside.results[0]).toMatchObject({ passed: false });
    expect(outside.results[0]!.ratio).toBeCloseTo(1.1, 9);
    expect(outside.results[0]!.difference).toBeCloseTo(-0.00055, 15);
    expect(verifyComposition([{ ...co2, analysed: 0.1002, analysedU: 0.0004 }]).passed).toBe(true);
  });

  it('one component out fails the cylinder; nothing to check is not a pass', () => {
    const result = verifyComposition([
      { ...co2, analysed: 0.1001, analysedU: 0.0004 },
      { component: 'O2', gravimetric: 9e-6, gravimetricU: 1e-6, analysed: 15e-6, analysedU: 2e-6 },
    ]);
    expect(result.results.map((r) => r.passed)).toEqual([true, false]);
    expect(result.passed).toBe(false);
    expect(verifyComposition([]).passed).toBe(false);
  });

  it('with no uncertainty at all only equal values pass', () => {
    const exact = { component: 'N2', gravimetric: 0.9, gravimetricU: 0, analysedU: 0 };
    expect(verifyComposition([{ ...exact, analysed: 0.9 }]).passed).toBe(true);
    expect(verifyComposition([{ ...exact, analysed: 0.9000001 }]).passed).toBe(false);
  });
});
