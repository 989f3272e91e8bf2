/**
 * The started demo, as `npm start` runs it (seed, then the simulated fleet in the server's
 * process, reads every second instead of every ten): each bound demo gateway's meters and
 * sensors become records of the demo's IoT items, live, through its configuration, frames and
 * the packages' parsing; with DEMO_GATEWAYS=off nothing runs and nothing is written.
 */
import { type DemoFleet, SerialBus } from '@platform/gateway-sim';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataItems } from '../modules/dataitems/tables';
import { waitFor } from '../modules/devices/test-support';
import { gateways } from '../modules/gateways/tables';
import { frameStats } from '../modules/packets/tables';
import { dataRecords } from '../modules/records/tables';
import { bearer, buildTestApp, login, type TestApp } from '../test/helper';
import { DEMO_ADMIN_PHONE, DEMO_PASSWORD, seedDemo } from './demo';
import { startDemoGateways } from './demo-fleet';
import { DEMO_FLEET, readDemoGateways } from './demo-gateways';

const BOUND = DEMO_FLEET.filter((g) => g.device).map((g) => g.sn);
/** The serial ports of the bound gateways that have something wired (each counted apart). */
const BOUND_PORTS = DEMO_FLEET.filter((g) => g.device).flatMap((g) =>
  g.ports.filter((p) => p.slaves?.length),
);

/** The demo's IoT items a demo gateway feeds (their data source names it), by gateway. */
async function fedItems(t: TestApp) {
  const items = await t.db.select().from(dataItems).where(eq(dataItems.kind, 13));
  return items.filter((i) => i.sources.some((s) => BOUND.includes(s.deviceId)));
}

async function gatewayRecords(t: TestApp, itemId: number) {
  return t.db
    .select()
    .from(dataRecords)
    .where(and(eq(dataRecords.itemId, itemId), eq(dataRecords.source, 'gateway')));
}

