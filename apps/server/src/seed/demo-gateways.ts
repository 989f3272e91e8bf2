/**
 * The demo company's gateways: four registered serial numbers, three bound to the demo company
 * (their nodes in a cabin directory 设备 / Devices), one left unbound for someone to bind with
 * the button. Each bound one has meters and sensors (and the switch room a rooftop photovoltaic
 * inverter) wired to its serial ports and a real path
 * from them to the demo's IoT items (kind 13, in 设备 / Devices): a serial data package per
 * slave (the Modbus read of its measurement block, as the simulator's register maps define it),
 * its parsing binding each value to a field of an item, and a configuration (COM ← packets,
 * COM → raw frames to the platform) saved as version 1 and running on the gateway. Light on
 * purpose: rows, no history.
 *
 * Their secrets are generated here and written to DATA_DIR/secrets/demo-gateways.json (mode
 * 0600, a JSON array of {sn, secret, model, firmware, iccid, ports, config?}) for the simulated
 * fleet `npm start` runs (DEMO_GATEWAYS=off stops it); the database keeps only their SHA-256, as
 * for any gateway. `config` is the configuration as a push would have sent it (frames filled
 * from the packages, the push's hash), so the gateway reports running version 1 when it comes
 * online and a push of version 1 answers "unchanged": both sides agree from the start.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  appendCrc,
  canonicalConfigText,
  type FieldDef,
  type GatewayConfig,
  type GatewayNode,
  gatewayAcl,
  normalizeValue,
  type ParserValue,
  toHex,
} from '@platform/domain';
import {
  DEFAULT_LINE,
  measurementPacket,
  type PortSpec,
  type SlaveSpec,
  slaveModel,
} from '@platform/gateway-sim';
import { eq } from 'drizzle-orm';
import type { DemoLang } from '../config';
import { cabinNodes } from '../modules/cabin/tables';
import { dataItems } from '../modules/dataitems/tables';
import { bindNow } from '../modules/devices/binding';
import { devices } from '../modules/devices/tables';
import { companyPackages } from '../modules/gatewayconfig/packages';
import { forGateway } from '../modules/gatewayconfig/push';
import { saveVersion, sha256Hex } from '../modules/gatewayconfig/versions';
import { newGatewaySecret } from '../modules/gateways/registry';
import { gateways } from '../modules/gateways/tables';
import { serialPackages, serialParsers } from '../modules/packets/tables';
import type { Db } from '../platform/db';
import type { BrokerAccounts } from '../platform/mqtt';
import { sha256 } from '../platform/tokens';

export const DEMO_GATEWAYS_FILE = 'demo-gateways.json';

export interface DemoGateway {
  sn: string;
  secret: string;
  model: string;
  firmware: string;
  iccid: string;
  /** what is wired to its serial ports (the simulator's meters and sensors) */
  ports?: PortSpec[];
  /** the configuration it runs, as pushed: `{version, hash, config}` (bound gateways) */
  config?: { version: number; hash: string; config: GatewayConfig };
}

/** Seconds between two reads of each demo meter or sensor (the demo's configuration). */
export const DEMO_POLL_S = 10;

/** One slave's measurements feeding one IoT item: which of its points, into which fields. */
interface DemoFeed {
  port: number;
  address: number;
  item: Record<DemoLang, string>;
  description: Record<DemoLang, string>;
  /** the slave's register point, the field's name and its decimals */
  points: Array<{ point: string; name: Record<DemoLang, string>; decimals: number }>;
  /** an item the seed makes anyway (its fields are powerFields) */
  fields?: (lang: DemoLang) => FieldDef[];
}

interface FleetEntry {
  sn: string;
  model: string;
  firmware: string;
  iccid: string;
  ports: PortSpec[];
  /** bound gateways: the items its slaves feed */
  feeds?: DemoFeed[];
  /**
   * command nodes the platform may send (a flow chart's switch): each writes one coil of a slave
   * with Modbus function 05 on its port
   */
  commands?: Array<{ name: string; port: number; address: number; coil: number; on: boolean }>;
  /** bound to the demo company with this name, address and picture; absent: left unbound */
  device?: {
    name: Record<DemoLang, string>;
    address: Record<DemoLang, string>;
    picture: string;
    daysAgo: number;
  };
}

const zhen = (zh: string, en: string): Record<DemoLang, string> => ({ zh, en });

