/**
 * Configuration screens through the real app: save and read back, refusals naming the field
 * with nothing written, one editor at a time, live values with their time, switches sent to a
 * gateway played by an MQTT client and logged, and the attacks (another company, another
 * company's item, no token, no dm_list, read-only level, offline device).
 */
import { ERROR_CODES, gatewayDownTopic } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  makeCompany,
  type TestApp,
  type TestCompany,
  type TestUser,
} from '../../test/helper';
import { setPermissions } from '../cabin/test-support';
import {
  birth,
  brokerUrl,
  connectGateway,
  gatewayRow,
  operationsOf,
  publishUp,
  waitFor,
} from '../devices/test-support';
import { makeIotItem } from '../packets/test-support';
import { makeMember, makeRole } from '../users/test-support';
import { configScreenLeases, configScreens } from './tables';
import { screenBody, screenFixture } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
/** dm_list; read-write on the device (the company default) */
let editor: TestUser;
/** dm_list; read-only on the device */
let viewer: TestUser;
/** a role without dm_list */
let outsider: TestUser;
let fx: Awaited<ReturnType<typeof screenFixture>>;
let gw: MqttClient;
const down: Array<{ topic: string; body: Record<string, unknown> }> = [];

const BASE = '/general/devicemanagement/screen';
const post = (url: string, token: string, payload: unknown, lang = 'en') =>
  t.app.inject({
    method: 'POST',
    url: `${BASE}${url}`,
    headers: { ...bearer(token), 'accept-language': lang },
    payload: payload as object,
  });
const get = (url: string, token: string) =>
  t.app.inject({
    method: 'GET',
    url: `${BASE}${url}`,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });

async function lease(token: string, leaseId?: string) {
  const res = await post('/lease', token, { id: fx.device.id, ...(leaseId ? { leaseId } : {}) });
  return res.json() as {
    code: number;
    message: string;
    data: { leaseId: string; expiresAt: string; holder?: string };
  };
}
async function freeLease() {
  await t.db.delete(configScreenLeases).where(eq(configScreenLeases.gatewayId, fx.device.id));
}
async function storedScreen() {
  const [row] = await t.db.select().from(configScreens).where(eq(configScreens.gatewayId, fx.device.id));
  return row ?? null;
}

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
  editor = await makeMember(t, a, [await makeRole(t, a.id, ['dm_list'])], 'editor');
  viewer = await makeMember(t, a, [await makeRole(t, a.id, ['dm_list'])], 'viewer');
  outsider = await makeMember(t, a, [await makeRole(t, a.id, ['sd_board'])], 'outsider');
  fx = await screenFixture(t, a.id, a.admin.id);
  await setPermissions(t, fx.device.nodeId, [
    { scope: 'company', subjectId: null, level: 2 },
    { scope: 'user', subjectId: viewer.id, level: 1 },
  ]);
  gw = await connectGateway(brokerUrl(t), fx.device);
  gw.on('message', (topic, payload) => down.push({ topic, body: JSON.parse(payload.toString()) }));
  await gw.subscribeAsync(`smartdata/gw/${fx.device.sn}/down/#`, { qos: 1 });
  await publishUp(gw, fx.device.sn, 'status', birth({ ports: [{ port: 1, ok: true }] }));
  await waitFor(async () => (await gatewayRow(t, fx.device.id)).online, 15_000, 'online');
});
afterAll(async () => {
  gw?.end(true);
  await t?.close();
});

