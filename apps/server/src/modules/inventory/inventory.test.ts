import { ERROR_CODES, STOCK_STATUS } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCaller,
  bearer,
  buildTestApp,
  makeCompany,
  ok,
  type TestApp,
  type TestCompany,
} from '../../test/helper';
import { inflatedStreams } from '../../test/pdf';
import { gateways } from '../gateways/tables';
import { makeMember, makeRole } from '../users/test-support';
import { inventoryOrderLines, inventoryOrders, inventoryUnitEvents, inventoryUnits } from './tables';

let t: TestApp;
let a: TestCompany;
let gatewayCategory: number;
let simCategory: number;
let cableCategory: number;

const call = apiCaller(
  () => t,
  '/inventory',
  () => a.admin.token,
);

let serial = 0;
/** n fresh serial numbers with a prefix */
const serials = (prefix: string, n: number) => Array.from({ length: n }, () => `${prefix}-${++serial}`);

async function unitsOf(sns: string[]) {
  const rows = await t.db.select().from(inventoryUnits).where(eq(inventoryUnits.companyId, a.id));
  return sns.map((sn) => rows.find((r) => r.sn === sn));
}

async function produced(n: number, finished = true): Promise<string[]> {
  const sns = serials('GW', n);
  ok(await call('POST', '/unit/produce', { categoryId: gatewayCategory, sns, finished }));
  return sns;
}

async function openOrder(kind: 'entry' | 'exit', source?: 'own' | 'sim' | 'other') {
  return ok(
    await call('POST', '/order/create', {
      kind,
      source,
      warehouse: 'Main store',
      customer: kind === 'exit' ? 'Acme Water Works' : undefined,
      address: kind === 'exit' ? '1 Harbour Road' : undefined,
    }),
  );
}

/** Finished gateways, stocked in Main store through a confirmed entry order. */
async function stocked(n: number): Promise<string[]> {
  const sns = await produced(n);
  const entry = await openOrder('entry', 'own');
  ok(await call('POST', '/order/add', { id: entry.id, sns }));
  ok(await call('POST', '/order/confirm', { id: entry.id }));
  return sns;
}

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Inventory A');
  gatewayCategory = ok(
    await call('POST', '/category/save', { name: 'DTU gateway', kind: 'own', model: 'GW-4G', unit: 'pcs' }),
  ).id;
  simCategory = ok(await call('POST', '/category/save', { name: 'IoT SIM', kind: 'sim', unit: 'pcs' })).id;
  cableCategory = ok(
    await call('POST', '/category/save', {
      name: 'RS485 cable',
      kind: 'other',
      serialized: false,
      unit: 'm',
    }),
  ).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('categories', () => {
  it('refuses a second category of the same name, naming the field', async () => {
    const again = await call('POST', '/category/save', { name: 'DTU gateway', kind: 'other' });
    expect(again).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'name' } });
    expect(again.message).toBe('A category named DTU gateway already exists');
  });

  it('keeps own products and SIM cards serial-numbered whatever is asked', async () => {
    const id = ok(await call('POST', '/category/save', { name: 'Meter', kind: 'own', serialized: false })).id;
    const { list } = ok(await call('GET', '/category/list?kind=own'));
    expect(list.find((c: { id: number }) => c.id === id)).toMatchObject({
      serialized: true,
      counts: { 1: 0 },
    });
    ok(await call('POST', '/category/delete', { id }));
  });

  it('refuses deleting, or changing the kind of, a category that holds goods; nothing changes', async () => {
    await produced(1);
    const deleted = await call('POST', '/category/delete', { id: gatewayCategory });
    expect(deleted).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'DTU gateway still holds goods, order lines or production plans: it cannot be deleted',
    });
    const changed = await call('POST', '/category/save', {
      id: gatewayCategory,
      name: 'DTU gateway',
      kind: 'sim',
    });
    expect(changed).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'kind' } });
    expect(ok(await call('GET', `/category/get?id=${gatewayCategory}`))).toMatchObject({ kind: 'own' });
  });
});

