/**
 * Sales (docs/business.md, "Sales"): orders of products and service subscriptions. An order's
 * status moves only as packages/domain `salesTransition` says. Paying an order that sells a
 * service to a company of the platform extends that company's service end date as domain
 * `extendServiceEnd` computes it (from its current end, or from the payment day when it has
 * lapsed), and records a subscription order for it: its users see it in "my orders" and the top
 * bar's expiry notice reads the new end.
 */
import {
  dayStartInstant,
  extendServiceEnd,
  formatInstant,
  isCalendarDate,
  type Lang,
  SALES_ACTION_LABELS,
  SALES_STATUS_LABELS,
  type SalesAction,
  type SalesStatus,
  SERVICE_PLANS,
  salesTotals,
  salesTransition,
} from '@platform/domain';
import { and, asc, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Actor } from '../../platform/auth';
import type { Db } from '../../platform/db';
import { companyDay, insertNumbered } from '../../platform/doc-numbers';
import { AppError, fieldError } from '../../platform/envelope';
import { likePattern } from '../../platform/like';
import { type SortQuery, sortedBy } from '../../platform/sorting';
import { companyTimeZone } from '../companies/service';
import { companies } from '../companies/tables';
import { inventoryCategories, inventoryOrders } from '../inventory/tables';
import { latestPaidEnd } from '../orders/service';
import { orders } from '../orders/tables';
import { salesOrderLines, salesOrders } from './tables';

type OrderRow = typeof salesOrders.$inferSelect;

export interface LineInput {
  kind: 'product' | 'service';
  /** product: the inventory category sold */
  categoryId?: number;
  /** service: the plan, by its index in SERVICE_PLANS */
  plan?: number;
  /** the line's words on the order (defaults: the category's or plan's name) */
  name?: string;
  quantity: number;
  /** service: months per period */
  months?: number;
  unitPriceCents: number;
}

export interface OrderInput {
  customerCompanyId?: number;
  customer?: string;
  contact?: string;
  phone?: string;
  address?: string;
  notes?: string;
  lines: LineInput[];
}

function stateError(status: SalesStatus, action: SalesAction, lang: Lang): AppError {
  return new AppError(
    'salesOrderState',
    { status: SALES_STATUS_LABELS[status][lang], action: SALES_ACTION_LABELS[action][lang] },
    { field: 'id' },
  );
}

/** The companies an order of this seller may name as its customer: itself, or any when it runs the platform. */
async function customerCompanies(db: Db, sellerId: number) {
  const [seller] = await db
    .select({ isPlatform: companies.isPlatform })
    .from(companies)
    .where(eq(companies.id, sellerId));
  return db
    .select({ id: companies.id, name: companies.name, displayName: companies.displayName })
    .from(companies)
    .where(and(isNull(companies.deletedAt), seller?.isPlatform ? undefined : eq(companies.id, sellerId)))
    .orderBy(asc(companies.id));
}

/** What the submit form offers: own products of the inventory, the service plans, the customers. */
export async function catalogue(db: Db, actor: Actor) {
  const products = await db
    .select({
      id: inventoryCategories.id,
      name: inventoryCategories.name,
      model: inventoryCategories.model,
      kind: inventoryCategories.kind,
    })
    .from(inventoryCategories)
    .where(eq(inventoryCategories.companyId, actor.companyId))
    .orderBy(asc(inventoryCategories.kind), asc(inventoryCategories.name));
  return {
    products,
    plans: SERVICE_PLANS.map((plan, index) => ({ index, name: plan[actor.lang] })),
    customers: (await customerCompanies(db, actor.companyId)).map((c) => ({
      id: c.id,
      name: c.displayName || c.name,
    })),
  };
}

