import { ERROR_CODES } from '@platform/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import type { App } from '../../platform/context';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { alarms } from '../alarms/tables';
import { makeDirectory, makeItem, SAMPLE_FIELDS, setPermissions } from '../cabin/test-support';
import { dataRecords } from '../records/tables';
import { roles } from '../roles/tables';
import { checkMonitors, createDataUpdateChecker } from './check';
import { makeMonitor } from './route-cases';
import { dataUpdateChecks, dataUpdateMonitors } from './tables';

const MIN = 60_000;
let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Update A');
  b = await makeCompany(t, 'Update B');
});
afterAll(async () => {
  await t?.close();
});

/** A record of the item as if it had arrived at `at` (its time and its arrival). */
async function recordAt(companyId: number, itemId: number, at: Date): Promise<void> {
  await t.db.insert(dataRecords).values({ companyId, itemId, ts: at, values: { f2: 1 }, createdAt: at });
}

/** The no-data alarms of a monitor in the alarm log. */
function alarmsOf(monitorId: number) {
  return t.db
    .select()
    .from(alarms)
    .where(and(eq(alarms.origin, 'noData'), eq(alarms.originId, monitorId)));
}

async function monitor(id: number) {
  const [row] = await t.db.select().from(dataUpdateMonitors).where(eq(dataUpdateMonitors.id, id));
  return row!;
}

function firedOf(results: Array<{ events: Array<{ type: string; monitorId: number }> } | null>, id: number) {
  return results.flatMap((r) => r?.events ?? []).filter((e) => e.type === 'fired' && e.monitorId === id)
    .length;
}

/** Another server node on the same database (its own app, its own checker). */
async function secondNode(): Promise<App> {
  const node = await buildApp({ config: { ...t.app.config, mqttPort: null }, db: t.db, logger: false });
  await node.ready();
  return node;
}

const post = (token: string, url: string, payload: InjectOptions['payload']) =>
  t.app.inject({
    method: 'POST',
    url: `/general/cloudSurveillance/dataUpdate/${url}`,
    payload,
    headers: bearer(token),
  });
const get = (token: string, url: string) =>
  t.app.inject({
    method: 'GET',
    url: `/general/cloudSurveillance/dataUpdate/${url}`,
    headers: bearer(token),
  });

