/**
 * Energy records filled from a data item's number field (docs/energy-data.md, source `item`):
 * the day quantities of a site and page's kind worked out from the field's readings
 * (packages/domain energy-fill.ts: a cumulative counter or a sum of per-period values), times
 * a unit factor, written as day records. A day already recorded by hand or by import, or a
 * month recorded as a whole, is kept and reported; a day an earlier fill wrote is replaced.
 */
import {
  addCalendarDays,
  DATA_PERMISSION,
  dayQuantities,
  dayStartInstant,
  ENERGY_FILL_MAX_DAYS,
  ENERGY_QUANTITY_MAX,
  type EnergyDataKind,
  type EnergyFillMode,
  FILL_DECIMALS,
  isCalendarDate,
  isFillFactor,
  NUMERIC_FIELD_TYPES,
  roundTo,
} from '@platform/domain';
import { and, asc, desc, eq, gte, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth';
import { type Db, isUniqueViolation } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { levelsFor } from '../cabin/permissions';
import { companyTimeZone } from '../companies/service';
import { dataItems } from '../dataitems/tables';
import { dataRecords } from '../records/tables';
import { companyToday, siteRow } from './service';
import { energyRecords } from './tables';

export interface FillInput {
  siteId: number;
  itemId: number;
  /** the field's key (f1, f2 …) */
  field: string;
  mode: EnergyFillMode;
  /** YYYY-MM-DD, company days */
  from: string;
  to: string;
  /** the field's unit into the kind's unit (kg → t is 0.001); 1 when left out */
  factor?: number;
}

/** Why a day was not written: its record by hand or import, a month record, or no quantity above 0. */
export const FILL_SKIP_REASONS = ['entry', 'import', 'month', 'notPositive', 'tooLarge'] as const;
export type FillSkipReason = (typeof FILL_SKIP_REASONS)[number];

export interface FillAnswer {
  written: number;
  replaced: number;
  skipped: Array<{ periodOn: string; reason: FillSkipReason }>;
  /** days without a reading of the field */
  empty: number;
}

/** The company's items the caller may read, with their number fields (the fill's choices). */
export async function fillItems(db: Db, actor: Actor) {
  const items = await db
    .select({ id: dataItems.id, nodeId: dataItems.nodeId, name: dataItems.name, fields: dataItems.fields })
    .from(dataItems)
    .where(eq(dataItems.companyId, actor.companyId))
    .orderBy(asc(dataItems.name), asc(dataItems.id));
  if (items.length === 0) return [];
  const levels = await levelsFor(db, actor);
  return items
    .filter((i) => (levels.get(i.nodeId) ?? DATA_PERMISSION.none) >= DATA_PERMISSION.read)
    .map((i) => ({
      id: i.id,
      name: i.name,
      fields: i.fields
        .filter((f) => NUMERIC_FIELD_TYPES.includes(f.type))
        .map((f) => ({ key: f.key, name: f.name, unit: f.unit ?? '' })),
    }))
    .filter((i) => i.fields.length > 0);
}

const REMARK: Record<Actor['lang'], (item: string, field: string) => string> = {
  zh: (item, field) => `数据项 ${item} · ${field}`,
  en: (item, field) => `Data item ${item} · ${field}`,
};

/** Every day from `from` to `to`, both counted. */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to && days.length <= ENERGY_FILL_MAX_DAYS; d = addCalendarDays(d, 1)) days.push(d);
  return days;
}

/** The checked request: the site, the item's field, the factor and the days, or the refusal naming its field. */
async function checkFill(db: Db, actor: Actor, input: FillInput) {
  const site = await siteRow(db, actor.companyId, input.siteId, 'siteId');
  const [item] = await db
    .select()
    .from(dataItems)
    .where(and(eq(dataItems.id, input.itemId), eq(dataItems.companyId, actor.companyId)));
  if (!item) throw new AppError('notFound', {}, { field: 'itemId' });
  const levels = await levelsFor(db, actor, [item.nodeId]);
  if ((levels.get(item.nodeId) ?? DATA_PERMISSION.none) < DATA_PERMISSION.read)
    throw new AppError('energyFillItemHidden', { field: 'itemId' }, { field: 'itemId' });
  const field = item.fields.find((f) => f.key === input.field);
  if (!field)
    throw new AppError('meterFieldMissing', { field: 'field', name: input.field }, { field: 'field' });
  if (!NUMERIC_FIELD_TYPES.includes(field.type))
    throw new AppError('meterFieldNotNumeric', { field: 'field', name: field.name }, { field: 'field' });
  const factor = input.factor ?? 1;
  if (!isFillFactor(factor)) throw new AppError('energyFillFactor', { field: 'factor' }, { field: 'factor' });
  if (!isCalendarDate(input.from)) throw new AppError('validation', { field: 'from' }, { field: 'from' });
  if (!isCalendarDate(input.to)) throw new AppError('validation', { field: 'to' }, { field: 'to' });
  if (input.to > (await companyToday(db, actor.companyId)))
    throw new AppError('energyPeriodFuture', { field: 'to' }, { field: 'to' });
  const days = daysOf(input.from, input.to);
  if (input.to < input.from || days.length > ENERGY_FILL_MAX_DAYS)
    throw new AppError('energyFillRange', { field: 'to', max: ENERGY_FILL_MAX_DAYS }, { field: 'to' });
  return { site, item, field, factor, days };
}