/** Submit an order; every line and the customer checked, field by field, before anything is written. */
export async function submitOrder(
  db: Db,
  actor: Actor,
  input: OrderInput,
): Promise<{ id: number; number: string }> {
  if (input.lines.length === 0) throw new AppError('fieldRequired', { field: 'lines' }, { field: 'lines' });
  let customerName = input.customer?.trim() ?? '';
  if (input.customerCompanyId !== undefined) {
    const allowed = await customerCompanies(db, actor.companyId);
    const company = allowed.find((c) => c.id === input.customerCompanyId);
    if (!company) throw fieldError('customerCompanyId');
    customerName ||= company.displayName || company.name;
  }
  if (!customerName) throw new AppError('fieldRequired', { field: 'customer' }, { field: 'customer' });
  const categoryIds = input.lines.flatMap((l) => (l.categoryId ? [l.categoryId] : []));
  const categories = new Map(
    (categoryIds.length
      ? await db
          .select()
          .from(inventoryCategories)
          .where(
            and(
              eq(inventoryCategories.companyId, actor.companyId),
              inArray(inventoryCategories.id, categoryIds),
            ),
          )
      : []
    ).map((c) => [c.id, c]),
  );
  const lines = input.lines.map((line, i) => {
    if (line.kind === 'product') {
      const category = line.categoryId === undefined ? undefined : categories.get(line.categoryId);
      if (!category) throw fieldError(`lines[${i}].categoryId`);
      return {
        kind: 'product' as const,
        categoryId: category.id,
        swProductId: null,
        subTypeId: null,
        name: line.name?.trim() || [category.name, category.model].filter(Boolean).join(' '),
        quantity: line.quantity,
        months: null,
        unitPriceCents: line.unitPriceCents,
      };
    }
    const plan = line.plan === undefined ? undefined : SERVICE_PLANS[line.plan];
    if (!plan) throw fieldError(`lines[${i}].plan`);
    if (line.months === undefined)
      throw new AppError('fieldRequired', { field: `lines[${i}].months` }, { field: `lines[${i}].months` });
    if (input.customerCompanyId === undefined)
      throw new AppError('salesServiceNeedsCompany', {}, { field: 'customerCompanyId' });
    return {
      kind: 'service' as const,
      categoryId: null,
      swProductId: plan.swProductId,
      subTypeId: plan.subTypeId,
      name: line.name?.trim() || plan[actor.lang],
      quantity: line.quantity,
      months: line.months,
      unitPriceCents: line.unitPriceCents,
    };
  });
  const { amounts, totalCents } = salesTotals(lines);
  const order = await insertNumbered(db, salesOrders, 'SO', await companyDay(db, actor.companyId), {
    companyId: actor.companyId,
    customerCompanyId: input.customerCompanyId ?? null,
    customer: customerName,
    contact: input.contact?.trim() ?? '',
    phone: input.phone?.trim() ?? '',
    address: input.address?.trim() ?? '',
    notes: input.notes?.trim() ?? '',
    totalCents,
    createdBy: actor.userId,
  });
  await db
    .insert(salesOrderLines)
    .values(lines.map((line, i) => ({ ...line, orderId: order.id, amountCents: amounts[i]! })));
  return order;
}

