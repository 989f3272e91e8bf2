/**
 * Binding through the real app and a real MQTT gateway on the embedded broker: bind by serial
 * number, the button on the gateway, the countdown, cancelling, replacing, unbinding, and the
 * attacks: another company, another gateway's connection, another request id, a browser.
 */
import { ERROR_CODES, gatewayDownTopic } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { cabinNodes } from '../cabin/tables';
import { makeDirectory, makeItem, setPermissions } from '../cabin/test-support';
import { gateways } from '../gateways/tables';
import { makeMember, makeRole } from '../users/test-support';
import { bindRequests, devices, maintenanceRecords } from './tables';
import {
  birth,
  brokerUrl,
  connectGateway,
  gatewayRow,
  operationsOf,
  publishUp,
  registerGateway,
  type TestGateway,
  waitFor,
} from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let url: string;
let dirA: number;
let dirB: number;
const open: MqttClient[] = [];

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
  url = brokerUrl(t);
  dirA = await makeDirectory(t, a.id, { name: 'Devices' });
  dirB = await makeDirectory(t, b.id, { name: 'Devices' });
});
afterAll(async () => {
  for (const c of open) c.end(true);
  await t.close();
});

const call = (method: 'GET' | 'POST', path: string, token: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/general/devicemanagement/device${path}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });

/** A registered gateway, connected, online, listening on its down topics; `down` collects what it gets. */
async function onlineGateway(): Promise<
  TestGateway & { client: MqttClient; down: Array<{ topic: string; body: Record<string, unknown> }> }
> {
  const g = await registerGateway(t);
  const client = await connectGateway(url, g);
  open.push(client);
  const down: Array<{ topic: string; body: Record<string, unknown> }> = [];
  client.on('message', (topic, payload) => down.push({ topic, body: JSON.parse(payload.toString()) }));
  await client.subscribeAsync(`smartdata/gw/${g.sn}/down/#`, { qos: 1 });
  await publishUp(client, g.sn, 'status', birth());
  await waitFor(async () => (await gatewayRow(t, g.id)).online);
  return { ...g, client, down };
}

const bind = (token: string, body: object) => call('POST', '/bind', token, body);
const status = (token: string, requestId: string) => call('GET', `/bindStatus?requestId=${requestId}`, token);

