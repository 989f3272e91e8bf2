/**
 * The device protocol on the embedded broker, with real MQTT clients as gateways: what a
 * gateway may reach, online and offline (birth, merges, goodbye, will, a killed socket),
 * garbage that must neither crash nor block, a flood from one gateway next to another, and the
 * order of one gateway's messages.
 */
import { gatewayDownTopic, gatewayUpTopic, keyMqttUsername } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { connectAs, disconnected, granted } from '../../test/mqtt-clients';
import {
  birth,
  brokerUrl,
  connectGateway,
  gatewayRow,
  makeDevice,
  publishUp,
  registerGateway,
  waitFor,
} from '../devices/test-support';
import { createKey } from '../ingest/keys';
import type { UpMessage } from './hub';
import { gateways } from './tables';

const REFUSED = 128;

let t: TestApp;
let company: TestCompany;
let url: string;
/** messages the test handlers of `frame` and `passthrough` saw */
const frames: UpMessage[] = [];
const passthrough: number[] = [];
let frameDelayMs = 0;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  company = await makeCompany(t, 'Protocol Co');
  url = brokerUrl(t);
  // watch what reaches these kinds in place of the modules that handle them
  t.app.gateways.replaceUpForTest('frame', async (message) => {
    frames.push(message);
    if (frameDelayMs) await new Promise((r) => setTimeout(r, frameDelayMs));
  });
  t.app.gateways.replaceUpForTest('passthrough', (message) => {
    passthrough.push((message.payload as { n: number }).n);
  });
});
afterAll(() => t.close());

describe('what a gateway may reach', () => {
  it('publishes and subscribes only under its own serial number', async () => {
    const own = await registerGateway(t);
    const other = await registerGateway(t);
    const client = await connectGateway(url, own);
    expect(await granted(client, `smartdata/gw/${own.sn}/down/#`)).toEqual([1]);
    for (const filter of [
      'smartdata/gw/+/down/#',
      `smartdata/gw/${other.sn}/down/#`,
      `smartdata/gw/${own.sn}/up/#`,
      'smartdata/gw/#',
      'smartdata/#',
      '#',
      'smartdata/result/+',
      '$SYS/#',
    ])
      expect(await granted(client, filter), filter).toEqual([REFUSED]);
    // the platform's commands reach it on its own down topic
    const got = new Promise<string>((resolve) => client.once('message', (topic) => resolve(topic)));
    await t.app.gateways.send(own.sn, 'command', { command: 'readNow' });
    expect(await got).toBe(gatewayDownTopic(own.sn, 'command'));
    // publishing under another gateway's topics disconnects it, and nothing reaches the platform
    const before = frames.length;
    await client.publishAsync(gatewayUpTopic(other.sn, 'frame'), JSON.stringify({ port: 1 }), { qos: 0 });
    await disconnected(client);
    expect(frames.length).toBe(before);
  });

  it("can neither write under a submission key's topics nor be written to by a key", async () => {
    const gateway = await registerGateway(t);
    const { id, key } = await createKey(t.db, {
      companyId: company.id,
      userId: company.admin.id,
      name: 'k',
      kind: 'user',
    });
    const keyClient = await connectAs(url, { username: keyMqttUsername(id), key });
    expect(await granted(keyClient, `smartdata/gw/${gateway.sn}/down/#`)).toEqual([REFUSED]);
    await keyClient.publishAsync(gatewayUpTopic(gateway.sn, 'status'), JSON.stringify({ online: true }), {
      qos: 0,
    });
    await disconnected(keyClient);
    expect((await gatewayRow(t, gateway.id)).online).toBe(false);
    const client = await connectGateway(url, gateway);
    await client.publishAsync(`smartdata/submit/${keyMqttUsername(id)}`, JSON.stringify({ itemId: 1 }), {
      qos: 0,
    });
    await disconnected(client);
  });
});

