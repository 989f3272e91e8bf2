/**
 * Inventory (docs/business.md, "Inventory"): categories of goods, serial-numbered units, entry
 * and exit orders, counted goods and the production log. Every move of a unit is decided by
 * packages/domain business/stock.ts (`unitTransition`, `orderTransition`); this module loads
 * what they need with the rows locked, writes what they return and logs each move. A refusal
 * throws before anything is written, and the routes run each write in one transaction.
 */
import {
  type Lang,
  messageFor,
  NEW_UNIT,
  type Order,
  type OrderRefusal,
  orderTransition,
  PRODUCTION_STATUS_LABELS,
  PRODUCTION_STATUSES,
  type ProductionStatus,
  quantityShortfalls,
  type RegistryState,
  type StockStatusId,
  stockStatusOf,
  UNIT_ACTION_LABELS,
  type Unit,
  type UnitEvent,
  unitTransition,
  withRegistry,
} from '@platform/domain';
import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth';
import { type Db, isUniqueViolation } from '../../platform/db';
import { companyDay, insertNumbered } from '../../platform/doc-numbers';
import { AppError, fieldError } from '../../platform/envelope';
import { likePattern } from '../../platform/like';
import { type SortQuery, sortedBy } from '../../platform/sorting';
import { gateways } from '../gateways/tables';
import { productionSchedules } from '../production/tables';
import { salesOrders } from '../sales/tables';
import {
  type CategoryKind,
  inventoryCategories,
  inventoryOrderLines,
  inventoryOrders,
  inventoryUnitEvents,
  inventoryUnits,
} from './tables';

/** Serial numbers: letters, digits and . _ / : - (what is printed on a label or scanned). */
const SERIAL = /^[A-Za-z0-9][A-Za-z0-9._/:-]{0,49}$/;
/** the most serial numbers one paste or scan adds */
export const MAX_SERIALS = 500;

export interface Paged extends SortQuery {
  limit: number;
  offset: number;
}

type CategoryRow = typeof inventoryCategories.$inferSelect;
type UnitRow = typeof inventoryUnits.$inferSelect;
type OrderRow = typeof inventoryOrders.$inferSelect;

// ---- what the registry says, in SQL (derived from the domain, never written apart from it) ----

/** Each registry state and the SQL that finds it, the stronger first. */
const REGISTRY: Array<[RegistryState, SQL]> = [
  [{ registered: true, bound: true }, sql`${gateways.companyId} is not null`],
  [{ registered: true, bound: false }, sql`${gateways.id} is not null`],
  [{ registered: false, bound: false }, sql`true`],
];

/** A CASE over the stored status and the registry, each branch computed by `withRegistry`. */
function derivedSql(pick: (unit: Unit) => string | number): SQL {
  const branches: SQL[] = [];
  for (const status of PRODUCTION_STATUSES)
    for (const [state, found] of REGISTRY) {
      const value = pick(withRegistry({ status, disabled: false, orderId: null }, state));
      branches.push(
        sql`when ${inventoryUnits.status} = ${sql.raw(`'${status}'`)} and ${found} then ${sql.raw(
          typeof value === 'number' ? String(value) : `'${value}'`,
        )}`,
      );
    }
  return sql.join([sql`(case`, ...branches, sql`end)`], sql` `);
}
const shownStatus = derivedSql((unit) => unit.status);
const stockStatusSql = sql`(case when ${inventoryUnits.disabled} then 9 else ${derivedSql(stockStatusOf)} end)`;

const registryJoin = sql`${gateways.serialNumber} = ${inventoryUnits.sn}`;

// ---- refusals -------------------------------------------------------------------------------

const STATE_WORDS = {
  confirmed: { zh: '确认', en: 'confirmed' },
  cancelled: { zh: '取消', en: 'cancelled' },
} as const;

/** One domain refusal as the catalogue's error, worded in the caller's language. */
function refusalError(refusal: OrderRefusal, lang: Lang): AppError {
  switch (refusal.key) {
    case 'stockOrderClosed':
      return new AppError(refusal.key, { state: STATE_WORDS[refusal.state][lang] }, { field: 'id' });
    case 'stockOrderEmpty':
      return new AppError(refusal.key, {}, { field: 'id' });
    case 'stockTransitionRefused':
      return new AppError(refusal.key, {
        sn: refusal.sn,
        status: PRODUCTION_STATUS_LABELS[refusal.status][lang],
        action: UNIT_ACTION_LABELS[refusal.action][lang],
      });
    case 'stockUnitInOrder':
      return new AppError(refusal.key, { sn: refusal.sn, orderId: refusal.orderId });
    default:
      return new AppError(refusal.key, { sn: refusal.sn });
  }
}

/**
 * Every refusal of one operation: the first is the message, all of them (each with its serial
 * number and message) are the data, so a pasted list of 200 shows every bad line at once.
 */
function refused(refusals: AppError[], lang: Lang, field = 'sns'): AppError {
  const first = refusals[0]!;
  return new AppError(first.key, first.params, {
    field,
    refusals: refusals.map((r) => ({ sn: r.params.sn ?? null, message: messageFor(r.key, lang, r.params) })),
  });
}