describe('binding by serial number with the button on the gateway', () => {
  it('binds once the gateway confirms: the device joins the chosen directory', async () => {
    const g = await onlineGateway();
    const res = await bind(a.admin.token, {
      serialNumber: ` ${g.sn.toLowerCase()} `,
      name: 'Boiler room DTU',
      parentId: dirA,
    });
    expect(res.json()).toMatchObject({
      code: 0,
      message: 'Bind request sent: press the bind button on the gateway to confirm',
    });
    const { requestId, expiresAt, secondsLeft } = res.json().data;
    expect(requestId).toMatch(/^[0-9a-f]{32}$/);
    expect(secondsLeft).toBeGreaterThan(100);
    expect(secondsLeft).toBeLessThanOrEqual(120);
    // the gateway is told, with the company's name, and blinks until expiresAt
    const request = await waitFor(() => g.down.find((m) => m.topic === gatewayDownTopic(g.sn, 'bind')));
    expect(request.body).toEqual({ requestId, company: 'Acme', expiresAt });
    expect((await status(a.admin.token, requestId)).json()).toMatchObject({
      code: 0,
      data: { state: 'waiting', deviceId: null },
    });
    // nothing is bound until the button
    expect((await gatewayRow(t, g.id)).companyId).toBeNull();

    await publishUp(g.client, g.sn, 'bind', { requestId });
    const bound = await waitFor(async () => {
      const r = (await status(a.admin.token, requestId)).json();
      return r.data.state === 'bound' ? r : undefined;
    });
    expect(bound).toMatchObject({ message: 'Bound successfully', data: { deviceId: g.id, secondsLeft: 0 } });
    expect((await status(a.limited.token, requestId)).json().code).toBe(ERROR_CODES.FORBIDDEN);
    await waitFor(() => g.down.some((m) => m.body.result === 'bound' && m.body.requestId === requestId));

    const [node] = await t.db
      .select()
      .from(cabinNodes)
      .where(and(eq(cabinNodes.type, 'device'), eq(cabinNodes.refId, g.id)));
    expect(node).toMatchObject({
      companyId: a.id,
      parentId: dirA,
      name: 'Boiler room DTU',
      createdBy: a.admin.id,
    });
    const list = (await call('GET', '/list', a.admin.token)).json().data;
    expect(list.list.find((d: { id: number }) => d.id === g.id)).toMatchObject({
      serialNumber: g.sn,
      name: 'Boiler room DTU',
      online: true,
      status: 'running',
      picture: { preset: 'dtu' },
      level: 3,
    });
    const detail = (await call('GET', `/detail?id=${g.id}`, a.admin.token)).json().data;
    expect(detail).toMatchObject({ path: ['Devices'], parentId: dirA, firmware: '1.2.0' });
    const log = await operationsOf(t, a.id, g.id);
    expect(log).toMatchObject([{ kind: 'bind', actorType: 'user', userId: a.admin.id, result: 'ok' }]);
    // a second press of the button changes nothing
    await publishUp(g.client, g.sn, 'bind', { requestId });
    await t.app.gateways.run(g.sn, async () => {});
    expect(
      await t.db
        .select()
        .from(cabinNodes)
        .where(and(eq(cabinNodes.type, 'device'), eq(cabinNodes.refId, g.id))),
    ).toHaveLength(1);
  });

  it('refuses with its own message: unknown, bound here, bound elsewhere, offline, another company waiting', async () => {
    const bound = await onlineGateway();
    const { requestId } = (
      await bind(a.admin.token, { serialNumber: bound.sn, name: 'x', parentId: dirA })
    ).json().data;
    await publishUp(bound.client, bound.sn, 'bind', { requestId });
    await waitFor(async () => (await gatewayRow(t, bound.id)).companyId === a.id);
    const offline = await registerGateway(t);
    const contested = await onlineGateway();
    expect(
      (await bind(a.admin.token, { serialNumber: contested.sn, name: 'mine', parentId: dirA })).json().code,
    ).toBe(0);
    const before = (await t.db.select().from(bindRequests)).length;
    const cases: Array<[string, object, string]> = [
      [
        a.admin.token,
        { serialNumber: 'NOSUCH000000', name: 'x', parentId: dirA },
        'No gateway has this serial number: check the number on the gateway’s label',
      ],
      [
        a.admin.token,
        { serialNumber: bound.sn, name: 'x', parentId: dirA },
        'This gateway is already bound to your company',
      ],
      [
        b.admin.token,
        { serialNumber: bound.sn, name: 'x', parentId: dirB },
        'This gateway is already bound to another company',
      ],
      [
        b.admin.token,
        { serialNumber: offline.sn, name: 'x', parentId: dirB },
        'The gateway is offline: power it on and connect it to the network, then bind it',
      ],
      [
        b.admin.token,
        { serialNumber: contested.sn, name: 'x', parentId: dirB },
        'A bind request of another company is waiting for confirmation on this gateway, please try again later',
      ],
    ];
    for (const [token, body, message] of cases) {
      const res = await bind(token, body);
      expect(res.json(), message).toEqual({ code: ERROR_CODES.BUSINESS, message, data: null });
    }
    expect((await t.db.select().from(bindRequests)).length).toBe(before);
  });

  it('checks the serial number, the name and the parent directory first, naming the field', async () => {
    const g = await onlineGateway();
    const item = await makeItem(t, a.id, { parentId: dirA });
    const readOnlyDir = await makeDirectory(t, a.id, { name: 'read only' });
    const roleId = await makeRole(t, a.id, ['dm_list']);
    const member = await makeMember(t, a, [roleId]);
    await setPermissions(t, readOnlyDir, [{ scope: 'user', subjectId: member.id, level: 1 }]);
    const cases: Array<[string, object, number, string, string?]> = [
      [a.admin.token, { name: 'x', parentId: dirA }, ERROR_CODES.VALIDATION, 'serialNumber'],
      [
        a.admin.token,
        { serialNumber: 'ab-12', name: 'x', parentId: dirA },
        ERROR_CODES.VALIDATION,
        'serialNumber',
        'The serial number must be 6 to 32 letters (A-Z) or digits',
      ],
      [
        a.admin.token,
        { serialNumber: g.sn, name: ' ', parentId: dirA },
        ERROR_CODES.VALIDATION,
        'name',
        'Please enter a name',
      ],
      [
        a.admin.token,
        { serialNumber: g.sn, name: 'x'.repeat(26), parentId: dirA },
        ERROR_CODES.VALIDATION,
        'name',
        'The length of the name cannot exceed 25 characters',
      ],
      [a.admin.token, { serialNumber: g.sn, name: '50%', parentId: dirA }, ERROR_CODES.VALIDATION, 'name'],
      [
        a.admin.token,
        { serialNumber: g.sn, name: 'x' },
        ERROR_CODES.VALIDATION,
        'parentId',
        'Please select a parent directory',
      ],
      [
        a.admin.token,
        { serialNumber: g.sn, name: 'x', parentId: item.nodeId },
        ERROR_CODES.VALIDATION,
        'parentId',
        'Please select a parent directory',
      ],
      [a.admin.token, { serialNumber: g.sn, name: 'x', parentId: dirB }, ERROR_CODES.NOT_FOUND, 'parentId'],
      [member.token, { serialNumber: g.sn, name: 'x', parentId: readOnlyDir }, ERROR_CODES.FORBIDDEN, ''],
    ];
    for (const [token, body, code, field, message] of cases) {
      const res = await bind(token, body);
      expect(res.json().code, JSON.stringify(body)).toBe(code);
      if (field) expect(res.json().data).toMatchObject({ field });
      if (message) expect(res.json().message).toBe(message);
    }
    expect(await t.db.select().from(bindRequests).where(eq(bindRequests.gatewayId, g.id))).toEqual([]);
  });
});

