import { stat } from 'node:fs/promises';
import { checkGatewayConfig } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cabinNodes } from '../modules/cabin/tables';
import { dataItems } from '../modules/dataitems/tables';
import { brokerUrl, connectGateway, gatewayRow, publishUp, waitFor } from '../modules/devices/test-support';
import { checkLookups, companyLookups } from '../modules/gatewayconfig/lookups';
import { gatewayConfigVersions } from '../modules/gatewayconfig/tables';
import { gateways } from '../modules/gateways/tables';
import { serialPackages, serialParsers } from '../modules/packets/tables';
import { users } from '../modules/users/tables';
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
    expect(item!.fields.map((f) => `${f.name} ${f.unit}`)).toEqual([
      '电压 V',
      '电流 A',
      '有功功率 kW',
      '电能 kWh',
    ]);
    const fed = (await t.db.select().from(dataItems).where(eq(dataItems.kind, 13)))
      .filter((i) => i.sources.some((s) => s.deviceId.startsWith('SDG')))
      .map((i) => `${i.sources[0]!.deviceId} ${i.name}`)
      .sort();
    expect(fed).toEqual(
      [
        'SDG2024000101 锅炉给水',
        'SDG2024000101 锅炉房温湿度',
        'SDG2024000102 压缩空气',
        'SDG2024000102 空压机电量',
        'SDG4024000103 照明回路',
        'SDG4024000103 配电室电量',
        'SDG4024000103 屋顶光伏逆变器',
      ].sort(),
    );
  });

  it('gives the switch room gateway the rooftop PV inverter on COM3: its item, fields by name, package and parsing', async () => {
    const [item] = await t.db.select().from(dataItems).where(eq(dataItems.name, '屋顶光伏逆变器'));
    expect(item!.sources).toEqual([{ deviceId: 'SDG4024000103', deviceName: '配电室网关' }]);
    expect(item!.description).toBe('配电室网关读取的屋顶光伏组串式逆变器（COM3 地址 1）');
    // the inverter dashboard finds its points by these names
    expect(item!.fields.map((f) => [f.name, f.unit ?? '', f.decimals])).toEqual([
      ['交流功率', 'kW', 2],
      ['直流功率', 'kW', 2],
      ['日发电量', 'kWh', 1],
      ['累计发电量', 'kWh', 1],
      ['运行状态', '', 0],
      ['机内温度', '°C', 1],
      ['直流电压', 'V', 1],
    ]);
    // its package reads the inverter's measurement block (12 registers) at address 1
    const [pkg] = await t.db
      .select()
      .from(serialPackages)
      .where(eq(serialPackages.name, '屋顶光伏逆变器 读数'));
    expect(pkg!.frame).toBe('01 03 00 00 00 0C');
    const [parser] = await t.db.select().from(serialParsers).where(eq(serialParsers.packageId, pkg!.id));
    expect(
      parser!.values.map((v) => [v.name, v.offset, v.length, v.format, v.scale, v.fieldKey, v.itemId]),
    ).toEqual([
      ['交流功率', 0, 4, 'int', 0.001, 'f1', item!.id],
      ['直流功率', 4, 4, 'int', 0.001, 'f2', item!.id],
      ['日发电量', 8, 4, 'uint', 0.01, 'f3', item!.id],
      ['累计发电量', 12, 4, 'uint', 0.01, 'f4', item!.id],
      ['运行状态', 20, 2, 'uint', 1, 'f5', item!.id],
      ['机内温度', 18, 2, 'int', 0.1, 'f6', item!.id],
      ['直流电压', 16, 2, 'uint', 0.1, 'f7', item!.id],
    ]);
    // the gateway's configuration sends it on COM3 (9600 8N1), the inverter's own line
    const [gateway] = await t.db.select().from(gateways).where(eq(gateways.serialNumber, 'SDG4024000103'));
    const [version] = await t.db
      .select()
      .from(gatewayConfigVersions)
      .where(eq(gatewayConfigVersions.gatewayId, gateway!.id));
    const config = version!.config;
    expect(config.nodes.find((n) => n.id === 'com3')?.settings).toMatchObject({
      port: 3,
      baudRate: 9600,
      dataBits: 8,
      stopBits: 1,
      parity: 0,
    });
    expect(config.links).toContainEqual({ from: `packet${pkg!.id}`, to: 'com3' });
    expect(config.links).toContainEqual({ from: 'com3', to: 'frames' });
    // and the simulated gateway has the inverter wired there
    const fleet = (await readDemoGateways(t.dataDir))!;
    expect(fleet.find((g) => g.sn === 'SDG4024000103')!.ports).toContainEqual({
      port: 3,
      slaves: [{ kind: 'pvInverter', address: 1 }],
    });
  });

  it('gives each bound gateway a path from its slaves to the items: packages, parsing, configuration version 1', async () => {
    const fleet = (await readDemoGateways(t.dataDir))!;
    const [admin] = await t.db.select().from(users).where(eq(users.phone, DEMO_ADMIN_PHONE));
    const packages = await t.db.select().from(serialPackages);
    expect(packages).toHaveLength(7);
    const caller = { companyId: packages[0]!.companyId, userId: admin!.id };
    const lookups = checkLookups(await companyLookups(t.db, caller));
    const items = await t.db.select().from(dataItems).where(eq(dataItems.kind, 13));
    for (const pkg of packages) {
      // a Modbus read request (function 03) the simulated slave answers
      expect(pkg.frame).toMatch(/^[0-9A-F]{2} 03 00 00 00 [0-9A-F]{2}$/);
      const [parser] = await t.db.select().from(serialParsers).where(eq(serialParsers.packageId, pkg.id));
      expect(parser!.values.length).toBeGreaterThanOrEqual(3);
      for (const value of parser!.values) {
        const item = items.find((i) => i.id === value.itemId);
        expect(
          item?.fields.some((f) => f.key === value.fieldKey),
          value.name,
        ).toBe(true);
      }
    }
    for (const sn of ['SDG2024000101', 'SDG2024000102', 'SDG4024000103']) {
      const [gateway] = await t.db.select().from(gateways).where(eq(gateways.serialNumber, sn));
      const versions = await t.db
        .select()
        .from(gatewayConfigVersions)
        .where(eq(gatewayConfigVersions.gatewayId, gateway!.id));
      expect(versions.map((v) => v.version)).toEqual([1]);
      const config = versions[0]!.config;
      expect(checkGatewayConfig(config, lookups).filter((p) => p.severity === 'error')).toEqual([]);
      // the gateway runs it as a push would have sent it: the frames filled in, the push's hash
      const entry = fleet.find((g) => g.sn === sn)!;
      expect(entry.config!.version).toBe(1);
      expect(gateway!.configVersion).toBe(1);
      expect(gateway!.configHash).toBe(entry.config!.hash);
      const sent = entry.config!.config.nodes.filter((n) => n.type === 'serialPacket');
      expect(sent.length).toBeGreaterThan(0);
      for (const node of sent)
        expect((node.settings as { frame?: string }).frame).toMatch(/^([0-9A-F]{2} ){7}[0-9A-F]{2}$/);
    }
    const [spare] = await t.db.select().from(gateways).where(eq(gateways.serialNumber, 'SDG2024000104'));
    expect(spare!.configVersion).toBeNull();
    expect(fleet.find((g) => g.sn === 'SDG2024000104')!.config).toBeUndefined();
  });

  it('writes the secrets, only there, readable by the owner alone; the database keeps their hashes', async () => {
    const file = demoGatewaysPath(t.dataDir);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const fleet = (await readDemoGateways(t.dataDir))!;
    expect(fleet).toHaveLength(4);
    for (const g of fleet) {
      const bound = DEMO_FLEET.find((f) => f.sn === g.sn)!.device !== undefined;
      expect(Object.keys(g).sort()).toEqual(
        bound
          ? ['config', 'firmware', 'iccid', 'model', 'ports', 'secret', 'sn']
          : ['firmware', 'iccid', 'model', 'ports', 'secret', 'sn'],
      );
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
      const [inverter] = await en.db
        .select()
        .from(dataItems)
        .where(eq(dataItems.name, 'Rooftop PV inverter'));
      expect(inverter!.description).toBe(
        'Rooftop photovoltaic string inverter read by the switch room gateway (COM3, address 1)',
      );
      expect(inverter!.fields.map((f) => `${f.name} ${f.unit ?? ''}`.trim())).toEqual([
        'AC power kW',
        'DC power kW',
        'Daily yield kWh',
        'Total yield kWh',
        'Status',
        'Internal temperature °C',
        'DC voltage V',
      ]);
    } finally {
      await en.close();
    }
  }, 60_000);
});
