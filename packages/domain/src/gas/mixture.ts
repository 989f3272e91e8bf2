/**
 * Gravimetric gas mixtures (ISO 6142-1, GB/T 5274.1; shared/reference/domain-facts.md).
 *
 * - Forward, for filling: a target composition, the cylinder's water volume, the fill pressure,
 *   the temperature and the mixture's compressibility give the amount of substance in the
 *   cylinder, n = pV / (Z·R·T), and from it the mass of each component, m_i = x_i · n · M_i.
 *   Pressure only guides the filling.
 * - Inverse, for certification: the weighed mass of each parent gas and its purity table (the
 *   amount fraction of every component it holds, impurities included) give the mixture's
 *   composition:
 *
 *       x_i = Σ_A [ x_{i,A} · m_A / M_A ] / Σ_A [ m_A / M_A ],   M_A = Σ_j x_{j,A} · M_j
 *
 *   so an impurity of a parent (oxygen in the nitrogen, say) is carried into the mixture.
 *
 * Pure functions of numbers: bad input is answered with the field it is about, never thrown.
 */

/** J/(mol·K), the 2019 SI value */
export const GAS_CONSTANT = 8.314462618;

/** g/mol, from the CIAAW abridged atomic weights (domain-facts.md); editable per company */
export const MOLAR_MASSES: Readonly<Record<string, number>> = {
  N2: 28.014,
  O2: 31.998,
  CO2: 44.009,
  CO: 28.01,
  CH4: 16.043,
  H2: 2.016,
  Ar: 39.95,
  He: 4.0026,
  C3H8: 44.097,
  NO: 30.006,
  SO2: 64.058,
};

/** amount fractions by component, summing to 1 */
export type Composition = Record<string, number>;

/** A refused input: the field it is about and why (a key of the catalogue's gas messages). */
export interface GasInputError {
  field: string;
  reason: 'notPositive' | 'fractionRange' | 'sumNotOne' | 'unknownComponent' | 'empty';
}

export type GasResult<T> = { ok: true; value: T } | { ok: false; errors: GasInputError[] };

/** How far a composition's fractions may sum from 1 (rounding of a purity table's entries). */
export const SUM_TOLERANCE = 1e-6;

function checkComposition(
  field: string,
  composition: Composition,
  molarMasses: Readonly<Record<string, number>>,
): GasInputError[] {
  const entries = Object.entries(composition);
  if (entries.length === 0) return [{ field, reason: 'empty' }];
  const errors: GasInputError[] = [];
  let sum = 0;
  for (const [component, x] of entries) {
    if (!(component in molarMasses) || !(molarMasses[component]! > 0))
      errors.push({ field: `${field}.${component}`, reason: 'unknownComponent' });
    if (!Number.isFinite(x) || x < 0 || x > 1)
      errors.push({ field: `${field}.${component}`, reason: 'fractionRange' });
    else sum += x;
  }
  if (errors.length === 0 && Math.abs(sum - 1) > SUM_TOLERANCE) errors.push({ field, reason: 'sumNotOne' });
  return errors;
}

function positive(field: string, value: number): GasInputError[] {
  return Number.isFinite(value) && value > 0 ? [] : [{ field, reason: 'notPositive' }];
}

/** The molar mass of a gas of this composition, g/mol. */
export function molarMassOf(composition: Composition, molarMasses = MOLAR_MASSES): number {
  let m = 0;
  for (const [component, x] of Object.entries(composition)) m += x * molarMasses[component]!;
  return m;
}

export interface FillInput {
  /** the target composition */
  composition: Composition;
  /** the cylinder's water volume, litres */
  volumeL: number;
  /** the final pressure, MPa absolute */
  pressureMPa: number;
  temperatureC: number;
  /** the mixture's compressibility factor at that pressure and temperature (1: ideal gas) */
  z: number;
}

export interface FillTarget {
  /** amount of substance in the cylinder, mol */
  totalMol: number;
  components: Array<{ component: string; fraction: number; mol: number; massG: number }>;
}