describe('a device screen', () => {
  it('offers the device points and commands, saves under the lease and reads back', async () => {
    const opened = (await get(`?id=${fx.device.id}`, editor.token)).json();
    expect(opened.code).toBe(0);
    expect(opened.data).toMatchObject({ screen: null, lease: null, canEdit: true, leaseSeconds: 60 });
    expect(
      opened.data.points.map((p: { itemId: number; field: string }) => [p.itemId, p.field]).sort(),
    ).toEqual(
      [
        [fx.meter.itemId, 'f1'],
        [fx.status.itemId, 'f2'],
      ].sort(),
    );
    expect(opened.data.points.find((p: { field: string }) => p.field === 'f1')).toMatchObject({
      fieldName: '电压',
      unit: 'V',
      decimals: 2,
    });
    expect(opened.data.commands.sort()).toEqual(['pumpOff', 'pumpOn']);

    const { data: l } = await lease(editor.token);
    const body = screenBody(fx.meter.itemId, fx.status.itemId);
    const saved = (await post('/save', editor.token, { id: fx.device.id, leaseId: l.leaseId, body })).json();
    expect(saved).toMatchObject({ code: 0, data: { version: 1, updatedBy: { id: editor.id } } });
    const again = (
      await post('/save', editor.token, { id: fx.device.id, leaseId: l.leaseId, body: saved.data.body })
    ).json();
    expect(again.data.version).toBe(2);
    expect(again.data.body).toEqual(saved.data.body);
    const read = (await get(`?id=${fx.device.id}`, viewer.token)).json();
    expect(read.data).toMatchObject({
      canEdit: false,
      screen: { version: 2 },
      lease: { holder: { id: editor.id }, mine: false },
    });
    expect(read.data.screen.body.elements.map((e: { id: string }) => e.id)).toEqual([
      'tank1',
      'pump1',
      'sw1',
      'title',
    ]);
    expect(read.data.screen.body.elements[0]).toMatchObject({
      z: 0,
      style: { strokeWidth: 2 },
      config: { showValue: true },
    });
    await post('/lease/release', editor.token, { id: fx.device.id, leaseId: l.leaseId });
    expect((await get(`?id=${fx.device.id}`, viewer.token)).json().data.lease).toBeNull();
  });

  it('refuses each bad body naming its path, and writes nothing', async () => {
    await freeLease();
    const { data: l } = await lease(editor.token);
    const good = screenBody(fx.meter.itemId, fx.status.itemId);
    const before = await storedScreen();
    const foreign = await makeIotItem(t, b.id, 'B表');
    const unfed = await makeIotItem(t, a.id, '未接入');
    const cases: Array<[unknown, string, number]> = [
      [{ ...good, width: 10 }, 'body.width', ERROR_CODES.VALIDATION],
      [
        { ...good, elements: [{ ...good.elements[0], x: 5000 }] },
        'body.elements[0].x',
        ERROR_CODES.VALIDATION,
      ],
      [
        {
          ...good,
          elements: [{ ...good.elements[0], rules: [{ op: '>', value: 'NaN', effects: { blink: true } }] }],
        },
        'body.elements[0].rules[0].value',
        ERROR_CODES.VALIDATION,
      ],
      [
        { ...good, elements: [{ ...good.elements[1], binding: { itemId: foreign.itemId, field: 'f1' } }] },
        'body.elements[0].binding',
        ERROR_CODES.VALIDATION,
      ],
      [
        { ...good, elements: [{ ...good.elements[1], binding: { itemId: unfed.itemId, field: 'f1' } }] },
        'body.elements[0].binding',
        ERROR_CODES.VALIDATION,
      ],
      [
        // f3 of the meter is text: not a bindable point
        { ...good, elements: [{ ...good.elements[1], binding: { itemId: fx.meter.itemId, field: 'f3' } }] },
        'body.elements[0].binding',
        ERROR_CODES.VALIDATION,
      ],
      [
        { ...good, elements: [{ ...good.elements[2], config: { onCommand: 'selfDestruct' } }] },
        'body.elements[0].config.onCommand',
        ERROR_CODES.VALIDATION,
      ],
      [
        { ...good, elements: [{ ...good.elements[2], config: { onCommand: 'reboot' } }] },
        'body.elements[0].config.onCommand',
        ERROR_CODES.VALIDATION,
      ],
    ];
    for (const [body, field, code] of cases) {
      const res = (await post('/save', editor.token, { id: fx.device.id, leaseId: l.leaseId, body })).json();
      expect([res.code, res.data?.field], JSON.stringify(body).slice(0, 200)).toEqual([code, field]);
      expect(res.message).toContain(field);
    }
    expect(await storedScreen()).toEqual(before);
    await post('/lease/release', editor.token, { id: fx.device.id, leaseId: l.leaseId });
  });
});