describe('the started demo', () => {
  let t: TestApp;
  let fleet: DemoFleet | null = null;
  beforeAll(async () => {
    t = await buildTestApp({ MQTT_PORT: '0', DEMO_GATEWAYS: 'on', CONFIG_CONFIRM_WITHIN_S: '5' });
    await seedDemo(t.db, { dataDir: t.dataDir, demoPollS: 1 });
    fleet = await startDemoGateways(t.app);
  }, 120_000);
  afterAll(async () => {
    await fleet?.stop();
    await t?.close();
  });

  it('starts the four demo gateways; the three bound come online running version 1', async () => {
    expect(fleet).not.toBeNull();
    expect(
      fleet!
        .list()
        .map((g) => g.sn)
        .sort(),
    ).toEqual(DEMO_FLEET.map((g) => g.sn).sort());
    const secrets = (await readDemoGateways(t.dataDir))!;
    const rows = await waitFor(
      async () => {
        const rows = await t.db.select().from(gateways).where(inArray(gateways.serialNumber, BOUND));
        return rows.every((r) => r.online) ? rows : undefined;
      },
      30_000,
      'the bound demo gateways online',
    );
    for (const row of rows) {
      const entry = secrets.find((g) => g.sn === row.serialNumber)!;
      expect(entry.config?.version).toBe(1);
      // what the gateway reports running is what the seed gave it
      expect(row.configVersion).toBe(1);
      expect(row.configHash).toBe(entry.config!.hash);
    }
  });

  it('every item each bound gateway feeds gets records from its frames, live', async () => {
    const items = await fedItems(t);
    // an item per slave of each bound gateway (the switch room's third: the rooftop inverter), each with its source
    for (const g of DEMO_FLEET.filter((g) => g.device))
      expect(items.filter((i) => i.sources[0]!.deviceId === g.sn)).toHaveLength(g.feeds!.length);
    expect(items).toHaveLength(7);
    for (const item of items) {
      const records = await waitFor(
        async () => {
          const rows = await gatewayRecords(t, item.id);
          // more than one: the list grows while the demo runs
          return new Set(rows.map((r) => r.ts.getTime())).size >= 2 ? rows : undefined;
        },
        30_000,
        `records of ${item.name}`,
      );
      for (const record of records) {
        for (const field of item.fields) {
          const value = record.values[field.key];
          expect(typeof value, `${item.name}.${field.name}`).toBe('number');
          // decoded in the right byte order: a mains voltage, a relative humidity, a power factor
          // (the inverter's DC string voltage is checked below)
          if (field.name === '电压') expect(value).toBeGreaterThan(150);
          if (field.name === '电压') expect(value).toBeLessThan(300);
          if (field.unit === '%RH') expect(value).toBeGreaterThanOrEqual(0);
          if (field.unit === '%RH') expect(value).toBeLessThanOrEqual(100);
          if (field.name === '功率因数') expect(value).toBeGreaterThan(0.8);
          if (field.name === '功率因数') expect(value).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  it('the rooftop PV inverter on the switch room gateway: its records carry what the simulated inverter holds', async () => {
    const [item] = (await fedItems(t)).filter((i) => i.name === '屋顶光伏逆变器');
    expect(item!.sources[0]!.deviceId).toBe('SDG4024000103');
    const key = Object.fromEntries(item!.fields.map((f) => [f.name, f.key]));
    const records = await waitFor(
      async () => {
        const rows = await gatewayRecords(t, item!.id);
        return rows.length >= 2 ? rows : undefined;
      },
      30_000,
      'records of the inverter',
    );
    // the same inverter as the gateway's COM3 holds it, read at the record's time
    const entry = DEMO_FLEET.find((g) => g.sn === 'SDG4024000103')!;
    const inverter = new SerialBus(entry.ports.find((p) => p.port === 3)!, entry.sn).slave(1)!;
    for (const record of records) {
      const v = (name: string) => record.values[key[name]!] as number;
      const t0 = record.ts.getTime();
      expect(v('运行状态') === 0 || v('运行状态') === 1).toBe(true);
      expect(v('交流功率')).toBeGreaterThanOrEqual(0);
      expect(v('交流功率')).toBeLessThanOrEqual(v('直流功率'));
      expect(v('直流功率')).toBeLessThan(25);
      if (v('运行状态') === 1) expect(v('直流电压')).toBeGreaterThan(400);
      else expect(v('交流功率')).toBe(0);
      expect(v('直流电压')).toBeLessThan(720);
      expect(v('机内温度')).toBeGreaterThan(10);
      expect(v('机内温度')).toBeLessThan(60);
      expect(v('日发电量')).toBeGreaterThanOrEqual(0);
      expect(v('日发电量')).toBeLessThan(200);
      // the lifetime yield moves by at most 6 Wh a second: decoded in the right order and scale
      expect(v('累计发电量')).toBeGreaterThan(18_650);
      expect(Math.abs(v('累计发电量') - inverter.valueAt('totalYield', t0))).toBeLessThan(0.2);
      expect(Math.abs(v('日发电量') - inverter.valueAt('dailyYield', t0))).toBeLessThan(0.2);
    }
  });

  it('counts the frames of each bound gateway port as stored, none refused', async () => {
    const stats = await waitFor(
      async () => {
        // the counters are written at most once a second
        const rows = await t.db.select().from(frameStats).where(inArray(frameStats.sn, BOUND));
        return rows.length === BOUND_PORTS.length && rows.every((r) => r.stored > 0) ? rows : undefined;
      },
      20_000,
      'frame counters',
    );
    // COM1 of the boiler room, COM1-2 of the compressor room, COM1-3 of the switch room
    expect(stats).toHaveLength(6);
    for (const row of stats) {
      expect(row.port).toBeGreaterThan(0);
      expect(row).toMatchObject({
        badCrc: 0,
        wrongLength: 0,
        badAnswer: 0,
        unknownPacket: 0,
        decodeErrors: 0,
        refused: 0,
        malformed: 0,
      });
    }
  });

  it('the platform and the gateway agree: pushing version 1 again changes nothing on it', async () => {
    const token = await login(t.app, DEMO_ADMIN_PHONE, DEMO_PASSWORD);
    const [row] = await t.db.select().from(gateways).where(eq(gateways.serialNumber, BOUND[0]!));
    const res = await t.app.inject({
      method: 'POST',
      url: '/general/devicemanagement/gatewayconfig/push',
      headers: bearer(token),
      payload: { id: row!.id, baseVersion: 1 },
    });
    expect(res.json().code, res.body).toBe(0);
    expect(res.json().data.saved).toMatchObject({ version: 1, created: false });
    const pushId = res.json().data.push.id as number;
    const state = await waitFor(async () => {
      const r = await t.app.inject({
        method: 'GET',
        url: `/general/devicemanagement/gatewayconfig/push?id=${row!.id}&pushId=${pushId}`,
        headers: bearer(token),
      });
      const s = r.json().data.state as string;
      return s === 'waiting' ? undefined : s;
    }, 20_000);
    expect(state).toBe('unchanged');
  });
});

describe('DEMO_GATEWAYS=off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ MQTT_PORT: '0', DEMO_GATEWAYS: 'off' });
    await seedDemo(t.db, { dataDir: t.dataDir, demoPollS: 1 });
  }, 120_000);
  afterAll(() => t?.close());

  it('runs no demo gateway: none online, no frame, no record from one', async () => {
    expect(await startDemoGateways(t.app)).toBeNull();
    expect(t.app.demoDevices.fleet).toBeNull();
    // three polling periods of the demo started with the same seed
    await new Promise((r) => setTimeout(r, 3000));
    const rows = await t.db.select().from(gateways).where(inArray(gateways.serialNumber, BOUND));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => !r.online)).toBe(true);
    expect(await t.db.select().from(frameStats)).toEqual([]);
    const items = await fedItems(t);
    expect(items).toHaveLength(7);
    for (const item of items) expect(await gatewayRecords(t, item.id)).toEqual([]);
  });
});