/** Forward: what to weigh in for a target composition (domain-facts: n = pV / (Z·R·T)). */
export function fillTargets(input: FillInput, molarMasses = MOLAR_MASSES): GasResult<FillTarget> {
  const errors = [
    ...checkComposition('composition', input.composition, molarMasses),
    ...positive('volumeL', input.volumeL),
    ...positive('pressureMPa', input.pressureMPa),
    ...positive('z', input.z),
  ];
  const kelvin = input.temperatureC + 273.15;
  if (!Number.isFinite(kelvin) || kelvin <= 0) errors.push({ field: 'temperatureC', reason: 'notPositive' });
  if (errors.length) return { ok: false, errors };
  // Pa · m³ / (J/(mol·K) · K) = mol
  const totalMol = (input.pressureMPa * 1e6 * (input.volumeL / 1000)) / (input.z * GAS_CONSTANT * kelvin);
  return {
    ok: true,
    value: {
      totalMol,
      components: Object.entries(input.composition).map(([component, fraction]) => {
        const mol = fraction * totalMol;
        return { component, fraction, mol, massG: mol * molarMasses[component]! };
      }),
    },
  };
}

/** A weighed parent gas: its mass and its purity table (every component it holds). */
export interface WeighedParent {
  name: string;
  massG: number;
  composition: Composition;
}

/**
 * A purity table as suppliers give it: the impurities (amount fractions) of a gas whose main
 * component is the rest. `{ main: 'N2', impurities: { O2: 10e-6 } }` → N2 0.99999, O2 0.00001.
 */
export function purityTable(main: string, impurities: Composition = {}): Composition {
  let rest = 1;
  for (const x of Object.values(impurities)) rest -= x;
  return { ...impurities, [main]: rest };
}

/** Inverse: the certified composition from the weighed masses (impurities carried). */
export function compositionFromMasses(
  parents: WeighedParent[],
  molarMasses = MOLAR_MASSES,
): GasResult<Composition> {
  if (parents.length === 0) return { ok: false, errors: [{ field: 'parents', reason: 'empty' }] };
  const errors = parents.flatMap((parent, i) => [
    ...positive(`parents[${i}].massG`, parent.massG),
    ...checkComposition(`parents[${i}].composition`, parent.composition, molarMasses),
  ]);
  if (errors.length) return { ok: false, errors };
  const moles: Record<string, number> = {};
  let total = 0;
  for (const parent of parents) {
    const n = parent.massG / molarMassOf(parent.composition, molarMasses);
    total += n;
    for (const [component, x] of Object.entries(parent.composition))
      moles[component] = (moles[component] ?? 0) + x * n;
  }
  const composition: Composition = {};
  for (const [component, n] of Object.entries(moles)) composition[component] = n / total;
  return { ok: true, value: composition };
}

/** Standard uncertainties of the inputs of `compositionFromMasses` (all optional, 0 when absent). */
export interface MixtureUncertainties {
  /** u(m_A), grams, by parent index: the weighing */
  massG?: number[];
  /** u(x_{j,A}), amount fraction, by parent index and component: the purity analysis */
  fractions?: Array<Record<string, number>>;
  /** u(M_j), g/mol, by component */
  molarMass?: Record<string, number>;
}

export interface CertifiedValue {
  component: string;
  fraction: number;
  /** combined standard uncertainty */
  standard: number;
  /** expanded uncertainty, k = 2 (what a certificate states) */
  expanded: number;
}

/**
 * The certified composition with its uncertainty (ISO 6142-1's law of propagation, first
 * order, inputs taken as uncorrelated): u²(x_i) = Σ_q (∂x_i/∂q)² u²(q) over every mass, purity
 * fraction and molar mass, each sensitivity by a central difference on `compositionFromMasses`
 * itself, so the uncertainty always belongs to the formula that made the value.
 */
