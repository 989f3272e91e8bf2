import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
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
import { inventoryUnitEvents, inventoryUnits } from '../inventory/tables';
import { roles } from '../roles/tables';
import { productionSchedules } from './tables';

let t: TestApp;
let a: TestCompany;
let gateway: number;
let sim: number;

const call = apiCaller(
  () => t,
  '',
  () => a.admin.token,
);

const callAs = (token: string, method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') =>
  call(method, url, payload, token, lang);

const plan = (over: object = {}) => ({
  categoryId: gateway,
  quantity: 3,
  line: 'Line 1',
  startOn: '2026-11-27',
  endOn: '2026-11-28',
  ...over,
});

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Production A');
  gateway = ok(
    await call('POST', '/inventory/category/save', { name: 'DTU gateway', kind: 'own', model: 'GW-4G' }),
  ).id;
  sim = ok(await call('POST', '/inventory/category/save', { name: 'IoT SIM', kind: 'sim' })).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('a production plan to finished units in stock', () => {
  it('plans, starts, records, finishes, reports; the units then go into stock through an entry order', async () => {
    const { id, number } = ok(await call('POST', '/production/schedule/save', plan(), undefined, 'zh'));
    expect(number).toMatch(/^SC-20261127-\d{5}$/);
    const planned = ok(await call('GET', `/production/schedule/get?id=${id}`));
    expect(planned).toMatchObject({ status: 'planned', recorded: 0, categoryName: 'DTU gateway' });
    // steps default to the language of the person who planned it
    expect(planned.steps[0]).toBe('贴片');

    // nothing is recorded before the plan starts
    expect(
      await call('POST', '/production/schedule/record', { id, sns: ['PM-1'] }, undefined, 'zh'),
    ).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: '该生产计划当前为“已计划”，不能登记产品',
    });
    ok(await call('POST', '/production/schedule/state', { id, action: 'start' }));
    ok(await call('POST', '/production/schedule/record', { id, sns: ['PM-1', 'PM-2'] }));
    ok(await call('POST', '/production/schedule/record', { id, sns: ['PM-3'], finished: true }));
    // beyond the quantity: refused, nothing written
    expect(await call('POST', '/production/schedule/record', { id, sns: ['PM-4'] })).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'The plan makes 3: 4 would be recorded',
    });
    expect(await t.db.select().from(inventoryUnits).where(eq(inventoryUnits.sn, 'PM-4'))).toHaveLength(0);
    // it cannot finish while units are still in production
    expect(await call('POST', '/production/schedule/state', { id, action: 'finish' })).toMatchObject({
      message: '2 units of this plan are still in production',
    });
    // a serial number of another plan (or none) is not this plan's to finish
    expect(
      await call('POST', '/production/schedule/finish-units', { id, sns: ['PM-1', 'ELSEWHERE-1'] }),
    ).toMatchObject({
      message: `Serial number ELSEWHERE-1 was not made by plan ${number}`,
    });
    ok(await call('POST', '/production/schedule/finish-units', { id, sns: ['PM-1', 'PM-2'] }));
    ok(await call('POST', '/production/schedule/state', { id, action: 'finish' }));
    const done = ok(await call('GET', `/production/schedule/get?id=${id}`));
    expect(done).toMatchObject({ status: 'finished', recorded: 3, finished: 3, inProduction: 0 });
    expect(done.units.map((u: { sn: string; status: string }) => [u.sn, u.status])).toEqual([
      ['PM-1', 'finished'],
      ['PM-2', 'finished'],
      ['PM-3', 'finished'],
    ]);

    // output: today in the company's zone, line 1, the gateway: three
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date());
    const report = ok(await call('GET', `/production/report?from=${today}&to=${today}`));
    expect(report).toMatchObject({ total: 3, byLine: { 'Line 1': 3 }, byProduct: { 'DTU gateway': 3 } });
    expect(report.rows).toEqual([{ day: today, line: 'Line 1', product: 'DTU gateway', count: 3 }]);
    const yesterday = ok(await call('GET', '/production/report?from=2026-01-01&to=2026-01-02'));
    expect(yesterday.total).toBe(0);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/general/production/report/export?from=${today}&to=${today}&format=csv&lang=en`,
      headers: bearer(a.admin.token),
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.replace('\uFEFF', '').split(/\r?\n/).filter(Boolean)).toEqual([
      'Day,Line,Product,Units',
      `${today},Line 1,DTU gateway,3`,
      'Total,,,3',
    ]);

    // finished units are stocked through an entry order of own products
    const entry = ok(
      await call('POST', '/inventory/order/create', { kind: 'entry', source: 'own', warehouse: 'Main' }),
    );
    ok(await call('POST', '/inventory/order/add', { id: entry.id, sns: ['PM-1', 'PM-2', 'PM-3'] }));
    ok(await call('POST', '/inventory/order/confirm', { id: entry.id }));
    const units = await t.db.select().from(inventoryUnits).where(eq(inventoryUnits.scheduleId, id));
    expect(units.map((u) => u.status)).toEqual(['stocked', 'stocked', 'stocked']);
    // the plan's own view follows the units
    const after = ok(await call('GET', `/production/schedule/get?id=${id}`));
    expect(after.units.map((u: { status: string }) => u.status)).toEqual(['stocked', 'stocked', 'stocked']);
    // and the log says who moved them, in order
    const log = await t.db.select().from(inventoryUnitEvents).where(eq(inventoryUnitEvents.sn, 'PM-1'));
    expect(log.map((e) => e.action)).toEqual(['produce', 'finish', 'chooseEntry', 'stock']);
  });
});

describe('plans refused field by field, nothing written', () => {
  it('names the field of a bad plan', async () => {
    const before = await t.db.select().from(productionSchedules);
    for (const [over, field] of [
      [{ categoryId: sim }, 'categoryId'],
      [{ line: '  ' }, 'line'],
      [{ startOn: '2026-02-30' }, 'startOn'],
      [{ endOn: '2026-11-26' }, 'endOn'],
      [{ steps: [] }, 'steps'],
      [{ steps: ['ok', ' '] }, 'steps'],
    ] as const) {
      const res = await call('POST', '/production/schedule/save', plan(over));
      expect(res.code, JSON.stringify(over)).not.toBe(0);
      expect(res.data?.field, JSON.stringify(over)).toBe(field);
    }
    expect(await t.db.select().from(productionSchedules)).toHaveLength(before.length);
  });

  it('keeps the quantity at least what is recorded, and deletes only a plan that made nothing', async () => {
    const { id } = ok(await call('POST', '/production/schedule/save', plan({ quantity: 2 })));
    ok(await call('POST', '/production/schedule/state', { id, action: 'start' }));
    ok(await call('POST', '/production/schedule/record', { id, sns: ['QB-1', 'QB-2'] }));
    expect(await call('POST', '/production/schedule/save', plan({ id, quantity: 1 }))).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'quantity' },
    });
    expect(await call('POST', '/production/schedule/delete', { id })).toMatchObject({
      code: ERROR_CODES.CONFLICT,
    });
    expect(await call('POST', '/production/schedule/state', { id, action: 'cancel' })).toMatchObject({
      code: ERROR_CODES.CONFLICT,
    });
    const empty = ok(await call('POST', '/production/schedule/save', plan())).id;
    ok(await call('POST', '/production/schedule/delete', { id: empty }));
    expect(
      await t.db.select().from(productionSchedules).where(eq(productionSchedules.id, empty)),
    ).toHaveLength(0);
    // a category planned for cannot be deleted
    expect((await call('POST', '/inventory/category/delete', { id: gateway })).code).toBe(
      ERROR_CODES.CONFLICT,
    );
  });
});

describe('a person with the process page only (pm_process, not pm_scheduling)', () => {
  it('lists and reads the plans and records their units, but changes no plan', async () => {
    const { id } = ok(await call('POST', '/production/schedule/save', plan({ line: 'Process line' })));
    ok(await call('POST', '/production/schedule/state', { id, action: 'start' }));
    await t.db
      .update(roles)
      .set({ menuCodes: ['production_management', 'pm_process'] })
      .where(eq(roles.id, a.ordinaryRoleId));
    const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
      callAs(a.limited.token, method, url, payload);

    const listed = ok(await as('GET', '/production/schedule/list?keyword=Process%20line'));
    expect(listed.list.map((p: { id: number }) => p.id)).toEqual([id]);
    expect(ok(await as('GET', `/production/schedule/get?id=${id}`))).toMatchObject({
      id,
      status: 'inProduction',
    });
    ok(await as('POST', '/production/schedule/record', { id, sns: ['PO-1', 'PO-2'] }));
    ok(await as('POST', '/production/schedule/finish-units', { id, sns: ['PO-1'] }));
    expect(ok(await as('GET', `/production/schedule/get?id=${id}`))).toMatchObject({
      recorded: 2,
      finished: 1,
      inProduction: 1,
    });

    // planning, deleting and moving a plan stay with pm_scheduling
    const refusedPlan = plan({ line: 'Not mine to plan' });
    for (const [url, payload] of [
      ['/production/schedule/save', refusedPlan],
      ['/production/schedule/save', { ...plan({ quantity: 9 }), id }],
      ['/production/schedule/delete', { id }],
      ['/production/schedule/state', { id, action: 'finish' }],
      ['/production/schedule/state', { id, action: 'cancel' }],
    ] as const) {
      expect((await as('POST', url, payload)).code, url).toBe(ERROR_CODES.FORBIDDEN);
    }
    expect(await t.db.select().from(productionSchedules).where(eq(productionSchedules.id, id))).toMatchObject(
      [{ status: 'inProduction', quantity: 3, line: 'Process line' }],
    );
    expect(
      await t.db.select().from(productionSchedules).where(eq(productionSchedules.line, 'Not mine to plan')),
    ).toHaveLength(0);
    // nor the reports, another code
    expect((await as('GET', '/production/report?from=2026-01-01&to=2026-12-31')).code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
  });
});