describe('online and offline', () => {
  it('a birth message marks it online with what it reports; later messages merge what changed', async () => {
    const device = await makeDevice(t, company.id);
    const events: unknown[] = [];
    const stop = t.app.live.subscribeDevices(company.id, (e) => events.push(e));
    const client = await connectGateway(url, device);
    await publishUp(
      client,
      device.sn,
      'status',
      birth({
        firmware: '1.2.0',
        ports: [
          { port: 1, ok: true },
          { port: 2, ok: true },
        ],
      }),
    );
    const online = await waitFor(async () => {
      const row = await gatewayRow(t, device.id);
      return row.online ? row : undefined;
    });
    expect(online).toMatchObject({
      firmware: '1.2.0',
      model: 'SDG-200',
      iccid: '89860012345678901234',
      configVersion: 3,
    });
    expect(online.onlineAt).toBeInstanceOf(Date);
    await waitFor(() =>
      events.some((e) => (e as { state?: { status: string } }).state?.status === 'running'),
    );

    await publishUp(client, device.sn, 'status', {
      ports: [
        { port: 1, ok: true },
        { port: 2, ok: false, error: 'no answer' },
      ],
    });
    const abnormal = await waitFor(async () => {
      const row = await gatewayRow(t, device.id);
      return row.ports.some((p) => !p.ok) ? row : undefined;
    });
    // only what the message carried changed
    expect(abnormal).toMatchObject({ firmware: '1.2.0', online: true, configVersion: 3 });
    await waitFor(() =>
      events.some((e) => (e as { state?: { status: string } }).state?.status === 'abnormal'),
    );
    // malformed facts are left out, the message is not
    await publishUp(client, device.sn, 'status', {
      firmware: 'x'.repeat(100),
      configVersion: -1,
      configHash: 'zz',
      iccid: 42,
      model: '型号',
    });
    await publishUp(client, device.sn, 'status', { firmware: '1.2.1' });
    await waitFor(async () => (await gatewayRow(t, device.id)).firmware === '1.2.1');
    expect(await gatewayRow(t, device.id)).toMatchObject({
      configVersion: 3,
      model: 'SDG-200',
      iccid: '89860012345678901234',
    });
    stop();
    await client.endAsync();
  });

  it('a polite goodbye, then disconnecting, marks it offline with its offline time', async () => {
    const device = await makeDevice(t, company.id);
    const client = await connectGateway(url, device);
    await publishUp(client, device.sn, 'status', birth());
    await waitFor(async () => (await gatewayRow(t, device.id)).online);
    await publishUp(client, device.sn, 'status', { online: false });
    await client.endAsync();
    const row = await waitFor(async () => {
      const r = await gatewayRow(t, device.id);
      return r.online ? undefined : r;
    });
    expect(row.offlineAt!.getTime()).toBeGreaterThanOrEqual(row.onlineAt!.getTime());
  });

  it('a killed socket marks it offline (its will, and the broker seeing the connection end)', async () => {
    const device = await makeDevice(t, company.id);
    const client = await connectGateway(url, device);
    await publishUp(client, device.sn, 'status', birth());
    await waitFor(async () => (await gatewayRow(t, device.id)).online);
    (client.stream as { destroy(): void }).destroy();
    await waitFor(async () => !(await gatewayRow(t, device.id)).online);
    client.end(true);
  });

  it('a gateway without a will is marked offline by the embedded broker when its connection ends', async () => {
    const device = await makeDevice(t, company.id);
    const client = await connectGateway(url, device, { will: false });
    await publishUp(client, device.sn, 'status', birth());
    await waitFor(async () => (await gatewayRow(t, device.id)).online);
    (client.stream as { destroy(): void }).destroy();
    await waitFor(async () => !(await gatewayRow(t, device.id)).online);
    client.end(true);
  });

  it('a new connection taking over the client id keeps the gateway online', async () => {
    const device = await makeDevice(t, company.id);
    const first = await connectGateway(url, device, { session: 's1' });
    await publishUp(first, device.sn, 'status', birth({ session: 's1' }));
    await waitFor(async () => (await gatewayRow(t, device.id)).session === 's1');
    const second = await connectGateway(url, device, { session: 's2' });
    await publishUp(second, device.sn, 'status', birth({ session: 's2' }));
    await waitFor(async () => (await gatewayRow(t, device.id)).session === 's2');
    // the first connection's will names its own session: it does not take the gateway offline
    await t.app.gateways.run(device.sn, async () => {});
    await new Promise((r) => setTimeout(r, 300));
    expect((await gatewayRow(t, device.id)).online).toBe(true);
    first.end(true);
    await second.endAsync();
  });

  it('an offline message naming an older session is ignored', async () => {
    const { Presence } = await import('./presence');
    const device = await makeDevice(t, company.id);
    const client = await connectGateway(url, device);
    await publishUp(client, device.sn, 'status', birth({ session: 'current' }));
    await waitFor(async () => (await gatewayRow(t, device.id)).online);
    const presence = new Presence(t.app);
    await presence.offline(device.sn, new Date(), 'older', true);
    expect((await gatewayRow(t, device.id)).online).toBe(true);
    await presence.offline(device.sn, new Date(), 'current', true);
    expect((await gatewayRow(t, device.id)).online).toBe(false);
    await client.endAsync();
  });
});