export function certifiedComposition(
  parents: WeighedParent[],
  uncertainties: MixtureUncertainties,
  molarMasses = MOLAR_MASSES,
): GasResult<CertifiedValue[]> {
  const base = compositionFromMasses(parents, molarMasses);
  if (!base.ok) return base;
  const variance: Record<string, number> = Object.fromEntries(Object.keys(base.value).map((c) => [c, 0]));
  /** add (∂x/∂q · u)² for one input q: `shifted(±h)` gives the inputs with q moved by ±h */
  const propagate = (
    u: number,
    h: number,
    shifted: (delta: number) => { parents: WeighedParent[]; molarMasses: Record<string, number> },
  ) => {
    if (!(u > 0)) return;
    const up = shifted(h);
    const down = shifted(-h);
    const a = compositionFromMasses(up.parents, up.molarMasses);
    const b = compositionFromMasses(down.parents, down.molarMasses);
    if (!a.ok || !b.ok) return;
    for (const component of Object.keys(variance)) {
      const slope = ((a.value[component] ?? 0) - (b.value[component] ?? 0)) / (2 * h);
      variance[component]! += (slope * u) ** 2;
    }
  };
  const masses = { ...molarMasses };
  parents.forEach((parent, i) => {
    const uMass = uncertainties.massG?.[i] ?? 0;
    propagate(uMass, parent.massG * 1e-6, (d) => ({
      parents: parents.map((p, k) => (k === i ? { ...p, massG: p.massG + d } : p)),
      molarMasses: masses,
    }));
    for (const [component, uFraction] of Object.entries(uncertainties.fractions?.[i] ?? {})) {
      // a fraction moved alone would break the sum of 1: a purity analysis measures the
      // impurity, and the main component is the rest, so the main one moves the other way
      const main = Object.entries(parent.composition).reduce((m, e) => (e[1] > m[1] ? e : m))[0];
      if (component === main || !(component in parent.composition)) continue;
      propagate(uFraction, 1e-9, (d) => ({
        parents: parents.map((p, k) =>
          k === i
            ? {
                ...p,
                composition: {
                  ...p.composition,
                  [component]: p.composition[component]! + d,
                  [main]: p.composition[main]! - d,
                },
              }
            : p,
        ),
        molarMasses: masses,
      }));
    }
  });
  for (const [component, uM] of Object.entries(uncertainties.molarMass ?? {})) {
    if (!(component in masses)) continue;
    propagate(uM, masses[component]! * 1e-6, (d) => ({
      parents,
      molarMasses: { ...masses, [component]: masses[component]! + d },
    }));
  }
  return {
    ok: true,
    value: Object.entries(base.value).map(([component, fraction]) => {
      const standard = Math.sqrt(variance[component]!);
      return { component, fraction, standard, expanded: 2 * standard };
    }),
  };
}

/** One component's verification: the gravimetric value against an analysis of the cylinder. */
export interface Verification {
  component: string;
  /** the gravimetric value and its expanded uncertainty (k = 2) */
  gravimetric: number;
  gravimetricU: number;
  /** the analysis result and its expanded uncertainty (k = 2) */
  analysed: number;
  analysedU: number;
}

export interface VerificationResult extends Verification {
  difference: number;
  /** √(U_grav² + U_anal²): the largest difference the two uncertainties explain */
  limit: number;
  /** |difference| / limit: at most 1 passes */
  ratio: number;
  passed: boolean;
}

/**
 * ISO 6142-1's verification: a cylinder's composition is confirmed when, for every component,
 * the gravimetric and analysed values agree within their combined expanded uncertainties,
 * |x_grav − x_anal| ≤ √(U_grav² + U_anal²) (both at k = 2).
 */
export function verifyComposition(checks: Verification[]): {
  passed: boolean;
  results: VerificationResult[];
} {
  const results = checks.map((check) => {
    const difference = check.analysed - check.gravimetric;
    const limit = Math.hypot(check.gravimetricU, check.analysedU);
    const ratio = limit > 0 ? Math.abs(difference) / limit : difference === 0 ? 0 : Number.POSITIVE_INFINITY;
    return { ...check, difference, limit, ratio, passed: ratio <= 1 };
  });
  return { passed: results.length > 0 && results.every((r) => r.passed), results };
}
