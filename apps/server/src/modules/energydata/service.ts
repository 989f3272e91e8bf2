/**
 * The energy data platform (docs/energy-data.md): the company's sites, one record per site,
 * kind and period (a day or a month) of coal, gas or steam consumed or steam produced, the
 * company's standard coal factors, and the figures of a page: each record and the totals in
 * tce, compared with the period before and the same period a year before.
 *
 * Every read and write is scoped to the caller's company, and a record route to its page's
 * kind: a record of another kind is "not found" through this page.
 */
import {
  type CoalFactors,
  checkEnergyPeriod,
  checkEnergyQuantity,
  coalFactors,
  comparisonRanges,
  DEFAULT_COAL_FACTORS,
  dayOf,
  ENERGY_DATA_KIND_INFO,
  ENERGY_KINDS,
  ENERGY_PERIOD_TYPES,
  type EnergyDataKind,
  type EnergyKind,
  type EnergyPeriodType,
  type EnergyRecordSource,
  type EnergySiteType,
  type ErrorKey,
  type ImportCell,
  type Lang,
  messageFor,
  periodChange,
  roundTo,
  TCE_DECIMALS,
  toTce,
} from '@platform/domain';
import { and, asc, count, desc, eq, gte, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth';
import { type Db, isUniqueViolation } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { companyTimeZone } from '../companies/service';
import type { SheetRow } from '../records/spreadsheet';
import { energyCoalFactors, energyRecords, energySites } from './tables';

type RecordRow = typeof energyRecords.$inferSelect;

// ---------------------------------------------------------------- factors

/** The company's factors (defaults where it has none of its own) and the ones it set itself. */
export async function companyFactors(
  db: Db,
  companyId: number,
): Promise<{ factors: CoalFactors; own: Partial<CoalFactors> }> {
  const [row] = await db
    .select({ factors: energyCoalFactors.factors })
    .from(energyCoalFactors)
    .where(eq(energyCoalFactors.companyId, companyId));
  const own = row?.factors ?? {};
  const result = coalFactors(own);
  // a stored table was checked when saved; should it ever be bad, the defaults stand
  return result.ok ? { factors: result.factors, own } : { factors: { ...DEFAULT_COAL_FACTORS }, own: {} };
}

/** Set the company's own factors: a kind left out (or null) goes back to the default. */
export async function saveFactors(
  db: Db,
  actor: Actor,
  input: Partial<Record<EnergyKind, number | null>>,
): Promise<{ factors: CoalFactors; own: Partial<CoalFactors> }> {
  const own: Partial<CoalFactors> = {};
  for (const kind of ENERGY_KINDS) {
    const value = input[kind];
    if (value !== undefined && value !== null) own[kind] = value;
  }
  const checked = coalFactors(own);
  if (!checked.ok) throw new AppError('energyFactor', { field: checked.field }, { field: checked.field });
  await db
    .insert(energyCoalFactors)
    .values({ companyId: actor.companyId, factors: own, updatedBy: actor.userId })
    .onConflictDoUpdate({
      target: energyCoalFactors.companyId,
      set: { factors: own, updatedBy: actor.userId, updatedAt: new Date() },
    });
  return { factors: checked.factors, own };
}

const tceOf = (kind: EnergyDataKind, quantity: number, factors: CoalFactors): number => {
  const result = toTce(ENERGY_DATA_KIND_INFO[kind].energy, quantity, factors);
  return result.ok ? result.tce : 0;
};

// ---------------------------------------------------------------- sites

export async function listSites(db: Db, companyId: number) {
  const rows = await db
    .select({
      id: energySites.id,
      name: energySites.name,
      type: energySites.type,
      remark: energySites.remark,
      records:
        sql<number>`(select count(*) from ${energyRecords} where ${energyRecords.siteId} = ${energySites.id})`.mapWith(
          Number,
        ),
    })
    .from(energySites)
    .where(eq(energySites.companyId, companyId))
    .orderBy(asc(energySites.name));
  return rows.map((r) => ({ ...r, type: r.type as EnergySiteType }));
}

export async function siteRow(db: Db, companyId: number, id: number, field = 'id', lock = false) {
  const query = db
    .select()
    .from(energySites)
    .where(and(eq(energySites.id, id), eq(energySites.companyId, companyId)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw new AppError('notFound', {}, { field });
  return row;
}

export async function saveSite(
  db: Db,
  actor: Actor,
  input: { id?: number; name: string; type: EnergySiteType; remark?: string },
): Promise<{ id: number }> {
  const name = input.name.trim();
  if (!name) throw new AppError('fieldRequired', { field: 'name' }, { field: 'name' });
  const remark = input.remark?.trim() ?? '';
  const taken = new AppError('energySiteTaken', { name }, { field: 'name' });
  const [same] = await db
    .select({ id: energySites.id })
    .from(energySites)
    .where(
      and(
        eq(energySites.companyId, actor.companyId),
        eq(energySites.name, name),
        input.id !== undefined ? ne(energySites.id, input.id) : undefined,
      ),
    );
  if (same) throw taken;
  try {
    if (input.id !== undefined) {
      const row = await siteRow(db, actor.companyId, input.id, 'id', true);
      await db
        .update(energySites)
        .set({ name, type: input.type, remark, updatedAt: new Date() })
        .where(eq(energySites.id, row.id));
      return { id: row.id };
    }
    const [row] = await db
      .insert(energySites)
      .values({ companyId: actor.companyId, name, type: input.type, remark })
      .returning({ id: energySites.id });
    return { id: row!.id };
  } catch (error) {
    if (isUniqueViolation(error)) throw taken;
    throw error;
  }
}

/** Delete a site that holds no records. */
export async function deleteSite(db: Db, actor: Actor, id: number): Promise<void> {
  const row = await siteRow(db, actor.companyId, id, 'id', true);
  const [held] = await db.select({ n: count() }).from(energyRecords).where(eq(energyRecords.siteId, row.id));
  const n = Number(held?.n ?? 0);
  if (n > 0) throw new AppError('energySiteInUse', { name: row.name, count: n }, { field: 'id' });
  await db.delete(energySites).where(eq(energySites.id, row.id));
}

// ---------------------------------------------------------------- records

export interface RecordInput {
  id?: number;
  siteId: number;
  periodType: EnergyPeriodType;
  periodOn: string;
  quantity: number;
  remark?: string;
}

/** The company's calendar day today. */
export async function companyToday(db: Db, companyId: number): Promise<string> {
  return dayOf(Date.now(), await companyTimeZone(db, companyId));
}

const PERIOD_WORDS: Record<Lang, Record<EnergyPeriodType, string>> = {
  zh: { day: '日', month: '月' },
  en: { day: 'daily', month: 'monthly' },
};

const periodText = (type: string, on: string) => (type === 'month' ? on.slice(0, 7) : on);

/**
 * The refusal of a record that would be a second one of its site, kind and period, or that
 * mixes days and a whole month of the same site and kind (totals would count it twice); null
 * when it may be written.
 */
async function clash(
  db: Db,
  companyId: number,
  kind: EnergyDataKind,
  site: { id: number; name: string },
  periodType: EnergyPeriodType,
  periodOn: string,
  lang: Lang,
  exceptId?: number,
): Promise<AppError | null> {
  const month = periodOn.slice(0, 7);
  const rows = await db
    .select({ id: energyRecords.id, periodType: energyRecords.periodType, periodOn: energyRecords.periodOn })
    .from(energyRecords)
    .where(
      and(
        eq(energyRecords.companyId, companyId),
        eq(energyRecords.siteId, site.id),
        eq(energyRecords.kind, kind),
        sql`${energyRecords.periodOn} like ${`${month}-%`}`,
        exceptId !== undefined ? ne(energyRecords.id, exceptId) : undefined,
      ),
    );
  if (rows.some((r) => r.periodType === periodType && r.periodOn === periodOn))
    return new AppError(
      'energyRecordTaken',
      { site: site.name, period: periodText(periodType, periodOn) },
      { field: 'periodOn' },
    );
  const other = rows.find((r) => r.periodType !== periodType);
  if (other)
    return new AppError(
      'energyPeriodMixed',
      { site: site.name, other: PERIOD_WORDS[lang][other.periodType as EnergyPeriodType], month },
      { field: 'periodType' },
    );
  return null;
}

/** The checked values of a record, or the field error of the first bad one. */
function checkRecord(input: RecordInput, today: string) {
  if (!(ENERGY_PERIOD_TYPES as readonly string[]).includes(input.periodType))
    throw new AppError('validation', { field: 'periodType' }, { field: 'periodType' });
  const period = checkEnergyPeriod(input.periodType, input.periodOn, today);
  if (!period.ok) throw new AppError(period.key, { field: period.field }, { field: period.field });
  const quantity = checkEnergyQuantity(input.quantity);
  if (!quantity.ok) throw new AppError(quantity.key, { field: quantity.field }, { field: quantity.field });
  return { periodOn: period.value, quantity: quantity.value, remark: input.remark?.trim() ?? '' };
}

async function recordRow(db: Db, companyId: number, kind: EnergyDataKind, id: number, lock = false) {
  const query = db
    .select()
    .from(energyRecords)
    .where(
      and(eq(energyRecords.id, id), eq(energyRecords.companyId, companyId), eq(energyRecords.kind, kind)),
    );
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  return row;
}

/** Record a figure of a site by hand, or change one. */
export async function saveRecord(
  db: Db,
  actor: Actor,
  kind: EnergyDataKind,
  input: RecordInput,
): Promise<{ id: number }> {
  const existing =
    input.id !== undefined ? await recordRow(db, actor.companyId, kind, input.id, true) : undefined;
  const site = await siteRow(db, actor.companyId, input.siteId, 'siteId');
  const values = checkRecord(input, await companyToday(db, actor.companyId));
  const refused = await clash(
    db,
    actor.companyId,
    kind,
    site,
    input.periodType,
    values.periodOn,
    actor.lang,
    existing?.id,
  );
  if (refused) throw refused;
  const taken = () =>
    new AppError(
      'energyRecordTaken',
      { site: site.name, period: periodText(input.periodType, values.periodOn) },
      { field: 'periodOn' },
    );
  try {
    if (existing) {
      await db
        .update(energyRecords)
        .set({ siteId: site.id, periodType: input.periodType, ...values, updatedAt: new Date() })
        .where(eq(energyRecords.id, existing.id));
      return { id: existing.id };
    }
    const [row] = await db
      .insert(energyRecords)
      .values({
        companyId: actor.companyId,
        siteId: site.id,
        kind,
        periodType: input.periodType,
        ...values,
        source: 'entry',
        createdBy: actor.userId,
      })
      .returning({ id: energyRecords.id });
    return { id: row!.id };
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
}

export async function deleteRecord(db: Db, actor: Actor, kind: EnergyDataKind, id: number): Promise<void> {
  const row = await recordRow(db, actor.companyId, kind, id, true);
  await db.delete(energyRecords).where(eq(energyRecords.id, row.id));
}

export interface RecordFilter {
  from?: string;
  to?: string;
  siteId?: number;
}

function filterWhere(companyId: number, kind: EnergyDataKind, filter: RecordFilter): SQL {
  return and(
    eq(energyRecords.companyId, companyId),
    eq(energyRecords.kind, kind),
    filter.siteId !== undefined ? eq(energyRecords.siteId, filter.siteId) : undefined,
    filter.from ? gte(energyRecords.periodOn, filter.from) : undefined,
    filter.to ? lte(energyRecords.periodOn, filter.to) : undefined,
  )!;
}

export const RECORD_SORTS = ['periodOn', 'quantity', 'site'] as const;
export type RecordSort = (typeof RECORD_SORTS)[number];

function recordView(row: RecordRow & { siteName: string }, kind: EnergyDataKind, factors: CoalFactors) {
  return {
    id: row.id,
    siteId: row.siteId,
    siteName: row.siteName,
    periodType: row.periodType as EnergyPeriodType,
    periodOn: row.periodOn,
    quantity: row.quantity,
    tce: tceOf(kind, row.quantity, factors),
    source: row.source as EnergyRecordSource,
    remark: row.remark,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A page of the kind's records in the range, with each one's tce. */
export async function listRecords(
  db: Db,
  companyId: number,
  kind: EnergyDataKind,
  query: RecordFilter & { limit: number; offset: number; sort?: RecordSort; order?: 'asc' | 'desc' },
) {
  const where = filterWhere(companyId, kind, query);
  const dir = query.order === 'asc' ? asc : desc;
  const column =
    query.sort === 'quantity'
      ? energyRecords.quantity
      : query.sort === 'site'
        ? energySites.name
        : energyRecords.periodOn;
  const [{ factors }, rows, [total]] = await Promise.all([
    companyFactors(db, companyId),
    db
      .select({ record: energyRecords, siteName: energySites.name })
      .from(energyRecords)
      .innerJoin(energySites, eq(energySites.id, energyRecords.siteId))
      .where(where)
      .orderBy(dir(column), dir(energyRecords.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(energyRecords).where(where),
  ]);
  return {
    list: rows.map((r) => recordView({ ...r.record, siteName: r.siteName }, kind, factors)),
    total: Number(total?.n ?? 0),
  };
}

/** Every record of the filter, for the export (at most EXPORT_MAX_ROWS). */
export const EXPORT_MAX_ROWS = 50_000;
export async function allRecords(db: Db, companyId: number, kind: EnergyDataKind, filter: RecordFilter) {
  const { factors } = await companyFactors(db, companyId);
  const rows = await db
    .select({ record: energyRecords, siteName: energySites.name })
    .from(energyRecords)
    .innerJoin(energySites, eq(energySites.id, energyRecords.siteId))
    .where(filterWhere(companyId, kind, filter))
    .orderBy(asc(energyRecords.periodOn), asc(energySites.name))
    .limit(EXPORT_MAX_ROWS);
  return rows.map((r) => recordView({ ...r.record, siteName: r.siteName }, kind, factors));
}

async function sumOf(db: Db, companyId: number, kind: EnergyDataKind, filter: RecordFilter) {
  const [row] = await db
    .select({
      quantity: sql<number>`coalesce(sum(${energyRecords.quantity}), 0)`.mapWith(Number),
      n: count(),
    })
    .from(energyRecords)
    .where(filterWhere(companyId, kind, filter));
  return { quantity: row?.quantity ?? 0, count: Number(row?.n ?? 0) };
}

const round = (n: number) => roundTo(n, TCE_DECIMALS);

/**
 * The figures of a page for [from, to]: totals in the unit and in tce, the same for the period
 * before and the same period a year before with the changes, and the totals by month and by
 * site for the chart. A month's record counts in a range holding its first day.
 */
export async function summary(
  db: Db,
  companyId: number,
  kind: EnergyDataKind,
  filter: { from: string; to: string; siteId?: number },
) {
  if (filter.to < filter.from) throw new AppError('validation', { field: 'to' }, { field: 'to' });
  const { factors } = await companyFactors(db, companyId);
  const ranges = comparisonRanges(filter.from, filter.to);
  const [current, previous, lastYear, byMonth, bySite] = await Promise.all([
    sumOf(db, companyId, kind, filter),
    sumOf(db, companyId, kind, { ...ranges.previous, siteId: filter.siteId }),
    sumOf(db, companyId, kind, { ...ranges.lastYear, siteId: filter.siteId }),
    db
      .select({
        month: sql<string>`substr(${energyRecords.periodOn}, 1, 7)`,
        quantity: sql<number>`sum(${energyRecords.quantity})`.mapWith(Number),
      })
      .from(energyRecords)
      .where(filterWhere(companyId, kind, filter))
      .groupBy(sql`1`)
      .orderBy(sql`1`),
    db
      .select({
        siteId: energyRecords.siteId,
        siteName: energySites.name,
        quantity: sql<number>`sum(${energyRecords.quantity})`.mapWith(Number),
      })
      .from(energyRecords)
      .innerJoin(energySites, eq(energySites.id, energyRecords.siteId))
      .where(filterWhere(companyId, kind, filter))
      .groupBy(energyRecords.siteId, energySites.name)
      .orderBy(asc(energySites.name)),
  ]);
  const figure = (s: { quantity: number; count: number }) => ({
    quantity: round(s.quantity),
    tce: tceOf(kind, s.quantity, factors),
    count: s.count,
  });
  const total = figure(current);
  const before = figure(previous);
  const yearAgo = figure(lastYear);
  return {
    unit: ENERGY_DATA_KIND_INFO[kind].unit,
    factor: factors[ENERGY_DATA_KIND_INFO[kind].energy],
    total,
    previous: { ...ranges.previous, ...before, change: periodChange(total.tce, before.tce) },
    lastYear: { ...ranges.lastYear, ...yearAgo, change: periodChange(total.tce, yearAgo.tce) },
    byMonth: byMonth.map((m) => ({
      month: m.month,
      quantity: round(m.quantity),
      tce: tceOf(kind, m.quantity, factors),
    })),
    bySite: bySite.map((s) => ({
      siteId: s.siteId,
      siteName: s.siteName,
      quantity: round(s.quantity),
      tce: tceOf(kind, s.quantity, factors),
    })),
  };
}

// ---------------------------------------------------------------- import

/** The import's columns by the names a person may give them (zh or en, either case). */
const IMPORT_COLUMNS = {
  site: ['站点', 'site'],
  periodType: ['周期', 'period type'],
  periodOn: ['期间', 'period'],
  quantity: ['数量', 'quantity'],
  remark: ['备注', 'remark'],
} as const;
type ImportColumn = keyof typeof IMPORT_COLUMNS;
const REQUIRED_COLUMNS: ImportColumn[] = ['site', 'periodType', 'periodOn', 'quantity'];

export const IMPORT_HEADER: Record<Lang, string[]> = {
  zh: ['站点', '周期', '期间', '数量', '备注'],
  en: ['Site', 'Period type', 'Period', 'Quantity', 'Remark'],
};

const PERIOD_TYPE_WORDS: Record<string, EnergyPeriodType> = {
  day: 'day',
  日: 'day',
  month: 'month',
  月: 'month',
};

export interface ImportRejection {
  row: number;
  field: string;
  message: string;
}

const cellText = (cell: ImportCell): string => {
  if (cell === null || cell === undefined) return '';
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? '' : cell.toISOString().slice(0, 10);
  return String(cell).trim();
};

/**
 * Import a file's records of one kind, all or nothing: every line is checked (site of the
 * company by name, period type, period begun, quantity, not a second record of its site and
 * period, in the file or stored); one bad line and nothing is written, each bad line named.
 */
export async function importRecords(
  db: Db,
  actor: Actor,
  kind: EnergyDataKind,
  rows: SheetRow[],
): Promise<{ imported: number }> {
  const lang = actor.lang;
  const [head, ...lines] = rows;
  const map = new Map<ImportColumn, number>();
  head?.cells.forEach((cell, index) => {
    const name = cellText(cell).toLowerCase();
    for (const [column, names] of Object.entries(IMPORT_COLUMNS) as [ImportColumn, readonly string[]][])
      if (names.includes(name) && !map.has(column)) map.set(column, index);
  });
  const missing = REQUIRED_COLUMNS.find((c) => !map.has(c));
  if (missing !== undefined)
    throw new AppError(
      'energyImportColumns',
      { columns: REQUIRED_COLUMNS.map((c) => IMPORT_COLUMNS[c][lang === 'zh' ? 0 : 1]).join(', ') },
      { field: 'file', column: IMPORT_COLUMNS[missing][lang === 'zh' ? 0 : 1] },
    );
  if (lines.length === 0) throw new AppError('fieldRequired', { field: 'file' }, { field: 'file' });
  const sites = new Map(
    (await db.select().from(energySites).where(eq(energySites.companyId, actor.companyId))).map((s) => [
      s.name,
      s,
    ]),
  );
  const today = await companyToday(db, actor.companyId);
  const rejected: ImportRejection[] = [];
  const good: Array<{ row: number; site: typeof energySites.$inferSelect } & RecordInput> = [];
  const seen = new Map<string, number>();
  const reject = (row: number, field: string, key: ErrorKey, params: Record<string, string | number> = {}) =>
    rejected.push({ row, field, message: messageFor(key, lang, { field, ...params }) });
  for (const line of lines) {
    const get = (column: ImportColumn) => {
      const index = map.get(column);
      return index === undefined ? '' : cellText(line.cells[index]);
    };
    const siteName = get('site');
    const site = sites.get(siteName);
    if (!site) {
      reject(line.row, 'site', siteName ? 'notFound' : 'fieldRequired');
      continue;
    }
    const periodType = PERIOD_TYPE_WORDS[get('periodType').toLowerCase()];
    if (!periodType) {
      reject(line.row, 'periodType', 'validation');
      continue;
    }
    const period = checkEnergyPeriod(periodType, get('periodOn'), today);
    if (!period.ok) {
      reject(line.row, 'periodOn', period.key);
      continue;
    }
    const quantityText = get('quantity').replace(/,/g, '');
    const quantity = checkEnergyQuantity(quantityText === '' ? Number.NaN : Number(quantityText));
    if (!quantity.ok) {
      reject(line.row, 'quantity', quantity.key);
      continue;
    }
    const key = `${site.id}|${periodType}|${period.value}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      reject(line.row, 'periodOn', 'energyRecordTaken', {
        site: site.name,
        period: periodText(periodType, period.value),
      });
      continue;
    }
    seen.set(key, line.row);
    const remark = get('remark');
    if (remark.length > 200) {
      reject(line.row, 'remark', 'validation');
      continue;
    }
    good.push({
      row: line.row,
      site,
      siteId: site.id,
      periodType,
      periodOn: period.value,
      quantity: quantity.value,
      remark,
    });
  }
  // against the stored records, and against the file's own lines of the same month
  for (const g of good) {
    const refused = await clash(db, actor.companyId, kind, g.site, g.periodType, g.periodOn, lang);
    if (refused) {
      rejected.push({
        row: g.row,
        field: (refused.data as { field: string }).field,
        message: messageFor(refused.key, lang, refused.params),
      });
      continue;
    }
    const mixed = good.find(
      (o) =>
        o !== g &&
        o.siteId === g.siteId &&
        o.periodType !== g.periodType &&
        o.periodOn.slice(0, 7) === g.periodOn.slice(0, 7),
    );
    if (mixed)
      rejected.push({
        row: g.row,
        field: 'periodType',
        message: messageFor('energyPeriodMixed', lang, {
          site: g.site.name,
          other: PERIOD_WORDS[lang][mixed.periodType],
          month: g.periodOn.slice(0, 7),
        }),
      });
  }
  if (rejected.length > 0) {
    rejected.sort((x, y) => x.row - y.row);
    const first = rejected[0]!;
    throw new AppError(
      'energyImportRejected',
      { count: new Set(rejected.map((r) => r.row)).size, row: first.row, message: first.message },
      { field: 'file', rejected },
    );
  }
  try {
    for (let i = 0; i < good.length; i += 500) {
      await db.insert(energyRecords).values(
        good.slice(i, i + 500).map((g) => ({
          companyId: actor.companyId,
          siteId: g.siteId,
          kind,
          periodType: g.periodType,
          periodOn: g.periodOn,
          quantity: g.quantity,
          remark: g.remark ?? '',
          source: 'import',
          createdBy: actor.userId,
        })),
      );
    }
  } catch (error) {
    // a record written by someone else meanwhile
    if (isUniqueViolation(error))
      throw new AppError('energyRecordTaken', { site: '', period: '' }, { field: 'file' });
    throw error;
  }
  return { imported: good.length };
}