/** Trimmed, distinct, each a serial number: the list a scan or paste gives. */
export function serialList(sns: readonly string[]): string[] {
  const list = [...new Set(sns.map((sn) => sn.trim()).filter(Boolean))];
  if (list.length === 0) throw new AppError('fieldRequired', { field: 'sns' }, { field: 'sns' });
  if (list.length > MAX_SERIALS) throw fieldError('sns');
  const bad = list.findIndex((sn) => !SERIAL.test(sn));
  if (bad >= 0) throw new AppError('validation', { field: `sns: ${list[bad]}` }, { field: 'sns' });
  return list;
}

// ---- categories -------------------------------------------------------------------------------

async function categoryRow(db: Db, companyId: number, id: number, field = 'id'): Promise<CategoryRow> {
  const [row] = await db
    .select()
    .from(inventoryCategories)
    .where(and(eq(inventoryCategories.id, id), eq(inventoryCategories.companyId, companyId)));
  if (!row) throw new AppError('notFound', {}, { field });
  return row;
}

function categoryView(row: CategoryRow) {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    serialized: row.serialized,
    model: row.model,
    unit: row.unit,
    notes: row.notes,
    updatedAt: row.updatedAt.toISOString(),
  };
}

type Counts = Record<StockStatusId, number>;
const noCounts = (): Counts => ({ 0: 0, 1: 0, 2: 0, 3: 0, 4: 0, 9: 0 });

/** Units per category and warehouse by stock status (the registry heard). */
async function unitCounts(db: Db, companyId: number, categoryIds?: number[]) {
  const status = stockStatusSql.mapWith(Number);
  const where = and(
    eq(inventoryUnits.companyId, companyId),
    categoryIds ? inArray(inventoryUnits.categoryId, categoryIds) : undefined,
  );
  return db
    .select({
      categoryId: inventoryUnits.categoryId,
      warehouse: inventoryUnits.warehouse,
      status,
      n: count(),
    })
    .from(inventoryUnits)
    .leftJoin(gateways, registryJoin)
    .where(where)
    .groupBy(inventoryUnits.categoryId, inventoryUnits.warehouse, sql`3`);
}

/** Counted goods on hand per category and warehouse: confirmed entries less confirmed exits. */
async function quantitiesOnHand(db: Db, companyId: number, categoryIds?: number[]) {
  const rows = await db
    .select({
      categoryId: inventoryOrderLines.categoryId,
      warehouse: inventoryOrders.warehouse,
      quantity:
        sql<number>`sum(case when ${inventoryOrders.kind} = 'entry' then ${inventoryOrderLines.quantity} else -${inventoryOrderLines.quantity} end)`.mapWith(
          Number,
        ),
    })
    .from(inventoryOrderLines)
    .innerJoin(inventoryOrders, eq(inventoryOrders.id, inventoryOrderLines.orderId))
    .where(
      and(
        eq(inventoryOrderLines.companyId, companyId),
        isNull(inventoryOrderLines.unitId),
        eq(inventoryOrders.state, 'confirmed'),
        categoryIds ? inArray(inventoryOrderLines.categoryId, categoryIds) : undefined,
      ),
    )
    .groupBy(inventoryOrderLines.categoryId, inventoryOrders.warehouse);
  return rows;
}

export interface StockRow {
  categoryId: number;
  warehouse: string;
  /** serial-numbered goods: units by stock status */
  counts: Counts | null;
  /** counted goods: on hand */
  quantity: number | null;
}

/** The inventory: per category and warehouse, units by stock status or the quantity on hand. */
export async function stockRows(db: Db, companyId: number, categoryIds?: number[]): Promise<StockRow[]> {
  const [units, counted] = await Promise.all([
    unitCounts(db, companyId, categoryIds),
    quantitiesOnHand(db, companyId, categoryIds),
  ]);
  const rows = new Map<string, StockRow>();
  for (const u of units) {
    const key = `${u.categoryId}\u0000${u.warehouse}`;
    const row = rows.get(key) ?? {
      categoryId: u.categoryId,
      warehouse: u.warehouse,
      counts: noCounts(),
      quantity: null,
    };
    row.counts![u.status as StockStatusId] += u.n;
    rows.set(key, row);
  }
  for (const q of counted)
    rows.set(`${q.categoryId}\u0000${q.warehouse}\u0000n`, {
      categoryId: q.categoryId,
      warehouse: q.warehouse,
      counts: null,
      quantity: q.quantity,
    });
  return [...rows.values()].sort(
    (a, b) => a.categoryId - b.categoryId || a.warehouse.localeCompare(b.warehouse),
  );
}

export interface CategoryQuery extends Paged {
  keyword?: string;
  kind?: CategoryKind;
}