async function orderRow(db: Db, companyId: number, id: number, lock = false): Promise<OrderRow> {
  const query = db
    .select()
    .from(salesOrders)
    .where(and(eq(salesOrders.id, id), eq(salesOrders.companyId, companyId)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  return row;
}

/**
 * Pay an order on a day (today in the seller's zone unless given). Each service line moves the
 * customer company's service end on by its months × quantity, one after another, and records
 * the subscription it bought.
 */
export async function payOrder(
  db: Db,
  actor: Actor,
  input: { id: number; paidOn?: string },
): Promise<{ serviceEndsOn: string | null }> {
  const order = await orderRow(db, actor.companyId, input.id, true);
  const next = salesTransition(order.status, 'pay');
  if (!next) throw stateError(order.status, 'pay', actor.lang);
  const paidOn = input.paidOn ?? (await companyDay(db, actor.companyId));
  if (!isCalendarDate(paidOn)) throw fieldError('paidOn');
  const services = await db
    .select()
    .from(salesOrderLines)
    .where(and(eq(salesOrderLines.orderId, order.id), eq(salesOrderLines.kind, 'service')))
    .orderBy(asc(salesOrderLines.id));
  let serviceEndsOn: string | null = null;
  if (services.length && order.customerCompanyId !== null) {
    const customerId = order.customerCompanyId;
    // the customer's row locked: two payments extend one after the other, never from the same end
    const [customer] = await db
      .select({ serviceExpiresAt: companies.serviceExpiresAt })
      .from(companies)
      .where(eq(companies.id, customerId))
      .for('update');
    const tz = await companyTimeZone(db, customerId);
    const ends = [customer?.serviceExpiresAt, await latestPaidEnd(db, customerId)].filter(
      (d): d is Date => d != null,
    );
    let currentEnd: string | null = ends.length
      ? formatInstant(Math.max(...ends.map((d) => d.getTime())), 'yyyy-MM-dd', tz)
      : null;
    for (const [i, line] of services.entries()) {
      const extended = extendServiceEnd(currentEnd, paidOn, (line.months ?? 0) * line.quantity);
      if (!extended.ok) throw fieldError(`lines[${i}].months`);
      await db.insert(orders).values({
        companyId: customerId,
        userId: actor.userId,
        orderNo: `${order.number}-${i + 1}`,
        swProductId: line.swProductId ?? 0,
        subTypeId: line.subTypeId ?? 0,
        productName: line.name,
        amountCents: line.amountCents,
        status: 'paid',
        startsAt: dayStartInstant(extended.start, tz),
        endsAt: dayStartInstant(extended.end, tz),
      });
      currentEnd = extended.end;
    }
    serviceEndsOn = currentEnd;
    await db
      .update(companies)
      .set({ serviceExpiresAt: dayStartInstant(currentEnd!, tz) })
      .where(eq(companies.id, customerId));
  }
  await db
    .update(salesOrders)
    .set({ status: next, paidOn, updatedAt: new Date() })
    .where(eq(salesOrders.id, order.id));
  return { serviceEndsOn };
}

export async function cancelOrder(db: Db, actor: Actor, id: number): Promise<void> {
  const order = await orderRow(db, actor.companyId, id, true);
  const next = salesTransition(order.status, 'cancel');
  if (!next) throw stateError(order.status, 'cancel', actor.lang);
  await db
    .update(salesOrders)
    .set({ status: next, updatedAt: new Date() })
    .where(eq(salesOrders.id, order.id));
}

function orderView(row: OrderRow) {
  return {
    id: row.id,
    number: row.number,
    customerCompanyId: row.customerCompanyId,
    customer: row.customer,
    contact: row.contact,
    phone: row.phone,
    address: row.address,
    status: row.status,
    totalCents: row.totalCents,
    paidOn: row.paidOn,
    notes: row.notes,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function getOrder(db: Db, companyId: number, id: number) {
  const order = await orderRow(db, companyId, id);
  const lines = await db
    .select({
      id: salesOrderLines.id,
      kind: salesOrderLines.kind,
      categoryId: salesOrderLines.categoryId,
      name: salesOrderLines.name,
      quantity: salesOrderLines.quantity,
      months: salesOrderLines.months,
      unitPriceCents: salesOrderLines.unitPriceCents,
      amountCents: salesOrderLines.amountCents,
    })
    .from(salesOrderLines)
    .where(eq(salesOrderLines.orderId, order.id))
    .orderBy(asc(salesOrderLines.id));
  // the exit orders of the inventory that deliver it (the seller's own)
  const deliveries = await db
    .select({ id: inventoryOrders.id, number: inventoryOrders.number, state: inventoryOrders.state })
    .from(inventoryOrders)
    .where(and(eq(inventoryOrders.salesOrderId, order.id), eq(inventoryOrders.companyId, companyId)))
    .orderBy(asc(inventoryOrders.id));
  return { ...orderView(order), lines, deliveries };
}

export async function listOrders(
  db: Db,
  companyId: number,
  query: { limit: number; offset: number; keyword?: string; status?: SalesStatus } & SortQuery,
) {
  const k = query.keyword?.trim();
  const pattern = k ? likePattern(k) : '';
  const where = and(
    eq(salesOrders.companyId, companyId),
    query.status ? eq(salesOrders.status, query.status) : undefined,
    k
      ? or(sql`${salesOrders.number} ilike ${pattern}`, sql`${salesOrders.customer} ilike ${pattern}`)
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(salesOrders)
      .where(where)
      .orderBy(
        ...sortedBy(
          {
            number: salesOrders.number,
            customer: salesOrders.customer,
            totalCents: salesOrders.totalCents,
            status: salesOrders.status,
            paidOn: salesOrders.paidOn,
            createdAt: salesOrders.createdAt,
          },
          query,
          [desc(salesOrders.createdAt), desc(salesOrders.id)],
        ),
      )
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(salesOrders).where(where),
  ]);
  return { list: rows.map(orderView), total: Number(total?.n ?? 0) };
}
