/**
 * Gas blending (docs/business.md, "Gas blending"): the company's components and molar masses,
 * its parent gases with their purity tables, its mixture recipes, and the two calculations of
 * packages/domain/src/gas/mixture.ts on them. Every read and write is scoped to the company.
 */
import {
  type CertifiedValue,
  type Composition,
  certifiedComposition,
  type ErrorKey,
  type FillTarget,
  fillTargets,
  type GasInputError,
  type Lang,
  MOLAR_MASSES,
  molarMassOf,
  purityTable,
} from '@platform/domain';
import { and, asc, count, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { type Db, isUniqueViolation } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { likePattern } from '../../platform/like';
import { type SortQuery, sortedBy } from '../../platform/sorting';
import {
  gasComponents,
  gasProducts,
  gasReferenceMaterials,
  type Impurity,
  type ProductComponent,
  pureGases,
} from './tables';

/** The names the default components get, in the language of the company's first use. */
const DEFAULT_NAMES: Record<string, Record<Lang, string>> = {
  N2: { zh: '氮气', en: 'Nitrogen' },
  O2: { zh: '氧气', en: 'Oxygen' },
  CO2: { zh: '二氧化碳', en: 'Carbon dioxide' },
  CO: { zh: '一氧化碳', en: 'Carbon monoxide' },
  CH4: { zh: '甲烷', en: 'Methane' },
  H2: { zh: '氢气', en: 'Hydrogen' },
  Ar: { zh: '氩气', en: 'Argon' },
  He: { zh: '氦气', en: 'Helium' },
  C3H8: { zh: '丙烷', en: 'Propane' },
  NO: { zh: '一氧化氮', en: 'Nitric oxide' },
  SO2: { zh: '二氧化硫', en: 'Sulfur dioxide' },
};

/** Formulas: letters, digits and the signs of ions and isomers, e.g. CO2, C3H8, n-C4H10. */
const FORMULA = /^[A-Za-z][A-Za-z0-9()+-]{0,19}$/;

/** A refusal naming its field (and the component, where one is at fault). */
export function refuse(key: ErrorKey, field: string, params: Record<string, string | number> = {}): AppError {
  return new AppError(key, { field, ...params }, { field });
}

/** A domain refusal (mixture.ts names fields like `parents[1].massG`) as the catalogue's error. */
function domainRefusal(error: GasInputError): AppError {
  const component = /\.([^.[\]]+)$/.exec(error.field)?.[1] ?? '';
  switch (error.reason) {
    case 'notPositive':
      return refuse('gasNotPositive', error.field);
    case 'fractionRange':
      return refuse('gasFractionRange', error.field);
    case 'unknownComponent':
      return refuse('gasUnknownComponent', error.field, { component });
    default:
      return refuse('validation', error.field);
  }
}

// ------------------------------------------------------------------ components

export interface ComponentView {
  id: number;
  formula: string;
  name: string;
  molarMass: number;
  builtIn: boolean;
  usedBy: number;
}

/** Writes the default components on a company's first use (idempotent under races). */
export async function ensureComponents(db: Db, companyId: number, lang: Lang): Promise<void> {
  const [has] = await db
    .select({ id: gasComponents.id })
    .from(gasComponents)
    .where(eq(gasComponents.companyId, companyId))
    .limit(1);
  if (has) return;
  await db
    .insert(gasComponents)
    .values(
      Object.entries(MOLAR_MASSES).map(([formula, molarMass]) => ({
        companyId,
        formula,
        name: DEFAULT_NAMES[formula]?.[lang] ?? formula,
        molarMass,
        builtIn: true,
      })),
    )
    .onConflictDoNothing();
}

/** The company's molar masses by formula. */
export async function molarMasses(db: Db, companyId: number): Promise<Record<string, number>> {
  const rows = await db
    .select({ formula: gasComponents.formula, molarMass: gasComponents.molarMass })
    .from(gasComponents)
    .where(eq(gasComponents.companyId, companyId));
  return Object.fromEntries(rows.map((r) => [r.formula, r.molarMass]));
}

/** Where each formula is used: the names of the pure gases and products that hold it. */
async function usages(db: Db, companyId: number): Promise<Map<string, string[]>> {
  const [pure, products, references] = await Promise.all([
    db
      .select({ name: pureGases.name, main: pureGases.main, impurities: pureGases.impurities })
      .from(pureGases)
      .where(eq(pureGases.companyId, companyId)),
    db
      .select({ name: gasProducts.name, balance: gasProducts.balance, components: gasProducts.components })
      .from(gasProducts)
      .where(eq(gasProducts.companyId, companyId)),
    db
      .select({
        name: gasReferenceMaterials.name,
        balance: gasReferenceMaterials.balance,
        components: gasReferenceMaterials.components,
      })
      .from(gasReferenceMaterials)
      .where(eq(gasReferenceMaterials.companyId, companyId)),
  ]);
  const used = new Map<string, string[]>();
  const add = (formula: string, name: string) => {
    const names = used.get(formula) ?? [];
    if (!names.includes(name)) names.push(name);
    used.set(formula, names);
  };
  for (const p of pure) for (const f of [p.main, ...p.impurities.map((i) => i.component)]) add(f, p.name);
  for (const p of [...products, ...references])
    for (const f of [p.balance, ...p.components.map((c) => c.component)]) add(f, p.name);
  return used;
}

export async function listComponents(db: Db, companyId: number, lang: Lang): Promise<ComponentView[]> {
  await ensureComponents(db, companyId, lang);
  const [rows, used] = await Promise.all([
    db
      .select()
      .from(gasComponents)
      .where(eq(gasComponents.companyId, companyId))
      .orderBy(asc(gasComponents.formula)),
    usages(db, companyId),
  ]);
  return rows.map((r) => ({
    id: r.id,
    formula: r.formula,
    name: r.name,
    molarMass: r.molarMass,
    builtIn: r.builtIn,
    usedBy: used.get(r.formula)?.length ?? 0,
  }));
}

export interface ComponentInput {
  id?: number;
  formula: string;
  name: string;
  molarMass: number;
}

export async function saveComponent(db: Db, companyId: number, lang: Lang, input: ComponentInput) {
  const formula = input.formula.trim();
  const name = input.name.trim();
  if (!formula) throw refuse('fieldRequired', 'formula');
  if (!FORMULA.test(formula)) throw refuse('validation', 'formula');
  if (!name) throw refuse('fieldRequired', 'name');
  if (!(Number.isFinite(input.molarMass) && input.molarMass > 0)) throw refuse('gasNotPositive', 'molarMass');
  await ensureComponents(db, companyId, lang);
  const [taken] = await db
    .select({ id: gasComponents.id })
    .from(gasComponents)
    .where(and(eq(gasComponents.companyId, companyId), eq(gasComponents.formula, formula)));
  if (taken && taken.id !== input.id)
    throw new AppError('gasComponentTaken', { formula }, { field: 'formula' });
  try {
    if (input.id === undefined) {
      const [row] = await db
        .insert(gasComponents)
        .values({ companyId, formula, name, molarMass: input.molarMass })
        .returning({ id: gasComponents.id });
      return { id: row!.id };
    }
    const [before] = await db
      .select()
      .from(gasComponents)
      .where(and(eq(gasComponents.id, input.id), eq(gasComponents.companyId, companyId)));
    if (!before) throw new AppError('notFound', {}, { field: 'id' });
    if (before.formula !== formula) {
      // others name a component by its formula: a used one keeps it
      const users = (await usages(db, companyId)).get(before.formula);
      if (users?.length) {
        throw new AppError(
          'gasComponentInUse',
          { formula: before.formula, name: users[0]! },
          { field: 'formula' },
        );
      }
    }
    await db
      .update(gasComponents)
      .set({ formula, name, molarMass: input.molarMass, updatedAt: new Date() })
      .where(and(eq(gasComponents.id, input.id), eq(gasComponents.companyId, companyId)));
    return { id: input.id };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('gasComponentTaken', { formula }, { field: 'formula' });
    throw error;
  }
}

export async function deleteComponent(db: Db, companyId: number, id: number): Promise<void> {
  const [row] = await db
    .select()
    .from(gasComponents)
    .where(and(eq(gasComponents.id, id), eq(gasComponents.companyId, companyId)));
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  const users = (await usages(db, companyId)).get(row.formula);
  if (users?.length)
    throw new AppError('gasComponentInUse', { formula: row.formula, name: users[0]! }, { field: 'id' });
  await db.delete(gasComponents).where(and(eq(gasComponents.id, id), eq(gasComponents.companyId, companyId)));
}

// ------------------------------------------------------------------ pure gases

export interface PureGasInput {
  id?: number;
  name: string;
  main: string;
  impurities: Impurity[];
  supplier?: string;
  lot?: string;
  cylinder?: string;
}

export type PureGasRow = typeof pureGases.$inferSelect;

/** The purity table of a parent gas, as amount fractions (the main component is the rest). */
export function compositionOf(gas: Pick<PureGasRow, 'main' | 'impurities'>): Composition {
  return purityTable(
    gas.main,
    Object.fromEntries(gas.impurities.map((i) => [i.component, i.umolPerMol / 1e6])),
  );
}

function pureView(row: PureGasRow) {
  return {
    id: row.id,
    name: row.name,
    main: row.main,
    purity: compositionOf(row)[row.main]!,
    impurities: row.impurities,
    supplier: row.supplier,
    lot: row.lot,
    cylinder: row.cylinder,
    updatedAt: row.updatedAt.toISOString(),
  };
}

function assertKnown(known: Record<string, number>, field: string, component: string) {
  if (!(component in known)) throw refuse('gasUnknownComponent', field, { component });
}

export async function savePureGas(db: Db, companyId: number, lang: Lang, input: PureGasInput) {
  const name = input.name.trim();
  if (!name) throw refuse('fieldRequired', 'name');
  await ensureComponents(db, companyId, lang);
  const known = await molarMasses(db, companyId);
  assertKnown(known, 'main', input.main);
  const seen = new Set([input.main]);
  let total = 0;
  input.impurities.forEach((impurity, i) => {
    const field = `impurities[${i}]`;
    assertKnown(known, `${field}.component`, impurity.component);
    if (seen.has(impurity.component))
      throw refuse('gasComponentTwice', `${field}.component`, { component: impurity.component });
    seen.add(impurity.component);
    if (!(Number.isFinite(impurity.umolPerMol) && impurity.umolPerMol > 0))
      throw refuse('gasNotPositive', `${field}.umolPerMol`);
    const u = impurity.uUmolPerMol;
    if (u !== undefined && !(Number.isFinite(u) && u >= 0 && u <= impurity.umolPerMol))
      throw refuse('validation', `${field}.uUmolPerMol`);
    total += impurity.umolPerMol;
  });
  if (total >= 1e6) throw refuse('gasCompositionOver', 'impurities', { percent: +(total / 1e4).toFixed(4) });
  const values = {
    name,
    main: input.main,
    impurities: input.impurities.map((i) => ({
      component: i.component,
      umolPerMol: i.umolPerMol,
      ...(i.uUmolPerMol ? { uUmolPerMol: i.uUmolPerMol } : {}),
    })),
    supplier: input.supplier?.trim() ?? '',
    lot: input.lot?.trim() ?? '',
    cylinder: input.cylinder?.trim() ?? '',
    updatedAt: new Date(),
  };
  return upsert(db, pureGases, companyId, input.id, values, name);
}

/** Inserts, or updates the company's row `id`; a taken name is named. */
export async function upsert(
  db: Db,
  table: typeof pureGases | typeof gasProducts | typeof gasReferenceMaterials,
  companyId: number,
  id: number | undefined,
  values: Record<string, unknown>,
  name: string,
): Promise<{ id: number }> {
  try {
    if (id === undefined) {
      const [row] = await db
        .insert(table)
        .values({ companyId, ...values } as never)
        .returning({ id: table.id });
      return { id: row!.id };
    }
    const rows = await db
      .update(table)
      .set(values)
      .where(and(eq(table.id, id), eq(table.companyId, companyId)))
      .returning({ id: table.id });
    if (rows.length === 0) throw new AppError('notFound', {}, { field: 'id' });
    return { id };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('gasNameTaken', { name }, { field: 'name' });
    throw error;
  }
}

export interface ListQuery extends SortQuery {
  keyword?: string;
  limit: number;
  offset: number;
}

export async function listPureGases(db: Db, companyId: number, query: ListQuery) {
  const where = and(
    eq(pureGases.companyId, companyId),
    keywordOf(query.keyword, [
      pureGases.name,
      pureGases.main,
      pureGases.supplier,
      pureGases.lot,
      pureGases.cylinder,
    ]),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(pureGases)
      .where(where)
      .orderBy(
        ...sortedBy(
          {
            name: pureGases.name,
            main: pureGases.main,
            supplier: pureGases.supplier,
            lot: pureGases.lot,
            updatedAt: pureGases.updatedAt,
          },
          query,
          [asc(pureGases.name), asc(pureGases.id)],
        ),
      )
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(pureGases).where(where),
  ]);
  return { list: rows.map(pureView), total: Number(total?.n ?? 0) };
}