export const DEMO_FLEET: readonly FleetEntry[] = [
  {
    sn: 'SDG2024000101',
    model: 'SDG-200',
    firmware: '1.2.0',
    iccid: '89860012345678900107',
    ports: [
      {
        port: 1,
        slaves: [
          { kind: 'flowSensor', address: 1 },
          { kind: 'thSensor', address: 2 },
        ],
      },
    ],
    // the feed pump behind the flow transmitter (its coil 0x0001): the boiler flow chart's switch
    commands: [
      { name: 'pumpStart', port: 1, address: 1, coil: 0x0001, on: true },
      { name: 'pumpStop', port: 1, address: 1, coil: 0x0001, on: false },
    ],
    feeds: [
      {
        port: 1,
        address: 1,
        item: zhen('锅炉给水', 'Boiler feedwater'),
        description: zhen(
          '锅炉房网关读取的给水流量计（COM1 地址 1）',
          'Feedwater flow meter read by the boiler room gateway (COM1, address 1)',
        ),
        points: [
          { point: 'flow', name: zhen('流量', 'Flow'), decimals: 2 },
          { point: 'pressure', name: zhen('压力', 'Pressure'), decimals: 3 },
          { point: 'temperature', name: zhen('水温', 'Water temperature'), decimals: 1 },
          { point: 'totalVolume', name: zhen('累计流量', 'Total volume'), decimals: 1 },
        ],
      },
      {
        port: 1,
        address: 2,
        item: zhen('锅炉房温湿度', 'Boiler room climate'),
        description: zhen(
          '锅炉房网关读取的温湿度传感器（COM1 地址 2）',
          'Temperature and humidity sensor read by the boiler room gateway (COM1, address 2)',
        ),
        points: [
          { point: 'temperature', name: zhen('温度', 'Temperature'), decimals: 1 },
          { point: 'humidity', name: zhen('湿度', 'Humidity'), decimals: 1 },
          { point: 'dewPoint', name: zhen('露点', 'Dew point'), decimals: 1 },
        ],
      },
    ],
    device: {
      name: { zh: '锅炉房采集网关', en: 'Boiler room gateway' },
      address: { zh: '一号厂房 锅炉房西墙', en: 'Building 1, boiler room, west wall' },
      picture: 'boiler',
      daysAgo: 40,
    },
  },
  {
    sn: 'SDG2024000102',
    model: 'SDG-200',
    firmware: '1.2.0',
    iccid: '89860012345678900115',
    ports: [
      { port: 1, slaves: [{ kind: 'meter3p', address: 1, order: 'CDAB' }] },
      { port: 2, baudRate: 19200, slaves: [{ kind: 'flowSensor', address: 2 }] },
    ],
    feeds: [
      {
        port: 1,
        address: 1,
        item: zhen('空压机电量', 'Compressor power'),
        description: zhen(
          '空压站网关读取的三相电表（COM1 地址 1）',
          'Three-phase meter read by the compressor room gateway (COM1, address 1)',
        ),
        points: [
          { point: 'voltageL1', name: zhen('电压', 'Voltage'), decimals: 1 },
          { point: 'currentL1', name: zhen('电流', 'Current'), decimals: 2 },
          { point: 'powerTotal', name: zhen('有功功率', 'Active power'), decimals: 2 },
          { point: 'powerFactor', name: zhen('功率因数', 'Power factor'), decimals: 3 },
          { point: 'energyTotal', name: zhen('电能', 'Energy'), decimals: 1 },
        ],
      },
      {
        port: 2,
        address: 2,
        item: zhen('压缩空气', 'Compressed air'),
        description: zhen(
          '空压站网关读取的压缩空气流量计（COM2 地址 2）',
          'Compressed air flow meter read by the compressor room gateway (COM2, address 2)',
        ),
        points: [
          { point: 'flow', name: zhen('流量', 'Flow'), decimals: 2 },
          { point: 'pressure', name: zhen('压力', 'Pressure'), decimals: 3 },
          { point: 'totalVolume', name: zhen('累计流量', 'Total volume'), decimals: 1 },
        ],
      },
    ],
    device: {
      name: { zh: '空压站网关', en: 'Compressor room gateway' },
      address: { zh: '二号厂房 空压站', en: 'Building 2, compressor station' },
      picture: 'pump',
      daysAgo: 25,
    },
  },
  {
    sn: 'SDG4024000103',
    model: 'SDG-400',
    firmware: '2.0.3',
    iccid: '89860012345678900123',
    ports: [
      { port: 1, slaves: [{ kind: 'meter3p', address: 1, order: 'DCBA' }] },
      { port: 2, parity: 2, slaves: [{ kind: 'meter1p', address: 3 }] },
      // the rooftop's inverter on its own RS-485 line, at its factory settings (9600 8N1, address 1)
      { port: 3, slaves: [{ kind: 'pvInverter', address: 1 }] },
    ],
    feeds: [
      {
        port: 1,
        address: 1,
        item: zhen('配电室电量', 'Switch room power'),
        description: zhen(
          '配电室网关上报的低压柜电参量',
          'Low-voltage cabinet readings reported by the switch room gateway',
        ),
        points: [
          { point: 'voltageL1', name: zhen('电压', 'Voltage'), decimals: 1 },
          { point: 'currentL1', name: zhen('电流', 'Current'), decimals: 2 },
          { point: 'powerTotal', name: zhen('有功功率', 'Active power'), decimals: 2 },
          { point: 'energyTotal', name: zhen('电能', 'Energy'), decimals: 1 },
        ],
        fields: (lang) => powerFields(lang),
      },
      {
        port: 2,
        address: 3,
        item: zhen('照明回路', 'Lighting circuit'),
        description: zhen(
          '配电室网关读取的照明回路单相电表（COM2 地址 3）',
          'Single-phase meter of the lighting circuit read by the switch room gateway (COM2, address 3)',
        ),
        points: [
          { point: 'voltage', name: zhen('电压', 'Voltage'), decimals: 1 },
          { point: 'current', name: zhen('电流', 'Current'), decimals: 2 },
          { point: 'power', name: zhen('有功功率', 'Active power'), decimals: 3 },
          { point: 'energyTotal', name: zhen('电能', 'Energy'), decimals: 1 },
        ],
      },
      {
        port: 3,
        address: 1,
        item: zhen('屋顶光伏逆变器', 'Rooftop PV inverter'),
        description: zhen(
          '配电室网关读取的屋顶光伏组串式逆变器（COM3 地址 1）',
          'Rooftop photovoltaic string inverter read by the switch room gateway (COM3, address 1)',
        ),
        // the field names are what the inverter dashboard looks for
        points: [
          { point: 'acPower', name: zhen('交流功率', 'AC power'), decimals: 2 },
          { point: 'dcPower', name: zhen('直流功率', 'DC power'), decimals: 2 },
          { point: 'dailyYield', name: zhen('日发电量', 'Daily yield'), decimals: 1 },
          { point: 'totalYield', name: zhen('累计发电量', 'Total yield'), decimals: 1 },
          { point: 'status', name: zhen('运行状态', 'Status'), decimals: 0 },
          { point: 'temperature', name: zhen('机内温度', 'Internal temperature'), decimals: 1 },
          { point: 'dcVoltage', name: zhen('直流电压', 'DC voltage'), decimals: 1 },
        ],
      },
    ],
    device: {
      name: { zh: '配电室网关', en: 'Switch room gateway' },
      address: { zh: '配电室 2号低压柜', en: 'Switch room, low-voltage cabinet 2' },
      picture: 'cabinet',
      daysAgo: 12,
    },
  },
  // waiting on a shelf for someone to bind it (its simulated button confirms a request); a
  // workshop's meter and sensor are wired to it, nothing configured yet
  {
    sn: 'SDG2024000104',
    model: 'SDG-200',
    firmware: '1.1.4',
    iccid: '89860012345678900131',
    ports: [
      {
        port: 1,
        slaves: [
          { kind: 'meter3p', address: 1 },
          { kind: 'thSensor', address: 2 },
        ],
      },
    ],
  },
];