describe('garbage and floods', () => {
  it('drops what is not the protocol, counts it, and goes on handling the gateway', async () => {
    const device = await makeDevice(t, company.id);
    const client = await connectGateway(url, device);
    const drops = { ...t.app.gateways.drops };
    const stats = t.app.mqtt!.stats.counters;
    const dropped = stats.gatewayDropped;
    const garbage: Array<[string, string | Buffer]> = [
      ['status', 'not json'],
      ['status', '{"online": tru'],
      ['status', '"a string"'],
      ['status', '[1, 2, 3]'],
      ['status', 'null'],
      ['status', JSON.stringify({ online: true, firmware: 'x', pad: 'y'.repeat(70 * 1024) })],
      ['status', '{"online": true, "firmware": "a\\u0000b"}'],
      ['status', '{"online": true, "\\ud800": 1}'],
      ['status', `${'['.repeat(20_000)}${']'.repeat(20_000)}`],
      ['telemetry', `${'['.repeat(300_000)}${']'.repeat(300_000)}`],
      ['status', `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`],
      ['event', Buffer.from([0xff, 0xfe, 0x00, 0x01])],
    ];
    for (const [kind, payload] of garbage)
      await client.publishAsync(gatewayUpTopic(device.sn, kind as 'status'), payload, { qos: 1 });
    await client.publishAsync(`smartdata/gw/${device.sn}/up/unknown`, '{}', { qos: 1 });
    await client.publishAsync(`smartdata/gw/${device.sn}/up/status/extra`, '{}', { qos: 1 });
    // still the same connection, and its next real message is handled
    await publishUp(client, device.sn, 'status', birth({ firmware: '9.9.9' }));
    await waitFor(async () => (await gatewayRow(t, device.id)).firmware === '9.9.9');
    expect(client.connected).toBe(true);
    expect(stats.gatewayDropped - dropped).toBe(garbage.length + 2);
    const after = t.app.gateways.drops;
    // a nesting too deep for the parser is not JSON to it; one it parses is too deep for us
    expect(after.notJson - drops.notJson).toBeGreaterThanOrEqual(3);
    expect(after.notJson - drops.notJson + after.badJson - drops.badJson).toBe(3 + 8);
    expect(after.tooLarge - drops.tooLarge).toBe(1);
    expect(after.topic - drops.topic).toBe(2);
    const row = await gatewayRow(t, device.id);
    expect(row.firmware).toBe('9.9.9');
    await client.endAsync();
  });

  it('drops a message of a serial number nobody registered, without touching anything', async () => {
    const before = t.app.gateways.drops.unknownGateway;
    await t.app.mqtt!.publish(gatewayUpTopic('NOSUCHGATEWAY1', 'status'), JSON.stringify({ online: true }));
    await waitFor(() => t.app.gateways.drops.unknownGateway === before + 1);
  });

  it("a flood from one gateway does not hold up another's messages", async () => {
    const flooder = await makeDevice(t, company.id);
    const quiet = await makeDevice(t, company.id);
    frameDelayMs = 2;
    const before = frames.length;
    const noisy = await connectGateway(url, flooder);
    const calm = await connectGateway(url, quiet);
    const FLOOD = 3_000;
    for (let i = 0; i < FLOOD; i++)
      noisy.publish(gatewayUpTopic(flooder.sn, 'frame'), JSON.stringify({ port: 1, n: i }), { qos: 0 });
    await publishUp(calm, quiet.sn, 'status', birth());
    await waitFor(async () => (await gatewayRow(t, quiet.id)).online);
    // the quiet gateway was handled while the flood was still being worked through
    const handled = frames.length - before;
    expect(handled).toBeLessThan(FLOOD);
    frameDelayMs = 0;
    await waitFor(() => frames.length - before >= FLOOD * 0.9 || undefined, 60_000, 'the flood to drain');
    expect(t.app.mqtt!.stats.pending.messages).toBeLessThanOrEqual(FLOOD);
    await noisy.endAsync();
    await calm.endAsync();
  }, 90_000);

  it("handles one gateway's messages one at a time, in the order they came", async () => {
    const device = await makeDevice(t, company.id);
    const client = await connectGateway(url, device);
    passthrough.length = 0;
    for (let n = 0; n < 300; n++)
      client.publish(gatewayUpTopic(device.sn, 'passthrough'), JSON.stringify({ n }), { qos: 1 });
    await waitFor(() => passthrough.length === 300 || undefined);
    expect(passthrough).toEqual(Array.from({ length: 300 }, (_, n) => n));
    await client.endAsync();
  });

  it('writes when gateways were last seen, together, and no later than the server stops', async () => {
    const one = await makeDevice(t, company.id);
    const two = await makeDevice(t, company.id);
    const before = new Date();
    const a = await connectGateway(url, one);
    const b = await connectGateway(url, two);
    const seen = frames.length;
    a.publish(gatewayUpTopic(one.sn, 'frame'), JSON.stringify({ port: 1, n: 1 }), { qos: 1 });
    b.publish(gatewayUpTopic(two.sn, 'frame'), JSON.stringify({ port: 1, n: 2 }), { qos: 1 });
    await waitFor(() => frames.length >= seen + 2 || undefined);
    await t.app.gateways.flushLastSeen();
    for (const device of [one, two]) {
      const [row] = await t.db.select().from(gateways).where(eq(gateways.id, device.id));
      expect(row!.lastSeenAt!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
    }
    await a.endAsync();
    await b.endAsync();
  });

  it('a gateway bound to another company on another node: its messages are the new company’s once this node sees the change', async () => {
    const device = await makeDevice(t, company.id);
    const other = await makeCompany(t, 'Protocol Other Co');
    const client = await connectGateway(url, device);
    const seen = frames.length;
    client.publish(gatewayUpTopic(device.sn, 'frame'), JSON.stringify({ port: 1, n: 1 }), { qos: 1 });
    await waitFor(() => frames.length > seen || undefined);
    expect(frames.at(-1)!.gateway.companyId).toBe(company.id);
    // written straight to the database, as another node would: this node is not told
    await t.db
      .update(gateways)
      .set({ companyId: other.id, boundAt: new Date() })
      .where(eq(gateways.id, device.id));
    await t.app.accessWatch.poll();
    client.publish(gatewayUpTopic(device.sn, 'frame'), JSON.stringify({ port: 1, n: 2 }), { qos: 1 });
    await waitFor(() => frames.length > seen + 1 || undefined);
    expect(frames.at(-1)!.gateway.companyId).toBe(other.id);
    await client.endAsync();
  });
});