describe('the confirmation comes only from the gateway, for its own waiting request', () => {
  it("ignores another gateway's connection, another request id, and the browser", async () => {
    const target = await onlineGateway();
    const intruder = await onlineGateway();
    const { requestId } = (
      await bind(a.admin.token, { serialNumber: target.sn, name: 'target', parentId: dirA })
    ).json().data;
    // another gateway presses its button with the target's request id: on its own topic, for itself
    await publishUp(intruder.client, intruder.sn, 'bind', { requestId });
    // the target's own connection with a wrong or malformed id
    for (const wrong of [
      { requestId: 'f'.repeat(32) },
      { requestId: 42 },
      {},
      { requestId: `${requestId}\u0000` },
    ])
      await publishUp(target.client, target.sn, 'bind', wrong);
    await t.app.gateways.run(target.sn, async () => {});
    await t.app.gateways.run(intruder.sn, async () => {});
    expect((await gatewayRow(t, target.id)).companyId).toBeNull();
    expect((await gatewayRow(t, intruder.id)).companyId).toBeNull();
    // a browser has no way to confirm: polling the status binds nothing
    expect((await status(a.admin.token, requestId)).json().data.state).toBe('waiting');
    for (const path of ['/bindConfirm', '/confirm'])
      expect((await call('POST', path, a.admin.token, { requestId })).statusCode).toBe(404);
    // the right press still works
    await publishUp(target.client, target.sn, 'bind', { requestId });
    await waitFor(async () => (await gatewayRow(t, target.id)).companyId === a.id);
  });
});