const TEXT: Record<
  DemoLang,
  {
    dir: string;
    read: string;
    frames: string;
    fromPlatform: string;
    fields: [string, string, string, string];
  }
> = {
  zh: {
    dir: '设备',
    read: '读数',
    frames: '原始帧上报平台',
    fromPlatform: '平台下发指令',
    fields: ['电压', '电流', '有功功率', '电能'],
  },
  en: {
    dir: 'Devices',
    read: 'read',
    frames: 'Frames to platform',
    fromPlatform: 'Commands from platform',
    fields: ['Voltage', 'Current', 'Active power', 'Energy'],
  },
};

export function powerFields(lang: DemoLang): FieldDef[] {
  const [voltage, current, power, energy] = TEXT[lang].fields;
  return [
    { key: 'f1', name: voltage, unit: 'V', type: 1, decimals: 1 },
    { key: 'f2', name: current, unit: 'A', type: 1, decimals: 2 },
    { key: 'f3', name: power, unit: 'kW', type: 1, decimals: 2 },
    { key: 'f4', name: energy, unit: 'kWh', type: 1, decimals: 1 },
  ];
}

const DAY = 86_400_000;

const FORMAT: Record<string, ParserValue['format']> = {
  int16: 'int',
  int32: 'int',
  uint16: 'uint',
  uint32: 'uint',
  float32: 'float',
};

