/**
 * A company's devices through the real app: who sees and operates which device (the cabin's
 * data permission on its node), the list, edits and pictures, the device permission page,
 * JSON telemetry and events from a real MQTT gateway, the live socket.
 */
import { ERROR_CODES, IMAGE_MAX_BYTES } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  makeCompany,
  type TestApp,
  type TestCompany,
  type TestUser,
} from '../../test/helper';
import { cabinNodes } from '../cabin/tables';
import { makeDirectory, makeItem, SAMPLE_FIELDS, setPermissions } from '../cabin/test-support';
import { dataItems } from '../dataitems/tables';
import { gateways } from '../gateways/tables';
import { dataRecords } from '../records/tables';
import { makeJpeg, makeMember, makePng, makeRole, multipartFile } from '../users/test-support';
import { devices } from './tables';
import {
  birth,
  brokerUrl,
  connectGateway,
  gatewayRow,
  makeDevice,
  operationsOf,
  publishUp,
  registerGateway,
  type TestGateway,
  waitFor,
} from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
/** dm_list, dm_maintenance, dm_permission; reads `shared`, cannot see `hidden` */
let reader: TestUser;
/** only device communication's code */
let communicator: TestUser;
let dir: number;
let open: TestGateway & { nodeId: number };
let shared: TestGateway & { nodeId: number };
let hidden: TestGateway & { nodeId: number };

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
  reader = await makeMember(
    t,
    a,
    [await makeRole(t, a.id, ['dm_list', 'dm_maintenance', 'dm_permission'])],
    'reader',
  );
  communicator = await makeMember(t, a, [await makeRole(t, a.id, ['cd_device'])], 'communicator');
  dir = await makeDirectory(t, a.id, { name: 'Plant' });
  open = await makeDevice(t, a.id, { name: 'Open DTU', parentId: dir, userId: a.admin.id });
  shared = await makeDevice(t, a.id, { name: 'Shared DTU', parentId: dir, userId: a.admin.id });
  hidden = await makeDevice(t, a.id, { name: 'Hidden DTU', parentId: dir, userId: a.admin.id });
  await setPermissions(t, shared.nodeId, [{ scope: 'user', subjectId: reader.id, level: 1 }]);
  await setPermissions(t, hidden.nodeId, [{ scope: 'company', subjectId: null, level: 0 }]);
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', path: string, token: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/general/devicemanagement${path}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
const ids = (res: { json(): { data: { list: Array<{ id: number }> } } }) =>
  res.json().data.list.map((d) => d.id);