export async function listCategories(db: Db, companyId: number, query: CategoryQuery) {
  const k = query.keyword?.trim();
  const where = and(
    eq(inventoryCategories.companyId, companyId),
    k
      ? sql`(${inventoryCategories.name} ilike ${likePattern(k)} or ${inventoryCategories.model} ilike ${likePattern(k)})`
      : undefined,
    query.kind ? eq(inventoryCategories.kind, query.kind) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(inventoryCategories)
      .where(where)
      .orderBy(
        ...sortedBy(
          {
            name: inventoryCategories.name,
            model: inventoryCategories.model,
            kind: inventoryCategories.kind,
            createdAt: inventoryCategories.createdAt,
          },
          query,
          [asc(inventoryCategories.kind), asc(inventoryCategories.name), asc(inventoryCategories.id)],
        ),
      )
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(inventoryCategories).where(where),
  ]);
  const stock = rows.length
    ? await stockRows(
        db,
        companyId,
        rows.map((r) => r.id),
      )
    : [];
  const list = rows.map((row) => {
    const mine = stock.filter((s) => s.categoryId === row.id);
    const counts = noCounts();
    for (const s of mine)
      for (const id of Object.keys(counts))
        counts[Number(id) as StockStatusId] += s.counts?.[Number(id) as StockStatusId] ?? 0;
    return {
      ...categoryView(row),
      counts: row.serialized ? counts : null,
      quantity: row.serialized ? null : mine.reduce((sum, s) => sum + (s.quantity ?? 0), 0),
    };
  });
  return { list, total: Number(total?.n ?? 0) };
}

export async function getCategory(db: Db, companyId: number, id: number) {
  const row = await categoryRow(db, companyId, id);
  return { ...categoryView(row), stock: await stockRows(db, companyId, [id]) };
}

export interface CategoryInput {
  id?: number;
  name: string;
  kind: CategoryKind;
  serialized?: boolean;
  model?: string;
  unit?: string;
  notes?: string;
}

/** Add a category or edit one; own products and SIM cards always carry serial numbers. */
export async function saveCategory(db: Db, companyId: number, input: CategoryInput): Promise<{ id: number }> {
  const name = input.name.trim();
  if (!name) throw new AppError('fieldRequired', { field: 'name' }, { field: 'name' });
  const serialized = input.kind === 'other' ? (input.serialized ?? false) : true;
  const values = {
    name,
    kind: input.kind,
    serialized,
    model: input.model?.trim() ?? '',
    unit: input.unit?.trim() ?? '',
    notes: input.notes?.trim() ?? '',
  };
  try {
    if (input.id === undefined) {
      const [row] = await db
        .insert(inventoryCategories)
        .values({ companyId, ...values })
        .returning({ id: inventoryCategories.id });
      return { id: row!.id };
    }
    const existing = await categoryRow(db, companyId, input.id);
    if (existing.kind !== values.kind || existing.serialized !== values.serialized) {
      if (await categoryUsed(db, existing.id))
        throw new AppError('stockCategoryKindFixed', { name: existing.name }, { field: 'kind' });
    }
    await db
      .update(inventoryCategories)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(inventoryCategories.id, existing.id));
    return { id: existing.id };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('stockCategoryTaken', { name }, { field: 'name' });
    throw error;
  }
}

/** Whether goods, order lines or production plans name the category. */
async function categoryUsed(db: Db, id: number): Promise<boolean> {
  const counted = await Promise.all([
    db.select({ n: count() }).from(inventoryUnits).where(eq(inventoryUnits.categoryId, id)),
    db.select({ n: count() }).from(inventoryOrderLines).where(eq(inventoryOrderLines.categoryId, id)),
    db.select({ n: count() }).from(productionSchedules).where(eq(productionSchedules.categoryId, id)),
  ]);
  return counted.some(([row]) => Number(row?.n ?? 0) > 0);
}

export async function deleteCategory(db: Db, companyId: number, id: number): Promise<void> {
  const row = await categoryRow(db, companyId, id);
  if (await categoryUsed(db, id))
    throw new AppError('stockCategoryInUse', { name: row.name }, { field: 'id' });
  await db.delete(inventoryCategories).where(eq(inventoryCategories.id, id));
}

// ---- units ----------------------------------------------------------------------------------

export interface UnitQuery extends Paged {
  keyword?: string;
  categoryId?: number;
  stockStatus?: StockStatusId;
  warehouse?: string;
}

const unitColumns = {
  id: inventoryUnits.id,
  sn: inventoryUnits.sn,
  categoryId: inventoryUnits.categoryId,
  categoryName: inventoryCategories.name,
  kind: inventoryCategories.kind,
  model: inventoryCategories.model,
  status: sql<ProductionStatus>`${shownStatus}`,
  stockStatus: stockStatusSql.mapWith(Number),
  disabled: inventoryUnits.disabled,
  warehouse: inventoryUnits.warehouse,
  orderId: inventoryUnits.orderId,
  orderNumber: inventoryOrders.number,
  orderKind: inventoryOrders.kind,
  updatedAt: inventoryUnits.updatedAt,
};