describe('an entry order bringing three gateways into stock, then an exit order shipping them', () => {
  it('stocks, ships and prints, every move logged', async () => {
    const sns = await produced(3);
    const entry = await openOrder('entry', 'own');
    expect(entry.number).toMatch(/^RK-\d{8}-\d{5}$/);
    // a scan gives the same number twice and blanks: one line each
    expect(ok(await call('POST', '/order/add', { id: entry.id, sns: [...sns, ` ${sns[0]} `, ''] }))).toEqual({
      added: 3,
    });
    expect((await unitsOf(sns)).map((u) => u?.status)).toEqual([
      'inEntryOrder',
      'inEntryOrder',
      'inEntryOrder',
    ]);
    ok(await call('POST', '/order/confirm', { id: entry.id }));
    const units = await unitsOf(sns);
    expect(units.map((u) => [u?.status, u?.warehouse, u?.orderId])).toEqual(
      sns.map(() => ['stocked', 'Main store', null]),
    );
    const mine = ok(await call('GET', `/unit/list?categoryId=${gatewayCategory}&stockStatus=1&keyword=GW`));
    expect(mine.list.map((u: { sn: string }) => u.sn)).toEqual(expect.arrayContaining(sns));

    const exit = await openOrder('exit');
    expect(exit.number).toMatch(/^CK-\d{8}-\d{5}$/);
    ok(await call('POST', '/order/add', { id: exit.id, sns }));
    const open = ok(await call('GET', `/order/get?id=${exit.id}`));
    expect(open.lines.map((l: { sn: string; stockStatus: number }) => [l.sn, l.stockStatus])).toEqual(
      sns.map((sn) => [sn, STOCK_STATUS.inExitOrder]),
    );
    ok(await call('POST', '/order/confirm', { id: exit.id }));
    expect((await unitsOf(sns)).map((u) => u?.status)).toEqual(['out', 'out', 'out']);
    const shipped = ok(await call('GET', `/order/get?id=${exit.id}`));
    expect(shipped).toMatchObject({ state: 'confirmed', customer: 'Acme Water Works' });
    expect(shipped.closedAt).not.toBeNull();

    const log = ok(await call('GET', `/log/list?keyword=${sns[0]}`));
    expect(log.list.map((e: { action: string }) => e.action).reverse()).toEqual([
      'produce',
      'chooseEntry',
      'stock',
      'chooseExit',
      'ship',
    ]);
    expect(log.list[0]).toMatchObject({
      fromStatus: 'inExitOrder',
      toStatus: 'out',
      orderNumber: exit.number,
    });

    const note = (lang: string) =>
      t.app.inject({
        method: 'GET',
        url: `/general/inventory/order/note?id=${exit.id}&lang=${lang}`,
        headers: bearer(a.admin.token),
      });
    const zh = await note('zh');
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['content-type']).toBe('application/pdf');
    expect(zh.headers['content-disposition']).toContain(`${exit.number}-zh.pdf`);
    // the subset font's ToUnicode map holds what was drawn: 出 (U+51FA) 库 (U+5E93)
    const zhText = inflatedStreams(zh.rawPayload).toLowerCase();
    for (const code of ['51fa', '5e93']) expect(zhText).toContain(`<${code}>`);
    const en = await note('en');
    expect(inflatedStreams(en.rawPayload).toLowerCase()).not.toContain('<51fa>');
    expect(en.rawPayload.toString('latin1')).toContain(`Delivery note ${exit.number}`);
  });
});

