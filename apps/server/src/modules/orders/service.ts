/**
 * Service subscriptions of a company. Only 'paid' orders count towards service: the one whose
 * period covers now is the user's orderInfo, and the furthest paid end can extend the
 * company's serviceExpiresAt.
 */
import { and, count, desc, eq, gt, lte, max } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { orders } from './tables';

export interface OrderInfo {
  swProductId: number;
  subTypeId: number;
}

/** The latest paid order whose period covers `now`, or null. */
export async function currentOrderInfo(
  db: Db,
  companyId: number,
  now = new Date(),
): Promise<OrderInfo | null> {
  const [row] = await db
    .select({ swProductId: orders.swProductId, subTypeId: orders.subTypeId })
    .from(orders)
    .where(
      and(
        eq(orders.companyId, companyId),
        eq(orders.status, 'paid'),
        lte(orders.startsAt, now),
        gt(orders.endsAt, now),
      ),
    )
    .orderBy(desc(orders.startsAt), desc(orders.id))
    .limit(1);
  return row ?? null;
}

/** The end of the furthest-reaching paid order, or null when the company has none. */
export async function latestPaidEnd(db: Db, companyId: number): Promise<Date | null> {
  const [row] = await db
    .select({ endsAt: max(orders.endsAt) })
    .from(orders)
    .where(and(eq(orders.companyId, companyId), eq(orders.status, 'paid')));
  const value = row?.endsAt;
  // PGlite and node-postgres both map the aggregate through the column, but be strict
  return value == null ? null : new Date(value);
}

export interface OrderView {
  id: number;
  orderNo: string;
  productName: string;
  swProductId: number;
  subTypeId: number;
  amountCents: number;
  status: string;
  startsAt: string;
  endsAt: string;
  createdAt: string;
}

/** A page of the company's orders, newest first. */
export async function listCompanyOrders(
  db: Db,
  companyId: number,
  page: { limit: number; offset: number },
): Promise<{ list: OrderView[]; total: number }> {
  const where = eq(orders.companyId, companyId);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return {
    list: rows.map((o) => ({
      id: o.id,
      orderNo: o.orderNo,
      productName: o.productName,
      swProductId: o.swProductId,
      subTypeId: o.subTypeId,
      amountCents: o.amountCents,
      status: o.status,
      startsAt: o.startsAt.toISOString(),
      endsAt: o.endsAt.toISOString(),
      createdAt: o.createdAt.toISOString(),
    })),
    total: Number(totalRow?.n ?? 0),
  };
}