export async function listUnits(db: Db, companyId: number, query: UnitQuery) {
  const k = query.keyword?.trim();
  const where = and(
    eq(inventoryUnits.companyId, companyId),
    k ? sql`${inventoryUnits.sn} ilike ${likePattern(k)}` : undefined,
    query.categoryId ? eq(inventoryUnits.categoryId, query.categoryId) : undefined,
    query.stockStatus !== undefined ? sql`${stockStatusSql} = ${query.stockStatus}` : undefined,
    query.warehouse !== undefined ? eq(inventoryUnits.warehouse, query.warehouse) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(unitColumns)
      .from(inventoryUnits)
      .innerJoin(inventoryCategories, eq(inventoryCategories.id, inventoryUnits.categoryId))
      .leftJoin(gateways, registryJoin)
      .leftJoin(inventoryOrders, eq(inventoryOrders.id, inventoryUnits.orderId))
      .where(where)
      .orderBy(
        ...sortedBy(
          {
            sn: inventoryUnits.sn,
            category: inventoryCategories.name,
            warehouse: inventoryUnits.warehouse,
            status: inventoryUnits.status,
            updatedAt: inventoryUnits.updatedAt,
          },
          query,
          [desc(inventoryUnits.updatedAt), desc(inventoryUnits.id)],
        ),
      )
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(inventoryUnits).leftJoin(gateways, registryJoin).where(where),
  ]);
  return {
    list: rows.map((r) => ({
      ...r,
      stockStatus: r.stockStatus as StockStatusId,
      updatedAt: r.updatedAt.toISOString(),
    })),
    total: Number(total?.n ?? 0),
  };
}

const asUnit = (row: UnitRow): Unit => ({ status: row.status, disabled: row.disabled, orderId: row.orderId });

/** Write a unit's next state and log the move. */
async function moveUnit(
  db: Db,
  actor: Actor,
  row: UnitRow,
  next: Unit,
  action: string,
  extra: { warehouse?: string; orderId?: number | null } = {},
): Promise<void> {
  await db
    .update(inventoryUnits)
    .set({
      status: next.status,
      disabled: next.disabled,
      orderId: next.orderId,
      ...(extra.warehouse !== undefined ? { warehouse: extra.warehouse } : {}),
      updatedAt: new Date(),
    })
    .where(eq(inventoryUnits.id, row.id));
  await db.insert(inventoryUnitEvents).values({
    companyId: actor.companyId,
    unitId: row.id,
    sn: row.sn,
    action,
    fromStatus: row.status,
    toStatus: next.status,
    disabled: next.disabled,
    orderId: extra.orderId ?? next.orderId ?? row.orderId,
    userId: actor.userId,
  });
}

/** New units, each as the state machine starts one (and `finish`ed when asked), logged. */
async function createUnits(
  db: Db,
  actor: Actor,
  category: CategoryRow,
  sns: string[],
  finished: boolean,
  action: 'produce' | 'purchase',
  scheduleId: number | null = null,
): Promise<UnitRow[]> {
  const finishedUnit = unitTransition(NEW_UNIT, { type: 'finish' });
  if (!finishedUnit.ok) throw new Error('a new unit cannot be finished');
  const start = finished ? finishedUnit.unit : NEW_UNIT;
  const rows = await db
    .insert(inventoryUnits)
    .values(
      sns.map((sn) => ({
        companyId: actor.companyId,
        categoryId: category.id,
        sn,
        status: start.status,
        disabled: start.disabled,
        orderId: start.orderId,
        scheduleId,
      })),
    )
    .returning();
  await db.insert(inventoryUnitEvents).values(
    rows.map((row) => ({
      companyId: actor.companyId,
      unitId: row.id,
      sn: row.sn,
      action,
      fromStatus: null,
      toStatus: row.status,
      userId: actor.userId,
    })),
  );
  return rows;
}

async function unitsBySerial(db: Db, companyId: number, sns: string[]): Promise<Map<string, UnitRow>> {
  if (sns.length === 0) return new Map();
  const rows = await db
    .select()
    .from(inventoryUnits)
    .where(and(eq(inventoryUnits.companyId, companyId), inArray(inventoryUnits.sn, sns)))
    .orderBy(asc(inventoryUnits.id))
    .for('update');
  return new Map(rows.map((r) => [r.sn, r]));
}

/** Production: units made of an own-product category, in production or already finished. */
export async function produceUnits(
  db: Db,
  actor: Actor,
  input: { categoryId: number; sns: string[]; finished?: boolean; scheduleId?: number },
): Promise<{ created: number }> {
  const category = await categoryRow(db, actor.companyId, input.categoryId, 'categoryId');
  if (category.kind !== 'own') throw fieldError('categoryId');
  const sns = serialList(input.sns);
  const taken = await unitsBySerial(db, actor.companyId, sns);
  if (taken.size)
    throw refused(
      [...taken.keys()].map((sn) => new AppError('stockSerialTaken', { sn })),
      actor.lang,
    );
  const rows = await createUnits(
    db,
    actor,
    category,
    sns,
    input.finished ?? false,
    'produce',
    input.scheduleId,
  );
  return { created: rows.length };
}

/** Finish, disable or enable units by serial number: all of them, or none when one is refused. */
export async function unitAction(
  db: Db,
  actor: Actor,
  input: { sns: string[]; action: 'finish' | 'disable' | 'enable' },
): Promise<{ changed: number }> {
  const sns = serialList(input.sns);
  const units = await unitsBySerial(db, actor.companyId, sns);
  const errors: AppError[] = [];
  const moves: Array<[UnitRow, Unit]> = [];
  for (const sn of sns) {
    const row = units.get(sn);
    if (!row) {
      errors.push(new AppError('stockUnitUnknown', { sn }));
      continue;
    }
    const result = unitTransition(asUnit(row), { type: input.action } as UnitEvent);
    if (result.ok) moves.push([row, result.unit]);
    else errors.push(refusalError({ ...result.refusal, sn }, actor.lang));
  }
  if (errors.length) throw refused(errors, actor.lang);
  for (const [row, next] of moves) await moveUnit(db, actor, row, next, input.action);
  return { changed: moves.length };
}