describe('refused moves change nothing', () => {
  it('refuses a whole paste when one serial number cannot go, naming each', async () => {
    const ready = await produced(2);
    const [making] = await produced(1, false);
    const entry = await openOrder('entry', 'own');
    const res = await call('POST', '/order/add', { id: entry.id, sns: [...ready, making!, 'NOPE-1'] });
    expect(res.code).toBe(ERROR_CODES.BUSINESS);
    expect(res.message).toBe('Serial number NOPE-1 is not in the inventory');
    expect(res.data.refusals).toEqual([
      { sn: 'NOPE-1', message: 'Serial number NOPE-1 is not in the inventory' },
    ]);
    // without the unknown one, the unfinished one is named with its status and the action
    const res2 = await call(
      'POST',
      '/order/add',
      { id: entry.id, sns: [...ready, making!] },
      a.admin.token,
      'zh',
    );
    expect(res2.message).toBe(`序列号 ${making} 当前为“生产中”，不能选入入库单`);
    expect(res2.data.refusals).toHaveLength(1);
    expect((await unitsOf([...ready, making!])).map((u) => u?.status)).toEqual([
      'finished',
      'finished',
      'inProduction',
    ]);
    expect(
      await t.db.select().from(inventoryOrderLines).where(eq(inventoryOrderLines.orderId, entry.id)),
    ).toEqual([]);
  });

  it('keeps a unit out of a second open order', async () => {
    const [sn] = await stocked(1);
    const first = await openOrder('exit');
    const second = await openOrder('exit');
    ok(await call('POST', '/order/add', { id: first.id, sns: [sn] }));
    const res = await call('POST', '/order/add', { id: second.id, sns: [sn] });
    expect(res.code).toBe(ERROR_CODES.CONFLICT);
    expect(res.message).toBe(`Serial number ${sn} is already in an open order (${first.id})`);
    expect((await unitsOf([sn!]))[0]).toMatchObject({ status: 'inExitOrder', orderId: first.id });
    // taken out, it may go into the other
    ok(await call('POST', '/order/remove', { id: first.id, sns: [sn] }));
    expect((await unitsOf([sn!]))[0]).toMatchObject({ status: 'stocked', orderId: null });
    ok(await call('POST', '/order/add', { id: second.id, sns: [sn] }));
  });

  it('changes a confirmed or cancelled order no more, and confirms no empty order', async () => {
    const empty = await openOrder('exit');
    expect(await call('POST', '/order/confirm', { id: empty.id })).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'An order needs at least one item before it is confirmed',
    });
    const [sn] = await stocked(1);
    const order = await openOrder('exit');
    ok(await call('POST', '/order/add', { id: order.id, sns: [sn] }));
    ok(await call('POST', '/order/cancel', { id: order.id }));
    expect((await unitsOf([sn!]))[0]).toMatchObject({ status: 'stocked', orderId: null });
    for (const [url, body] of [
      ['/order/add', { sns: [sn] }],
      ['/order/confirm', {}],
      ['/order/cancel', {}],
      ['/order/update', { warehouse: 'X', customer: 'Y' }],
    ] as const) {
      const res = await call('POST', url, { id: order.id, ...body }, a.admin.token, 'zh');
      expect(res).toMatchObject({ code: ERROR_CODES.CONFLICT, message: '该单据已取消，不能再修改' });
    }
  });

  it('takes into an entry of own products only own products, and of SIM cards new ICCIDs into a SIM category', async () => {
    const entry = await openOrder('entry', 'sim');
    const iccids = ['89860412345678901230', '89860412345678901231'];
    // new serial numbers need the category they join
    expect(await call('POST', '/order/add', { id: entry.id, sns: iccids })).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'categoryId' },
    });
    expect(
      await call('POST', '/order/add', { id: entry.id, sns: iccids, categoryId: gatewayCategory }),
    ).toMatchObject({
      data: { field: 'categoryId' },
    });
    expect(
      ok(await call('POST', '/order/add', { id: entry.id, sns: iccids, categoryId: simCategory })),
    ).toEqual({ added: 2 });
    ok(await call('POST', '/order/confirm', { id: entry.id }));
    expect((await unitsOf(iccids)).map((u) => [u?.status, u?.categoryId])).toEqual(
      iccids.map(() => ['stocked', simCategory]),
    );
    // a gateway offered to a SIM entry is named as the wrong kind
    const [gw] = await produced(1);
    const simEntry = await openOrder('entry', 'sim');
    const res = await call('POST', '/order/add', { id: simEntry.id, sns: [gw], categoryId: simCategory });
    expect(res.message).toBe(`Serial number ${gw} belongs to DTU gateway, which this order does not take`);
  });

  it('disables a stocked unit (stock status 9) and enables it back; not while in an open order', async () => {
    const [sn] = await stocked(1);
    ok(await call('POST', '/unit/state', { sns: [sn], action: 'disable' }));
    expect(ok(await call('GET', `/unit/list?keyword=${sn}`)).list[0]).toMatchObject({
      stockStatus: 9,
      status: 'stocked',
    });
    const exit = await openOrder('exit');
    expect((await call('POST', '/order/add', { id: exit.id, sns: [sn] })).message).toBe(
      `Serial number ${sn} is disabled`,
    );
    ok(await call('POST', '/unit/state', { sns: [sn], action: 'enable' }));
    ok(await call('POST', '/order/add', { id: exit.id, sns: [sn] }));
    expect((await call('POST', '/unit/state', { sns: [sn], action: 'disable' })).code).toBe(
      ERROR_CODES.CONFLICT,
    );
  });

  it('names a bad serial number and an over-long paste by field', async () => {
    const entry = await openOrder('entry', 'own');
    expect(await call('POST', '/order/add', { id: entry.id, sns: ['bad serial!'] })).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'sns' },
    });
    expect(await call('POST', '/order/add', { id: entry.id, sns: [' ', ''] })).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'sns is required',
    });
    expect(await call('POST', '/order/create', { kind: 'exit', warehouse: 'Main store' })).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'customer' },
    });
    expect(
      await call('POST', '/order/create', { kind: 'entry', source: 'own', warehouse: ' ' }),
    ).toMatchObject({
      data: { field: 'warehouse' },
    });
  });
});

