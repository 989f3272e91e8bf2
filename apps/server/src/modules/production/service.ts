/**
 * Production (docs/business.md, "Production"): plans of so many units of an own product on a
 * line, the process view where units are recorded by serial number and finished, and the
 * output reports. A plan's status moves only as packages/domain `scheduleTransition` says; the
 * units it makes are inventory units, each move of theirs decided by the stock state machine
 * (the inventory service records and finishes them, and logs every move).
 */
import {
  addCalendarDays,
  DEFAULT_TIME_ZONE,
  dayStartInstant,
  isCalendarDate,
  type Lang,
  messageFor,
  productionReport,
  SCHEDULE_ACTION_LABELS,
  SCHEDULE_STATUS_LABELS,
  type ScheduleRefusal,
  type ScheduleStatus,
  scheduleTransition,
} from '@platform/domain';
import { and, asc, count, desc, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth';
import type { Db } from '../../platform/db';
import { insertNumbered } from '../../platform/doc-numbers';
import { AppError, fieldError } from '../../platform/envelope';
import { likePattern } from '../../platform/like';
import { type SortQuery, sortedBy } from '../../platform/sorting';
import { produceUnits, serialList, unitAction } from '../inventory/service';
import { inventoryCategories, inventoryUnitEvents, inventoryUnits } from '../inventory/tables';
import { productionSchedules } from './tables';

type ScheduleRow = typeof productionSchedules.$inferSelect;

/** The steps a new plan starts with when none are given (editable per plan). */
export const DEFAULT_STEPS: Record<Lang, string[]> = {
  zh: ['贴片', '组装', '烧录固件', '测试', '包装'],
  en: ['SMT', 'Assembly', 'Firmware', 'Test', 'Packing'],
};
export const MAX_STEPS = 20;

function refusalError(refusal: ScheduleRefusal, lang: Lang): AppError {
  switch (refusal.key) {
    case 'productionScheduleState':
      return new AppError(
        refusal.key,
        {
          status: SCHEDULE_STATUS_LABELS[refusal.status][lang],
          action: SCHEDULE_ACTION_LABELS[refusal.action][lang],
        },
        { field: 'id' },
      );
    case 'productionQuantityExceeded':
      return new AppError(
        refusal.key,
        { quantity: refusal.quantity, count: refusal.count },
        { field: 'sns' },
      );
    case 'productionQuantityBelow':
      return new AppError(refusal.key, { count: refusal.count }, { field: 'quantity' });
    default:
      return new AppError(refusal.key, { count: refusal.count }, { field: 'id' });
  }
}

/** Units recorded against each plan, and how many are still in production. */
async function countsOf(db: Db, ids: number[]) {
  if (ids.length === 0) return new Map<number, { recorded: number; inProduction: number }>();
  const rows = await db
    .select({
      scheduleId: inventoryUnits.scheduleId,
      recorded: count(),
      inProduction: sql<number>`count(*) filter (where ${inventoryUnits.status} = 'inProduction')`.mapWith(
        Number,
      ),
    })
    .from(inventoryUnits)
    .where(inArray(inventoryUnits.scheduleId, ids))
    .groupBy(inventoryUnits.scheduleId);
  return new Map(
    rows.map((r) => [r.scheduleId!, { recorded: Number(r.recorded), inProduction: r.inProduction }]),
  );
}

async function scheduleRow(db: Db, companyId: number, id: number, lock = false): Promise<ScheduleRow> {
  const query = db
    .select()
    .from(productionSchedules)
    .where(and(eq(productionSchedules.id, id), eq(productionSchedules.companyId, companyId)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  return row;
}

async function countsOfOne(db: Db, row: ScheduleRow) {
  const counts = (await countsOf(db, [row.id])).get(row.id) ?? { recorded: 0, inProduction: 0 };
  return { quantity: row.quantity, ...counts };
}

function scheduleView(
  row: ScheduleRow & { categoryName: string; model: string },
  counts?: { recorded: number; inProduction: number },
) {
  const recorded = counts?.recorded ?? 0;
  const inProduction = counts?.inProduction ?? 0;
  return {
    id: row.id,
    number: row.number,
    categoryId: row.categoryId,
    categoryName: row.categoryName,
    model: row.model,
    quantity: row.quantity,
    line: row.line,
    startOn: row.startOn,
    endOn: row.endOn,
    status: row.status,
    steps: row.steps,
    notes: row.notes,
    recorded,
    inProduction,
    finished: recorded - inProduction,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const withCategory = {
  categoryName: inventoryCategories.name,
  model: inventoryCategories.model,
};

export interface ScheduleQuery extends SortQuery {
  limit: number;
  offset: number;
  keyword?: string;
  status?: ScheduleStatus;
}

export async function listSchedules(db: Db, companyId: number, query: ScheduleQuery) {
  const k = query.keyword?.trim();
  const pattern = k ? likePattern(k) : '';
  const where = and(
    eq(productionSchedules.companyId, companyId),
    query.status ? eq(productionSchedules.status, query.status) : undefined,
    k
      ? or(
          sql`${productionSchedules.number} ilike ${pattern}`,
          sql`${productionSchedules.line} ilike ${pattern}`,
          sql`${inventoryCategories.name} ilike ${pattern}`,
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ schedule: productionSchedules, ...withCategory })
      .from(productionSchedules)
      .innerJoin(inventoryCategories, eq(inventoryCategories.id, productionSchedules.categoryId))
      .where(where)
      .orderBy(
        ...sortedBy(
          {
            number: productionSchedules.number,
            product: inventoryCategories.name,
            quantity: productionSchedules.quantity,
            line: productionSchedules.line,
            days: productionSchedules.startOn,
            status: productionSchedules.status,
          },
          query,
          [desc(productionSchedules.startOn), desc(productionSchedules.id)],
        ),
      )
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ n: count() })
      .from(productionSchedules)
      .innerJoin(inventoryCategories, eq(inventoryCategories.id, productionSchedules.categoryId))
      .where(where),
  ]);
  const counts = await countsOf(
    db,
    rows.map((r) => r.schedule.id),
  );
  return {
    list: rows.map((r) =>
      scheduleView(
        { ...r.schedule, categoryName: r.categoryName, model: r.model },
        counts.get(r.schedule.id),
      ),
    ),
    total: Number(total?.n ?? 0),
  };
}

/** One plan with its counts and every unit it made (serial number, status now). */
export async function getSchedule(db: Db, companyId: number, id: number) {
  const row = await scheduleRow(db, companyId, id);
  const [category] = await db
    .select(withCategory)
    .from(inventoryCategories)
    .where(eq(inventoryCategories.id, row.categoryId));
  const units = await db
    .select({
      sn: inventoryUnits.sn,
      status: inventoryUnits.status,
      disabled: inventoryUnits.disabled,
      updatedAt: inventoryUnits.updatedAt,
    })
    .from(inventoryUnits)
    .where(eq(inventoryUnits.scheduleId, row.id))
    .orderBy(asc(inventoryUnits.sn));
  const counts = await countsOfOne(db, row);
  return {
    ...scheduleView(
      { ...row, categoryName: category?.categoryName ?? '', model: category?.model ?? '' },
      counts,
    ),
    units: units.map((u) => ({ ...u, updatedAt: u.updatedAt.toISOString() })),
  };
}

export interface ScheduleInput {
  id?: number;
  categoryId: number;
  quantity: number;
  line: string;
  startOn: string;
  endOn: string;
  steps?: string[];
  notes?: string;
}

/** Plan a production run, or change a plan that has not ended. */
export async function saveSchedule(
  db: Db,
  actor: Actor,
  input: ScheduleInput,
): Promise<{ id: number; number: string }> {
  const line = input.line.trim();
  if (!line) throw new AppError('fieldRequired', { field: 'line' }, { field: 'line' });
  if (!isCalendarDate(input.startOn)) throw fieldError('startOn');
  if (!isCalendarDate(input.endOn) || input.endOn < input.startOn) throw fieldError('endOn');
  const steps = (input.steps ?? DEFAULT_STEPS[actor.lang]).map((s) => s.trim());
  if (steps.length === 0 || steps.length > MAX_STEPS || steps.some((s) => !s || s.length > 30))
    throw fieldError('steps');
  const [category] = await db
    .select()
    .from(inventoryCategories)
    .where(
      and(eq(inventoryCategories.id, input.categoryId), eq(inventoryCategories.companyId, actor.companyId)),
    );
  if (category?.kind !== 'own') throw fieldError('categoryId');
  const values = {
    categoryId: category.id,
    quantity: input.quantity,
    line,
    startOn: input.startOn,
    endOn: input.endOn,
    steps,
    notes: input.notes?.trim() ?? '',
  };
  if (input.id !== undefined) {
    const row = await scheduleRow(db, actor.companyId, input.id, true);
    const counts = await countsOfOne(db, row);
    const result = scheduleTransition(row.status, counts, { type: 'edit', quantity: input.quantity });
    if (!result.ok) throw refusalError(result.refusal, actor.lang);
    if (counts.recorded > 0 && row.categoryId !== category.id) throw fieldError('categoryId');
    await db
      .update(productionSchedules)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(productionSchedules.id, row.id));
    return { id: row.id, number: row.number };
  }
  return insertNumbered(db, productionSchedules, 'SC', input.startOn, {
    companyId: actor.companyId,
    ...values,
    createdBy: actor.userId,
  });
}