describe('one editor at a time', () => {
  it('a second editor is refused with 409 naming the holder until the lease expires; release frees it', async () => {
    await freeLease();
    const first = await lease(editor.token);
    expect(first.code).toBe(0);
    const res = await post('/lease', a.admin.token, { id: fx.device.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      data: { field: 'lease', holder: 'editor', expiresAt: first.data.expiresAt },
    });
    expect(res.json().message).toContain('editor');
    // the admin cannot save or delete under it either
    const save = (
      await post('/save', a.admin.token, {
        id: fx.device.id,
        leaseId: 'b'.repeat(32),
        body: { elements: [] },
      })
    ).json();
    expect(save.code).toBe(ERROR_CODES.CONFLICT);
    expect((await post('/delete', a.admin.token, { id: fx.device.id })).json().code).toBe(
      ERROR_CODES.CONFLICT,
    );
    // renewing keeps it
    expect((await lease(editor.token, first.data.leaseId)).code).toBe(0);
    // the lease runs out unrenewed: the admin takes it; the first editor's renew and save are refused
    await t.db
      .update(configScreenLeases)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(configScreenLeases.gatewayId, fx.device.id));
    const second = await lease(a.admin.token);
    expect(second.code).toBe(0);
    expect((await lease(editor.token, first.data.leaseId)).code).toBe(ERROR_CODES.CONFLICT);
    const late = (
      await post('/save', editor.token, {
        id: fx.device.id,
        leaseId: first.data.leaseId,
        body: { elements: [] },
      })
    ).json();
    expect(late.code).toBe(ERROR_CODES.CONFLICT);
    expect((await storedScreen())?.body.elements.length).toBe(4);
    // released: the editor can take it again
    await post('/lease/release', a.admin.token, { id: fx.device.id, leaseId: second.data.leaseId });
    expect((await lease(editor.token)).code).toBe(0);
    await freeLease();
  });

  it('a read-only user can open the screen but not take the lease, save or delete', async () => {
    expect((await get(`?id=${fx.device.id}`, viewer.token)).json().code).toBe(0);
    expect((await post('/lease', viewer.token, { id: fx.device.id })).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect(
      (await post('/save', viewer.token, { id: fx.device.id, leaseId: 'c'.repeat(32), body: {} })).json()
        .code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    expect((await post('/delete', viewer.token, { id: fx.device.id })).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
  });
});

describe('live values', () => {
  it('answers the newest value and time of each bound point', async () => {
    const empty = (await get(`/values?id=${fx.device.id}`, viewer.token)).json();
    expect(empty.data).toMatchObject({ online: true, staleSeconds: 30, hidden: 0 });
    expect(empty.data.values).toEqual(
      expect.arrayContaining([{ itemId: fx.meter.itemId, field: 'f1', value: null, ts: null }]),
    );
    const old = new Date(Date.now() - 120_000);
    const recent = new Date(Date.now() - 5_000);
    await t.app.ingest.write({
      companyId: a.id,
      userId: null,
      source: 'gateway',
      records: [
        { itemId: fx.meter.itemId, ts: old, values: { f1: 220.5 } },
        { itemId: fx.meter.itemId, ts: recent, values: { f1: 231.25 } },
        // a newer record without f2 does not hide the older f2
        { itemId: fx.status.itemId, ts: old, values: { f2: 1 } },
        { itemId: fx.status.itemId, ts: recent, values: { f1: 3 } },
      ],
    });
    const res = (await get(`/values?id=${fx.device.id}`, viewer.token)).json();
    expect(res.code).toBe(0);
    expect(res.data.values).toEqual([
      { itemId: fx.meter.itemId, field: 'f1', value: 231.25, ts: recent.toISOString() },
      { itemId: fx.status.itemId, field: 'f2', value: 1, ts: old.toISOString() },
    ]);
    // a viewer who cannot read the meter item gets its point left out, counted
    await setPermissions(t, fx.meter.nodeId, [{ scope: 'user', subjectId: editor.id, level: 2 }]);
    const limited = (await get(`/values?id=${fx.device.id}`, viewer.token)).json();
    expect(limited.data.hidden).toBe(1);
    expect(JSON.stringify(limited.data.values)).not.toContain('231.25');
    await setPermissions(t, fx.meter.nodeId, [{ scope: 'company', subjectId: null, level: 2 }]);
  });
});

describe('switches', () => {
  const commands = () =>
    down.filter((m) => m.topic === gatewayDownTopic(fx.device.sn, 'command')).map((m) => m.body);

  it('sends the switch command to the gateway and logs it', async () => {
    const res = (
      await post('/switch', editor.token, { id: fx.device.id, elementId: 'sw1', state: 'off' })
    ).json();
    expect(res).toMatchObject({ code: 0, data: { command: 'pumpOff' } });
    await waitFor(() => commands().some((c) => c.command === 'pumpOff'), 15_000, 'pumpOff down');
    const log = (await operationsOf(t, a.id, fx.device.id)).filter((r) => r.kind === 'command');
    expect(log.at(-1)).toMatchObject({
      userId: editor.id,
      result: 'ok',
      data: { command: 'pumpOff', screen: true, elementId: 'sw1', state: 'off' },
    });
  });

  it('refuses read-only users, other companies, no code, an element that is no switch, and offline devices', async () => {
    const sent = commands().length;
    const body = { id: fx.device.id, elementId: 'sw1', state: 'on' };
    expect((await post('/switch', viewer.token, body)).json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect((await post('/switch', outsider.token, body)).json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect((await post('/switch', b.admin.token, body)).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
    const noToken = await t.app.inject({ method: 'POST', url: `${BASE}/switch`, payload: body });
    expect(noToken.json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    expect((await post('/switch', editor.token, { ...body, elementId: 'tank1' })).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'elementId' },
    });
    expect(commands().length).toBe(sent);

    (gw.stream as { destroy(): void }).destroy();
    await waitFor(async () => !(await gatewayRow(t, fx.device.id)).online, 15_000, 'offline');
    const offline = (await post('/switch', editor.token, body)).json();
    expect(offline).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'The current gateway is offline and cannot receive commands.',
    });
    const log = (await operationsOf(t, a.id, fx.device.id)).filter((r) => r.kind === 'command');
    expect(log.at(-1)).toMatchObject({ result: 'failed', data: { command: 'pumpOn', reason: 'offline' } });
    expect(commands().length).toBe(sent);
  });
});

describe('attacks', () => {
  it('another company cannot read, lease, save, delete or see values of the screen; no dm_list is refused', async () => {
    const before = await storedScreen();
    for (const res of [
      await get(`?id=${fx.device.id}`, b.admin.token),
      await get(`/values?id=${fx.device.id}`, b.admin.token),
      await post('/lease', b.admin.token, { id: fx.device.id }),
      await post('/save', b.admin.token, {
        id: fx.device.id,
        leaseId: 'd'.repeat(32),
        body: { elements: [] },
      }),
      await post('/delete', b.admin.token, { id: fx.device.id }),
    ]) {
      expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
      expect(res.body).not.toContain('SECRET');
    }
    expect((await get(`?id=${fx.device.id}`, outsider.token)).json().code).toBe(ERROR_CODES.FORBIDDEN);
    const anon = await t.app.inject({ method: 'GET', url: `${BASE}?id=${fx.device.id}` });
    expect(anon.json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    expect(await storedScreen()).toEqual(before);
  });

  it('deletes the screen (read-write, nobody else editing)', async () => {
    await freeLease();
    expect((await post('/delete', editor.token, { id: fx.device.id })).json().code).toBe(0);
    expect(await storedScreen()).toBeNull();
    expect((await post('/delete', editor.token, { id: fx.device.id })).json().code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
  });
});