describe('data-update monitors through the routes', () => {
  it('adds an item with no data as late (never is not health), with last update null', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS, name: 'Silent meter' });
    const res = (await post(a.admin.token, 'add', { itemIds: [itemId], windowMinutes: 30 })).json();
    expect(res).toMatchObject({ code: 0, data: { added: 1, existing: 0 } });
    const list = (await get(a.admin.token, 'list?keyword=Silent')).json();
    expect(list.data.total).toBe(1);
    expect(list.data.list[0]).toMatchObject({
      kind: 'item',
      itemId,
      name: 'Silent meter',
      windowMinutes: 30,
      lastUpdateAt: null,
      minutesSince: null,
      state: 'late',
    });
    // adding it again keeps the one monitor
    const again = (await post(a.admin.token, 'add', { itemIds: [itemId], windowMinutes: 60 })).json();
    expect(again.data).toMatchObject({ added: 0, existing: 1 });
    expect(
      await t.db.select().from(dataUpdateMonitors).where(eq(dataUpdateMonitors.itemId, itemId)),
    ).toHaveLength(1);
  });

  it('an item with fresh data is ok at once; stale data fires at once', async () => {
    const fresh = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const stale = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await recordAt(a.id, fresh.itemId, new Date(Date.now() - 5 * MIN));
    await recordAt(a.id, stale.itemId, new Date(Date.now() - 90 * MIN));
    const res = (
      await post(a.admin.token, 'add', { itemIds: [fresh.itemId, stale.itemId], windowMinutes: 60 })
    ).json();
    const [okId, staleId] = res.data.ids as number[];
    expect((await monitor(okId!)).state).toBe('ok');
    expect((await monitor(staleId!)).state).toBe('alarm');
    const list = (await get(a.admin.token, 'list?sort=lateness')).json().data.list as Array<{ id: number }>;
    // most overdue first: never (the silent meter) before 90 minutes late before fresh
    const order = list.map((r) => r.id);
    expect(order.indexOf(staleId!)).toBeLessThan(order.indexOf(okId!));
    const alarms = (await get(a.admin.token, 'list?state=alarm')).json().data.list as Array<{ id: number }>;
    expect(alarms.map((r) => r.id)).toContain(staleId);
    expect(alarms.map((r) => r.id)).not.toContain(okId);
  });

  it('refuses a window outside 30/60/720/1440 naming the field, nothing written', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    for (const windowMinutes of [45, 0, '30', null, 1441]) {
      const res = (await post(a.admin.token, 'add', { itemIds: [itemId], windowMinutes })).json();
      expect(res).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'windowMinutes' } });
    }
    expect(await t.db.select().from(dataUpdateMonitors).where(eq(dataUpdateMonitors.itemId, itemId))).toEqual(
      [],
    );
    const { monitorId } = await makeMonitor(t, a.id);
    const res = (await post(a.admin.token, 'window', { id: monitorId, windowMinutes: 90 })).json();
    expect(res).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'windowMinutes' } });
    expect((await monitor(monitorId)).windowMinutes).toBe(30);
    const empty = (await post(a.admin.token, 'add', { windowMinutes: 30 })).json();
    expect(empty).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'itemIds' } });
  });

  it('a widened window clears an alarm over the same data; removing deletes the monitor', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await recordAt(a.id, itemId, new Date(Date.now() - 45 * MIN));
    const { ids } = (await post(a.admin.token, 'add', { itemIds: [itemId], windowMinutes: 30 })).json().data;
    expect((await monitor(ids[0])).state).toBe('alarm');
    const widened = (await post(a.admin.token, 'window', { id: ids[0], windowMinutes: 60 })).json();
    expect(widened.data).toMatchObject({ windowMinutes: 60, state: 'ok', minutesSince: 45 });
    const gone = (await post(a.admin.token, 'delete', { ids })).json();
    expect(gone.code).toBe(0);
    expect(await t.db.select().from(dataUpdateMonitors).where(inArray(dataUpdateMonitors.id, ids))).toEqual(
      [],
    );
  });

  it('refuses a user without cs_sditem_update, and hides what the cabin does not let a user read', async () => {
    // the ordinary role has no cs_sditem_update
    expect((await get(a.limited.token, 'list')).json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect((await post(a.limited.token, 'add', { itemIds: [1], windowMinutes: 30 })).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    const [role] = await t.db.select().from(roles).where(eq(roles.id, a.ordinaryRoleId));
    await t.db
      .update(roles)
      .set({ menuCodes: [...role!.menuCodes, 'cloud_surveillance', 'cs_sditem_update'] })
      .where(eq(roles.id, a.ordinaryRoleId));
    const closed = await makeDirectory(t, a.id);
    await setPermissions(t, closed, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);
    const hidden = await makeItem(t, a.id, { fields: SAMPLE_FIELDS, parentId: closed, name: 'Hidden tank' });
    const { monitorId } = await makeMonitor(t, a.id, { itemId: hidden.itemId });
    const list = await get(a.limited.token, 'list?pageSize=100');
    expect(list.json().code).toBe(0);
    expect(list.body).not.toContain('Hidden tank');
    expect((await get(a.limited.token, 'candidates')).body).not.toContain('Hidden tank');
    // the administrator sees it
    expect((await get(a.admin.token, 'list?pageSize=100')).body).toContain('Hidden tank');
    const add = (await post(a.limited.token, 'add', { itemIds: [hidden.itemId], windowMinutes: 30 })).json();
    expect(add).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemIds' } });
    const change = (await post(a.limited.token, 'window', { id: monitorId, windowMinutes: 60 })).json();
    expect(change.code).toBe(ERROR_CODES.NOT_FOUND);
    const remove = (await post(a.limited.token, 'delete', { ids: [monitorId] })).json();
    expect(remove.code).toBe(ERROR_CODES.NOT_FOUND);
    expect((await monitor(monitorId)).windowMinutes).toBe(30);
    // another company's administrator cannot add A's item either
    const other = (await post(b.admin.token, 'add', { itemIds: [hidden.itemId], windowMinutes: 30 })).json();
    expect(other.code).toBe(ERROR_CODES.NOT_FOUND);
  });
});

