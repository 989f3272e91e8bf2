/**
 * Device views: a device's points come from the configuration it runs, its series are bucketed
 * on the server (records for short ranges, hourly rollups for long ones), and the live device
 * socket relays the frames and records of a watched device. Attacks: no token, no code,
 * another company, no read on the device, no read on an item, huge and malformed input.
 */
import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
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
import { dataItems } from '../dataitems/tables';
import { Telemetry } from '../devices/telemetry';
import { makeDevice, waitFor } from '../devices/test-support';
import { gatewayConfigPushes } from '../gatewayconfig/tables';
import { gateways } from '../gateways/tables';
import { ingestFrames } from '../packets/frames';
import { makeIotItem } from '../packets/test-support';
import { makeMember, makeRole } from '../users/test-support';
import { floatAnswer, viewFixture } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
/** dm_list, may read the device and the meter item, not the status item */
let viewer: TestUser;
/** dm_list, may not read the device */
let outsider: TestUser;
let fx: Awaited<ReturnType<typeof viewFixture>>;

const HOUR = 3_600_000;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: 'off' });
  a = await makeCompany(t, 'Views A');
  b = await makeCompany(t, 'Views B');
  fx = await viewFixture(t, a.id, a.admin.id);
  const role = await makeRole(t, a.id, ['dm_list']);
  viewer = await makeMember(t, a, [role], 'viewer');
  outsider = await makeMember(t, a, [role], 'outsider');
  // everyone else keeps what the company has (read-write)
  const company = { scope: 'company' as const, subjectId: null, level: 2 as const };
  await setPermissions(t, fx.status.nodeId, [{ scope: 'user', subjectId: viewer.id, level: 0 }, company]);
  await setPermissions(t, fx.device.nodeId, [{ scope: 'user', subjectId: outsider.id, level: 0 }, company]);
});

afterAll(async () => {
  await t?.close();
});

function get(token: string | null, path: string) {
  return t.app.inject({
    method: 'GET',
    url: `/general/devicemanagement/device/${path}`,
    headers: { ...(token ? bearer(token) : {}), 'accept-language': 'en' },
  });
}

function seriesPath(id: number | string, points: unknown, from: Date | string, to: Date | string) {
  const iso = (d: Date | string) => (typeof d === 'string' ? d : d.toISOString());
  return `series?id=${id}&points=${encodeURIComponent(typeof points === 'string' ? points : JSON.stringify(points))}&from=${encodeURIComponent(iso(from))}&to=${encodeURIComponent(iso(to))}`;
}

async function write(itemId: number, ts: Date, values: Record<string, unknown>) {
  await t.app.ingest.write({
    companyId: a.id,
    userId: null,
    source: 'gateway',
    records: [{ itemId, ts, values }],
  });
}

describe('points', () => {
  it('lists each item field the running configuration feeds, with its port, unit and parser value', async () => {
    const res = await get(a.admin.token, `points?id=${fx.device.id}`);
    expect(res.json().code, res.body).toBe(0);
    const data = res.json().data;
    expect(data.version).toBe(1);
    expect(data.hidden).toBe(0);
    expect(
      data.points.map((p: Record<string, unknown>) => [p.key, p.itemName, p.fieldName, p.unit, p.numeric]),
    ).toEqual([
      [`${fx.meter.itemId}:f1`, '电表', '电压', 'V', true],
      [`${fx.status.itemId}:f2`, '状态表', '状态', null, true],
    ]);
    expect(data.points[0].sources).toEqual([
      { name: '电压', packetId: fx.packetId, port: 1, nodeId: 'parser1' },
    ]);
  });

  it('leaves out the points of an item the caller cannot read, and counts them', async () => {
    const data = (await get(viewer.token, `points?id=${fx.device.id}`)).json().data;
    expect(data.points.map((p: { key: string }) => p.key)).toEqual([`${fx.meter.itemId}:f1`]);
    expect(data.hidden).toBe(1);
    expect(JSON.stringify(data)).not.toContain('状态表');
  });

  it('has no points and no version when no configuration was applied', async () => {
    const bare = await makeDevice(t, a.id, { userId: a.admin.id });
    const data = (await get(a.admin.token, `points?id=${bare.id}`)).json().data;
    expect(data).toMatchObject({ version: null, points: [], hidden: 0 });
    const flow = (await get(a.admin.token, `flow?id=${bare.id}`)).json().data;
    expect(flow).toMatchObject({ version: null, config: null, points: [] });
  });

  it('takes the version the gateway reports running when nothing was pushed (a provisioned gateway)', async () => {
    const provisioned = await viewFixture(t, a.id, a.admin.id, '出厂网关');
    await t.db.delete(gatewayConfigPushes).where(eq(gatewayConfigPushes.gatewayId, provisioned.device.id));
    expect((await get(a.admin.token, `points?id=${provisioned.device.id}`)).json().data.version).toBeNull();
    await t.db.update(gateways).set({ configVersion: 1 }).where(eq(gateways.id, provisioned.device.id));
    const data = (await get(a.admin.token, `points?id=${provisioned.device.id}`)).json().data;
    expect(data.version).toBe(1);
    expect(data.points).toHaveLength(2);
  });

  it('gives the data-flow view the configuration as drawn', async () => {
    const data = (await get(a.admin.token, `flow?id=${fx.device.id}`)).json().data;
    expect(data.config.nodes.map((n: { id: string }) => n.id)).toEqual(['com1', 'packet1', 'parser1']);
    expect(data.config.links).toEqual(fx.config.links);
  });
});

