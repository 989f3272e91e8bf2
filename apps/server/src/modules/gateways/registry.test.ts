/**
 * The gateway registry through the real app: the platform operator registers serial numbers,
 * each gateway signs in to the embedded broker with its own secret and nothing else, a
 * replaced secret ends the old connection, a mistyped registration can be removed.
 */
import { ERROR_CODES, type GatewayStatus, gatewayStatus } from '@platform/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../platform/tokens';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { connackCode, disconnected, RawClient } from '../../test/mqtt-clients';
import {
  bindGateway,
  brokerUrl,
  connectGateway,
  makeDevice,
  nextSerialNumber,
  registerGateway,
} from '../devices/test-support';
import { STATUS_SQL } from './registry';
import { gateways } from './tables';

const NOT_AUTHORISED = 5;

let t: TestApp;
let operator: TestCompany;
let customer: TestCompany;
let url: string;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  operator = await makeCompany(t, 'Operator', { isPlatform: true });
  customer = await makeCompany(t, 'Customer');
  url = brokerUrl(t);
});
afterAll(() => t.close());

const post = (url: string, payload: unknown, token = operator.admin.token) =>
  t.app.inject({
    method: 'POST',
    url: `/general${url}`,
    payload: payload as object,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
const get = (url: string, token = operator.admin.token) =>
  t.app.inject({
    method: 'GET',
    url: `/general${url}`,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });

describe('registering gateways', () => {
  it('gives each serial number of a batch a secret shown once, kept only as its SHA-256', async () => {
    const sns = [nextSerialNumber('reg'), nextSerialNumber('REG')];
    const res = await post('/system/gateway/register', {
      serialNumbers: [` ${sns[0]} `, sns[1]],
      model: 'SDG-200',
    });
    expect(res.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const registered = res.json().data.gateways as Array<{
      id: number;
      serialNumber: string;
      secret: string;
    }>;
    expect(registered.map((g) => g.serialNumber)).toEqual(sns.map((s) => s.toUpperCase()));
    for (const g of registered) expect(g.secret).toMatch(/^gws_[A-Za-z0-9_-]{43}$/);
    expect(new Set(registered.map((g) => g.secret)).size).toBe(2);
    const rows = await t.db
      .select()
      .from(gateways)
      .where(
        inArray(
          gateways.id,
          registered.map((g) => g.id),
        ),
      );
    for (const g of registered) {
      const row = rows.find((r) => r.id === g.id)!;
      expect(row.secretHash).toBe(sha256(g.secret));
      expect(JSON.stringify(row)).not.toContain(g.secret);
    }
    // the list and the detail show the gateway, never its secret
    const list = await get(`/system/gateway/list?keyword=${registered[0]!.serialNumber.toLowerCase()}`);
    expect(list.json().data).toMatchObject({
      total: 1,
      list: [
        {
          serialNumber: registered[0]!.serialNumber,
          model: 'SDG-200',
          status: 'inactive',
          online: false,
          company: null,
        },
      ],
    });
    const detail = await get(`/system/gateway/detail?id=${registered[1]!.id}`);
    expect(detail.json().data).toMatchObject({
      serialNumber: registered[1]!.serialNumber,
      pendingBind: null,
      telemetry: { ok: 0, refused: 0 },
    });
    for (const r of [list, detail]) for (const g of registered) expect(r.body).not.toContain(g.secret);
  });

  it('refuses a whole batch naming the bad entry: not a serial number, twice, or registered already', async () => {
    const taken = await registerGateway(t);
    const fresh = nextSerialNumber();
    const before = (await t.db.select().from(gateways)).length;
    const cases: Array<[unknown[], string, string]> = [
      [[fresh, 'AB-12345'], 'serialNumbers[1]', 'The serial number must be 6 to 32 letters (A-Z) or digits'],
      [[fresh, 'ABC'], 'serialNumbers[1]', 'The serial number must be 6 to 32 letters (A-Z) or digits'],
      [[fresh, fresh.toLowerCase()], 'serialNumbers[1]', `The serial number ${fresh} appears more than once`],
      [
        [fresh, taken.sn],
        'serialNumbers[1]',
        `A gateway with the serial number ${taken.sn} is already registered`,
      ],
      [[`${fresh}\u0000`], 'serialNumbers.0', ''],
    ];
    for (const [serialNumbers, field, message] of cases) {
      const res = await post('/system/gateway/register', { serialNumbers, model: 'SDG-200' });
      expect(res.json().data, JSON.stringify(serialNumbers)).toMatchObject({ field });
      if (message) expect(res.json().message).toBe(message);
    }
    for (const body of [
      { serialNumbers: [], model: 'x' },
      { serialNumbers: [fresh], model: ' ' },
      { serialNumbers: [fresh], model: '型号' },
      { serialNumbers: [fresh] },
    ])
      expect((await post('/system/gateway/register', body)).json().code, JSON.stringify(body)).toBe(
        ERROR_CODES.VALIDATION,
      );
    expect((await t.db.select().from(gateways)).length).toBe(before);
  });

  it('is refused to an ordinary company, whose administrator holds no system codes', async () => {
    const res = await post(
      '/system/gateway/register',
      { serialNumbers: [nextSerialNumber()], model: 'x' },
      customer.admin.token,
    );
    expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
  });
});

describe('a gateway signing in to the broker', () => {
  it('connects with its serial number and secret, and with nothing else', async () => {
    const g = await registerGateway(t);
    const other = await registerGateway(t);
    expect(await connackCode(url, { username: g.sn, key: g.secret })).toBe(0);
    for (const [username, key] of [
      [g.sn, other.secret],
      [g.sn, `gws_${'A'.repeat(43)}`],
      [g.sn.toLowerCase(), g.secret],
      [nextSerialNumber(), g.secret],
      [g.sn, g.secret.slice(0, -1)],
      [g.sn, `${g.secret}x`],
      ['key-1', g.secret],
    ])
      expect(await connackCode(url, { username: username!, key: key! }), `${username}`).toBe(NOT_AUTHORISED);
    expect(await connackCode(url, null)).toBe(NOT_AUTHORISED);
  });

  it('a replaced secret ends the connection made with the old one at once; only the new one works', async () => {
    const g = await registerGateway(t);
    const client = await connectGateway(url, g);
    const res = await post('/system/gateway/replaceSecret', { id: g.id });
    expect(res.json()).toMatchObject({ code: 0, data: { id: g.id, serialNumber: g.sn } });
    const secret = res.json().data.secret as string;
    expect(secret).toMatch(/^gws_/);
    expect(secret).not.toBe(g.secret);
    await disconnected(client);
    expect(await connackCode(url, { username: g.sn, key: g.secret })).toBe(NOT_AUTHORISED);
    expect(await connackCode(url, { username: g.sn, key: secret })).toBe(0);
    // a connection made with the new secret survives the next access check
    const fresh = await connectGateway(url, { sn: g.sn, secret });
    await post('/system/gateway/replaceSecret', { id: (await registerGateway(t)).id });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(fresh.connected).toBe(true);
    await fresh.endAsync();
  });

  it('a removed registration cannot connect and its connection ends; a bound or once-bound one cannot be removed', async () => {
    const g = await registerGateway(t);
    const client = await connectGateway(url, g);
    expect((await post('/system/gateway/remove', { id: g.id })).json()).toMatchObject({
      code: 0,
      message: 'Delete successfully',
    });
    await disconnected(client);
    expect(await connackCode(url, { username: g.sn, key: g.secret })).toBe(NOT_AUTHORISED);

    const bound = await makeDevice(t, customer.id);
    const refusedBound = await post('/system/gateway/remove', { id: bound.id });
    expect(refusedBound.json()).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'A bound gateway cannot be removed: the company must unbind it first',
    });
    await t.db.update(gateways).set({ companyId: null, boundAt: null }).where(eq(gateways.id, bound.id));
    const refusedHistory = await post('/system/gateway/remove', { id: bound.id });
    expect(refusedHistory.json().code).toBe(ERROR_CODES.BUSINESS);
    expect(await t.db.select().from(gateways).where(eq(gateways.id, bound.id))).toHaveLength(1);
    expect((await post('/system/gateway/remove', { id: 2 ** 31 - 1 })).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
  });
});

describe('the registry list', () => {
  it('filters by company, binding, online state and status, and sorts', async () => {
    const company = await makeCompany(t, 'Filtered');
    const running = await makeDevice(t, company.id, { name: 'r' });
    const abnormal = await makeDevice(t, company.id, { name: 'a' });
    const now = new Date();
    await t.db
      .update(gateways)
      .set({ online: true, onlineAt: now, ports: [{ port: 1, ok: true }] })
      .where(eq(gateways.id, running.id));
    await t.db
      .update(gateways)
      .set({ online: true, onlineAt: now, ports: [{ port: 1, ok: false, error: 'x' }] })
      .where(eq(gateways.id, abnormal.id));
    const of = async (query: string) =>
      (
        (await get(`/system/gateway/list?companyId=${company.id}&${query}`)).json().data.list as Array<{
          id: number;
        }>
      ).map((g) => g.id);
    expect((await of('sort=serialNumber&order=asc')).sort((x, y) => x - y)).toEqual(
      [running.id, abnormal.id].sort((x, y) => x - y),
    );
    expect(await of('status=running')).toEqual([running.id]);
    expect(await of('status=abnormal')).toEqual([abnormal.id]);
    expect(await of('status=inactive')).toEqual([]);
    expect((await of('online=true')).length).toBe(2);
    expect(await of('online=false')).toEqual([]);
    expect(await of('bound=false')).toEqual([]);
    const list = (await get(`/system/gateway/list?keyword=Filtered`)).json().data;
    expect(list.total).toBe(2);
    expect(list.list[0].company).toEqual({ id: company.id, name: 'Filtered' });
    for (const bad of ['status=broken', 'sort=secretHash', 'pageSize=1000', 'companyId=0'])
      expect((await get(`/system/gateway/list?${bad}`)).json().code, bad).toBe(ERROR_CODES.VALIDATION);
  });

  it('computes the status in SQL exactly as the domain rule does', async () => {
    const g = await registerGateway(t);
    await bindGateway(t, g.id, customer.id);
    const bound = new Date('2026-01-01T00:00:00Z');
    const at = (ms: number | null) => (ms === null ? null : new Date(bound.getTime() + ms));
    const cases = [];
    for (const boundAt of [null, bound])
      for (const online of [false, true])
        for (const onlineAt of [null, -1000, 1000])
          for (const offlineAt of [null, -500, 2000])
            for (const ports of [
              [],
              [{ port: 1, ok: true }],
              [
                { port: 1, ok: true },
                { port: 2, ok: false },
              ],
            ])
              cases.push({ boundAt, online, onlineAt: at(onlineAt), offlineAt: at(offlineAt), ports });
    for (const c of cases) {
      const [row] = await t.db
        .update(gateways)
        .set(c)
        .where(eq(gateways.id, g.id))
        .returning({ status: STATUS_SQL });
      const expected: GatewayStatus = gatewayStatus({
        boundAt: c.boundAt?.getTime() ?? null,
        online: c.online,
        onlineAt: c.onlineAt?.getTime() ?? null,
        offlineAt: c.offlineAt?.getTime() ?? null,
        ports: c.ports,
      });
      expect(row!.status, JSON.stringify(c)).toBe(expected);
    }
    expect(cases.length).toBe(108);
  });
});

describe('failed CONNECTs per address', () => {
  it('shut an address out for the rest of the minute once over the limit, before its credentials are read', async () => {
    const limited = await buildTestApp({ MQTT_PORT: '0', MQTT_CONNECT_FAIL_LIMIT: '3' });
    try {
      const g = await registerGateway(limited);
      const at = brokerUrl(limited);
      for (let i = 0; i < 3; i++)
        expect(await connackCode(at, { username: g.sn, key: `gws_${'x'.repeat(43)}` })).toBe(NOT_AUTHORISED);
      // the right secret now gets no answer at all: the socket is closed as it is accepted
      const raw = await RawClient.connect(limited.app.mqtt!.port!);
      expect(await raw.closedWithin(5_000)).toBe(true);
      expect(raw.received).toEqual([]);
      expect(limited.app.mqtt!.stats.counters.connectionsThrottled).toBeGreaterThanOrEqual(1);
      expect(limited.app.mqtt!.stats.counters.connectionsRefused).toBe(3);
    } finally {
      await limited.close();
    }
  }, 60_000);
});