describe('counted goods', () => {
  it('takes out only what a warehouse holds, all lines or none', async () => {
    const entry = await openOrder('entry', 'other');
    ok(
      await call('POST', '/order/quantities', {
        id: entry.id,
        lines: [{ categoryId: cableCategory, quantity: 10 }],
      }),
    );
    ok(await call('POST', '/order/confirm', { id: entry.id }));
    const list = ok(await call('GET', '/category/list?kind=other'));
    expect(list.list.find((c: { id: number }) => c.id === cableCategory)).toMatchObject({
      quantity: 10,
      counts: null,
    });

    const exit = await openOrder('exit');
    ok(
      await call('POST', '/order/quantities', {
        id: exit.id,
        lines: [{ categoryId: cableCategory, quantity: 11 }],
      }),
    );
    expect(await call('POST', '/order/confirm', { id: exit.id })).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'RS485 cable: 10 in stock in Main store, 11 wanted',
      data: { field: 'lines' },
    });
    expect((await t.db.select().from(inventoryOrders).where(eq(inventoryOrders.id, exit.id)))[0]?.state).toBe(
      'open',
    );
    ok(
      await call('POST', '/order/quantities', {
        id: exit.id,
        lines: [{ categoryId: cableCategory, quantity: 4 }],
      }),
    );
    ok(await call('POST', '/order/confirm', { id: exit.id }));
    const stock = ok(await call('GET', '/stock'));
    expect(stock.find((s: { categoryId: number }) => s.categoryId === cableCategory)).toMatchObject({
      warehouse: 'Main store',
      quantity: 6,
    });
    // a serial-numbered category is not counted
    const other = await openOrder('exit');
    expect(
      await call('POST', '/order/quantities', {
        id: other.id,
        lines: [{ categoryId: gatewayCategory, quantity: 1 }],
      }),
    ).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'lines[0].categoryId' } });
  });
});