export interface LogQuery extends Paged {
  keyword?: string;
  action?: string;
}

/** The production log: every move of every unit, newest first. */
export async function listLog(db: Db, companyId: number, query: LogQuery) {
  const k = query.keyword?.trim();
  const where = and(
    eq(inventoryUnitEvents.companyId, companyId),
    k ? sql`${inventoryUnitEvents.sn} ilike ${likePattern(k)}` : undefined,
    query.action ? eq(inventoryUnitEvents.action, query.action) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: inventoryUnitEvents.id,
        sn: inventoryUnitEvents.sn,
        action: inventoryUnitEvents.action,
        fromStatus: inventoryUnitEvents.fromStatus,
        toStatus: inventoryUnitEvents.toStatus,
        disabled: inventoryUnitEvents.disabled,
        orderNumber: inventoryOrders.number,
        userId: inventoryUnitEvents.userId,
        at: inventoryUnitEvents.at,
      })
      .from(inventoryUnitEvents)
      .leftJoin(inventoryOrders, eq(inventoryOrders.id, inventoryUnitEvents.orderId))
      .where(where)
      .orderBy(
        ...sortedBy(
          { sn: inventoryUnitEvents.sn, action: inventoryUnitEvents.action, at: inventoryUnitEvents.at },
          query,
          [desc(inventoryUnitEvents.at), desc(inventoryUnitEvents.id)],
        ),
      )
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(inventoryUnitEvents).where(where),
  ]);
  return { list: rows.map((r) => ({ ...r, at: r.at.toISOString() })), total: Number(total?.n ?? 0) };
}

// ---- orders ---------------------------------------------------------------------------------

export type OrderKind = 'entry' | 'exit';

export interface OrderHeader {
  warehouse: string;
  customer?: string;
  contact?: string;
  phone?: string;
  address?: string;
  notes?: string;
  /** an exit order: the sales order it delivers; null unlinks, absent keeps */
  salesOrderId?: number | null;
}

/**
 * The sales order an exit order delivers: the company's own, not cancelled. Its customer, contact,
 * phone and address fill the exit order's blank ones.
 */
async function deliveredOrder(db: Db, actor: Actor, input: OrderHeader): Promise<OrderHeader> {
  if (input.salesOrderId == null) return input;
  const [sale] = await db
    .select()
    .from(salesOrders)
    .where(and(eq(salesOrders.id, input.salesOrderId), eq(salesOrders.companyId, actor.companyId)));
  if (!sale) throw new AppError('notFound', {}, { field: 'salesOrderId' });
  if (sale.status === 'cancelled')
    throw new AppError('stockSalesOrderCancelled', { order: sale.number }, { field: 'salesOrderId' });
  const blank = (value: string | undefined) => !value?.trim();
  return {
    ...input,
    customer: blank(input.customer) ? sale.customer : input.customer,
    contact: blank(input.contact) ? sale.contact : input.contact,
    phone: blank(input.phone) ? sale.phone : input.phone,
    address: blank(input.address) ? sale.address : input.address,
  };
}

function header(input: OrderHeader) {
  const warehouse = input.warehouse.trim();
  if (!warehouse) throw new AppError('fieldRequired', { field: 'warehouse' }, { field: 'warehouse' });
  return {
    warehouse,
    customer: input.customer?.trim() ?? '',
    contact: input.contact?.trim() ?? '',
    phone: input.phone?.trim() ?? '',
    address: input.address?.trim() ?? '',
    notes: input.notes?.trim() ?? '',
  };
}