export function keywordOf(
  keyword: string | undefined,
  columns: Parameters<typeof ilike>[0][],
): SQL | undefined {
  const k = keyword?.trim();
  if (!k) return undefined;
  const pattern = likePattern(k);
  return or(...columns.map((c) => ilike(c, pattern)));
}

export async function deletePureGas(db: Db, companyId: number, id: number): Promise<void> {
  const rows = await db
    .delete(pureGases)
    .where(and(eq(pureGases.id, id), eq(pureGases.companyId, companyId)))
    .returning({ id: pureGases.id });
  if (rows.length === 0) throw new AppError('notFound', {}, { field: 'id' });
}

// ------------------------------------------------------------------ products

export interface MixtureInput {
  balance: string;
  components: ProductComponent[];
  volumeL: number;
  pressureMPa: number;
  temperatureC: number;
  z: number;
}

export interface ProductInput extends MixtureInput {
  id?: number;
  name: string;
  code?: string;
  notes?: string;
}

/**
 * A recipe's full composition (the balance gas is the rest), checked field by field against
 * the company's components: `components[1].fraction`, `balance`, …
 */
export function recipeComposition(
  input: Pick<MixtureInput, 'balance' | 'components'>,
  known: Record<string, number>,
) {
  assertKnown(known, 'balance', input.balance);
  const seen = new Set([input.balance]);
  let total = 0;
  input.components.forEach((c, i) => {
    const field = `components[${i}]`;
    assertKnown(known, `${field}.component`, c.component);
    if (seen.has(c.component))
      throw refuse('gasComponentTwice', `${field}.component`, { component: c.component });
    seen.add(c.component);
    if (!(Number.isFinite(c.fraction) && c.fraction > 0 && c.fraction < 1))
      throw refuse('gasFractionRange', `${field}.fraction`);
    total += c.fraction;
  });
  if (total >= 1) throw refuse('gasCompositionOver', 'components', { percent: +(total * 100).toFixed(6) });
  const composition: Composition = Object.fromEntries(input.components.map((c) => [c.component, c.fraction]));
  composition[input.balance] = 1 - total;
  return composition;
}