describe('the gateway registry', () => {
  it('shows a shipped gateway registered in the factory list as registered, bound once a customer binds it', async () => {
    const [sn] = await stocked(1);
    const exit = await openOrder('exit');
    ok(await call('POST', '/order/add', { id: exit.id, sns: [sn] }));
    ok(await call('POST', '/order/confirm', { id: exit.id }));
    const shown = async () => ok(await call('GET', `/unit/list?keyword=${sn}`)).list[0];
    expect(await shown()).toMatchObject({ status: 'out', stockStatus: STOCK_STATUS.out });
    await t.db.insert(gateways).values({ serialNumber: sn!, model: 'GW-4G', secretHash: '0'.repeat(64) });
    expect(await shown()).toMatchObject({ status: 'registered', stockStatus: STOCK_STATUS.out });
    const customer = await makeCompany(t, 'Customer of A');
    await t.db
      .update(gateways)
      .set({ companyId: customer.id, boundAt: new Date() })
      .where(eq(gateways.serialNumber, sn!));
    expect(await shown()).toMatchObject({ status: 'bound', stockStatus: STOCK_STATUS.bound });
    const bound = ok(await call('GET', `/unit/list?stockStatus=4`));
    expect(bound.list.map((u: { sn: string }) => u.sn)).toContain(sn);
    // the stored status stays what the inventory did: the registry is read, never copied
    expect((await unitsOf([sn!]))[0]?.status).toBe('out');
  });
});

describe('an exit order delivering a sales order', () => {
  it("takes the sale's customer, shows the sale's number, and the sale lists it; refused for a cancelled or another company's sale", async () => {
    const sale = async (customer: string, token = a.admin.token) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/general/sales/order/submit',
        payload: {
          customer,
          contact: 'Ms Zhao',
          phone: '13800000009',
          address: '9 River Road',
          lines: [{ kind: 'product', categoryId: gatewayCategory, quantity: 2, unitPriceCents: 100 }],
        },
        headers: bearer(token),
      });
      return ok(res.json()) as { id: number; number: string };
    };
    const sold = await sale('River Water Works');
    const exit = ok(
      await call('POST', '/order/create', { kind: 'exit', warehouse: 'Main store', salesOrderId: sold.id }),
    );
    const view = ok(await call('GET', `/order/get?id=${exit.id}`));
    expect(view).toMatchObject({
      customer: 'River Water Works',
      contact: 'Ms Zhao',
      phone: '13800000009',
      address: '9 River Road',
      salesOrderId: sold.id,
      salesOrderNumber: sold.number,
    });
    const listed = ok(await call('GET', `/order/list?kind=exit&keyword=${exit.number}`));
    expect(listed.list[0]).toMatchObject({ salesOrderNumber: sold.number });
    const saleView = (
      await t.app.inject({
        method: 'GET',
        url: `/general/sales/order/get?id=${sold.id}`,
        headers: bearer(a.admin.token),
      })
    ).json().data;
    expect(saleView.deliveries).toEqual([{ id: exit.id, number: exit.number, state: 'open' }]);

    // unlinked again: the customer stays as it was written
    ok(
      await call('POST', '/order/update', {
        id: exit.id,
        warehouse: 'Main store',
        customer: 'River Water Works',
        salesOrderId: null,
      }),
    );
    expect(ok(await call('GET', `/order/get?id=${exit.id}`)).salesOrderId).toBeNull();

    // a cancelled sale delivers nothing
    const cancelled = await sale('Gone Buyer');
    await t.app.inject({
      method: 'POST',
      url: '/general/sales/order/cancel',
      payload: { id: cancelled.id },
      headers: bearer(a.admin.token),
    });
    const refusedCancelled = await call('POST', '/order/update', {
      id: exit.id,
      warehouse: 'Main store',
      salesOrderId: cancelled.id,
    });
    expect(refusedCancelled).toMatchObject({
      message: `Sales order ${cancelled.number} is cancelled: nothing is delivered for it`,
      data: { field: 'salesOrderId' },
    });

    // the attack: another company names A's sale on its exit order; refused, nothing written, nothing told
    const b = await makeCompany(t, 'Exit Thief');
    const before = await t.db.select().from(inventoryOrders).where(eq(inventoryOrders.companyId, b.id));
    const stolen = await call(
      'POST',
      '/order/create',
      { kind: 'exit', warehouse: 'Main store', salesOrderId: sold.id },
      b.admin.token,
    );
    expect(stolen).toMatchObject({ code: 40400, data: { field: 'salesOrderId' } });
    expect(JSON.stringify(stolen)).not.toContain('River Water Works');
    expect(await t.db.select().from(inventoryOrders).where(eq(inventoryOrders.companyId, b.id))).toEqual(
      before,
    );
  });
});

