/**
 * Firmware versions and upgrades through the API, with an MQTT client playing the gateway word
 * by word (the simulator plays it in simulator.test.ts): the order and its signed download, each
 * report moving the upgrade, the birth message deciding success, every named failure, the one
 * live upgrade per device, retries, batches under the dispatch limit, and the attacks.
 */
import { ERROR_CODES, gatewayUpTopic } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
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
import { devices } from '../devices/tables';
import {
  birth,
  brokerUrl,
  connectGateway,
  gatewayRow,
  makeDevice,
  operationsOf,
  publishUp,
  registerGateway,
  waitFor,
} from '../devices/test-support';
import { makeMember, makePng, makeRole } from '../users/test-support';
import { downloadLink } from './links';
import { notFirmware } from './service';
import { firmwareUpgrades, firmwareVersions } from './tables';
import { BASE, call, image, SYSTEM_BASE, uploadRequest, uploadVersion } from './test-support';

let t: TestApp;
let operator: TestCompany;
let a: TestCompany;
let b: TestCompany;
let v130: { id: number; bytes: Buffer; sha256: string; version: string };
let v140: { id: number; bytes: Buffer; sha256: string; version: string };
const clients: MqttClient[] = [];

beforeAll(async () => {
  t = await buildTestApp({
    MQTT_PORT: '0',
    FIRMWARE_ACK_TIMEOUT_S: '2',
    FIRMWARE_PROGRESS_TIMEOUT_S: '3',
    FIRMWARE_TOTAL_TIMEOUT_S: '30',
    FIRMWARE_MAX_DISPATCH: '2',
    FIRMWARE_MAX_BYTES: '65536',
  });
  operator = await makeCompany(t, 'Operator', { isPlatform: true });
  a = await makeCompany(t, 'A');
  b = await makeCompany(t, 'B');
  v130 = await uploadVersion(t, operator.admin.token, '1.3.0');
  v140 = await uploadVersion(t, operator.admin.token, '1.4.0');
});
afterAll(async () => {
  for (const c of clients) c.end(true);
  await t?.close();
});

interface FakeGateway {
  id: number;
  nodeId: number;
  sn: string;
  secret: string;
  client: MqttClient;
  orders: Array<Record<string, unknown>>;
  report(payload: Record<string, unknown>): Promise<void>;
  /** the connection ends (power lost, or the reboot) */
  drop(): Promise<void>;
  /** connects again with a birth message naming `firmware` */
  boot(firmware: string): Promise<void>;
}

async function connectAs(g: { id: number; sn: string; secret: string }, firmware: string) {
  const client = await connectGateway(brokerUrl(t), g);
  clients.push(client);
  const orders: Array<Record<string, unknown>> = [];
  client.on('message', (topic, payload) => {
    if (topic.endsWith('/down/firmware')) orders.push(JSON.parse(payload.toString()));
  });
  await client.subscribeAsync(`smartdata/gw/${g.sn}/down/#`, { qos: 1 });
  await publishUp(client, g.sn, 'status', birth({ firmware }));
  await waitFor(async () => (await gatewayRow(t, g.id)).online, 15_000, 'online');
  return { client, orders };
}

/** Company A's device, online, running 1.2.0. */
async function onlineDevice(company = a): Promise<FakeGateway> {
  const g = await makeDevice(t, company.id, { userId: company.admin.id, name: 'FW gateway' });
  let { client, orders } = await connectAs(g, '1.2.0');
  const fake: FakeGateway = {
    ...g,
    get client() {
      return client;
    },
    get orders() {
      return orders;
    },
    report: (payload) =>
      client
        .publishAsync(gatewayUpTopic(g.sn, 'firmware'), JSON.stringify(payload), { qos: 1 })
        .then(() => {}),
    drop: async () => {
      await client.endAsync(true);
      await waitFor(async () => !(await gatewayRow(t, g.id)).online, 15_000, 'offline');
    },
    boot: async (firmware) => {
      ({ client, orders } = await connectAs(g, firmware));
    },
  };
  return fake;
}

async function start(token: string, id: number, versionId: number) {
  const res = await call(t, token, 'POST', 'upgrade', { id, versionId });
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as { id: number; state: string };
}

async function upgradeState(deviceId: number, upgradeId: number) {
  const res = await call(t, a.admin.token, 'GET', `upgrade?id=${deviceId}&upgradeId=${upgradeId}`);
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as {
    state: string;
    reason: string | null;
    progress: number | null;
    message: string | null;
    detail: string | null;
  };
}