function assertFill(input: Pick<MixtureInput, 'volumeL' | 'pressureMPa' | 'temperatureC' | 'z'>) {
  for (const field of ['volumeL', 'pressureMPa', 'z'] as const) {
    if (!(Number.isFinite(input[field]) && input[field] > 0)) throw refuse('gasNotPositive', field);
  }
  if (!(Number.isFinite(input.temperatureC) && input.temperatureC > -273.15))
    throw refuse('validation', 'temperatureC');
}

type ProductRow = typeof gasProducts.$inferSelect;

function productView(row: ProductRow) {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    balance: row.balance,
    components: row.components,
    volumeL: row.volumeL,
    pressureMPa: row.pressureMPa,
    temperatureC: row.temperatureC,
    z: row.z,
    notes: row.notes,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function saveProduct(db: Db, companyId: number, lang: Lang, input: ProductInput) {
  const name = input.name.trim();
  if (!name) throw refuse('fieldRequired', 'name');
  await ensureComponents(db, companyId, lang);
  recipeComposition(input, await molarMasses(db, companyId));
  assertFill(input);
  const values = {
    name,
    code: input.code?.trim() ?? '',
    balance: input.balance,
    components: input.components.map((c) => ({ component: c.component, fraction: c.fraction })),
    volumeL: input.volumeL,
    pressureMPa: input.pressureMPa,
    temperatureC: input.temperatureC,
    z: input.z,
    notes: input.notes?.trim() ?? '',
    updatedAt: new Date(),
  };
  return upsert(db, gasProducts, companyId, input.id, values, name);
}

export async function listProducts(db: Db, companyId: number, query: ListQuery) {
  const where = and(
    eq(gasProducts.companyId, companyId),
    keywordOf(query.keyword, [gasProducts.name, gasProducts.code, gasProducts.balance]),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(gasProducts)
      .where(where)
      .orderBy(
        ...sortedBy(
          { name: gasProducts.name, code: gasProducts.code, updatedAt: gasProducts.updatedAt },
          query,
          [asc(gasProducts.name), asc(gasProducts.id)],
        ),
      )
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(gasProducts).where(where),
  ]);
  return { list: rows.map(productView), total: Number(total?.n ?? 0) };
}