/** Delete a plan that made nothing (planned or cancelled). */
export async function deleteSchedule(db: Db, actor: Actor, id: number): Promise<void> {
  const row = await scheduleRow(db, actor.companyId, id, true);
  const counts = await countsOfOne(db, row);
  if (counts.recorded > 0)
    throw refusalError({ key: 'productionScheduleInUse', count: counts.recorded }, actor.lang);
  if (row.status !== 'planned' && row.status !== 'cancelled')
    throw refusalError({ key: 'productionScheduleState', status: row.status, action: 'delete' }, actor.lang);
  await db.delete(productionSchedules).where(eq(productionSchedules.id, row.id));
}

/** Start, finish or cancel a plan. */
export async function scheduleAction(
  db: Db,
  actor: Actor,
  input: { id: number; action: 'start' | 'finish' | 'cancel' },
): Promise<{ status: ScheduleStatus }> {
  const row = await scheduleRow(db, actor.companyId, input.id, true);
  const result = scheduleTransition(row.status, await countsOfOne(db, row), { type: input.action });
  if (!result.ok) throw refusalError(result.refusal, actor.lang);
  await db
    .update(productionSchedules)
    .set({ status: result.status, updatedAt: new Date() })
    .where(eq(productionSchedules.id, row.id));
  return { status: result.status };
}