describe('who sees and operates which device', () => {
  it('lists only readable devices, for both menus, each with the caller’s level', async () => {
    expect(ids(await call('GET', '/device/list', a.admin.token)).sort()).toEqual(
      [open.id, shared.id, hidden.id].sort(),
    );
    const mine = (await call('GET', '/device/list', reader.token)).json().data;
    expect(mine.list.map((d: { id: number }) => d.id).sort()).toEqual([open.id, shared.id].sort());
    expect(mine.list.find((d: { id: number }) => d.id === shared.id).level).toBe(1);
    expect(mine.list.find((d: { id: number }) => d.id === open.id).level).toBe(2);
    expect(JSON.stringify(mine)).not.toContain('Hidden DTU');
    // shared's custom permissions name only the reader: nobody else of the company reads it
    expect(ids(await call('GET', '/device/list', communicator.token))).toEqual([open.id]);
    // a member without either code sees nothing at all
    expect((await call('GET', '/device/list', a.limited.token)).json().code).toBe(ERROR_CODES.FORBIDDEN);
  });

  it('a device the caller cannot read does not exist for them: detail, log, edit, maintenance, picture', async () => {
    for (const [method, path, body] of [
      ['GET', `/device/detail?id=${hidden.id}`],
      ['GET', `/device/log?id=${hidden.id}`],
      ['POST', '/device/update', { id: hidden.id, name: 'x' }],
      ['POST', '/device/unbind', { id: hidden.id }],
      ['GET', `/maintenance/records?deviceId=${hidden.id}`],
      ['GET', `/maintenance/plans?deviceId=${hidden.id}`],
      [
        'POST',
        '/maintenance/records/create',
        { deviceId: hidden.id, date: '2026-01-01', kind: 'repair', description: 'x' },
      ],
      ['POST', '/permission/set', { id: hidden.id, mode: 'inherit' }],
    ] as const) {
      const res = await call(method, path, reader.token, body);
      expect(res.json().code, path).toBe(ERROR_CODES.NOT_FOUND);
      expect(res.body).not.toContain('Hidden DTU');
    }
    expect(
      JSON.stringify((await call('GET', '/maintenance/devices', reader.token)).json().data),
    ).not.toContain(hidden.sn);
  });

  it('read-only is enough to see, not to change', async () => {
    expect((await call('GET', `/device/detail?id=${shared.id}`, reader.token)).json().data).toMatchObject({
      name: 'Shared DTU',
      level: 1,
    });
    expect(
      (await call('POST', '/device/update', reader.token, { id: shared.id, address: 'x' })).json().code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    const { payload, headers } = multipartFile(await makePng(10, 10));
    const upload = await t.app.inject({
      method: 'POST',
      url: `/general/devicemanagement/device/uploadPicture?id=${shared.id}`,
      payload,
      headers: { ...headers, ...bearer(reader.token) },
    });
    expect(upload.json().code).toBe(ERROR_CODES.FORBIDDEN);
    expect(
      (
        await call('POST', '/maintenance/records/create', reader.token, {
          deviceId: shared.id,
          date: '2026-01-01',
          kind: 'repair',
          description: 'x',
        })
      ).json().code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    const [row] = await t.db
      .select()
      .from(devices)
      .where(and(eq(devices.companyId, a.id), eq(devices.gatewayId, shared.id)));
    expect(row!.address).toBe('');
  });
});

describe('the device list', () => {
  it('searches serial number, name and address; filters online and status; sorts and pages', async () => {
    const c = await makeCompany(t, 'Listed');
    const d1 = await makeDevice(t, c.id, { name: 'Alpha' });
    const d2 = await makeDevice(t, c.id, { name: 'Beta' });
    const d3 = await makeDevice(t, c.id, { name: 'Gamma' });
    await call('POST', '/device/update', c.admin.token, { id: d2.id, address: 'North hall' });
    // d1 online and running, d3 online with a port error
    const now = new Date();
    await t.db
      .update(gateways)
      .set({ online: true, onlineAt: now, ports: [{ port: 1, ok: true }] })
      .where(eq(gateways.id, d1.id));
    await t.db
      .update(gateways)
      .set({ online: true, onlineAt: now, ports: [{ port: 1, ok: false, error: 'x' }] })
      .where(eq(gateways.id, d3.id));
    const list = (q: string) => call('GET', `/device/list?${q}`, c.admin.token).then(ids);
    expect(await list('keyword=north')).toEqual([d2.id]);
    expect(await list(`keyword=${d3.sn.toLowerCase()}`)).toEqual([d3.id]);
    expect(await list('keyword=alp')).toEqual([d1.id]);
    expect(await list('online=true&sort=name')).toEqual([d1.id, d3.id]);
    expect(await list('online=false')).toEqual([d2.id]);
    expect(await list('status=running')).toEqual([d1.id]);
    expect(await list('status=abnormal')).toEqual([d3.id]);
    expect(await list('status=inactive')).toEqual([d2.id]);
    expect(await list('sort=name&order=desc')).toEqual([d3.id, d2.id, d1.id]);
    expect(await list('sort=status')).toEqual([d3.id, d1.id, d2.id]);
    expect(await list('sort=name&pageSize=2&pageNum=2')).toEqual([d3.id]);
    expect((await call('GET', '/device/list?pageSize=2', c.admin.token)).json().data.total).toBe(3);
    for (const bad of [
      'status=lost',
      'sort=secret',
      'online=maybe',
      'pageSize=0',
      `keyword=${'x'.repeat(51)}`,
    ])
      expect((await call('GET', `/device/list?${bad}`, c.admin.token)).json().code, bad).toBe(
        ERROR_CODES.VALIDATION,
      );
  });
});

describe('editing a device', () => {
  it('renames it (its cabin node too), sets its address and a preset picture, and logs the edit', async () => {
    const d = await makeDevice(t, a.id, { name: 'Before', parentId: dir });
    const res = await call('POST', '/device/update', a.admin.token, {
      id: d.id,
      name: ' After ',
      address: 'Boiler room, 2F',
      picture: 'pump',
    });
    expect(res.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const detail = (await call('GET', `/device/detail?id=${d.id}`, a.admin.token)).json().data;
    expect(detail).toMatchObject({
      name: 'After',
      address: 'Boiler room, 2F',
      picture: { preset: 'pump' },
      path: ['Plant'],
    });
    const [node] = await t.db.select().from(cabinNodes).where(eq(cabinNodes.id, d.nodeId));
    expect(node!.name).toBe('After');
    expect((await operationsOf(t, a.id, d.id)).map((o) => [o.kind, o.userId])).toEqual([
      ['edit', a.admin.id],
    ]);
    const bad: Array<[object, string, string?]> = [
      [{ id: d.id, name: '' }, 'name', 'Please enter a name'],
      [{ id: d.id, name: 'x'.repeat(26) }, 'name', 'The length of the name cannot exceed 25 characters'],
      [{ id: d.id, address: 'x'.repeat(101) }, 'address'],
      [{ id: d.id, picture: 'devices/1/2/x.png' }, 'picture'],
      [{ id: d.id, address: 'a\u0000b' }, 'address'],
    ];
    for (const [body, field, message] of bad) {
      const r = await call('POST', '/device/update', a.admin.token, body);
      expect(r.json().data, JSON.stringify(body)).toMatchObject({ field });
      if (message) expect(r.json().message).toBe(message);
    }
    expect((await call('GET', `/device/detail?id=${d.id}`, a.admin.token)).json().data.name).toBe('After');
  });

  it('takes an uploaded JPG or PNG, judged by its bytes, with a 150 px thumbnail behind signed links', async () => {
    const d = await makeDevice(t, a.id, { name: 'Photo', parentId: dir });
    const upload = (bytes: Buffer, opts: Parameters<typeof multipartFile>[1] = {}) => {
      const { payload, headers } = multipartFile(bytes, opts);
      return t.app.inject({
        method: 'POST',
        url: `/general/devicemanagement/device/uploadPicture?id=${d.id}`,
        payload,
        headers: { ...headers, ...bearer(a.admin.token), 'accept-language': 'en' },
      });
    };
    const first = await upload(await makePng(600, 300));
    expect(first.json()).toMatchObject({ code: 0 });
    const { url, thumbnailUrl } = first.json().data.picture;
    expect(url).toMatch(
      new RegExp(`^/general/files/devices/${a.id}/${d.id}/[0-9a-f]+\\.png\\?exp=\\d+&sig=`),
    );
    const thumb = await t.app.inject({ method: 'GET', url: thumbnailUrl });
    expect(thumb.statusCode).toBe(200);
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ width: 150, height: 75 });
    // the link without its signature opens nothing, even with a token
    expect(
      (await t.app.inject({ method: 'GET', url: url.split('?')[0], headers: bearer(a.admin.token) }))
        .statusCode,
    ).toBe(404);
    const second = await upload(await makeJpeg(100, 200), { filename: 'x.jpg', contentType: 'image/jpeg' });
    expect(second.json().data.picture.url).toMatch(/\.jpg\?/);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await upload(Buffer.from('not a picture at all'), { filename: 'x.png' })).json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message:
        'The file format is incorrect. Please upload the image type, such as JPG or PNG files with suffixes.',
      data: { field: 'file' },
    });
    const big = Buffer.alloc(IMAGE_MAX_BYTES + 10, 0x20);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    expect((await upload(big, { filename: 'big.jpg', contentType: 'image/jpeg' })).json()).toMatchObject({
      message: 'The image size exceeds 3M',
      data: { field: 'file' },
    });
    expect((await call('GET', `/device/detail?id=${d.id}`, a.admin.token)).json().data.picture.url).toMatch(
      /\.jpg\?/,
    );
  });
});