describe('series', () => {
  it('buckets a short range from the records: average, minimum, maximum, count', async () => {
    const base = new Date(Math.floor(Date.now() / HOUR) * HOUR - 5 * HOUR);
    await write(fx.meter.itemId, new Date(base.getTime() + 1_000), { f1: 10 });
    await write(fx.meter.itemId, new Date(base.getTime() + 2_000), { f1: 20 });
    await write(fx.meter.itemId, new Date(base.getTime() + 600_000), { f1: 30 });
    const res = await get(
      a.admin.token,
      seriesPath(fx.device.id, [`${fx.meter.itemId}:f1`], base, new Date(base.getTime() + HOUR)),
    );
    expect(res.json().code, res.body).toBe(0);
    const data = res.json().data;
    expect(data.bucketS).toBe(5);
    expect(data.series).toHaveLength(1);
    expect(data.series[0].buckets).toEqual([
      [base.getTime(), 15, 10, 20, 2],
      [base.getTime() + 600_000, 30, 30, 30, 1],
    ]);
  });

  it('reads a month from the hourly rollups, in buckets an hour wide', async () => {
    const base = new Date(Math.floor(Date.now() / HOUR) * HOUR - 20 * 24 * HOUR);
    await write(fx.status.itemId, new Date(base.getTime() + 60_000), { f2: 4 });
    await write(fx.status.itemId, new Date(base.getTime() + 120_000), { f2: 8 });
    await write(fx.status.itemId, new Date(base.getTime() + HOUR + 60_000), { f2: 1 });
    const from = new Date(base.getTime() - 10 * 24 * HOUR);
    const res = await get(
      a.admin.token,
      seriesPath(fx.device.id, [`${fx.status.itemId}:f2`], from, new Date(from.getTime() + 30 * 24 * HOUR)),
    );
    const data = res.json().data;
    expect(data.bucketS).toBe(3600);
    expect(data.series[0].buckets).toEqual([
      [base.getTime(), 6, 4, 8, 2],
      [base.getTime() + HOUR, 1, 1, 1, 1],
    ]);
  });

  it('refuses a point of an item the caller cannot read as one that does not exist', async () => {
    const now = new Date();
    const res = await get(
      viewer.token,
      seriesPath(fx.device.id, [`${fx.status.itemId}:f2`], new Date(now.getTime() - HOUR), now),
    );
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'points' } });
    expect(res.json().message).toBe(`${fx.status.itemId}:f2 is not a data point of this device`);
    const mine = await get(
      viewer.token,
      seriesPath(fx.device.id, [`${fx.meter.itemId}:f1`], new Date(now.getTime() - HOUR), now),
    );
    expect(mine.json().code, mine.body).toBe(0);
  });

  it('refuses bad ranges and point lists naming the field, with the catalogue text', async () => {
    const now = new Date();
    const point = [`${fx.meter.itemId}:f1`];
    const cases: Array<[string, string, string | null]> = [
      [
        seriesPath(fx.device.id, point, now, new Date(now.getTime() - HOUR)),
        'to',
        'The start time must be before the end time',
      ],
      [
        seriesPath(fx.device.id, point, new Date(now.getTime() - 94 * 24 * HOUR), now),
        'to',
        'The time range of a chart may be at most 93 days',
      ],
      [seriesPath(fx.device.id, point, 'yesterday', now), 'from', null],
      [seriesPath(fx.device.id, point, new Date(now.getTime() - HOUR), '2026-13-45T00:00:00Z'), 'to', null],
      [seriesPath(fx.device.id, '[not json', new Date(now.getTime() - HOUR), now), 'points', null],
      [seriesPath(fx.device.id, { a: 1 }, new Date(now.getTime() - HOUR), now), 'points', null],
      [
        seriesPath(fx.device.id, [], new Date(now.getTime() - HOUR), now),
        'points',
        'Choose between 1 and 20 points to chart',
      ],
      [
        seriesPath(
          fx.device.id,
          Array.from({ length: 21 }, (_, i) => `${i + 1}:f1`),
          new Date(now.getTime() - HOUR),
          now,
        ),
        'points',
        'Choose between 1 and 20 points to chart',
      ],
      [seriesPath(fx.device.id, ["1' or 1=1"], new Date(now.getTime() - HOUR), now), 'points', null],
      [seriesPath(fx.device.id, [12345678, 'x'], new Date(now.getTime() - HOUR), now), 'points', null],
      [seriesPath(0, point, new Date(now.getTime() - HOUR), now), 'id', null],
      [seriesPath(2 ** 31, point, new Date(now.getTime() - HOUR), now), 'id', null],
      [seriesPath('abc', point, new Date(now.getTime() - HOUR), now), 'id', null],
    ];
    for (const [path, field, message] of cases) {
      const body = (await get(a.admin.token, path)).json();
      expect(body.code, path).toBe(ERROR_CODES.VALIDATION);
      expect(body.data, path).toMatchObject({ field });
      if (message) expect(body.message, path).toBe(message);
    }
    const huge = await get(a.admin.token, seriesPath(fx.device.id, 'x'.repeat(3000), now, now));
    expect(huge.json().code).toBe(ERROR_CODES.VALIDATION);
  });
});

