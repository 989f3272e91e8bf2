import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../test/helper';
import { type RouteCases, routeCalls } from '../../test/route-cases';
import { inventoryCategories, inventoryOrderLines, inventoryOrders, inventoryUnits } from './tables';

let counter = 0;

/**
 * Company A's inventory, made straight in the database: an own-product category, a finished
 * unit, a stocked unit and an open exit order holding a third one (in the exit order).
 */
export async function makeInventoryData(t: TestApp, companyId: number) {
  counter += 1;
  const tag = `SECRET-${counter}`;
  const [category] = await t.db
    .insert(inventoryCategories)
    .values({ companyId, name: `secret gateway ${counter}`, kind: 'own', model: `SECRET-MODEL-${counter}` })
    .returning();
  const [order] = await t.db
    .insert(inventoryOrders)
    .values({
      companyId,
      kind: 'exit',
      number: `CK-${tag}`,
      warehouse: 'secret store',
      customer: `secret customer ${counter}`,
    })
    .returning();
  const [finished, stocked, shipping] = await t.db
    .insert(inventoryUnits)
    .values([
      { companyId, categoryId: category!.id, sn: `${tag}-F`, status: 'finished' },
      { companyId, categoryId: category!.id, sn: `${tag}-S`, status: 'stocked', warehouse: 'secret store' },
      {
        companyId,
        categoryId: category!.id,
        sn: `${tag}-X`,
        status: 'inExitOrder',
        orderId: order!.id,
        warehouse: 'secret store',
      },
    ])
    .returning();
  await t.db.insert(inventoryOrderLines).values({
    companyId,
    orderId: order!.id,
    categoryId: category!.id,
    unitId: shipping!.id,
    sn: shipping!.sn,
  });
  return { category: category!, order: order!, finished: finished!, stocked: stocked!, shipping: shipping! };
}

const { post, get, refusedWithout } = routeCalls('/inventory');

/** B's own list answered, without A's rows. */
const listWithout =
  (...secrets: string[]) =>
  (res: { json(): { code: number }; body: string }) => {
    expect(res.json().code).toBe(0);
    for (const secret of secrets) expect(res.body).not.toContain(secret);
  };

const unitOf = async (t: TestApp, id: number) =>
  (await t.db.select().from(inventoryUnits).where(eq(inventoryUnits.id, id)))[0];
const orderOf = async (t: TestApp, id: number) =>
  (await t.db.select().from(inventoryOrders).where(eq(inventoryOrders.id, id)))[0];