describe('device permissions (dm_permission)', () => {
  it('shows settings to the device’s administrator only, and sets them with the cabin’s rules', async () => {
    const d = await makeDevice(t, a.id, { name: 'Guarded', parentId: dir });
    const find = async (token: string) =>
      (await call('GET', '/permission/list?keyword=guarded', token))
        .json()
        .data.list.find((r: { id: number }) => r.id === d.id);
    expect(await find(a.admin.token)).toMatchObject({ level: 3, mode: 'inherit', entries: [] });
    expect(await find(reader.token)).toMatchObject({ level: 2, mode: null, entries: null });
    expect(
      (await call('POST', '/permission/set', reader.token, { id: d.id, mode: 'custom', entries: [] })).json()
        .code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    const set = await call('POST', '/permission/set', a.admin.token, {
      id: d.id,
      mode: 'custom',
      entries: [
        { scope: 'company', level: 0 },
        { scope: 'user', subjectId: communicator.id, level: 1 },
      ],
    });
    expect(set.json()).toMatchObject({ code: 0 });
    expect(await find(a.admin.token)).toMatchObject({
      mode: 'custom',
      entries: [
        { scope: 'company', subjectId: null, level: 0 },
        { scope: 'user', subjectId: communicator.id, level: 1 },
      ],
    });
    expect(ids(await call('GET', '/device/list', reader.token))).not.toContain(d.id);
    expect(ids(await call('GET', '/device/list', communicator.token))).toContain(d.id);
    const stranger = await call('POST', '/permission/set', a.admin.token, {
      id: d.id,
      mode: 'custom',
      entries: [{ scope: 'user', subjectId: b.admin.id, level: 3 }],
    });
    expect(stranger.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'entries[0].subjectId' },
    });
    expect(
      (await call('POST', '/permission/set', a.admin.token, { id: d.id, mode: 'inherit' })).json().code,
    ).toBe(0);
    expect(ids(await call('GET', '/device/list', reader.token))).toContain(d.id);
  });
});