/** The order, locked for the rest of the transaction; another company's is "not found". */
export async function orderRow(db: Db, companyId: number, id: number, lock = false): Promise<OrderRow> {
  const query = db
    .select()
    .from(inventoryOrders)
    .where(and(eq(inventoryOrders.id, id), eq(inventoryOrders.companyId, companyId)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  return row;
}

function assertOpen(order: OrderRow, lang: Lang): void {
  if (order.state !== 'open') throw refusalError({ key: 'stockOrderClosed', state: order.state }, lang);
}

const PREFIX: Record<OrderKind, string> = { entry: 'RK', exit: 'CK' };

export async function createOrder(
  db: Db,
  actor: Actor,
  input: OrderHeader & { kind: OrderKind; source?: CategoryKind },
): Promise<{ id: number; number: string }> {
  if (input.kind === 'entry' && !input.source)
    throw new AppError('fieldRequired', { field: 'source' }, { field: 'source' });
  const filled = input.kind === 'exit' ? await deliveredOrder(db, actor, input) : input;
  if (input.kind === 'exit' && !filled.customer?.trim())
    throw new AppError('fieldRequired', { field: 'customer' }, { field: 'customer' });
  return insertNumbered(db, inventoryOrders, PREFIX[input.kind], await companyDay(db, actor.companyId), {
    companyId: actor.companyId,
    kind: input.kind,
    source: input.kind === 'entry' ? input.source! : null,
    ...header(filled),
    salesOrderId: input.kind === 'exit' ? (input.salesOrderId ?? null) : null,
    createdBy: actor.userId,
  });
}

export async function updateOrder(db: Db, actor: Actor, input: OrderHeader & { id: number }): Promise<void> {
  const order = await orderRow(db, actor.companyId, input.id, true);
  assertOpen(order, actor.lang);
  const filled = order.kind === 'exit' ? await deliveredOrder(db, actor, input) : input;
  if (order.kind === 'exit' && !filled.customer?.trim())
    throw new AppError('fieldRequired', { field: 'customer' }, { field: 'customer' });
  await db
    .update(inventoryOrders)
    .set({
      ...header(filled),
      ...(order.kind === 'exit' && input.salesOrderId !== undefined
        ? { salesOrderId: input.salesOrderId }
        : {}),
    })
    .where(eq(inventoryOrders.id, order.id));
}

/** The domain's view of an order: its serial numbers. */
async function domainOrder(db: Db, order: OrderRow): Promise<Order> {
  const lines = await db
    .select({ sn: inventoryOrderLines.sn })
    .from(inventoryOrderLines)
    .where(and(eq(inventoryOrderLines.orderId, order.id), sql`${inventoryOrderLines.unitId} is not null`))
    .orderBy(asc(inventoryOrderLines.id));
  return { id: order.id, kind: order.kind, state: order.state, units: lines.map((l) => l.sn!) };
}

/** Run an order operation through the domain and write every unit it moved, or throw its refusals. */
async function applyOrderOp(
  db: Db,
  actor: Actor,
  order: OrderRow,
  rows: Map<string, UnitRow>,
  op: Parameters<typeof orderTransition>[2],
  action: string,
  extra: { warehouse?: string } = {},
) {
  const current = await domainOrder(db, order);
  const units = Object.fromEntries([...rows].map(([sn, row]) => [sn, asUnit(row)]));
  const result = orderTransition(current, units, op);
  if (!result.ok)
    throw refused(
      result.refusals.map((r) => refusalError(r, actor.lang)),
      actor.lang,
    );
  for (const [sn, next] of Object.entries(result.units))
    await moveUnit(db, actor, rows.get(sn)!, next, action, { ...extra, orderId: order.id });
  return result;
}

/**
 * Scanned or pasted serial numbers into an open order. An entry of SIM cards or other goods
 * takes serial numbers not yet known as purchased units of `categoryId`; an entry of own
 * products takes only units that production finished.
 */
export async function addUnits(
  db: Db,
  actor: Actor,
  input: { id: number; sns: string[]; categoryId?: number },
): Promise<{ added: number }> {
  const order = await orderRow(db, actor.companyId, input.id, true);
  assertOpen(order, actor.lang);
  const sns = serialList(input.sns);
  const rows = await unitsBySerial(db, actor.companyId, sns);
  const categories = new Map(
    (
      await db.select().from(inventoryCategories).where(eq(inventoryCategories.companyId, actor.companyId))
    ).map((c) => [c.id, c]),
  );
  const errors: AppError[] = [];
  const unknown = sns.filter((sn) => !rows.has(sn));
  let newCategory: CategoryRow | undefined;
  if (unknown.length && order.kind === 'entry' && order.source !== 'own') {
    if (input.categoryId === undefined)
      throw new AppError('fieldRequired', { field: 'categoryId' }, { field: 'categoryId' });
    newCategory = categories.get(input.categoryId);
    if (!newCategory || newCategory.kind !== order.source || !newCategory.serialized)
      throw fieldError('categoryId');
  } else for (const sn of unknown) errors.push(new AppError('stockUnitUnknown', { sn }));
  if (order.kind === 'entry')
    for (const row of rows.values()) {
      const category = categories.get(row.categoryId)!;
      if (category.kind !== order.source)
        errors.push(new AppError('stockUnitWrongKind', { sn: row.sn, category: category.name }));
    }
  if (errors.length) throw refused(errors, actor.lang);
  if (newCategory)
    for (const row of await createUnits(db, actor, newCategory, unknown, true, 'purchase'))
      rows.set(row.sn, row);
  const before = (await domainOrder(db, order)).units;
  const choose = order.kind === 'entry' ? 'chooseEntry' : 'chooseExit';
  await applyOrderOp(db, actor, order, rows, { type: 'add', sns }, choose);
  const fresh = sns.filter((sn) => !before.includes(sn));
  if (fresh.length)
    await db.insert(inventoryOrderLines).values(
      fresh.map((sn) => {
        const row = rows.get(sn)!;
        return {
          companyId: actor.companyId,
          orderId: order.id,
          categoryId: row.categoryId,
          unitId: row.id,
          sn,
          quantity: 1,
        };
      }),
    );
  return { added: fresh.length };
}

export async function removeUnits(db: Db, actor: Actor, input: { id: number; sns: string[] }) {
  const order = await orderRow(db, actor.companyId, input.id, true);
  assertOpen(order, actor.lang);
  const sns = serialList(input.sns);
  const rows = await unitsBySerial(db, actor.companyId, sns);
  const missing = sns.filter((sn) => !rows.has(sn));
  if (missing.length)
    throw refused(
      missing.map((sn) => new AppError('stockUnitNotInOrder', { sn })),
      actor.lang,
    );
  await applyOrderOp(db, actor, order, rows, { type: 'remove', sns }, 'release');
  await db
    .delete(inventoryOrderLines)
    .where(and(eq(inventoryOrderLines.orderId, order.id), inArray(inventoryOrderLines.sn, sns)));
  return { removed: sns.length };
}

/** The counted lines of an open order, replaced by these (a category without serial numbers each). */
export async function setQuantities(
  db: Db,
  actor: Actor,
  input: { id: number; lines: Array<{ categoryId: number; quantity: number }> },
): Promise<void> {
  const order = await orderRow(db, actor.companyId, input.id, true);
  assertOpen(order, actor.lang);
  const seen = new Set<number>();
  for (const [i, line] of input.lines.entries()) {
    const field = `lines[${i}].categoryId`;
    const category = await categoryRow(db, actor.companyId, line.categoryId, field).catch(() => {
      throw fieldError(field);
    });
    if (
      category.serialized ||
      seen.has(category.id) ||
      (order.kind === 'entry' && category.kind !== order.source)
    )
      throw fieldError(field);
    seen.add(category.id);
  }
  await db
    .delete(inventoryOrderLines)
    .where(and(eq(inventoryOrderLines.orderId, order.id), isNull(inventoryOrderLines.unitId)));
  if (input.lines.length)
    await db.insert(inventoryOrderLines).values(
      input.lines.map((line) => ({
        companyId: actor.companyId,
        orderId: order.id,
        categoryId: line.categoryId,
        quantity: line.quantity,
      })),
    );
}

async function countedLines(db: Db, orderId: number) {
  return db
    .select({
      categoryId: inventoryOrderLines.categoryId,
      quantity: inventoryOrderLines.quantity,
      name: inventoryCategories.name,
    })
    .from(inventoryOrderLines)
    .innerJoin(inventoryCategories, eq(inventoryCategories.id, inventoryOrderLines.categoryId))
    .where(and(eq(inventoryOrderLines.orderId, orderId), isNull(inventoryOrderLines.unitId)));
}

/**
 * Confirm: an entry stocks every unit into its warehouse, an exit ships every unit and takes
 * its counted goods from the warehouse, refused whole when one unit cannot move or a quantity
 * is not there.
 */
export async function confirmOrder(db: Db, actor: Actor, id: number): Promise<void> {
  const order = await orderRow(db, actor.companyId, id, true);
  assertOpen(order, actor.lang);
  const current = await domainOrder(db, order);
  const counted = await countedLines(db, order.id);
  if (current.units.length === 0 && counted.length === 0)
    throw refusalError({ key: 'stockOrderEmpty' }, actor.lang);
  if (order.kind === 'exit' && counted.length) {
    // counted goods: the categories locked, so two exits cannot both take the last ones
    await db
      .select({ id: inventoryCategories.id })
      .from(inventoryCategories)
      .where(
        inArray(
          inventoryCategories.id,
          counted.map((c) => c.categoryId),
        ),
      )
      .orderBy(asc(inventoryCategories.id))
      .for('update');
    const onHand = await quantitiesOnHand(
      db,
      actor.companyId,
      counted.map((c) => c.categoryId),
    );
    const available = Object.fromEntries(
      onHand.filter((q) => q.warehouse === order.warehouse).map((q) => [String(q.categoryId), q.quantity]),
    );
    const short = quantityShortfalls(
      available,
      counted.map((c) => ({ key: String(c.categoryId), quantity: c.quantity })),
    );
    if (short.length) {
      const names = new Map(counted.map((c) => [String(c.categoryId), c.name]));
      throw refused(
        short.map(
          (s) =>
            new AppError('stockNotEnough', {
              name: names.get(s.key)!,
              warehouse: order.warehouse,
              available: s.available,
              wanted: s.wanted,
            }),
        ),
        actor.lang,
        'lines',
      );
    }
  }
  if (current.units.length) {
    const rows = await unitsBySerial(db, actor.companyId, current.units);
    await applyOrderOp(
      db,
      actor,
      order,
      rows,
      { type: 'confirm' },
      order.kind === 'entry' ? 'stock' : 'ship',
      order.kind === 'entry' ? { warehouse: order.warehouse } : {},
    );
  }
  await db
    .update(inventoryOrders)
    .set({ state: 'confirmed', closedAt: new Date() })
    .where(eq(inventoryOrders.id, order.id));
}

/** Cancel: every unit back where it was; the lines stay, to show what the order held. */
export async function cancelOrder(db: Db, actor: Actor, id: number): Promise<void> {
  const order = await orderRow(db, actor.companyId, id, true);
  assertOpen(order, actor.lang);
  const current = await domainOrder(db, order);
  if (current.units.length) {
    const rows = await unitsBySerial(db, actor.companyId, current.units);
    await applyOrderOp(db, actor, order, rows, { type: 'cancel' }, 'release');
  }
  await db
    .update(inventoryOrders)
    .set({ state: 'cancelled', closedAt: new Date() })
    .where(eq(inventoryOrders.id, order.id));
}

function orderView(row: OrderRow, salesOrderNumber: string | null = null) {
  return {
    id: row.id,
    kind: row.kind,
    source: row.source,
    number: row.number,
    state: row.state,
    warehouse: row.warehouse,
    customer: row.customer,
    contact: row.contact,
    phone: row.phone,
    address: row.address,
    notes: row.notes,
    salesOrderId: row.salesOrderId,
    salesOrderNumber,
    createdAt: row.createdAt.toISOString(),
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}

/** The numbers of the sales orders these orders deliver (of the same company). */
async function salesOrderNumbers(db: Db, rows: readonly OrderRow[]): Promise<Map<number, string>> {
  const ids = [...new Set(rows.flatMap((r) => (r.salesOrderId == null ? [] : [r.salesOrderId])))];
  if (!ids.length) return new Map();
  const found = await db
    .select({ id: salesOrders.id, number: salesOrders.number })
    .from(salesOrders)
    .where(and(inArray(salesOrders.id, ids), eq(salesOrders.companyId, rows[0]!.companyId)));
  return new Map(found.map((r) => [r.id, r.number]));
}

const numberOf = (numbers: Map<number, string>, row: OrderRow) =>
  row.salesOrderId == null ? null : (numbers.get(row.salesOrderId) ?? null);

/** An order with its lines: each unit (its category and current status) and each counted line. */
export async function getOrder(db: Db, companyId: number, id: number) {
  const order = await orderRow(db, companyId, id);
  const lines = await db
    .select({
      id: inventoryOrderLines.id,
      categoryId: inventoryOrderLines.categoryId,
      categoryName: inventoryCategories.name,
      model: inventoryCategories.model,
      unit: inventoryCategories.unit,
      sn: inventoryOrderLines.sn,
      quantity: inventoryOrderLines.quantity,
      status: sql<ProductionStatus | null>`case when ${inventoryUnits.id} is null then null else ${shownStatus} end`,
      stockStatus: sql<
        number | null
      >`case when ${inventoryUnits.id} is null then null else ${stockStatusSql} end`.mapWith((v) =>
        v === null ? null : Number(v),
      ),
    })
    .from(inventoryOrderLines)
    .innerJoin(inventoryCategories, eq(inventoryCategories.id, inventoryOrderLines.categoryId))
    .leftJoin(inventoryUnits, eq(inventoryUnits.id, inventoryOrderLines.unitId))
    .leftJoin(gateways, registryJoin)
    .where(eq(inventoryOrderLines.orderId, order.id))
    .orderBy(asc(inventoryOrderLines.id));
  return { ...orderView(order, numberOf(await salesOrderNumbers(db, [order]), order)), lines };
}

export interface OrderQuery extends Paged {
  kind: OrderKind;
  state?: 'open' | 'confirmed' | 'cancelled';
  source?: CategoryKind;
  keyword?: string;
}

export async function listOrders(db: Db, companyId: number, query: OrderQuery) {
  const k = query.keyword?.trim();
  const pattern = k ? likePattern(k) : '';
  const where = and(
    eq(inventoryOrders.companyId, companyId),
    eq(inventoryOrders.kind, query.kind),
    query.state ? eq(inventoryOrders.state, query.state) : undefined,
    query.source ? eq(inventoryOrders.source, query.source) : undefined,
    k
      ? sql`(${inventoryOrders.number} ilike ${pattern} or ${inventoryOrders.customer} ilike ${pattern} or ${inventoryOrders.warehouse} ilike ${pattern} or exists (select 1 from ${inventoryOrderLines} where ${inventoryOrderLines.orderId} = ${inventoryOrders.id} and ${inventoryOrderLines.sn} ilike ${pattern}))`
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(inventoryOrders)
      .where(where)
      .orderBy(
        ...sortedBy(
          {
            number: inventoryOrders.number,
            state: inventoryOrders.state,
            warehouse: inventoryOrders.warehouse,
            customer: inventoryOrders.customer,
            createdAt: inventoryOrders.createdAt,
            closedAt: inventoryOrders.closedAt,
          },
          query,
          [desc(inventoryOrders.createdAt), desc(inventoryOrders.id)],
        ),
      )
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(inventoryOrders).where(where),
  ]);
  const ids = rows.map((r) => r.id);
  const sums = ids.length
    ? await db
        .select({
          orderId: inventoryOrderLines.orderId,
          units: sql<number>`count(${inventoryOrderLines.unitId})`.mapWith(Number),
          quantity:
            sql<number>`coalesce(sum(case when ${inventoryOrderLines.unitId} is null then ${inventoryOrderLines.quantity} end), 0)`.mapWith(
              Number,
            ),
        })
        .from(inventoryOrderLines)
        .where(inArray(inventoryOrderLines.orderId, ids))
        .groupBy(inventoryOrderLines.orderId)
    : [];
  const byOrder = new Map(sums.map((s) => [s.orderId, s]));
  const numbers = await salesOrderNumbers(db, rows);
  return {
    list: rows.map((row) => ({
      ...orderView(row, numberOf(numbers, row)),
      units: byOrder.get(row.id)?.units ?? 0,
      quantity: byOrder.get(row.id)?.quantity ?? 0,
    })),
    total: Number(total?.n ?? 0),
  };
}