export const inventoryRouteCases: RouteCases = {
  'GET /general/inventory/category/list': {
    attack: async ({ t, a, b }) => {
      const { category } = await makeInventoryData(t, a.id);
      return {
        request: get('/category/list', b.admin.token),
        verify: listWithout(category.name, category.model),
      };
    },
  },
  'GET /general/inventory/category/get': {
    attack: async ({ t, a, b }) => {
      const { category } = await makeInventoryData(t, a.id);
      return {
        request: get(`/category/get?id=${category.id}`, b.admin.token),
        verify: refusedWithout(category.name, 'secret store'),
      };
    },
  },
  'POST /general/inventory/category/save': {
    attack: async ({ t, a, b }) => {
      const { category } = await makeInventoryData(t, a.id);
      return {
        request: post('/category/save', b.admin.token, {
          id: category.id,
          name: 'taken over',
          kind: 'other',
        }),
        verify: async (res) => {
          refusedWithout(category.name)(res);
          const [row] = await t.db
            .select()
            .from(inventoryCategories)
            .where(eq(inventoryCategories.id, category.id));
          expect(row).toMatchObject({ companyId: a.id, name: category.name, kind: 'own' });
        },
      };
    },
  },
  'POST /general/inventory/category/delete': {
    attack: async ({ t, a, b }) => {
      counter += 1;
      const [empty] = await t.db
        .insert(inventoryCategories)
        .values({ companyId: a.id, name: `secret empty ${counter}`, kind: 'other' })
        .returning();
      return {
        request: post('/category/delete', b.admin.token, { id: empty!.id }),
        verify: async (res) => {
          refusedWithout(empty!.name)(res);
          expect(
            await t.db.select().from(inventoryCategories).where(eq(inventoryCategories.id, empty!.id)),
          ).toHaveLength(1);
        },
      };
    },
  },
  'GET /general/inventory/stock': {
    attack: async ({ t, a, b }) => {
      await makeInventoryData(t, a.id);
      return { request: get('/stock', b.admin.token), verify: listWithout('secret store') };
    },
  },
  'GET /general/inventory/unit/list': {
    attack: async ({ t, a, b }) => {
      const { stocked, category } = await makeInventoryData(t, a.id);
      return {
        // even asked by A's category id, B sees none of A's units
        request: get(`/unit/list?categoryId=${category.id}&keyword=SECRET`, b.admin.token),
        verify: (res) => {
          listWithout(stocked.sn)(res);
          expect(res.json().data.total).toBe(0);
        },
      };
    },
  },
  'POST /general/inventory/unit/state': {
    attack: async ({ t, a, b }) => {
      const { stocked } = await makeInventoryData(t, a.id);
      return {
        request: post('/unit/state', b.admin.token, { sns: [stocked.sn], action: 'disable' }),
        verify: async (res) => {
          expect(res.json().code).not.toBe(0);
          expect(await unitOf(t, stocked.id)).toMatchObject({ disabled: false, status: 'stocked' });
        },
      };
    },
  },
  'POST /general/inventory/unit/produce': {
    attack: async ({ t, a, b }) => {
      const { category } = await makeInventoryData(t, a.id);
      return {
        request: post('/unit/produce', b.admin.token, { categoryId: category.id, sns: ['B-INTO-A-1'] }),
        verify: async (res) => {
          refusedWithout(category.name)(res);
          expect(
            await t.db.select().from(inventoryUnits).where(eq(inventoryUnits.sn, 'B-INTO-A-1')),
          ).toHaveLength(0);
        },
      };
    },
  },
  'POST /general/inventory/unit/finish': {
    attack: async ({ t, a, b }) => {
      const { category } = await makeInventoryData(t, a.id);
      const [making] = await t.db
        .insert(inventoryUnits)
        .values({
          companyId: a.id,
          categoryId: category.id,
          sn: `SECRET-MAKING-${counter}`,
          status: 'inProduction',
        })
        .returning();
      return {
        request: post('/unit/finish', b.admin.token, { sns: [making!.sn] }),
        verify: async (res) => {
          expect(res.json().code).not.toBe(0);
          expect(await unitOf(t, making!.id)).toMatchObject({ status: 'inProduction' });
        },
      };
    },
  },
  'GET /general/inventory/log/list': {
    attack: async ({ t, a, b }) => {
      const made = await t.app.inject(
        post('/unit/produce', a.admin.token, {
          categoryId: (await makeInventoryData(t, a.id)).category.id,
          sns: [`SECRET-LOGGED-${counter}`],
        }),
      );
      expect(made.json().code).toBe(0);
      return { request: get('/log/list', b.admin.token), verify: listWithout(`SECRET-LOGGED-${counter}`) };
    },
  },
  'GET /general/inventory/order/list': {
    attack: async ({ t, a, b }) => {
      const { order } = await makeInventoryData(t, a.id);
      return {
        request: get('/order/list?kind=exit', b.admin.token),
        verify: listWithout(order.number, order.customer),
      };
    },
  },
  'GET /general/inventory/order/get': {
    attack: async ({ t, a, b }) => {
      const { order, shipping } = await makeInventoryData(t, a.id);
      return {
        request: get(`/order/get?id=${order.id}`, b.admin.token),
        verify: refusedWithout(order.number, order.customer, shipping.sn),
      };
    },
  },
  'POST /general/inventory/order/create': {
    ownScope: 'creates an order in the caller’s own company; nothing of another company is named',
  },
  'POST /general/inventory/order/update': {
    attack: async ({ t, a, b }) => {
      const { order } = await makeInventoryData(t, a.id);
      return {
        request: post('/order/update', b.admin.token, {
          id: order.id,
          warehouse: 'B',
          customer: 'taken over',
        }),
        verify: async (res) => {
          refusedWithout(order.customer)(res);
          expect(await orderOf(t, order.id)).toMatchObject({
            customer: order.customer,
            warehouse: 'secret store',
          });
        },
      };
    },
  },
  'POST /general/inventory/order/add': {
    attack: async ({ t, a, b }) => {
      const { order, stocked } = await makeInventoryData(t, a.id);
      return {
        request: post('/order/add', b.admin.token, { id: order.id, sns: [stocked.sn] }),
        verify: async (res) => {
          refusedWithout(order.number)(res);
          expect(await unitOf(t, stocked.id)).toMatchObject({ status: 'stocked', orderId: null });
        },
      };
    },
  },
  'POST /general/inventory/order/remove': {
    attack: async ({ t, a, b }) => {
      const { order, shipping } = await makeInventoryData(t, a.id);
      return {
        request: post('/order/remove', b.admin.token, { id: order.id, sns: [shipping.sn] }),
        verify: async (res) => {
          refusedWithout(order.number)(res);
          expect(await unitOf(t, shipping.id)).toMatchObject({ status: 'inExitOrder', orderId: order.id });
        },
      };
    },
  },
  'POST /general/inventory/order/quantities': {
    attack: async ({ t, a, b }) => {
      const { order } = await makeInventoryData(t, a.id);
      const [counted] = await t.db
        .insert(inventoryCategories)
        .values({ companyId: b.id, name: `B cable ${counter}`, kind: 'other', serialized: false })
        .returning();
      return {
        request: post('/order/quantities', b.admin.token, {
          id: order.id,
          lines: [{ categoryId: counted!.id, quantity: 5 }],
        }),
        verify: async (res) => {
          refusedWithout(order.number)(res);
          expect(
            await t.db.select().from(inventoryOrderLines).where(eq(inventoryOrderLines.orderId, order.id)),
          ).toHaveLength(1);
        },
      };
    },
  },
  'POST /general/inventory/order/confirm': {
    attack: async ({ t, a, b }) => {
      const { order, shipping } = await makeInventoryData(t, a.id);
      return {
        request: post('/order/confirm', b.admin.token, { id: order.id }),
        verify: async (res) => {
          refusedWithout(order.number)(res);
          expect(await orderOf(t, order.id)).toMatchObject({ state: 'open' });
          expect(await unitOf(t, shipping.id)).toMatchObject({ status: 'inExitOrder' });
        },
      };
    },
  },
  'POST /general/inventory/order/cancel': {
    attack: async ({ t, a, b }) => {
      const { order, shipping } = await makeInventoryData(t, a.id);
      return {
        request: post('/order/cancel', b.admin.token, { id: order.id }),
        verify: async (res) => {
          refusedWithout(order.number)(res);
          expect(await orderOf(t, order.id)).toMatchObject({ state: 'open' });
          expect(await unitOf(t, shipping.id)).toMatchObject({ status: 'inExitOrder', orderId: order.id });
        },
      };
    },
  },
  'GET /general/inventory/order/note': {
    attack: async ({ t, a, b }) => {
      const { order } = await makeInventoryData(t, a.id);
      return {
        request: get(`/order/note?id=${order.id}`, b.admin.token),
        verify: (res) => {
          expect(res.headers['content-type']).not.toContain('pdf');
          refusedWithout(order.number, order.customer)(res);
        },
      };
    },
  },
};