describe('who may see a device view', () => {
  const paths = () => {
    const now = new Date();
    return [
      `points?id=${fx.device.id}`,
      `flow?id=${fx.device.id}`,
      seriesPath(fx.device.id, [`${fx.meter.itemId}:f1`], new Date(now.getTime() - HOUR), now),
    ];
  };

  it('refuses a caller without a token', async () => {
    for (const path of paths())
      expect((await get(null, path)).json().code, path).toBe(ERROR_CODES.TOKEN_INVALID);
  });

  it('refuses a member without the device list code', async () => {
    for (const path of paths())
      expect((await get(a.limited.token, path)).json().code, path).toBe(ERROR_CODES.FORBIDDEN);
  });

  it('answers a member who may not read the device, and another company, as if it did not exist', async () => {
    for (const token of [outsider.token, b.admin.token])
      for (const path of paths()) {
        const res = await get(token, path);
        expect(res.json(), path).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
        expect(res.body).not.toContain('电表');
      }
  });
});

interface Heard {
  type: string;
  kind?: string;
  deviceId?: number;
  result?: string;
  itemId?: number;
  field?: string;
  values?: unknown;
}

async function socketOf(token: string) {
  const heard: Heard[] = [];
  const socket = await t.app.injectWS(`/general/devicemanagement/device/live?token=${token}`);
  socket.on('message', (data) => heard.push(JSON.parse(String(data))));
  const ping = async () => {
    const n = heard.filter((m) => m.type === 'pong').length;
    socket.send(JSON.stringify({ type: 'ping' }));
    await waitFor(() => heard.filter((m) => m.type === 'pong').length > n);
  };
  return { heard, socket, ping, send: (m: unknown) => socket.send(JSON.stringify(m)) };
}