describe('permissions', () => {
  it('lets a storekeeper with entry orders only see and change no exit order', async () => {
    const role = await makeRole(t, a.id, ['inventory_management', 'im_entry']);
    const keeper = await makeMember(t, a, [role], 'storekeeper');
    const exit = await openOrder('exit');
    expect((await call('GET', '/order/list?kind=exit', undefined, keeper.token)).code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await call('GET', `/order/get?id=${exit.id}`, undefined, keeper.token)).code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await call('POST', '/order/cancel', { id: exit.id }, keeper.token)).code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect(
      (await call('POST', '/order/create', { kind: 'exit', warehouse: 'W', customer: 'C' }, keeper.token))
        .code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    expect((await t.db.select().from(inventoryOrders).where(eq(inventoryOrders.id, exit.id)))[0]?.state).toBe(
      'open',
    );
    // entries are theirs
    expect((await call('GET', '/order/list?kind=entry', undefined, keeper.token)).code).toBe(0);
  });
});

describe('random operations through the API', () => {
  it('never leave a unit in two open orders, nor its status disagreeing with the orders that hold it', async () => {
    const op = fc.record({
      order: fc.integer({ min: 0, max: 1 }),
      type: fc.constantFrom('add', 'remove', 'confirm', 'cancel'),
      picks: fc.subarray([0, 1, 2, 3], { minLength: 1, maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 8 }), async (ops) => {
        const pool = await stocked(4);
        const orders = [await openOrder('exit'), await openOrder('exit')];
        for (const o of ops) {
          const id = orders[o.order]!.id;
          if (o.type === 'add' || o.type === 'remove')
            await call('POST', `/order/${o.type}`, { id, sns: o.picks.map((i) => pool[i]) });
          else await call('POST', `/order/${o.type}`, { id });
        }
        const units = await unitsOf(pool);
        for (const unit of units) {
          const holding = await t.db
            .select({ orderId: inventoryOrderLines.orderId })
            .from(inventoryOrderLines)
            .innerJoin(inventoryOrders, eq(inventoryOrders.id, inventoryOrderLines.orderId))
            .where(and(eq(inventoryOrderLines.unitId, unit!.id), eq(inventoryOrders.state, 'open')));
          expect(holding.length).toBeLessThanOrEqual(1);
          expect(unit!.orderId).toBe(holding[0]?.orderId ?? null);
          if (holding.length) expect(unit!.status).toBe('inExitOrder');
          else expect(['stocked', 'out']).toContain(unit!.status);
          // the log's last move of the unit ends where the unit is
          const log = await t.db
            .select()
            .from(inventoryUnitEvents)
            .where(eq(inventoryUnitEvents.unitId, unit!.id))
            .orderBy(inventoryUnitEvents.id);
          expect(log.at(-1)?.toStatus).toBe(unit!.status);
        }
        // the counts of the stock agree with the units
        const counts = ok(await call('GET', `/category/get?id=${gatewayCategory}`)).stock.find(
          (s: { warehouse: string }) => s.warehouse === 'Main store',
        ).counts;
        const all = await t.db
          .select()
          .from(inventoryUnits)
          .where(
            and(eq(inventoryUnits.categoryId, gatewayCategory), eq(inventoryUnits.warehouse, 'Main store')),
          );
        expect(counts[STOCK_STATUS.inExitOrder]).toBe(all.filter((u) => u.status === 'inExitOrder').length);
        expect(counts[STOCK_STATUS.stocked]).toBe(
          all.filter((u) => u.status === 'stocked' && !u.disabled).length,
        );
      }),
      { numRuns: 8 },
    );
  });
});
