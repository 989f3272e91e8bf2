import { stat } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cabinNodes } from '../modules/cabin/tables';
import { dataItems } from '../modules/dataitems/tables';
import { brokerUrl, connectGateway, gatewayRow, publishUp, waitFor } from '../modules/devices/test-support';
import { gateways } from '../modules/gateways/tables';
import { sha256 } from '../platform/tokens';
import { bearer, buildTestApp, login, type TestApp } from '../test/helper';
import { connackCode } from '../test/mqtt-clients';
import { DEMO_ADMIN_PHONE, DEMO_PASSWORD, seedDemo } from './demo';
import { DEMO_FLEET, demoGatewaysPath, readDemoGateways } from './demo-gateways';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  await seedDemo(t.db, { dataDir: t.dataDir });
});
afterAll(() => t.close());

describe('the demo gateways', () => {
  it('registers four, binds three to the demo company under 设备, and leaves one waiting for a bind', async () => {
    const rows = await t.db.select().from(gateways);
    expect(rows.map((r) => r.serialNumber).sort()).toEqual(DEMO_FLEET.map((g) => g.sn).sort());
    expect(rows.filter((r) => r.companyId !== null)).toHaveLength(3);
    const token = await login(t.app, DEMO_ADMIN_PHONE, DEMO_PASSWORD);
    const list = await t.app.inject({
      method: 'GET',
      url: '/general/devicemanagement/device/list',
      headers: bearer(token),
    });
    expect(
      list
        .json()
        .data.list.map((d: { name: string }) => d.name)
        .sort(),
    ).toEqual(['空压站网关', '配电室网关', '锅炉房采集网关'].sort());
    const [dir] = await t.db
      .select()
      .from(cabinNodes)
      .where(and(eq(cabinNodes.type, 'directory'), eq(cabinNodes.name, '设备')));
    const inDir = await t.db.select().from(cabinNodes).where(eq(cabinNodes.parentId, dir!.id));
    expect(inDir.filter((n) => n.type === 'device')).toHaveLength(3);
    // the switch room gateway feeds an item whose data source names it
    const [item] = await t.db.select().from(dataItems).where(eq(dataItems.name, '配电室电量'));
    expect(item!.sources).toEqual([{ deviceId: 'SDG4024000103', deviceName: '配电室网关' }]);
  });

  it('writes the secrets, only there, readable by the owner alone; the database keeps their hashes', async () => {
    const file = demoGatewaysPath(t.dataDir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const fleet = (await readDemoGateways(t.dataDir))!;
    expect(fleet).toHaveLength(4);
    for (const g of fleet) {
      expect(Object.keys(g).sort()).toEqual(['firmware', 'iccid', 'model', 'secret', 'sn']);
      const [row] = await t.db.select().from(gateways).where(eq(gateways.serialNumber, g.sn));
      expect(row!.secretHash).toBe(sha256(g.secret));
      expect(JSON.stringify(row)).not.toContain(g.secret);
    }
  });

  it('each demo gateway signs in with the secret of the file', async () => {
    const fleet = (await readDemoGateways(t.dataDir))!;
    for (const g of fleet) expect(await connackCode(brokerUrl(t), { username: g.sn, key: g.secret })).toBe(0);
    const spare = fleet.find((g) => g.sn === 'SDG2024000104')!;
    const client = await connectGateway(brokerUrl(t), spare);
    await publishUp(client, spare.sn, 'status', { online: true, firmware: spare.firmware });
    const [row] = await t.db.select().from(gateways).where(eq(gateways.serialNumber, spare.sn));
    await waitFor(async () => (await gatewayRow(t, row!.id)).online);
    await client.endAsync();
  });
});

describe('the demo gateways in English', () => {
  it('are named in English with DEMO_LANG=en', async () => {
    const en = await buildTestApp({ MQTT_PORT: 'off' });
    try {
      await seedDemo(en.db, { lang: 'en' });
      const dirs = await en.db.select().from(cabinNodes).where(eq(cabinNodes.name, 'Devices'));
      expect(dirs).toHaveLength(1);
      const devices = await en.db.select().from(cabinNodes).where(eq(cabinNodes.type, 'device'));
      expect(devices.map((d) => d.name).sort()).toEqual([
        'Boiler room gateway',
        'Compressor room gateway',
        'Switch room gateway',
      ]);
    } finally {
      await en.close();
    }
  }, 60_000);
});