describe('the countdown, cancelling and replacing', () => {
  it('a request not confirmed in time expires; a late press binds nothing', async () => {
    const quick = await buildTestApp({ MQTT_PORT: '0', BIND_REQUEST_TTL_S: '1' });
    try {
      const company = await makeCompany(quick, 'Quick');
      const dir = await makeDirectory(quick, company.id);
      const g = await registerGateway(quick);
      const client = await connectGateway(brokerUrl(quick), g);
      const down: Array<Record<string, unknown>> = [];
      client.on('message', (_topic, payload) => down.push(JSON.parse(payload.toString())));
      await client.subscribeAsync(`smartdata/gw/${g.sn}/down/#`, { qos: 1 });
      await publishUp(client, g.sn, 'status', birth());
      await waitFor(async () => (await gatewayRow(quick, g.id)).online);
      const res = await quick.app.inject({
        method: 'POST',
        url: '/general/devicemanagement/device/bind',
        payload: { serialNumber: g.sn, name: 'slow', parentId: dir },
        headers: bearer(company.admin.token),
      });
      const { requestId } = res.json().data;
      expect(res.json().data.secondsLeft).toBe(1);
      // the server ends it on its own, and tells the gateway
      await waitFor(() => down.some((m) => m.requestId === requestId && m.result === 'expired'));
      const after = await quick.app.inject({
        method: 'GET',
        url: `/general/devicemanagement/device/bindStatus?requestId=${requestId}`,
        headers: bearer(company.admin.token),
      });
      expect(after.json().data).toMatchObject({ state: 'expired', secondsLeft: 0, deviceId: null });
      await publishUp(client, g.sn, 'bind', { requestId });
      await quick.app.gateways.run(g.sn, async () => {});
      expect((await gatewayRow(quick, g.id)).companyId).toBeNull();
      await client.endAsync();
    } finally {
      await quick.close();
    }
  }, 60_000);

  it('the requester cancels; the gateway is told; a press after that binds nothing', async () => {
    const g = await onlineGateway();
    const { requestId } = (
      await bind(a.admin.token, { serialNumber: g.sn, name: 'c', parentId: dirA })
    ).json().data;
    expect((await call('POST', '/bindCancel', b.admin.token, { requestId })).json().code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    expect((await call('POST', '/bindCancel', a.admin.token, { requestId })).json()).toMatchObject({
      code: 0,
    });
    await waitFor(() => g.down.some((m) => m.body.requestId === requestId && m.body.result === 'cancelled'));
    expect((await status(a.admin.token, requestId)).json().data.state).toBe('cancelled');
    expect((await call('POST', '/bindCancel', a.admin.token, { requestId })).json()).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'This bind request does not exist or has been replaced by a newer one',
    });
    await publishUp(g.client, g.sn, 'bind', { requestId });
    await t.app.gateways.run(g.sn, async () => {});
    expect((await gatewayRow(t, g.id)).companyId).toBeNull();
  });

  it("a company's newer request replaces its older one: only the newer is confirmed", async () => {
    const g = await onlineGateway();
    const first = (await bind(a.admin.token, { serialNumber: g.sn, name: 'first', parentId: dirA })).json()
      .data.requestId;
    const second = (await bind(a.admin.token, { serialNumber: g.sn, name: 'second', parentId: dirA })).json()
      .data.requestId;
    expect((await status(a.admin.token, first)).json().data.state).toBe('cancelled');
    await publishUp(g.client, g.sn, 'bind', { requestId: first });
    await t.app.gateways.run(g.sn, async () => {});
    expect((await gatewayRow(t, g.id)).companyId).toBeNull();
    await publishUp(g.client, g.sn, 'bind', { requestId: second });
    await waitFor(async () => (await gatewayRow(t, g.id)).companyId === a.id);
    const [device] = await t.db
      .select()
      .from(devices)
      .where(and(eq(devices.gatewayId, g.id), eq(devices.companyId, a.id)));
    expect(device!.name).toBe('second');
  });
});