function reached(deviceId: number, upgradeId: number, state: string) {
  return waitFor(
    async () => {
      const u = await upgradeState(deviceId, upgradeId);
      return u.state === state ? u : undefined;
    },
    20_000,
    state,
  );
}

async function upgradeRows(gatewayId: number) {
  return t.db.select().from(firmwareUpgrades).where(eq(firmwareUpgrades.gatewayId, gatewayId));
}

describe('firmware versions (system maintenance)', () => {
  it('stores the image with the SHA-256 the server computed, and lists it', async () => {
    const { createHash } = await import('node:crypto');
    expect(v130.sha256).toBe(createHash('sha256').update(v130.bytes).digest('hex'));
    const res = await t.app.inject({
      method: 'GET',
      url: `${SYSTEM_BASE}/list?model=SDG-200`,
      headers: bearer(operator.admin.token),
    });
    expect(res.json().data.list.map((v: { version: string }) => v.version)).toEqual(['1.4.0', '1.3.0']);
    expect(res.json().data.list[1]).toMatchObject({
      size: 4096,
      notesEn: 'Fixes 1.3.0',
      notesZh: '修复了若干问题 1.3.0',
    });
  });

  it('refuses bad uploads naming the field, and writes nothing', async () => {
    const before = await t.db.select().from(firmwareVersions);
    const cases: Array<[Record<string, string>, { bytes: Buffer } | undefined, number, string]> = [
      [{ model: 'SDG-200', version: '1.3.0' }, { bytes: image() }, ERROR_CODES.CONFLICT, 'version'],
      [{ model: 'SDG-200', version: 'v2' }, { bytes: image() }, ERROR_CODES.VALIDATION, 'version'],
      [{ model: 'SDG-200', version: '1.2.3.4.5' }, { bytes: image() }, ERROR_CODES.VALIDATION, 'version'],
      [{ model: '', version: '2.0.0' }, { bytes: image() }, ERROR_CODES.VALIDATION, 'model'],
      [{ model: 'SDG-200', version: '2.0.0' }, undefined, ERROR_CODES.VALIDATION, 'file'],
      [{ model: 'SDG-200', version: '2.0.0' }, { bytes: image(70_000) }, ERROR_CODES.TOO_LARGE, 'file'],
      [
        { model: 'SDG-200', version: '2.0.0' },
        { bytes: await makePng(20, 20) },
        ERROR_CODES.VALIDATION,
        'file',
      ],
      [
        { model: 'SDG-200', version: '2.0.0' },
        { bytes: Buffer.from('#!/bin/sh\necho not firmware\n') },
        ERROR_CODES.VALIDATION,
        'file',
      ],
      [
        { model: 'SDG-200', version: '2.0.0', notesEn: 'x'.repeat(5001) },
        { bytes: image() },
        ERROR_CODES.VALIDATION,
        'notesEn',
      ],
    ];
    for (const [fields, file, code, field] of cases) {
      const res = await t.app.inject(uploadRequest(operator.admin.token, fields, file));
      expect(res.json(), JSON.stringify(fields)).toMatchObject({ code, data: { field } });
    }
    const version = await t.app.inject(
      uploadRequest(operator.admin.token, { model: 'SDG-200', version: 'v2' }, { bytes: image() }),
    );
    expect(version.json().message).toBe(
      'The version must be numbers separated by dots, such as 1.3.0 (a suffix such as -rc1 is allowed)',
    );
    expect(await t.db.select().from(firmwareVersions)).toEqual(before);
  });

  it('tells an image from a picture, a document, an archive or text by its bytes', async () => {
    expect(notFirmware(image())).toBeNull();
    expect(notFirmware(await makePng(10, 10))).toBe('png');
    expect(notFirmware(Buffer.from('%PDF-1.7 …'))).toBe('pdf');
    expect(notFirmware(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toBe('zip');
    expect(notFirmware(Buffer.from('<!DOCTYPE html><html></html>'))).toBe('html');
    expect(notFirmware(Buffer.from('just some notes\r\n'))).toBe('text');
  });

  it('is the platform operator’s: another company’s administrator cannot upload, edit or delete', async () => {
    const up = await t.app.inject(
      uploadRequest(a.admin.token, { model: 'SDG-200', version: '9.9.9' }, { bytes: image() }),
    );
    expect(up.json().code).toBe(ERROR_CODES.FORBIDDEN);
    for (const [path, body] of [
      ['update', { id: v130.id, notesZh: 'x', notesEn: 'x' }],
      ['delete', { id: v130.id }],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${SYSTEM_BASE}/${path}`,
        payload: body,
        headers: bearer(a.admin.token),
      });
      expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
    }
    const [row] = await t.db.select().from(firmwareVersions).where(eq(firmwareVersions.id, v130.id));
    expect(row!.notesEn).toBe('Fixes 1.3.0');
  });

  it('edits release notes; deletes a version no live upgrade uses', async () => {
    const extra = await uploadVersion(t, operator.admin.token, '0.9.0');
    const edit = await t.app.inject({
      method: 'POST',
      url: `${SYSTEM_BASE}/update`,
      payload: { id: extra.id, notesZh: '新的说明', notesEn: 'New notes' },
      headers: bearer(operator.admin.token),
    });
    expect(edit.json().data).toMatchObject({
      notesZh: '新的说明',
      notesEn: 'New notes',
      sha256: extra.sha256,
    });
    const del = await t.app.inject({
      method: 'POST',
      url: `${SYSTEM_BASE}/delete`,
      payload: { id: extra.id },
      headers: bearer(operator.admin.token),
    });
    expect(del.json().code).toBe(0);
    expect(await t.db.select().from(firmwareVersions).where(eq(firmwareVersions.id, extra.id))).toEqual([]);
  });
});

describe('the device page', () => {
  it('reads the device by id or serial number, the versions of its model newest first, and release notes', async () => {
    const g = await onlineDevice();
    const byId = (await call(t, a.admin.token, 'GET', `device?id=${g.id}`)).json().data;
    const bySn = (await call(t, a.admin.token, 'GET', `device?serialNumber=${g.sn}`)).json().data;
    expect(bySn).toEqual(byId);
    expect(byId.device).toMatchObject({
      id: g.id,
      serialNumber: g.sn,
      model: 'SDG-200',
      firmware: '1.2.0',
      online: true,
      level: 3,
    });
    expect(byId.versions.map((v: { version: string; newer: boolean }) => [v.version, v.newer])).toEqual([
      ['1.4.0', true],
      ['1.3.0', true],
    ]);
    expect(byId.upgrade).toBeNull();
    const note = await call(t, a.admin.token, 'GET', 'releaseNote?version=1.3.0&typeId=SDG-200');
    expect(note.json().data).toMatchObject({ version: '1.3.0', notesEn: 'Fixes 1.3.0', sha256: v130.sha256 });
    expect(
      (await call(t, a.admin.token, 'GET', 'releaseNote?version=7.7.7&typeId=SDG-200')).json().code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    // another company's serial number is not found, as if it did not exist
    expect((await call(t, b.admin.token, 'GET', `device?serialNumber=${g.sn}`)).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'serialNumber' },
    });
    await g.drop();
  });
});

describe('an upgrade, report by report', () => {
  it('sends the order with a signed link; reports move it; success only once the birth names the target', async () => {
    const g = await onlineDevice();
    const live = await t.app.injectWS(
      `/general/devicemanagement/device/live?token=${encodeURIComponent(a.admin.token)}`,
    );
    const seen: Array<{
      type: string;
      upgrade?: { state: string; progress: number | null; message: string | null };
    }> = [];
    live.on('message', (data) => seen.push(JSON.parse(String(data))));
    live.send(JSON.stringify({ type: 'ping' }));
    await waitFor(() => seen.some((m) => m.type === 'pong'), 10_000, 'socket answering');

    const up = await start(a.admin.token, g.id, v130.id);
    expect(up.state).toBe('dispatched');
    const order = await waitFor(() => g.orders[0], 10_000, 'the order');
    expect(order).toMatchObject({
      upgradeId: up.id,
      version: '1.3.0',
      size: 4096,
      sha256: v130.sha256,
      timeouts: { ack: 2, progress: 3, total: 30 },
    });
    // the image through the signed link, with no login
    const url = new URL(order.url as string);
    const download = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(download.statusCode).toBe(200);
    expect(Buffer.compare(download.rawPayload, v130.bytes)).toBe(0);

    await g.report({ upgradeId: up.id, state: 'accepted' });
    await reached(g.id, up.id, 'accepted');
    await g.report({ upgradeId: up.id, state: 'downloading', progress: 40 });
    expect((await reached(g.id, up.id, 'downloading')).progress).toBe(40);
    await g.report({ upgradeId: up.id, state: 'verifying' });
    await g.report({ upgradeId: up.id, state: 'installing', progress: 70 });
    await g.report({ upgradeId: up.id, state: 'rebooting' });
    await reached(g.id, up.id, 'rebooting');
    await g.drop();
    await reached(g.id, up.id, 'checking');
    await g.boot('1.3.0');
    const done = await reached(g.id, up.id, 'success');
    expect(done.message).toBe('Firmware update succeeded');
    expect((await gatewayRow(t, g.id)).firmware).toBe('1.3.0');

    // the page after a reload reads the same upgrade back
    const page = (await call(t, a.admin.token, 'GET', `device?id=${g.id}`)).json().data;
    expect(page.upgrade).toMatchObject({
      id: up.id,
      state: 'success',
      version: '1.3.0',
      fromVersion: '1.2.0',
    });
    // the socket followed every step, in order
    await waitFor(() => seen.some((m) => m.upgrade?.state === 'success'), 10_000, 'live success');
    const states = seen.filter((m) => m.type === 'upgrade').map((m) => m.upgrade!.state);
    expect(states.filter((s, i) => s !== states[i - 1])).toEqual([
      'queued',
      'dispatched',
      'accepted',
      'downloading',
      'verifying',
      'installing',
      'rebooting',
      'checking',
      'success',
    ]);
    // the socket speaks the listener's language (zh, the default, here)
    expect(seen.find((m) => m.upgrade?.state === 'success')!.upgrade!.message).toBe('固件更新成功');
    live.terminate();
    // the operation log: one entry, started pending and settled ok
    const log = (await operationsOf(t, a.id, g.id)).filter((o) => o.kind === 'upgrade');
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      result: 'ok',
      userId: a.admin.id,
      data: expect.objectContaining({ version: '1.3.0', state: 'success' }),
    });
  });

  it('the old version after the reboot is a failure: versionCheck', async () => {
    const g = await onlineDevice();
    const up = await start(a.admin.token, g.id, v130.id);
    await g.report({ upgradeId: up.id, state: 'accepted' });
    await g.report({ upgradeId: up.id, state: 'rebooting' });
    await reached(g.id, up.id, 'rebooting');
    await g.drop();
    await g.boot('1.2.0');
    const done = await reached(g.id, up.id, 'failed');
    expect(done).toMatchObject({
      reason: 'versionCheck',
      message: 'Firmware update failed, please try again later.',
    });
    await g.drop();
  });

  it('the gateway’s own failure is named with its words; a retry works', async () => {
    const g = await onlineDevice();
    const up = await start(a.admin.token, g.id, v130.id);
    await g.report({ upgradeId: up.id, state: 'accepted' });
    await g.report({ upgradeId: up.id, state: 'failed', reason: 'verify', detail: 'sha256 differs' });
    expect(await reached(g.id, up.id, 'failed')).toMatchObject({
      reason: 'verify',
      detail: 'sha256 differs',
    });
    const log = (await operationsOf(t, a.id, g.id)).filter((o) => o.kind === 'upgrade');
    expect(log[0]).toMatchObject({
      result: 'failed',
      detail: 'sha256 differs',
      data: expect.objectContaining({ reason: 'verify' }),
    });

    const again = await call(t, a.admin.token, 'POST', 'retry', { id: g.id, upgradeId: up.id });
    expect(again.json().data).toMatchObject({ state: 'dispatched', version: '1.3.0' });
    expect(again.json().data.id).not.toBe(up.id);
    await waitFor(() => g.orders.length === 2, 10_000, 'the second order');
    expect(g.orders[1]).toMatchObject({ upgradeId: again.json().data.id });
    // a retry of a live or succeeded upgrade is refused
    expect(
      (await call(t, a.admin.token, 'POST', 'retry', { id: g.id, upgradeId: again.json().data.id })).json()
        .code,
    ).toBe(ERROR_CODES.CONFLICT);
    await g.drop();
    await reached(g.id, again.json().data.id, 'failed');
  });

  it('power lost mid-download: interrupted', async () => {
    const g = await onlineDevice();
    const up = await start(a.admin.token, g.id, v130.id);
    await g.report({ upgradeId: up.id, state: 'accepted' });
    await g.report({ upgradeId: up.id, state: 'downloading', progress: 20 });
    await reached(g.id, up.id, 'downloading');
    await g.drop();
    expect(await reached(g.id, up.id, 'failed')).toMatchObject({ reason: 'interrupted' });
  });

  it('a silent gateway: ackTimeout; accepted then silent: progressTimeout', async () => {
    const silent = await onlineDevice();
    const up = await start(a.admin.token, silent.id, v130.id);
    expect(await reached(silent.id, up.id, 'failed')).toMatchObject({ reason: 'ackTimeout' });
    const second = await start(a.admin.token, silent.id, v130.id);
    await silent.report({ upgradeId: second.id, state: 'accepted' });
    await reached(silent.id, second.id, 'accepted');
    expect(await reached(silent.id, second.id, 'failed')).toMatchObject({ reason: 'progressTimeout' });
    await silent.drop();
  });

  it('reports of another gateway’s upgrade, or malformed, change nothing', async () => {
    const g = await onlineDevice();
    const other = await onlineDevice();
    const up = await start(a.admin.token, g.id, v130.id);
    await other.report({ upgradeId: up.id, state: 'failed', reason: 'install' });
    await g.client.publishAsync(gatewayUpTopic(g.sn, 'firmware'), 'not json', { qos: 1 });
    await g.report({ upgradeId: up.id, state: 'success' });
    await g.report({ upgradeId: up.id, state: 'accepted' });
    await reached(g.id, up.id, 'accepted');
    await g.drop();
    await other.drop();
    expect(await reached(g.id, up.id, 'failed')).toMatchObject({ reason: 'interrupted' });
  });

  it('a deadline that passed while the server was down ends the upgrade at the next sweep', async () => {
    const g = await onlineDevice();
    const up = await start(a.admin.token, g.id, v130.id);
    await g.report({ upgradeId: up.id, state: 'accepted' });
    await reached(g.id, up.id, 'accepted');
    await t.db
      .update(firmwareUpgrades)
      .set({ progressDeadline: new Date(Date.now() - 60_000), totalDeadline: new Date(Date.now() - 1000) })
      .where(eq(firmwareUpgrades.id, up.id));
    await t.app.firmware.sweep();
    // the earlier deadline is the one named
    expect(await upgradeState(g.id, up.id)).toMatchObject({ state: 'failed', reason: 'progressTimeout' });
    await g.drop();
  });
});

describe('one live upgrade per device', () => {
  it('a second start is refused, also when two arrive at once; the database holds the rule too', async () => {
    const g = await onlineDevice();
    const [x, y] = await Promise.all([
      call(t, a.admin.token, 'POST', 'upgrade', { id: g.id, versionId: v130.id }),
      call(t, a.admin.token, 'POST', 'upgrade', { id: g.id, versionId: v140.id }),
    ]);
    const codes = [x.json().code, y.json().code].sort();
    expect(codes).toEqual([0, ERROR_CODES.CONFLICT]);
    const refused = x.json().code === 0 ? y : x;
    expect(refused.json().message).toBe('An upgrade of this gateway is already in progress');
    expect((await upgradeRows(g.id)).length).toBe(1);
    const [row] = await upgradeRows(g.id);
    await expect(
      t.db.insert(firmwareUpgrades).values({
        companyId: a.id,
        gatewayId: g.id,
        version: '1.4.0',
        timeouts: row!.timeouts,
        linkBase: 'http://x',
      }),
    ).rejects.toThrow();
    // deleting the version it installs is refused while it is live
    const del = await t.app.inject({
      method: 'POST',
      url: `${SYSTEM_BASE}/delete`,
      payload: { id: row!.versionId },
      headers: bearer(operator.admin.token),
    });
    expect(del.json().code).toBe(ERROR_CODES.CONFLICT);
    await g.drop();
  });
});

describe('the signed download', () => {
  it('refuses a tampered, expired, another upgrade’s or an ended upgrade’s link, and the unsigned', async () => {
    const g = await onlineDevice();
    const other = await onlineDevice();
    const up = await start(a.admin.token, g.id, v130.id);
    const up2 = await start(a.admin.token, other.id, v140.id);
    const order = await waitFor(() => g.orders[0], 10_000, 'order');
    const order2 = await waitFor(() => other.orders[0], 10_000, 'order');
    const url = new URL(order.url as string);
    const url2 = new URL(order2.url as string);
    const get = (path: string) => t.app.inject({ method: 'GET', url: path });
    expect((await get(url.pathname + url.search)).statusCode).toBe(200);
    const sig = url.searchParams.get('sig')!;
    const tampered = `${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(
      (await get(`${url.pathname}?exp=${url.searchParams.get('exp')}&sig=${tampered}`)).json().code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    expect(
      (await get(`${url.pathname}?exp=${Number(url.searchParams.get('exp')) + 1}&sig=${sig}`)).json().code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    // the other upgrade's (other version's) signature on this upgrade
    expect((await get(`${url.pathname}${url2.search}`)).json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect((await get(url.pathname)).json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect((await get('/general/firmware/download/abc?exp=1&sig=x')).json().code).toBe(
      ERROR_CODES.VALIDATION,
    );
    // a correctly signed link past its expiry
    const [row] = await t.db.select().from(firmwareUpgrades).where(eq(firmwareUpgrades.id, up.id));
    const old = new URL(downloadLink(t.app, row!, Date.now() - 3_600_000));
    const expired = await get(old.pathname + old.search);
    expect(expired.statusCode).toBe(403);
    expect(expired.body).not.toContain(v130.sha256);
    // the link of an ended upgrade opens nothing any more
    await g.drop();
    await reached(g.id, up.id, 'failed');
    expect((await get(url.pathname + url.search)).statusCode).toBe(403);
    await other.drop();
    await reached(other.id, up2.id, 'failed');
  });
});

describe('who may upgrade', () => {
  let reader: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    reader = await makeMember(t, a, [await makeRole(t, a.id, ['dm_list'])], 'fw reader');
    viewer = await makeMember(t, a, [await makeRole(t, a.id, ['sd_capsule'])], 'no device code');
  });

  it('refuses each attacker with its reason, the spec’s words where it has them; nothing is written', async () => {
    const g = await onlineDevice();
    const hidden = await onlineDevice();
    await setPermissions(t, g.nodeId, [{ scope: 'user', subjectId: reader.id, level: 1 }]);
    await setPermissions(t, hidden.nodeId, [{ scope: 'company', subjectId: null, level: 0 }]);
    const offline = await makeDevice(t, a.id, { userId: a.admin.id });
    const unbound = await onlineDevice();
    await t.db
      .update(devices)
      .set({ nodeId: null })
      .where(and(eq(devices.gatewayId, unbound.id), eq(devices.companyId, a.id)));
    const foreignModel = await uploadVersion(t, operator.admin.token, '5.0.0', { model: 'SDG-900' });

    const expectations: Array<[string, string | null, Record<string, unknown>, number, string | null]> = [
      ['no token', null, { id: g.id, versionId: v130.id }, ERROR_CODES.TOKEN_INVALID, null],
      ['other company', b.admin.token, { id: g.id, versionId: v130.id }, ERROR_CODES.NOT_FOUND, null],
      ['no device menu code', viewer.token, { id: g.id, versionId: v130.id }, ERROR_CODES.FORBIDDEN, null],
      ['read-only level', reader.token, { id: g.id, versionId: v130.id }, ERROR_CODES.FORBIDDEN, null],
      [
        'no permission on the device',
        reader.token,
        { id: hidden.id, versionId: v130.id },
        ERROR_CODES.NOT_FOUND,
        null,
      ],
      [
        'not bound',
        a.admin.token,
        { id: unbound.id, versionId: v130.id },
        ERROR_CODES.BUSINESS,
        'The gateway is not bound.',
      ],
      [
        'offline',
        a.admin.token,
        { id: offline.id, versionId: v130.id },
        ERROR_CODES.BUSINESS,
        'The current gateway is offline and cannot upgrade firmware.',
      ],
      [
        'unknown version',
        a.admin.token,
        { id: g.id, versionId: 999_999 },
        ERROR_CODES.BUSINESS,
        'Download information acquisition failed!',
      ],
      [
        'another model’s version',
        a.admin.token,
        { id: g.id, versionId: foreignModel.id },
        ERROR_CODES.BUSINESS,
        null,
      ],
      ['id as text', a.admin.token, { id: 'x', versionId: v130.id }, ERROR_CODES.VALIDATION, null],
      ['id 0', a.admin.token, { id: 0, versionId: v130.id }, ERROR_CODES.VALIDATION, null],
      ['id beyond int32', a.admin.token, { id: 2 ** 31, versionId: v130.id }, ERROR_CODES.VALIDATION, null],
      [
        'extra field',
        a.admin.token,
        { id: g.id, versionId: v130.id, state: 'success' },
        ERROR_CODES.VALIDATION,
        null,
      ],
    ];
    for (const [label, token, body, code, message] of expectations) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${BASE}/upgrade`,
        payload: body,
        headers: { ...(token ? bearer(token) : {}), 'accept-language': 'en' },
      });
      expect(res.json().code, label).toBe(code);
      if (message) expect(res.json().message, label).toBe(message);
    }
    // the Chinese words of the spec's messages
    const zh = await t.app.inject({
      method: 'POST',
      url: `${BASE}/upgrade`,
      payload: { id: offline.id, versionId: v130.id },
      headers: { ...bearer(a.admin.token), 'accept-language': 'zh' },
    });
    expect(zh.json().message).toBe('当前网关离线，无法升级固件。');
    for (const d of [g, hidden, offline, unbound]) expect(await upgradeRows(d.id), String(d.id)).toEqual([]);
    // the reader sees the device page and its history, read-only
    expect((await call(t, reader.token, 'GET', `device?id=${g.id}`)).json().data.device.level).toBe(1);
    expect((await call(t, reader.token, 'GET', `upgrades?id=${g.id}`)).json().data.total).toBe(0);
    await g.drop();
    await hidden.drop();
    await unbound.drop();
  });

  it('a batch is refused as a whole for a huge or malformed list', async () => {
    for (const body of [
      { ids: [], versionId: v130.id },
      { ids: Array.from({ length: 1001 }, (_, i) => i + 1), versionId: v130.id },
      { ids: [1, 1], versionId: v130.id },
      { ids: 'all', versionId: v130.id },
    ]) {
      const res = await call(t, a.admin.token, 'POST', 'batch', body);
      expect(res.json().code).toBe(ERROR_CODES.VALIDATION);
    }
  });
});

describe('many gateways at once', () => {
  it('dispatches at most the limit, queues the rest, names each refusal, and moves on as upgrades end', async () => {
    const live = await t.db.select().from(firmwareUpgrades);
    expect(live.filter((u) => u.state !== 'success' && u.state !== 'failed')).toEqual([]);
    const online = [await onlineDevice(), await onlineDevice(), await onlineDevice()];
    const offline = await makeDevice(t, a.id, { userId: a.admin.id });
    const foreign = await registerGateway(t);
    const res = await call(t, a.admin.token, 'POST', 'batch', {
      ids: [...online.map((g) => g.id), offline.id, foreign.id],
      versionId: v130.id,
    });
    expect(res.json().code, res.body).toBe(0);
    const { batchId, results } = res.json().data as {
      batchId: number;
      results: Array<{
        id: number;
        upgrade: { id: number; state: string } | null;
        error: { code: number; message: string } | null;
      }>;
    };
    // the limit is 2: the oldest two go out, the third waits its turn
    expect(results.slice(0, 3).map((r) => r.upgrade!.state)).toEqual(['dispatched', 'dispatched', 'queued']);
    expect(results[3]!.error).toEqual({
      code: ERROR_CODES.BUSINESS,
      message: 'The current gateway is offline and cannot upgrade firmware.',
    });
    expect(results[4]!.error!.code).toBe(ERROR_CODES.NOT_FOUND);

    // every gateway plays its part when its order comes; all end in success
    const finish = async (g: FakeGateway) => {
      const order = await waitFor(() => g.orders[0], 30_000, `order for ${g.sn}`);
      await g.report({ upgradeId: order.upgradeId, state: 'accepted' });
      await g.report({ upgradeId: order.upgradeId, state: 'rebooting' });
      await waitFor(
        async () => (await upgradeState(g.id, order.upgradeId as number)).state === 'rebooting',
        10_000,
        'rebooting',
      );
      await g.drop();
      await g.boot('1.3.0');
    };
    await Promise.all(online.map(finish));
    const view = await waitFor(
      async () => {
        const v = (await call(t, a.admin.token, 'GET', `batch?batchId=${batchId}`)).json().data;
        return v.counts.success === 3 ? v : undefined;
      },
      30_000,
      'the batch succeeded',
    );
    expect(view.list.map((u: { deviceId: number }) => u.deviceId).sort()).toEqual(
      online.map((g) => g.id).sort(),
    );
    // another company cannot read the batch
    expect((await call(t, b.admin.token, 'GET', `batch?batchId=${batchId}`)).json().code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    for (const g of online) await g.drop();
  });
});