/** The fields of a feed's item: one decimal field per point, with the register's unit. */
function feedFields(feed: DemoFeed, slave: SlaveSpec, lang: DemoLang): FieldDef[] {
  if (feed.fields) return feed.fields(lang);
  const model = slaveModel(slave.kind, slave.order ?? 'ABCD');
  return feed.points.map((p, i) => {
    const unit = model.registers.find((r) => r.name === p.point)?.unit ?? '';
    return {
      key: `f${i + 1}`,
      name: p.name[lang],
      ...(unit ? { unit } : {}),
      type: 1,
      decimals: p.decimals,
    } as FieldDef;
  });
}

/**
 * The parsing of a slave's measurement packet for a feed: each point of the simulator's
 * register map (catalogue offsets count from the frame's first byte, the parsing's from the
 * first data byte) into its field.
 */
export function feedValues(
  slave: SlaveSpec,
  port: number,
  points: DemoFeed['points'],
  lang: DemoLang,
  itemId: number,
  fields: FieldDef[],
): ParserValue[] {
  const packet = measurementPacket(slave, port, 0);
  return points.map((p, i) => {
    const value = packet.values.find((v) => v.name === p.point);
    if (!value) throw new Error(`demo: ${slave.kind} has no point ${p.point}`);
    const bytes = value.format === 'int16' || value.format === 'uint16' ? 2 : 4;
    return normalizeValue({
      name: p.name[lang],
      offset: value.offset - 3,
      length: bytes,
      valueType: 'decimal',
      format: FORMAT[value.format],
      // a 16-bit register has no word order; the slave's order applies to 32-bit values
      order: bytes === 4 ? (value.order ?? 'ABCD') : 'ABCD',
      scale: value.scale ?? 1,
      decimals: p.decimals,
      itemId,
      fieldKey: fields[i]!.key,
    });
  });
}

/** The request of a slave's measurement packet, without its CRC (the package appends it). */
function requestFrame(slave: SlaveSpec, port: number): string {
  return measurementPacket(slave, port, 0).frame.split(' ').slice(0, 6).join(' ');
}

function slaveAt(entry: FleetEntry, port: number, address: number): SlaveSpec {
  const slave = entry.ports.find((p) => p.port === port)?.slaves?.find((s) => s.address === address);
  if (!slave) throw new Error(`demo: ${entry.sn} has no slave ${address} on port ${port}`);
  return slave;
}

/**
 * A bound demo gateway's configuration: a COM node per port with slaves (its line settings),
 * the packet of each slave sent on it every `pollS` seconds, and the ports' answers published
 * to the platform as raw frames (decoded there by each package's parsing). Laid out for the
 * node editor: packets, ports, publisher from left to right.
 */