describe('unbinding', () => {
  it('only an administrator of the device unbinds; the node leaves, the registry row stays, the gateway is told', async () => {
    const g = await onlineGateway();
    const { requestId } = (
      await bind(a.admin.token, { serialNumber: g.sn, name: 'to unbind', parentId: dirA })
    ).json().data;
    await publishUp(g.client, g.sn, 'bind', { requestId });
    await waitFor(async () => (await gatewayRow(t, g.id)).companyId === a.id);
    const roleId = await makeRole(t, a.id, ['dm_list']);
    const writer = await makeMember(t, a, [roleId]);
    // the company default is read-write: enough to edit, not to unbind
    expect((await call('POST', '/update', writer.token, { id: g.id, address: 'Hall 2' })).json().code).toBe(
      0,
    );
    expect((await call('POST', '/unbind', writer.token, { id: g.id })).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await call('POST', '/unbind', a.admin.token, { id: g.id })).json()).toMatchObject({
      code: 0,
      message: 'Unbound successfully',
    });
    await waitFor(() => g.down.some((m) => m.body.result === 'unbound'));
    const row = await gatewayRow(t, g.id);
    expect(row).toMatchObject({ companyId: null, boundAt: null, serialNumber: g.sn });
    expect(
      await t.db
        .select()
        .from(cabinNodes)
        .where(and(eq(cabinNodes.type, 'device'), eq(cabinNodes.refId, g.id))),
    ).toEqual([]);
    expect((await call('GET', `/detail?id=${g.id}`, a.admin.token)).json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect((await call('POST', '/unbind', a.admin.token, { id: g.id })).json().code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    expect((await operationsOf(t, a.id, g.id)).map((o) => o.kind)).toEqual(['bind', 'edit', 'unbind']);
  });

  it("another company binding it later sees none of the first company's records; the first finds them again", async () => {
    const g = await onlineGateway();
    const bindAs = async (company: TestCompany, dir: number, name: string) => {
      const { requestId } = (
        await bind(company.admin.token, { serialNumber: g.sn, name, parentId: dir })
      ).json().data;
      await publishUp(g.client, g.sn, 'bind', { requestId });
      await waitFor(async () => (await gatewayRow(t, g.id)).companyId === company.id);
    };
    await bindAs(a, dirA, 'A name');
    await call('POST', '/update', a.admin.token, {
      id: g.id,
      address: 'A secret address',
      picture: 'boiler',
    });
    await t.db.insert(maintenanceRecords).values({
      companyId: a.id,
      gatewayId: g.id,
      date: '2026-01-02',
      kind: 'repair',
      description: 'A secret repair',
    });
    await call('POST', '/unbind', a.admin.token, { id: g.id });
    await bindAs(b, dirB, 'B name');
    const detail = (await call('GET', `/detail?id=${g.id}`, b.admin.token)).json().data;
    expect(detail).toMatchObject({ name: 'B name', address: '', picture: { preset: 'dtu' } });
    const log = (await call('GET', `/log?id=${g.id}`, b.admin.token)).json().data;
    expect(log.list.map((r: { kind: string }) => r.kind)).toEqual(['bind']);
    const records = await t.app.inject({
      method: 'GET',
      url: `/general/devicemanagement/maintenance/records?deviceId=${g.id}`,
      headers: bearer(b.admin.token),
    });
    expect(records.json().data.total).toBe(0);
    for (const r of [JSON.stringify(detail), JSON.stringify(log), records.body]) {
      expect(r).not.toContain('A secret');
      expect(r).not.toContain('A name');
    }
    // B unbinds, A binds again: A's address, picture, log and maintenance are there; B's are not
    await call('POST', '/unbind', b.admin.token, { id: g.id });
    await bindAs(a, dirA, 'A again');
    const again = (await call('GET', `/detail?id=${g.id}`, a.admin.token)).json().data;
    expect(again).toMatchObject({
      name: 'A again',
      address: 'A secret address',
      picture: { preset: 'boiler' },
    });
    const kinds = (await call('GET', `/log?id=${g.id}`, a.admin.token))
      .json()
      .data.list.map((r: { kind: string }) => r.kind);
    expect(kinds).toEqual(['bind', 'unbind', 'edit', 'bind']);
    expect(new Date(again.firstBoundAt).getTime()).toBeLessThan(new Date(again.boundAt).getTime());
  });
});

describe('a device seen from the cabin', () => {
  it('cannot be made by hand, deleted with its directory, but is renamed and moved with the cabin', async () => {
    const g = await onlineGateway();
    const dir = await makeDirectory(t, a.id, { name: 'holder' });
    const { requestId } = (
      await bind(a.admin.token, { serialNumber: g.sn, name: 'in cabin', parentId: dir })
    ).json().data;
    await publishUp(g.client, g.sn, 'bind', { requestId });
    await waitFor(async () => (await gatewayRow(t, g.id)).companyId === a.id);
    const cabin = (path: string, payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/general/smartdata/cabin/${path}`,
        payload,
        headers: { ...bearer(a.admin.token), 'accept-language': 'en' },
      });
    const made = await cabin('create', { type: 'device', name: 'fake', parentId: dir });
    expect(made.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'type' } });
    const deleted = await cabin('delete', { ids: [dir] });
    expect(deleted.json().code).toBe(ERROR_CODES.BUSINESS);
    const [node] = await t.db
      .select()
      .from(cabinNodes)
      .where(and(eq(cabinNodes.type, 'device'), eq(cabinNodes.refId, g.id)));
    expect((await cabin('rename', { id: node!.id, name: 'renamed in cabin' })).json().code).toBe(0);
    expect((await call('GET', `/detail?id=${g.id}`, a.admin.token)).json().data.name).toBe(
      'renamed in cabin',
    );
    expect((await cabin('move', { ids: [node!.id], targetId: dirA })).json().code).toBe(0);
    expect((await call('GET', `/detail?id=${g.id}`, a.admin.token)).json().data.path).toEqual(['Devices']);
    const [still] = await t.db.select().from(gateways).where(eq(gateways.id, g.id));
    expect(still!.companyId).toBe(a.id);
  });
});