/** Units made by a plan in production, by serial number: in production, or finished at once. */
export async function recordUnits(
  db: Db,
  actor: Actor,
  input: { id: number; sns: string[]; finished?: boolean },
): Promise<{ created: number }> {
  const row = await scheduleRow(db, actor.companyId, input.id, true);
  const sns = serialList(input.sns);
  const result = scheduleTransition(row.status, await countsOfOne(db, row), {
    type: 'record',
    count: sns.length,
  });
  if (!result.ok) throw refusalError(result.refusal, actor.lang);
  return produceUnits(db, actor, {
    categoryId: row.categoryId,
    sns,
    finished: input.finished ?? false,
    scheduleId: row.id,
  });
}

/** Finish units of this plan (each as the stock state machine allows). */
export async function finishUnits(
  db: Db,
  actor: Actor,
  input: { id: number; sns: string[] },
): Promise<{ changed: number }> {
  const row = await scheduleRow(db, actor.companyId, input.id, true);
  const sns = serialList(input.sns);
  const mine = await db
    .select({ sn: inventoryUnits.sn })
    .from(inventoryUnits)
    .where(and(eq(inventoryUnits.scheduleId, row.id), inArray(inventoryUnits.sn, sns)));
  const known = new Set(mine.map((u) => u.sn));
  const foreign = sns.filter((sn) => !known.has(sn));
  if (foreign.length) {
    const params = (sn: string) => ({ sn, number: row.number });
    throw new AppError('productionUnitNotInPlan', params(foreign[0]!), {
      field: 'sns',
      refusals: foreign.map((sn) => ({
        sn,
        message: messageFor('productionUnitNotInPlan', actor.lang, params(sn)),
      })),
    });
  }
  return unitAction(db, actor, { sns, action: 'finish' });
}

/**
 * Output of the units finished in [from, to] (calendar days of the company), by day, line and
 * product: a unit counts on the day it was finished (its log says when), for its plan's line.
 */
export async function outputReport(
  db: Db,
  companyId: number,
  input: { from: string; to: string; timeZone?: string },
) {
  if (!isCalendarDate(input.from)) throw fieldError('from');
  if (!isCalendarDate(input.to) || input.to < input.from) throw fieldError('to');
  const tz = input.timeZone ?? DEFAULT_TIME_ZONE;
  const from = dayStartInstant(input.from, tz).getTime();
  const to = dayStartInstant(addCalendarDays(input.to, 1), tz).getTime();
  // finished by the finish action, or recorded as finished at once
  const finishedHere: SQL = or(
    eq(inventoryUnitEvents.action, 'finish'),
    and(eq(inventoryUnitEvents.action, 'produce'), eq(inventoryUnitEvents.toStatus, 'finished')),
  )!;
  const events = await db
    .select({
      at: inventoryUnitEvents.at,
      line: productionSchedules.line,
      product: inventoryCategories.name,
    })
    .from(inventoryUnitEvents)
    .innerJoin(inventoryUnits, eq(inventoryUnits.id, inventoryUnitEvents.unitId))
    .innerJoin(productionSchedules, eq(productionSchedules.id, inventoryUnits.scheduleId))
    .innerJoin(inventoryCategories, eq(inventoryCategories.id, inventoryUnits.categoryId))
    .where(
      and(
        eq(inventoryUnitEvents.companyId, companyId),
        isNotNull(inventoryUnits.scheduleId),
        finishedHere,
        sql`${inventoryUnitEvents.at} >= ${new Date(from).toISOString()}`,
        sql`${inventoryUnitEvents.at} < ${new Date(to).toISOString()}`,
      ),
    );
  return productionReport(
    events.map((e) => ({ finishedAt: e.at.getTime(), line: e.line, product: e.product })),
    from,
    to,
    tz,
  );
}