export async function getProduct(db: Db, companyId: number, id: number) {
  const [row] = await db
    .select()
    .from(gasProducts)
    .where(and(eq(gasProducts.id, id), eq(gasProducts.companyId, companyId)));
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  return productView(row);
}

export async function deleteProduct(db: Db, companyId: number, id: number): Promise<void> {
  const rows = await db
    .delete(gasProducts)
    .where(and(eq(gasProducts.id, id), eq(gasProducts.companyId, companyId)))
    .returning({ id: gasProducts.id });
  if (rows.length === 0) throw new AppError('notFound', {}, { field: 'id' });
}

// ------------------------------------------------------------------ calculations

/** Forward: the mass of each component to weigh in, the balance gas last. */
export async function fill(
  db: Db,
  companyId: number,
  lang: Lang,
  input: MixtureInput,
): Promise<FillTarget & { molarMass: number }> {
  await ensureComponents(db, companyId, lang);
  const known = await molarMasses(db, companyId);
  const composition = recipeComposition(input, known);
  assertFill(input);
  const result = fillTargets({ ...input, composition }, known);
  if (!result.ok) throw domainRefusal(result.errors[0]!);
  return { ...result.value, molarMass: molarMassOf(composition, known) };
}

export interface WeighedInput {
  pureGasId: number;
  massG: number;
  /** standard uncertainty of the weighing, g */
  uMassG?: number;
}

