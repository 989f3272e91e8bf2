/**
 * The live relay: two buses (two nodes) on one broker. Every event published on one node
 * reaches the listeners of the other once, in order, and the node that published hears it
 * once; a records event too big for one packet is split and still arrives whole.
 */
import { createServer, type Server } from 'node:net';
import { LIVE_RELAY_TOPIC_PREFIX, type RecordValues } from '@platform/domain';
import { Aedes } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../test/mosquitto';
import { type DeviceEvent, LiveBus, type LiveEvent, type LiveRecord } from './live';
import {
  type LiveRelay,
  MAX_RELAY_BYTES,
  type RelayTransport,
  relayPayloads,
  startLiveRelay,
} from './live-relay';

const quiet = () => {};
const log = {
  info: quiet,
  warn: quiet,
  error: quiet,
  debug: quiet,
  trace: quiet,
  fatal: quiet,
} as unknown as FastifyBaseLogger;

/** what a node's relay uses of its MQTT client */
function transportOf(client: MqttClient): RelayTransport {
  const listeners: Array<(topic: string, payload: Buffer) => void> = [];
  client.on('message', (topic, payload) => {
    for (const listener of listeners) listener(topic, payload);
  });
  return {
    publish: async (topic, payload, qos = 1) => {
      await client.publishAsync(topic, payload, { qos });
    },
    listen: async (filter, listener) => {
      listeners.push(listener);
      await client.subscribeAsync(filter, { qos: 0 });
    },
  };
}

/** Resolves once `check` holds, polling every few milliseconds (no timing is asserted). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const record = (id: number, values: RecordValues = { t: id }): LiveRecord => ({
  id,
  ts: new Date(1_700_000_000_000 + id * 1000).toISOString(),
  values,
  source: 'api',
});

let broker: Aedes;
let server: Server;
let clients: MqttClient[] = [];
let busA: LiveBus;
let busB: LiveBus;
let relayA: LiveRelay;
let relayB: LiveRelay;
/** a third client that sees every relayed packet */
const packets: Array<{ topic: string; payload: string }> = [];

beforeAll(async () => {
  broker = await Aedes.createBroker();
  server = createServer(broker.handle);
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const connect = async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
    clients.push(client);
    return client;
  };
  busA = new LiveBus();
  busB = new LiveBus();
  relayA = await startLiveRelay(busA, transportOf(await connect()), log, 'node-a');
  relayB = await startLiveRelay(busB, transportOf(await connect()), log, 'node-b');
  const watcher = await connect();
  watcher.on('message', (topic, payload) => packets.push({ topic, payload: payload.toString() }));
  await watcher.subscribeAsync(`${LIVE_RELAY_TOPIC_PREFIX}#`, { qos: 0 });
});

afterAll(async () => {
  relayA?.stop();
  relayB?.stop();
  await Promise.all(clients.map((c) => c.endAsync(true)));
  clients = [];
  await new Promise<void>((resolve) => broker?.close(() => resolve()));
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

describe('the live relay between two nodes on one broker', () => {
  it('a record published on node A reaches node B once, in order, and node A once', async () => {
    const onA: LiveEvent[] = [];
    const onB: LiveEvent[] = [];
    const offA = busA.subscribe([11], (e) => onA.push(e));
    const offB = busB.subscribe([11], (e) => onB.push(e));
    const offOther = busB.subscribe([12], () => {
      throw new Error('another item must not be told');
    });
    try {
      for (let i = 1; i <= 50; i++) busA.publish({ companyId: 1, itemId: 11, records: [record(i)] });
      // node A delivered them locally, at once
      expect(onA.map((e) => e.records[0]?.id)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      await until(() => onB.length >= 50, 'node B to hear 50 events');
      // and its own copies coming back do not arrive a second time
      await until(() => packets.filter((p) => p.topic.endsWith('/records')).length >= 50, 'the watcher');
      busB.publish({ companyId: 1, itemId: 11, records: [record(999)] });
      await until(() => onA.length === 51, 'node A to hear node B');
      expect(onB.map((e) => e.records[0]?.id)).toEqual([...Array.from({ length: 50 }, (_, i) => i + 1), 999]);
      expect(onA.map((e) => e.records[0]?.id)).toEqual([...Array.from({ length: 50 }, (_, i) => i + 1), 999]);
      expect(onB[0]).toEqual({ companyId: 1, itemId: 11, records: [record(1)] });
    } finally {
      offA();
      offB();
      offOther();
    }
  });

  it('device events and any module channel cross too, per company', async () => {
    const devicesB: DeviceEvent[] = [];
    const otherCompanyB: DeviceEvent[] = [];
    const alarmsB: unknown[] = [];
    const offs = [
      busB.subscribeDevices(7, (e) => devicesB.push(e)),
      busB.subscribeDevices(8, (e) => otherCompanyB.push(e)),
      busB.channel<{ companyId: number; alarmId: number }>('alarms').subscribe(7, (e) => alarmsB.push(e)),
    ];
    try {
      busA.publishDevice({ type: 'membership', companyId: 7, gatewayId: 3 });
      busA.channel<{ companyId: number; alarmId: number }>('alarms').publish({ companyId: 7, alarmId: 5 });
      await until(() => devicesB.length === 1 && alarmsB.length === 1, 'node B to hear both');
      // the last event sent is heard, so anything sent before it would have been too
      busA.publishDevice({ type: 'membership', companyId: 7, gatewayId: 4 });
      await until(() => devicesB.length === 2, 'the marker');
      expect(devicesB).toEqual([
        { type: 'membership', companyId: 7, gatewayId: 3 },
        { type: 'membership', companyId: 7, gatewayId: 4 },
      ]);
      expect(alarmsB).toEqual([{ companyId: 7, alarmId: 5 }]);
      expect(otherCompanyB).toEqual([]);
    } finally {
      for (const off of offs) off();
    }
  });

  it('a records event too big for one packet is split, and arrives whole', async () => {
    const big = Array.from({ length: 3000 }, (_, i) => record(10_000 + i, { text: 'x'.repeat(200) }));
    const event: LiveEvent = { companyId: 1, itemId: 21, records: big };
    const parts = relayPayloads('node-a', 'records', event);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(MAX_RELAY_BYTES);
    const heard: number[] = [];
    const off = busB.subscribe([21], (e) => heard.push(...e.records.map((r) => r.id)));
    try {
      busA.publish(event);
      await until(() => heard.length >= big.length, 'every record');
      expect(heard).toEqual(big.map((r) => r.id));
    } finally {
      off();
    }
  });

  it('a stopped relay neither sends nor delivers', async () => {
    const bus = new LiveBus();
    const client = await mqtt.connectAsync(
      `mqtt://127.0.0.1:${(server.address() as { port: number }).port}`,
      {
        reconnectPeriod: 0,
      },
    );
    clients.push(client);
    const relay = await startLiveRelay(bus, transportOf(client), log, 'node-c');
    const heard: LiveEvent[] = [];
    const off = bus.subscribe([31], (e) => heard.push(e));
    relay.stop();
    const before = packets.length;
    bus.publish({ companyId: 1, itemId: 31, records: [record(1)] });
    busA.publish({ companyId: 1, itemId: 31, records: [record(2)] });
    await until(() => packets.length > before, 'the watcher to see node A');
    expect(packets.length - before).toBe(1);
    expect(heard.map((e) => e.records[0]?.id)).toEqual([1]);
    off();
  });
});