describe('live flow on the device socket', () => {
  const gateway = () => ({ sn: fx.device.sn, companyId: a.id, id: fx.device.id });

  it('relays frames, decoded values and stored records of a watched device', async () => {
    const live = await socketOf(a.admin.token);
    try {
      live.send({ type: 'watch', deviceId: fx.device.id });
      await waitFor(() => live.heard.some((m) => m.type === 'watching' && m.deviceId === fx.device.id));
      await ingestFrames(t.app, gateway(), { port: 1, packetId: fx.packetId, frame: floatAnswer(230.25) });
      const good = floatAnswer(1);
      const bad = good.replace(/..$/, good.endsWith('00') ? 'FF' : '00');
      await ingestFrames(t.app, gateway(), { port: 1, packetId: fx.packetId, frame: bad });
      await live.ping();
      const flows = live.heard.filter((m) => m.type === 'flow');
      const frames = flows.filter((m) => m.kind === 'frame');
      expect(frames.map((f) => f.result)).toEqual(['ok', 'badCrc']);
      expect(frames[0]).toMatchObject({ deviceId: fx.device.id, port: 1, packetId: fx.packetId, bytes: 9 });
      expect(frames[0]!.values).toEqual([
        { name: '电压', value: 230.25, error: null, itemId: fx.meter.itemId, fieldKey: 'f1' },
        { name: '字0', value: 17254, error: null, itemId: fx.status.itemId, fieldKey: 'f2' },
      ]);
      expect(frames[1]!.values).toEqual([]);
      const records = flows.filter((m) => m.kind === 'record');
      expect(records.map((r) => [r.itemId, r.values])).toEqual([
        [fx.meter.itemId, { f1: 230.25 }],
        [fx.status.itemId, { f2: 17254 }],
      ]);
    } finally {
      live.socket.terminate();
    }
  });

  it('sends nothing of a device that is not watched, and leaves out what the caller may not read', async () => {
    const unwatched = await socketOf(a.admin.token);
    const viewerLive = await socketOf(viewer.token);
    try {
      viewerLive.send({ type: 'watch', deviceId: fx.device.id });
      await waitFor(() => viewerLive.heard.some((m) => m.type === 'watching'));
      await ingestFrames(t.app, gateway(), { port: 1, packetId: fx.packetId, frame: floatAnswer(12.5) });
      await unwatched.ping();
      await viewerLive.ping();
      expect(unwatched.heard.filter((m) => m.type === 'flow')).toEqual([]);
      const flows = viewerLive.heard.filter((m) => m.type === 'flow');
      expect(flows.find((m) => m.kind === 'frame')!.values).toEqual([
        { name: '电压', value: 12.5, error: null, itemId: fx.meter.itemId, fieldKey: 'f1' },
      ]);
      expect(flows.filter((m) => m.kind === 'record').map((r) => r.itemId)).toEqual([fx.meter.itemId]);
      expect(JSON.stringify(flows)).not.toContain(`"itemId":${fx.status.itemId}`);
    } finally {
      unwatched.socket.terminate();
      viewerLive.socket.terminate();
    }
  });

  it("refuses to watch a device the caller cannot read, another company's, or a bad id", async () => {
    const theirs = await makeDevice(t, b.id, { userId: b.admin.id });
    const live = await socketOf(outsider.token);
    try {
      for (const deviceId of [fx.device.id, theirs.id, 0, 'x', 2 ** 40])
        live.send({ type: 'watch', deviceId });
      await live.ping();
      expect(live.heard.filter((m) => m.type === 'error').map((m) => m.field)).toEqual([
        'deviceId',
        'deviceId',
        'deviceId',
        'deviceId',
        'deviceId',
      ]);
      expect(live.heard.some((m) => m.type === 'watching')).toBe(false);
      await ingestFrames(t.app, gateway(), { port: 1, packetId: fx.packetId, frame: floatAnswer(1) });
      await live.ping();
      expect(live.heard.filter((m) => m.type === 'flow')).toEqual([]);
    } finally {
      live.socket.terminate();
    }
  });

  it('relays records submitted over HTTP or MQTT for what the device feeds or what names it, not its own twice; leaves out what the caller may not read; stops on unwatch', async () => {
    // an item no configuration feeds, whose data sources name the device (telemetry as JSON)
    const named = await makeIotItem(t, a.id, '命名网关的表');
    await t.db
      .update(dataItems)
      .set({ sources: [{ deviceId: fx.device.sn, deviceName: 'views' }] })
      .where(eq(dataItems.id, named.itemId));
    // company B's item naming A's device: nothing of B's reaches A
    const foreign = await makeIotItem(t, b.id, '别家的表');
    await t.db
      .update(dataItems)
      .set({ sources: [{ deviceId: fx.device.sn, deviceName: 'views' }] })
      .where(eq(dataItems.id, foreign.itemId));
    const submit = (
      companyId: number,
      itemId: number,
      values: Record<string, unknown>,
      source: 'http' | 'mqtt' | 'gateway' = 'http',
    ) =>
      t.app.ingest.write({ companyId, userId: null, source, records: [{ itemId, ts: new Date(), values }] });
    const admin = await socketOf(a.admin.token);
    const viewerLive = await socketOf(viewer.token);
    try {
      for (const live of [admin, viewerLive]) {
        live.send({ type: 'watch', deviceId: fx.device.id });
        await waitFor(() => live.heard.some((m) => m.type === 'watching'));
      }
      await submit(a.id, fx.meter.itemId, { f1: 99.5 });
      await submit(a.id, fx.status.itemId, { f2: 7 }, 'mqtt');
      await submit(a.id, named.itemId, { f1: 1.25 });
      await submit(b.id, foreign.itemId, { f1: 666 });
      // the device's own records come as its frames' flow, not again as submissions
      await submit(a.id, fx.meter.itemId, { f1: 12 }, 'gateway');
      await admin.ping();
      await viewerLive.ping();
      const records = (live: typeof admin) =>
        live.heard.filter((m) => m.type === 'flow' && m.kind === 'record').map((m) => [m.itemId, m.values]);
      expect(records(admin)).toEqual([
        [fx.meter.itemId, { f1: 99.5 }],
        [fx.status.itemId, { f2: 7 }],
        [named.itemId, { f1: 1.25 }],
      ]);
      // the viewer may not read the status item
      expect(records(viewerLive)).toEqual([
        [fx.meter.itemId, { f1: 99.5 }],
        [named.itemId, { f1: 1.25 }],
      ]);
      expect(JSON.stringify(admin.heard)).not.toContain('666');

      admin.send({ type: 'unwatch', deviceId: fx.device.id });
      await waitFor(() => admin.heard.some((m) => m.type === 'unwatched'));
      const heard = admin.heard.length;
      await submit(a.id, fx.meter.itemId, { f1: 5 });
      await admin.ping();
      expect(admin.heard.slice(heard).filter((m) => m.type === 'flow')).toEqual([]);
    } finally {
      admin.socket.terminate();
      viewerLive.socket.terminate();
    }
  });

  it('relays the records of the device’s JSON telemetry as its own flow', async () => {
    const named = await makeIotItem(t, a.id, '遥测表');
    await t.db
      .update(dataItems)
      .set({ sources: [{ deviceId: fx.device.sn, deviceName: 'views' }] })
      .where(eq(dataItems.id, named.itemId));
    const live = await socketOf(a.admin.token);
    try {
      live.send({ type: 'watch', deviceId: fx.device.id });
      await waitFor(() => live.heard.some((m) => m.type === 'watching'));
      const ts = new Date(Date.now() - 1000);
      await new Telemetry(t.app).handle({
        gateway: { id: fx.device.id, serialNumber: fx.device.sn, companyId: a.id, boundAt: new Date() },
        kind: 'telemetry',
        payload: { itemId: named.itemId, ts: ts.toISOString(), f1: 3.5 },
        receivedAt: new Date(),
        qos: 1,
      });
      await live.ping();
      const records = live.heard.filter((m) => m.type === 'flow' && m.kind === 'record');
      expect(records).toEqual([
        expect.objectContaining({ deviceId: fx.device.id, itemId: named.itemId, ts: ts.toISOString() }),
      ]);
      expect(records[0]!.values).toMatchObject({ f1: 3.5 });
    } finally {
      live.socket.terminate();
    }
  });
});