/**
 * Inverse: the certified composition (expanded uncertainty at k = 2) from the weighed parents,
 * and the parents' pure gas names (in the order of `parents`).
 */
export async function certify(
  db: Db,
  companyId: number,
  lang: Lang,
  parents: WeighedInput[],
): Promise<{ molarMass: number; components: CertifiedValue[]; names: string[] }> {
  if (parents.length === 0) throw refuse('fieldRequired', 'parents');
  await ensureComponents(db, companyId, lang);
  const known = await molarMasses(db, companyId);
  const gases = await db
    .select()
    .from(pureGases)
    .where(
      and(
        eq(pureGases.companyId, companyId),
        inArray(
          pureGases.id,
          parents.map((p) => p.pureGasId),
        ),
      ),
    );
  const weighed = [];
  const purityU: Array<Record<string, number>> = [];
  for (const [i, parent] of parents.entries()) {
    const gas = gases.find((g) => g.id === parent.pureGasId);
    if (!gas) throw new AppError('notFound', {}, { field: `parents[${i}].pureGasId` });
    if (!(Number.isFinite(parent.massG) && parent.massG > 0))
      throw refuse('gasNotPositive', `parents[${i}].massG`);
    if (parent.uMassG !== undefined && !(Number.isFinite(parent.uMassG) && parent.uMassG >= 0))
      throw refuse('validation', `parents[${i}].uMassG`);
    weighed.push({ name: gas.name, massG: parent.massG, composition: compositionOf(gas) });
    purityU.push(Object.fromEntries(gas.impurities.map((i) => [i.component, (i.uUmolPerMol ?? 0) / 1e6])));
  }
  // the weighings' and the purity analyses' uncertainties, propagated together
  const result = certifiedComposition(
    weighed,
    { massG: parents.map((p) => p.uMassG ?? 0), fractions: purityU },
    known,
  );
  if (!result.ok) throw domainRefusal(result.errors[0]!);
  const composition = Object.fromEntries(result.value.map((v) => [v.component, v.fraction]));
  // the largest first: the main components, then the impurities
  const components = [...result.value].sort((x, y) => y.fraction - x.fraction);
  return { molarMass: molarMassOf(composition, known), components, names: weighed.map((w) => w.name) };
}