describe('JSON telemetry and events from the gateway', () => {
  it('writes into items whose data sources name its serial number; refuses and counts the rest; drops while unbound', async () => {
    const gateway = await makeDevice(t, a.id, { name: 'Telemetry', parentId: dir });
    const item = await makeItem(t, a.id, { fields: SAMPLE_FIELDS, parentId: dir });
    await t.db
      .update(dataItems)
      .set({ sources: [{ deviceId: gateway.sn, deviceName: 'Telemetry' }] })
      .where(eq(dataItems.id, item.itemId));
    const unnamed = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const foreign = await makeItem(t, b.id, { fields: SAMPLE_FIELDS });
    await t.db
      .update(dataItems)
      .set({ sources: [{ deviceId: gateway.sn, deviceName: 'x' }] })
      .where(eq(dataItems.id, foreign.itemId));
    const client = await connectGateway(brokerUrl(t), gateway);
    await publishUp(client, gateway.sn, 'telemetry', [
      { itemId: item.itemId, ts: '2026-11-27T08:00:00+08:00', 温度: 21.456, count: 3 },
      { itemId: item.itemId, f1: 22, f3: 'ok' },
    ]);
    await publishUp(client, gateway.sn, 'telemetry', { itemId: unnamed.itemId, count: 1 });
    await publishUp(client, gateway.sn, 'telemetry', { itemId: foreign.itemId, count: 1 });
    await publishUp(client, gateway.sn, 'telemetry', { itemId: item.itemId, unknownField: 1 });
    const detail = await waitFor(async () => {
      const d = (await call('GET', `/device/detail?id=${gateway.id}`, a.admin.token)).json().data;
      return d.telemetry.ok === 1 && d.telemetry.refused === 3 ? d : undefined;
    });
    expect(detail.telemetry.lastRefusal).toMatchObject({
      field: 'unknownField',
      index: 0,
      itemId: item.itemId,
      message: 'Unknown field: unknownField',
    });
    const stored = await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, item.itemId));
    expect(stored).toHaveLength(2);
    expect(stored.map((r) => r.source)).toEqual(['gateway', 'gateway']);
    expect(stored.find((r) => r.values.f2 === 3)!.values.f1).toBe(21.46);
    for (const other of [unnamed, foreign])
      expect(await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, other.itemId))).toEqual([]);
    await client.endAsync();

    // an unbound gateway's telemetry is counted and dropped
    const loose = await registerGateway(t);
    const looseClient = await connectGateway(brokerUrl(t), loose);
    await publishUp(looseClient, loose.sn, 'telemetry', { itemId: item.itemId, count: 9 });
    await waitFor(async () => (await gatewayRow(t, loose.id)).telemetryDropped === 1);
    expect(await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, item.itemId))).toHaveLength(2);
    await looseClient.endAsync();
  });

  it("lands the gateway's events in its operation log, as the device's", async () => {
    const gateway = await makeDevice(t, a.id, { name: 'Eventful', parentId: dir });
    const client = await connectGateway(brokerUrl(t), gateway);
    await publishUp(client, gateway.sn, 'event', { event: 'portError', port: 2, detail: 'no answer' });
    await publishUp(client, gateway.sn, 'event', { event: 'reboot' });
    await publishUp(client, gateway.sn, 'event', { event: '<script>' });
    await waitFor(async () => (await operationsOf(t, a.id, gateway.id)).length === 2);
    const log = (await call('GET', `/device/log?id=${gateway.id}&kind=event`, a.admin.token)).json().data;
    expect(log.list).toMatchObject([
      { kind: 'event', actor: { type: 'device' }, result: 'ok', data: { event: 'reboot' } },
      {
        kind: 'event',
        actor: { type: 'device' },
        result: 'failed',
        data: { event: 'portError', port: 2, detail: 'no answer' },
      },
    ]);
    expect(
      (await call('GET', `/device/log?id=${gateway.id}&kind=bind`, a.admin.token)).json().data.total,
    ).toBe(0);
    expect(
      (await call('GET', `/device/log?id=${gateway.id}&from=2000-01-01&to=2001-01-01`, a.admin.token)).json()
        .data.total,
    ).toBe(0);
    expect(
      (await call('GET', `/device/log?id=${gateway.id}&from=yesterday`, a.admin.token)).json(),
    ).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'from' } });
    await client.endAsync();
  });
});