export function demoGatewayConfig(
  entry: FleetEntry,
  packets: Array<{ port: number; packetId: number; name: string }>,
  lang: DemoLang,
  pollS: number,
): GatewayConfig {
  const nodes: GatewayNode[] = [];
  const links: GatewayConfig['links'] = [];
  const ports = entry.ports.filter((p) => packets.some((k) => k.port === p.port));
  ports.forEach((port, i) => {
    nodes.push({
      id: `com${port.port}`,
      type: 'com',
      name: `COM${port.port}`,
      settings: {
        port: port.port,
        baudRate: port.baudRate ?? DEFAULT_LINE.baudRate,
        dataBits: port.dataBits ?? DEFAULT_LINE.dataBits,
        stopBits: port.stopBits ?? DEFAULT_LINE.stopBits,
        parity: (port.parity ?? DEFAULT_LINE.parity) as 0 | 1 | 2,
        role: 'client',
        answerTimeoutMs: 1000,
      },
      position: { x: 380, y: 60 + i * 200 },
    });
    links.push({ from: `com${port.port}`, to: 'frames' });
  });
  packets.forEach((packet, i) => {
    const id = `packet${packet.packetId}`;
    nodes.push({
      id,
      type: 'serialPacket',
      name: packet.name,
      settings: { packetId: packet.packetId, samplingId: 1, intervalS: pollS },
      position: { x: 40, y: 40 + i * 130 },
    });
    links.push({ from: id, to: `com${packet.port}` });
  });
  nodes.push({
    id: 'frames',
    type: 'mqttPublish',
    name: TEXT[lang].frames,
    settings: { target: 'platform', qos: 0, format: 'raw' },
    position: { x: 700, y: 60 + Math.max(0, ports.length - 1) * 100 },
  });
  const commands = entry.commands ?? [];
  if (commands.length > 0) {
    const top = 60 + ports.length * 200;
    nodes.push({
      id: 'fromPlatform',
      type: 'mqttSubscribe',
      name: TEXT[lang].fromPlatform,
      settings: { target: 'platform', qos: 1 },
      position: { x: 40, y: top + 40 },
    });
    commands.forEach((c, i) => {
      const id = `command_${c.name}`;
      const frame = appendCrc([c.address, 0x05, c.coil >> 8, c.coil & 0xff, c.on ? 0xff : 0, 0]);
      nodes.push({
        id,
        type: 'command',
        name: c.name,
        settings: { name: c.name, encoding: 'HEX', payload: toHex(frame) },
        position: { x: 380, y: top + i * 110 },
      });
      links.push({ from: 'fromPlatform', to: id }, { from: id, to: `com${c.port}` });
    });
  }
  return { nodes, links };
}

