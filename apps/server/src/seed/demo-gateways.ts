/**
 * The demo company's gateways: four registered serial numbers, three bound to the demo company
 * (their nodes in a cabin directory 设备 / Devices), one left unbound for someone to bind with
 * the button, and an IoT item one of them feeds. Light on purpose: rows, no history.
 *
 * Their secrets are generated here and written to DATA_DIR/secrets/demo-gateways.json (mode
 * 0600, a JSON array of {sn, secret, model, firmware, iccid}) for the simulated fleet `npm start`
 * runs (DEMO_GATEWAYS=off stops it); the database keeps only their SHA-256, as for any gateway.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type FieldDef, gatewayAcl } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { DemoLang } from '../config';
import { cabinNodes } from '../modules/cabin/tables';
import { dataItems } from '../modules/dataitems/tables';
import { bindNow } from '../modules/devices/binding';
import { devices } from '../modules/devices/tables';
import { newGatewaySecret } from '../modules/gateways/registry';
import { gateways } from '../modules/gateways/tables';
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
}

interface FleetEntry {
  sn: string;
  model: string;
  firmware: string;
  iccid: string;
  /** bound to the demo company with this name, address and picture; absent: left unbound */
  device?: {
    name: Record<DemoLang, string>;
    address: Record<DemoLang, string>;
    picture: string;
    daysAgo: number;
  };
}

export const DEMO_FLEET: readonly FleetEntry[] = [
  {
    sn: 'SDG2024000101',
    model: 'SDG-200',
    firmware: '1.2.0',
    iccid: '89860012345678900107',
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
    device: {
      name: { zh: '配电室网关', en: 'Switch room gateway' },
      address: { zh: '配电室 2号低压柜', en: 'Switch room, low-voltage cabinet 2' },
      picture: 'cabinet',
      daysAgo: 12,
    },
  },
  // waiting on a shelf for someone to bind it (its simulated button confirms a request)
  { sn: 'SDG2024000104', model: 'SDG-200', firmware: '1.1.4', iccid: '89860012345678900131' },
];

const TEXT: Record<
  DemoLang,
  { dir: string; item: string; description: string; fields: [string, string, string, string] }
> = {
  zh: {
    dir: '设备',
    item: '配电室电量',
    description: '配电室网关上报的低压柜电参量',
    fields: ['电压', '电流', '有功功率', '电能'],
  },
  en: {
    dir: 'Devices',
    item: 'Switch room power',
    description: 'Low-voltage cabinet readings reported by the switch room gateway',
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

export async function seedDemoGateways(
  db: Db,
  opts: { companyId: number; adminId: number; lang?: DemoLang; now?: Date; dataDir?: string },
): Promise<DemoGateway[]> {
  const lang = opts.lang ?? 'zh';
  const now = opts.now ?? new Date();
  const text = TEXT[lang];
  const fleet: DemoGateway[] = DEMO_FLEET.map((g) => ({
    sn: g.sn,
    secret: newGatewaySecret(),
    model: g.model,
    firmware: g.firmware,
    iccid: g.iccid,
  }));
  await db.transaction(async (tx) => {
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
      await bindNow(tx as unknown as Db, {
        gatewayId: row!.id,
        companyId: opts.companyId,
        userId: opts.adminId,
        name: entry.device.name[lang],
        parentId: dir!.id,
        at,
      });
      await tx
        .update(devices)
        .set({ address: entry.device.address[lang], picture: `preset:${entry.device.picture}` })
        .where(eq(devices.gatewayId, row!.id));
    }
    // the switch room gateway's readings land here (its data source names its serial number)
    const switchRoom = DEMO_FLEET[2]!;
    const [itemNode] = await tx
      .insert(cabinNodes)
      .values({
        companyId: opts.companyId,
        parentId: dir!.id,
        type: 'dataItem',
        name: text.item,
        createdBy: opts.adminId,
      })
      .returning({ id: cabinNodes.id });
    const fields = powerFields(lang);
    const [item] = await tx
      .insert(dataItems)
      .values({
        companyId: opts.companyId,
        nodeId: itemNode!.id,
        name: text.item,
        kind: 13,
        fields,
        nextFieldNo: fields.length + 1,
        sources: [{ deviceId: switchRoom.sn, deviceName: switchRoom.device!.name[lang] }],
        description: text.description,
      })
      .returning({ id: dataItems.id });
    await tx.update(cabinNodes).set({ refId: item!.id }).where(eq(cabinNodes.id, itemNode!.id));
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