describe('the live device socket', () => {
  it('tells a reader of the device its changes, and nothing of devices they cannot read', async () => {
    const heard: Array<Record<string, unknown>> = [];
    const socket = await t.app.injectWS(`/general/devicemanagement/device/live?token=${reader.token}`);
    socket.on('message', (data) => heard.push(JSON.parse(String(data))));
    const ping = async () => {
      const n = heard.filter((m) => m.type === 'pong').length;
      socket.send(JSON.stringify({ type: 'ping' }));
      await waitFor(() => heard.filter((m) => m.type === 'pong').length > n);
    };
    await ping();
    const clients = await Promise.all([open, hidden].map((g) => connectGateway(brokerUrl(t), g)));
    await publishUp(clients[0]!, open.sn, 'status', birth());
    await publishUp(clients[1]!, hidden.sn, 'status', birth());
    await waitFor(
      async () => (await gatewayRow(t, hidden.id)).online && (await gatewayRow(t, open.id)).online,
    );
    await waitFor(() => heard.some((m) => m.type === 'device' && m.id === open.id && m.online === true));
    await ping();
    expect(heard.filter((m) => m.type === 'device' && m.id === hidden.id)).toEqual([]);
    // the reader loses the device: its changes stop reaching them
    await setPermissions(t, open.nodeId, [{ scope: 'user', subjectId: reader.id, level: 0 }]);
    // the access watch sees the change (its re-check queues before the next ping's answer)
    await t.app.accessWatch.poll();
    const before = heard.length;
    await publishUp(clients[0]!, open.sn, 'status', { ports: [{ port: 1, ok: false, error: 'x' }] });
    await waitFor(async () => (await gatewayRow(t, open.id)).ports.some((p) => !p.ok));
    await ping();
    expect(heard.slice(before).filter((m) => m.type === 'device')).toEqual([]);
    socket.terminate();
    for (const c of clients) await c.endAsync();
    await setPermissions(t, open.nodeId, []);
    await t.db.update(cabinNodes).set({ permissionMode: 'inherit' }).where(eq(cabinNodes.id, open.nodeId));
  });

  it('ends when the caller loses the code', async () => {
    const roleId = await makeRole(t, a.id, ['dm_list']);
    const member = await makeMember(t, a, [roleId], 'leaving');
    const heard: Array<Record<string, unknown>> = [];
    const socket = await t.app.injectWS(`/general/devicemanagement/device/live?token=${member.token}`);
    socket.on('message', (data) => heard.push(JSON.parse(String(data))));
    const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
    socket.send(JSON.stringify({ type: 'ping' }));
    await waitFor(() => heard.some((m) => m.type === 'pong'));
    const { roles } = await import('../roles/tables');
    await t.db
      .update(roles)
      .set({ menuCodes: ['sd_capsule'] })
      .where(eq(roles.id, roleId));
    expect(await closed).toBe(4403);
    expect(heard.at(-1)).toMatchObject({ type: 'ended', code: ERROR_CODES.FORBIDDEN });
  });
});