export async function seedDemoGateways(
  db: Db,
  opts: {
    companyId: number;
    adminId: number;
    lang?: DemoLang;
    now?: Date;
    dataDir?: string;
    /** seconds between reads of each meter and sensor (default DEMO_POLL_S; tests go faster) */
    pollS?: number;
  },
): Promise<DemoGateway[]> {
  const lang = opts.lang ?? 'zh';
  const now = opts.now ?? new Date();
  const pollS = opts.pollS ?? DEMO_POLL_S;
  const text = TEXT[lang];
  const who = { companyId: opts.companyId, userId: opts.adminId };
  const fleet: DemoGateway[] = DEMO_FLEET.map((g) => ({
    sn: g.sn,
    secret: newGatewaySecret(),
    model: g.model,
    firmware: g.firmware,
    iccid: g.iccid,
    ports: g.ports,
  }));
  await db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const [dir] = await tx
      .insert(cabinNodes)
      .values({
        companyId: opts.companyId,
        type: 'directory',
        name: text.dir,
        createdBy: opts.adminId,
        sortOrder: 3,
      })
      .returning({ id: cabinNodes.id });
    const configs: Array<{ index: number; gatewayId: number; config: GatewayConfig }> = [];
    for (const [i, entry] of DEMO_FLEET.entries()) {
      const registeredAt = new Date(now.getTime() - 60 * DAY);
      const [row] = await tx
        .insert(gateways)
        .values({
          serialNumber: entry.sn,
          model: entry.model,
          secretHash: sha256(fleet[i]!.secret),
          secretSetAt: registeredAt,
          registeredAt,
          registeredBy: opts.adminId,
          firmware: entry.firmware,
          iccid: entry.iccid,
        })
        .returning({ id: gateways.id });
      if (!entry.device) continue;
      const at = new Date(now.getTime() - entry.device.daysAgo * DAY);
      const deviceName = entry.device.name[lang];
      await bindNow(txDb, {
        gatewayId: row!.id,
        companyId: opts.companyId,
        userId: opts.adminId,
        name: deviceName,
        parentId: dir!.id,
        at,
      });
      await tx
        .update(devices)
        .set({ address: entry.device.address[lang], picture: `preset:${entry.device.picture}` })
        .where(eq(devices.gatewayId, row!.id));
      // each slave it reads: an IoT item (its data source names the gateway), the packet
      // reading the slave's measurement block and the parsing binding the values to the fields
      const packets: Array<{ port: number; packetId: number; name: string }> = [];
      for (const feed of entry.feeds ?? []) {
        const slave = slaveAt(entry, feed.port, feed.address);
        const name = feed.item[lang];
        const [itemNode] = await tx
          .insert(cabinNodes)
          .values({
            companyId: opts.companyId,
            parentId: dir!.id,
            type: 'dataItem',
            name,
            createdBy: opts.adminId,
          })
          .returning({ id: cabinNodes.id });
        const fields = feedFields(feed, slave, lang);
        const [item] = await tx
          .insert(dataItems)
          .values({
            companyId: opts.companyId,
            nodeId: itemNode!.id,
            name,
            kind: 13,
            fields,
            nextFieldNo: fields.length + 1,
            sources: [{ deviceId: entry.sn, deviceName }],
            description: feed.description[lang],
          })
          .returning({ id: dataItems.id });
        await tx.update(cabinNodes).set({ refId: item!.id }).where(eq(cabinNodes.id, itemNode!.id));
        const packetName = `${name} ${text.read}`;
        const [pkg] = await tx
          .insert(serialPackages)
          .values({
            companyId: opts.companyId,
            name: packetName,
            frame: requestFrame(slave, feed.port),
            appendCrc: true,
            valueType: 'byte',
            encoding: 'HEX',
            samplingId: 1,
            createdBy: opts.adminId,
          })
          .returning({ id: serialPackages.id });
        await tx.insert(serialParsers).values({
          packageId: pkg!.id,
          companyId: opts.companyId,
          answerLength: null,
          values: feedValues(slave, feed.port, feed.points, lang, item!.id, fields),
          updatedBy: opts.adminId,
        });
        packets.push({ port: feed.port, packetId: pkg!.id, name: packetName });
      }
      if (packets.length === 0) continue;
      const config = demoGatewayConfig(entry, packets, lang, pollS);
      await saveVersion(txDb, who, row!.id, null, config);
      configs.push({ index: i, gatewayId: row!.id, config });
    }
    // what a push of version 1 would have sent, and its hash: the gateway runs it already
    const frames = new Map((await companyPackages(txDb, opts.companyId)).map((p) => [p.id, p.frame]));
    for (const { index, gatewayId, config } of configs) {
      const pushed = forGateway(config, frames);
      const hash = sha256Hex(canonicalConfigText(pushed));
      fleet[index]!.config = { version: 1, hash, config: pushed };
      await tx.update(gateways).set({ configVersion: 1, configHash: hash }).where(eq(gateways.id, gatewayId));
    }
  });
  if (opts.dataDir) await writeDemoGateways(opts.dataDir, fleet);
  return fleet;
}

export function demoGatewaysPath(dataDir: string): string {
  return path.join(dataDir, 'secrets', DEMO_GATEWAYS_FILE);
}

async function writeDemoGateways(dataDir: string, fleet: DemoGateway[]): Promise<void> {
  await mkdir(path.join(dataDir, 'secrets'), { recursive: true, mode: 0o700 });
  await writeFile(demoGatewaysPath(dataDir), `${JSON.stringify(fleet, null, 2)}\n`, { mode: 0o600 });
}

/** The demo fleet's credentials, or null when the demo was not seeded with a data folder. */
export async function readDemoGateways(dataDir: string): Promise<DemoGateway[] | null> {
  try {
    const list = JSON.parse(await readFile(demoGatewaysPath(dataDir), 'utf8')) as DemoGateway[];
    return Array.isArray(list) ? list : null;
  } catch {
    return null;
  }
}

/**
 * On a broker whose accounts the server keeps (Mosquitto), gives the demo gateways their
 * accounts: their secrets sit in the demo's secrets file, so they can be provisioned at every
 * start. Nothing to do on the embedded broker or EMQX (they ask the server).
 */
export async function provisionDemoGateways(
  db: Db,
  accounts: BrokerAccounts,
  fleet: DemoGateway[],
): Promise<number> {
  let provisioned = 0;
  for (const g of fleet) {
    const [row] = await db
      .select({ hash: gateways.secretHash })
      .from(gateways)
      .where(eq(gateways.serialNumber, g.sn));
    // a secret replaced since (or a registration removed) is never brought back
    if (row?.hash !== sha256(g.secret)) continue;
    await accounts.put({ kind: 'gateway', username: g.sn, acl: gatewayAcl(g.sn) }, g.secret);
    provisioned += 1;
  }
  return provisioned;
}