describe('the no-data check', () => {
  it('fires within one check period after the window passes, once, then clears when data arrives', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    // the last record arrived 30 minutes less 2 seconds ago: the window passes in 2 s
    await recordAt(a.id, itemId, new Date(Date.now() - 30 * MIN + 2_000));
    const { monitorId } = await makeMonitor(t, a.id, { itemId });
    const periodMs = 400;
    const checker = createDataUpdateChecker(t.app, { periodMs });
    checker.start();
    try {
      // the state moves first, then the alarm is raised in the log and its id kept: wait for both
      const deadline = Date.now() + 20_000;
      const raised = async () => {
        const m = await monitor(monitorId);
        return m.state === 'alarm' && m.alarmId !== null;
      };
      while (!(await raised()) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      const fired = await monitor(monitorId);
      expect(fired.state).toBe('alarm');
      const lastUpdate = fired.lastUpdateAt!.getTime();
      // fired after the window passed, and no later than one period (plus the pass itself) after
      expect(fired.stateSince.getTime()).toBeGreaterThan(lastUpdate + 30 * MIN);
      const version = fired.version;
      // in the alarm log, once, and the monitor holds its id
      const logged = await alarmsOf(monitorId);
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatchObject({ status: 'active', itemId, level: 2 });
      expect(fired.alarmId).toBe(logged[0]!.id);
      // more checks of the same silence change nothing
      await new Promise((r) => setTimeout(r, 3 * periodMs));
      expect((await monitor(monitorId)).version).toBe(version);
      // data arrives through the pipeline: the next check clears it
      await t.app.ingest.write({
        companyId: a.id,
        userId: null,
        source: 'http',
        records: [{ itemId, values: { f2: 2 } }],
      });
      const clearBy = Date.now() + 20_000;
      while ((await monitor(monitorId)).state !== 'ok' && Date.now() < clearBy) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await monitor(monitorId)).toMatchObject({
        state: 'ok',
        alarmLastUpdate: null,
        version: version + 1,
      });
    } finally {
      await checker.stop();
    }
  });

  it('after a restart the alarm stays fired and is not fired twice; a window passed while down fires at the first check', async () => {
    const silent = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await recordAt(a.id, silent.itemId, new Date(Date.now() - 3 * 60 * MIN));
    const { monitorId: already } = await makeMonitor(t, a.id, { itemId: silent.itemId });
    const first = await checkMonitors(t.app, new Date(), [already]);
    expect(firedOf([first], already)).toBe(1);
    // this one was ok when the server stopped; its window passed while it was down
    const quiet = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await recordAt(a.id, quiet.itemId, new Date(Date.now() - 2 * 60 * MIN));
    const { monitorId: passed } = await makeMonitor(t, a.id, {
      itemId: quiet.itemId,
      createdAt: new Date(Date.now() - 3 * 60 * MIN),
    });
    await t.db
      .update(dataUpdateMonitors)
      .set({ state: 'ok', stateSince: new Date(Date.now() - 2 * 60 * MIN) })
      .where(eq(dataUpdateMonitors.id, passed));

    // the first test's 400 ms checker claimed a slot every 400 ms: when it crossed a minute's
    // start it holds this minute's slot, and this checker's first pass would wait a minute
    await t.db.delete(dataUpdateChecks);
    const restarted = await secondNode();
    const checker = createDataUpdateChecker(restarted, { periodMs: 60_000 });
    try {
      checker.start(); // the first pass runs at start
      const deadline = Date.now() + 20_000;
      while ((await monitor(passed)).state !== 'alarm' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect((await monitor(passed)).state).toBe('alarm');
      const before = await monitor(already);
      const again = await checkMonitors(restarted, new Date(), [already, passed]);
      expect(again.events).toEqual([]);
      expect(await monitor(already)).toMatchObject({ state: 'alarm', version: before.version });
      // one alarm each in the log, none fired twice
      expect(await alarmsOf(already)).toHaveLength(1);
      expect(await alarmsOf(passed)).toHaveLength(1);
    } finally {
      await checker.stop();
      await restarted.close();
    }
  });

  it('two nodes checking at the same time fire one alarm (the period claimed once, each change written once)', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await recordAt(a.id, itemId, new Date(Date.now() - 100 * MIN));
    const { monitorId } = await makeMonitor(t, a.id, { itemId });
    const node2 = await secondNode();
    try {
      // the scheduled way: both tick in the same period, one runs it
      const period = 3_600_000;
      const now = new Date();
      const [r1, r2] = await Promise.all([
        createDataUpdateChecker(t.app, { periodMs: period }).tick(now),
        createDataUpdateChecker(node2, { periodMs: period }).tick(now),
      ]);
      expect([r1, r2].filter((r) => r !== null)).toHaveLength(1);
      expect(firedOf([r1, r2], monitorId)).toBe(1);
      const slots = await t.db.select().from(dataUpdateChecks);
      expect(
        slots.filter((s) => s.slot.getTime() === Math.floor(now.getTime() / period) * period),
      ).toHaveLength(1);

      // and two checks racing outside the schedule: each change is written over the version read
      const { itemId: item2 } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
      await recordAt(a.id, item2, new Date(Date.now() - 100 * MIN));
      const { monitorId: m2 } = await makeMonitor(t, a.id, { itemId: item2 });
      const racing = await Promise.all([
        checkMonitors(t.app, new Date(), [m2]),
        checkMonitors(node2, new Date(), [m2]),
        checkMonitors(t.app, new Date(), [m2]),
      ]);
      expect(firedOf(racing, m2)).toBe(1);
      expect(await monitor(m2)).toMatchObject({ state: 'alarm', version: 1 });
      expect(await alarmsOf(monitorId)).toHaveLength(1);
      expect(await alarmsOf(m2)).toHaveLength(1);
    } finally {
      await node2.close();
    }
  });
});
