/**
 * Pushes to the gateway simulator (apps/gateway-sim) as the gateway: it checks, applies,
 * commits, answers unchanged to the same hash, rejects on command, and goes back by itself
 * when the commit never reaches it.
 */
import { configTemplate, type GatewayConfig } from '@platform/domain';
import { SimGateway } from '@platform/gateway-sim';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { dataItems } from '../dataitems/tables';
import { brokerUrl, gatewayRow } from '../devices/test-support';
import { floatValue, makeIotItem, makePackage, makeParser } from '../packets/test-support';
import { dataRecords } from '../records/tables';
import { call, configFixture, smallConfig, waitFor } from './test-support';

let t: TestApp;
let a: TestCompany;
let sim: SimGateway;
let deviceId: number;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0', CONFIG_CONFIRM_WITHIN_S: '3' });
  a = await makeCompany(t, 'A');
  const { device } = await configFixture(t, a);
  deviceId = device.id;
  sim = new SimGateway(
    { sn: device.sn, secret: device.secret },
    { url: brokerUrl(t), speed: 500, backoff: { minMs: 50, maxMs: 200 } },
  );
  sim.start();
  await waitFor(async () => (await gatewayRow(t, device.id)).online, 20_000, 'the simulator online');
});
afterAll(async () => {
  await sim?.stop();
  sim?.scheduler.stop();
  await t?.close();
});

async function push(config?: ReturnType<typeof smallConfig>, base: number | null = null) {
  const res = await call(t, a.admin.token, 'POST', 'push', {
    id: deviceId,
    baseVersion: base,
    ...(config ? { config } : {}),
  });
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as {
    push: { id: number; version: number; hash: string };
    saved: { version: number };
  };
}

async function ended(pushId: number, state: string) {
  return waitFor(
    async () => {
      const res = await call(t, a.admin.token, 'GET', `push?id=${deviceId}&pushId=${pushId}`);
      return res.json().data.state === state ? res.json().data : undefined;
    },
    30_000,
    state,
  );
}

describe('pushing to the simulated gateway', () => {
  it('applied and committed; the gateway then runs it and says so', async () => {
    const { push: p } = await push(smallConfig());
    await ended(p.id, 'committed');
    await waitFor(
      () => sim.state().pendingConfig === null && sim.state().config?.version === 1,
      20_000,
      'kept',
    );
    expect(sim.state().config).toEqual({ version: 1, hash: p.hash });
    const view = await waitFor(async () => {
      const res = await call(t, a.admin.token, 'GET', `get?id=${deviceId}`);
      return res.json().data.device.runningVersion === 1 ? res.json().data : undefined;
    });
    expect(view.device.runningHash).toBe(p.hash);
  });

  it('the same configuration again changes nothing on the gateway: unchanged', async () => {
    const { push: p, saved } = await push(undefined, 1);
    expect(saved).toMatchObject({ version: 1, created: false });
    await ended(p.id, 'unchanged');
    expect(sim.state().config).toMatchObject({ version: 1 });
  });

  it('a configuration the gateway refuses: rejected with its reasons, nothing changed', async () => {
    sim.rejectNextConfig('port 1 is busy (simulated)');
    const { push: p } = await push(smallConfig('v2'), 1);
    const done = await ended(p.id, 'rejected');
    expect(done.errors).toEqual([expect.objectContaining({ message: 'port 1 is busy (simulated)' })]);
    expect(sim.state().config).toMatchObject({ version: 1 });
  });

  it('a gateway cut off by its new configuration goes back by itself and reports the rollback', async () => {
    sim.loseNetworkAfterNextConfig();
    const { push: p } = await push(smallConfig('v3'), 2);
    const done = await ended(p.id, 'rolledBack');
    expect(done.runningVersion).toBe(1);
    expect(sim.state().config).toMatchObject({ version: 1 });
  });
});

describe('what a pushed configuration makes the gateway do', () => {
  it('polls the meter on COM1 with the packet of the definition; its frames become records', async () => {
    const item = await makeIotItem(t, a.id);
    // phase L1 voltage of the simulated three-phase meter at address 1: a float at register 0
    const packetId = await makePackage(t, a.id, { frame: '01 03 00 00 00 02' });
    await makeParser(t, a.id, packetId, [floatValue(item.itemId)], a.admin.id);
    const config: GatewayConfig = {
      nodes: [
        {
          id: 'com1',
          type: 'com',
          name: 'COM1',
          settings: {
            port: 1,
            baudRate: 9600,
            dataBits: 8,
            stopBits: 1,
            parity: 0,
            role: 'client',
            answerTimeoutMs: 500,
          },
        },
        // intervalS: the simulator polls every second instead of every minute
        {
          id: 'packet1',
          type: 'serialPacket',
          name: 'L1 voltage',
          settings: { packetId, samplingId: 1, intervalS: 1 },
        },
        {
          id: 'raw1',
          type: 'mqttPublish',
          name: 'Frames',
          settings: { target: 'platform', qos: 1, format: 'raw' },
        },
      ],
      links: [
        { from: 'packet1', to: 'com1' },
        { from: 'com1', to: 'raw1' },
      ],
    };
    const head = (await call(t, a.admin.token, 'GET', `get?id=${deviceId}`)).json().data.head
      .version as number;
    const { push: p } = await push(config, head);
    await ended(p.id, 'committed');
    const records = await waitFor(
      async () => {
        const rows = await t.db
          .select()
          .from(dataRecords)
          .where(and(eq(dataRecords.companyId, a.id), eq(dataRecords.itemId, item.itemId)));
        return rows.length > 0 ? rows : undefined;
      },
      30_000,
      'records from the meter',
    );
    const voltage = records[0]!.values.f1 as number;
    // a mains voltage, decoded from the frame the gateway read
    expect(voltage).toBeGreaterThan(150);
    expect(voltage).toBeLessThan(300);
  });

  it('a JSON telemetry configuration (the Modbus meter template): the gateway decodes with the pushed parsing', async () => {
    const item = await makeIotItem(t, a.id, 'JSON meter');
    // telemetry lands only in an item whose data source names the gateway
    await t.db
      .update(dataItems)
      .set({ sources: [{ deviceId: sim.sn, deviceName: 'sim' }] })
      .where(eq(dataItems.id, item.itemId));
    const packetId = await makePackage(t, a.id, { frame: '01 03 00 00 00 02' });
    // the parsing binds its value to no field: only the gateway's element can put it in the item
    await makeParser(
      t,
      a.id,
      packetId,
      [floatValue(item.itemId, { itemId: null, fieldKey: null })],
      a.admin.id,
    );
    const config = configTemplate('modbusMeter', {
      lang: 'en',
      packetId,
      values: [{ name: '电压', itemId: item.itemId, fieldKey: 'f1' }],
    });
    for (const node of config.nodes)
      if (node.type === 'serialPacket') node.settings = { ...node.settings, intervalS: 1 };
    const head = (await call(t, a.admin.token, 'GET', `get?id=${deviceId}`)).json().data.head
      .version as number;
    const { push: p } = await push(config, head);
    await ended(p.id, 'committed');
    const records = await waitFor(
      async () => {
        const rows = await t.db
          .select()
          .from(dataRecords)
          .where(and(eq(dataRecords.companyId, a.id), eq(dataRecords.itemId, item.itemId)));
        return rows.length > 0 ? rows : undefined;
      },
      30_000,
      'telemetry from the meter',
    );
    const voltage = records[0]!.values.f1 as number;
    expect(voltage).toBeGreaterThan(150);
    expect(voltage).toBeLessThan(300);
  });
});
