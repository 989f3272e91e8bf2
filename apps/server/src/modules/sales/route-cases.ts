import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../test/helper';
import { type RouteCases, routeCalls } from '../../test/route-cases';
import { companies } from '../companies/tables';
import { inventoryCategories } from '../inventory/tables';
import { orders } from '../orders/tables';
import { salesOrderLines, salesOrders } from './tables';

let counter = 0;

/** Company A's submitted order for a service to itself, and one of its categories. */
export async function makeSalesData(t: TestApp, companyId: number) {
  counter += 1;
  const [category] = await t.db
    .insert(inventoryCategories)
    .values({ companyId, name: `secret product ${counter}`, kind: 'own' })
    .returning();
  const [order] = await t.db
    .insert(salesOrders)
    .values({
      companyId,
      number: `SO-SECRET-${counter}`,
      customerCompanyId: companyId,
      customer: `secret buyer ${counter}`,
      totalCents: 100,
    })
    .returning();
  await t.db.insert(salesOrderLines).values({
    orderId: order!.id,
    kind: 'service',
    swProductId: 13,
    subTypeId: 1,
    name: 'secret plan',
    quantity: 1,
    months: 12,
    unitPriceCents: 100,
    amountCents: 100,
  });
  return { category: category!, order: order! };
}

const { post, get, refusedWithout } = routeCalls('/sales');
const orderOf = async (t: TestApp, id: number) =>
  (await t.db.select().from(salesOrders).where(eq(salesOrders.id, id)))[0];

export const salesRouteCases: RouteCases = {
  'GET /general/sales/catalogue': {
    attack: async ({ t, a, b }) => {
      const { category } = await makeSalesData(t, a.id);
      const [victim] = await t.db.select().from(companies).where(eq(companies.id, a.id));
      return {
        request: get('/catalogue', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain(category.name);
          // a company that does not run the platform sells only to itself
          expect(res.json().data.customers.map((c: { id: number }) => c.id)).toEqual([b.id]);
          expect(res.body).not.toContain(victim!.name);
        },
      };
    },
  },
  'POST /general/sales/order/submit': {
    attack: async ({ t, a, b }) => {
      const { category } = await makeSalesData(t, a.id);
      const before = (await t.db.select().from(salesOrders).where(eq(salesOrders.companyId, b.id))).length;
      return {
        // A's company as the customer of a service, A's category as a product
        request: post('/order/submit', b.admin.token, {
          customerCompanyId: a.id,
          lines: [
            { kind: 'product', categoryId: category.id, quantity: 1, unitPriceCents: 1 },
            { kind: 'service', plan: 0, months: 12, quantity: 1, unitPriceCents: 1 },
          ],
        }),
        verify: async (res) => {
          refusedWithout(category.name)(res);
          expect(await t.db.select().from(salesOrders).where(eq(salesOrders.companyId, b.id))).toHaveLength(
            before,
          );
        },
      };
    },
  },
  'GET /general/sales/order/list': {
    attack: async ({ t, a, b }) => {
      const { order } = await makeSalesData(t, a.id);
      return {
        request: get('/order/list', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain(order.number);
          expect(res.body).not.toContain(order.customer);
        },
      };
    },
  },
  'GET /general/sales/order/get': {
    attack: async ({ t, a, b }) => {
      const { order } = await makeSalesData(t, a.id);
      return {
        request: get(`/order/get?id=${order.id}`, b.admin.token),
        verify: refusedWithout(order.number, order.customer),
      };
    },
  },
  'POST /general/sales/order/pay': {
    attack: async ({ t, a, b }) => {
      const { order } = await makeSalesData(t, a.id);
      return {
        request: post('/order/pay', b.admin.token, { id: order.id }),
        verify: async (res) => {
          refusedWithout(order.number)(res);
          expect(await orderOf(t, order.id)).toMatchObject({ status: 'submitted', paidOn: null });
          expect(
            await t.db
              .select()
              .from(orders)
              .where(eq(orders.orderNo, `${order.number}-1`)),
          ).toHaveLength(0);
        },
      };
    },
  },
  'POST /general/sales/order/cancel': {
    attack: async ({ t, a, b }) => {
      const { order } = await makeSalesData(t, a.id);
      return {
        request: post('/order/cancel', b.admin.token, { id: order.id }),
        verify: async (res) => {
          refusedWithout(order.number)(res);
          expect(await orderOf(t, order.id)).toMatchObject({ status: 'submitted' });
        },
      };
    },
  },
};