/** The field's readings that the days need (a counter: the last one before the first midnight too). */
async function readingsOf(
  db: Db,
  companyId: number,
  itemId: number,
  key: string,
  mode: EnergyFillMode,
  first: Date,
  last: Date,
) {
  const value = sql<number>`(${dataRecords.values} ->> ${key}::text)::float8`;
  const of = (...more: SQL[]) =>
    and(
      eq(dataRecords.companyId, companyId),
      eq(dataRecords.itemId, itemId),
      isNull(dataRecords.parentId),
      sql`jsonb_typeof(${dataRecords.values} -> ${key}::text) = 'number'`,
      ...more,
    );
  // one after the other: in a transaction the queries share one connection
  const before =
    mode === 'counter'
      ? await db
          .select({ ts: dataRecords.ts, value })
          .from(dataRecords)
          .where(of(lte(dataRecords.ts, first)))
          .orderBy(desc(dataRecords.ts), desc(dataRecords.id))
          .limit(1)
      : [];
  const within = await db
    .select({ ts: dataRecords.ts, value })
    .from(dataRecords)
    .where(of(gte(dataRecords.ts, first), lte(dataRecords.ts, last)))
    .orderBy(asc(dataRecords.ts), asc(dataRecords.id));
  return [...before, ...within].map((r) => ({ at: r.ts.getTime(), value: Number(r.value) }));
}

/**
 * Fill a site's day records of the page's kind from a data item's number field over [from, to]
 * (company days). Never overwrites a record by hand or import, nor a day of a month recorded as
 * a whole; replaces the days an earlier fill wrote. A day without a reading writes nothing (and
 * leaves an earlier fill's record of it as it was).
 */
export async function fillFromItem(
  db: Db,
  actor: Actor,
  kind: EnergyDataKind,
  input: FillInput,
): Promise<FillAnswer> {
  const { site, item, field, factor, days } = await checkFill(db, actor, input);
  const tz = await companyTimeZone(db, actor.companyId);
  const bounds = [...days, addCalendarDays(days[days.length - 1]!, 1)].map((d) =>
    dayStartInstant(d, tz).getTime(),
  );
  const readings = await readingsOf(
    db,
    actor.companyId,
    item.id,
    field.key,
    input.mode,
    new Date(bounds[0]!),
    new Date(bounds[bounds.length - 1]!),
  );
  const quantities = dayQuantities(readings, bounds, input.mode);

  // the site's records of the kind in the months the days touch
  const stored = await db
    .select({
      id: energyRecords.id,
      periodType: energyRecords.periodType,
      periodOn: energyRecords.periodOn,
      source: energyRecords.source,
    })
    .from(energyRecords)
    .where(
      and(
        eq(energyRecords.companyId, actor.companyId),
        eq(energyRecords.siteId, site.id),
        eq(energyRecords.kind, kind),
        gte(energyRecords.periodOn, `${input.from.slice(0, 7)}-01`),
        lte(energyRecords.periodOn, input.to),
      ),
    );
  const months = new Set(stored.filter((r) => r.periodType === 'month').map((r) => r.periodOn.slice(0, 7)));
  const dayRecords = new Map(stored.filter((r) => r.periodType === 'day').map((r) => [r.periodOn, r]));

  const remark = REMARK[actor.lang](item.name, field.name).slice(0, 200);
  const answer: FillAnswer = { written: 0, replaced: 0, skipped: [], empty: 0 };
  const inserts: Array<typeof energyRecords.$inferInsert> = [];
  const updates: Array<{ id: number; quantity: number }> = [];
  const reasonOf = (day: string, quantity: number): FillSkipReason | null => {
    if (!(quantity > 0)) return 'notPositive';
    if (quantity > ENERGY_QUANTITY_MAX) return 'tooLarge';
    if (months.has(day.slice(0, 7))) return 'month';
    const earlier = dayRecords.get(day);
    if (earlier && earlier.source !== 'item') return earlier.source === 'import' ? 'import' : 'entry';
    return null;
  };
  for (const [i, day] of days.entries()) {
    const raw = quantities[i];
    if (raw === null || raw === undefined) {
      answer.empty += 1;
      continue;
    }
    const quantity = roundTo(raw * factor, FILL_DECIMALS);
    const reason = reasonOf(day, quantity);
    if (reason) {
      answer.skipped.push({ periodOn: day, reason });
      continue;
    }
    const earlier = dayRecords.get(day);
    if (earlier) updates.push({ id: earlier.id, quantity });
    else
      inserts.push({
        companyId: actor.companyId,
        siteId: site.id,
        kind,
        periodType: 'day',
        periodOn: day,
        quantity,
        source: 'item',
        remark,
        createdBy: actor.userId,
      });
  }

  try {
    for (const u of updates)
      await db
        .update(energyRecords)
        .set({ quantity: u.quantity, remark, createdBy: actor.userId, updatedAt: new Date() })
        .where(and(eq(energyRecords.id, u.id), eq(energyRecords.source, 'item')));
    for (let i = 0; i < inserts.length; i += 500)
      await db.insert(energyRecords).values(inserts.slice(i, i + 500));
  } catch (error) {
    // a record of one of the days written by someone else meanwhile
    if (isUniqueViolation(error))
      throw new AppError('energyRecordTaken', { site: site.name, period: input.from }, { field: 'from' });
    throw error;
  }
  answer.written = inserts.length;
  answer.replaced = updates.length;
  return answer;
}
