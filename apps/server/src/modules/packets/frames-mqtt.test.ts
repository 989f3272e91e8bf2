/**
 * Frames as gateways send them: over MQTT on `up/frame`, through the gateway hub, into the
 * items the packet's parser binds. A bound gateway's frame becomes a record; an unbound
 * gateway's frame and a frame naming another company's packet store nothing.
 */
import { and, eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import {
  birth,
  brokerUrl,
  connectGateway,
  makeDevice,
  publishUp,
  registerGateway,
  waitFor,
} from '../devices/test-support';
import { dataRecords } from '../records/tables';
import { flushFrameCounters } from './frame-stats';
import { frameStats } from './tables';
import { floatValue, makeIotItem, makePackage, makeParser } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
const clients: MqttClient[] = [];

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  a = await makeCompany(t, 'Frames over MQTT A');
  b = await makeCompany(t, 'Frames over MQTT B');
});

afterAll(async () => {
  for (const client of clients) await client.endAsync(true);
  await t.close();
});

async function recordsOf(itemId: number) {
  return t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId));
}

async function online(gateway: { sn: string; secret: string }): Promise<MqttClient> {
  const client = await connectGateway(brokerUrl(t), gateway);
  clients.push(client);
  await publishUp(client, gateway.sn, 'status', birth());
  return client;
}

describe('frames over MQTT', () => {
  it('a bound gateway’s frame becomes a record of the bound item', async () => {
    const item = await makeIotItem(t, a.id);
    const packetId = await makePackage(t, a.id);
    await makeParser(t, a.id, packetId, [floatValue(item.itemId)], a.admin.id);
    const device = await makeDevice(t, a.id);
    const client = await online(device);
    // 41 20 00 00 is 10.0 as a float (ABCD), the frame of docs/device-protocol.md
    await publishUp(client, device.sn, 'frame', { port: 1, packetId, frame: '01 03 04 41 20 00 00 EF C5' });
    const records = await waitFor(async () => {
      const rows = await recordsOf(item.itemId);
      return rows.length > 0 ? rows : undefined;
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ companyId: a.id, source: 'gateway', values: { f1: 10 } });
  });

  it('an unbound gateway’s frames and frames naming another company’s packet store nothing', async () => {
    const item = await makeIotItem(t, a.id);
    const packetId = await makePackage(t, a.id);
    await makeParser(t, a.id, packetId, [floatValue(item.itemId)], a.admin.id);
    const frame = { port: 1, packetId, frame: '01 03 04 41 20 00 00 EF C5' };

    const unbound = await registerGateway(t);
    await publishUp(await online(unbound), unbound.sn, 'frame', frame);
    // company B's gateway names company A's packet
    const foreign = await makeDevice(t, b.id);
    await publishUp(await online(foreign), foreign.sn, 'frame', frame);

    // B's attempt is counted under B, never as a record of A's item
    const counted = await waitFor(async () => {
      await flushFrameCounters(t.app);
      const [row] = await t.db
        .select()
        .from(frameStats)
        .where(and(eq(frameStats.companyId, b.id), eq(frameStats.sn, foreign.sn)));
      return row && row.unknownPacket > 0 ? row : undefined;
    });
    expect(counted.stored).toBe(0);
    expect(await recordsOf(item.itemId)).toEqual([]);
  });
});
