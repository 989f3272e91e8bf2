/**
 * The fleet benchmark's platform side, run inside the bench server process (bench/server.ts
 * `fleet-setup` / `fleet-push` / `fleet-stats`) so it goes through the server's own services
 * with the running app: a company and its administrator, the serial packets and parsers, the
 * data items, N gateways registered through the registry service (secrets as it makes them),
 * bound straight through `bindNow` (no button), and later a configuration pushed to each
 * online gateway through `pushConfig`, answered and committed over MQTT as in production.
 */
import {
  DATA_PERMISSION,
  type FieldDef,
  type GatewayConfig,
  normalizeValue,
  type ParserValue,
} from '@platform/domain';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { cabinNodes } from '../apps/server/src/modules/cabin/tables';
import { createCompany } from '../apps/server/src/modules/companies/service';
import { dataItems } from '../apps/server/src/modules/dataitems/tables';
import { bindNow } from '../apps/server/src/modules/devices/binding';
import { pushConfig } from '../apps/server/src/modules/gatewayconfig/push';
import { gatewayConfigPushes } from '../apps/server/src/modules/gatewayconfig/tables';
import { registerGateways } from '../apps/server/src/modules/gateways/registry';
import { gateways } from '../apps/server/src/modules/gateways/tables';
import { serialPackages, serialParsers } from '../apps/server/src/modules/packets/tables';
import { createUser } from '../apps/server/src/modules/users/service';
import type { App } from '../apps/server/src/platform/context';

/** three decimal fields: what one frame of the simulated meter decodes into */
export const FLEET_FIELDS: FieldDef[] = [
  { key: 'f1', name: 'voltage L1', unit: 'V', type: 1, decimals: 2 },
  { key: 'f2', name: 'voltage L2', unit: 'V', type: 1, decimals: 2 },
  { key: 'f3', name: 'voltage L3', unit: 'V', type: 1, decimals: 2 },
];

/** the simulated three-phase meter at address 1 of COM1: voltages L1-L3, three floats from register 0 */
export const FLEET_PACKET_FRAME = '01 03 00 00 00 06';

export interface FleetSetupInput {
  /** serial numbers of the fleet (simulated gateways) */
  fleet: string[];
  /** serial numbers of the gateways of the frames-vs-JSON rate test (plain MQTT clients) */
  rate: string[];
}

export interface FleetSetup {
  companyId: number;
  userId: number;
  /** what the fleet's frames are stored into */
  fleetItemId: number;
  fleetPacketId: number;
  /** the rate test: frames decoded into one item, the same values as JSON into another */
  rateFrameItemId: number;
  ratePacketId: number;
  rateJsonItemId: number;
  /** the serial number and secret of each gateway, fleet then rate */
  gateways: Array<{ id: number; sn: string; secret: string }>;
  seconds: { register: number; bind: number };
}

async function makeItem(app: App, companyId: number, userId: number, name: string, sources: string[]) {
  return app.db.transaction(async (tx) => {
    const [node] = await tx
      .insert(cabinNodes)
      .values({ companyId, parentId: null, type: 'dataItem', name, createdBy: userId })
      .returning({ id: cabinNodes.id });
    const [item] = await tx
      .insert(dataItems)
      .values({
        companyId,
        nodeId: node!.id,
        name,
        kind: 13,
        fields: FLEET_FIELDS,
        nextFieldNo: FLEET_FIELDS.length + 1,
        sources: sources.map((sn) => ({ deviceId: sn, deviceName: sn })),
      })
      .returning({ id: dataItems.id });
    await tx.update(cabinNodes).set({ refId: item!.id }).where(eq(cabinNodes.id, node!.id));
    return item!.id;
  });
}

/** A packet reading the meter's three voltages, and its parser storing them into `itemId`'s f1-f3. */
async function makePacket(app: App, companyId: number, userId: number, name: string, itemId: number) {
  const [row] = await app.db
    .insert(serialPackages)
    .values({
      companyId,
      name,
      frame: FLEET_PACKET_FRAME,
      appendCrc: true,
      valueType: 'byte',
      encoding: 'HEX',
      samplingId: 1,
    })
    .returning({ id: serialPackages.id });
  const values: ParserValue[] = FLEET_FIELDS.map((f, i) =>
    normalizeValue({
      name: f.name,
      offset: i * 4,
      length: 4,
      valueType: 'decimal',
      format: 'float',
      order: 'ABCD',
      itemId,
      fieldKey: f.key,
    }),
  );
  await app.db
    .insert(serialParsers)
    .values({ packageId: row!.id, companyId, values, updatedBy: userId, answerLength: null });
  return row!.id;
}

/** Runs `work` over `items` with at most `width` at a time. */
export async function pool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  });
  await Promise.all(lanes);
}

export async function setupFleet(app: App, input: FleetSetupInput): Promise<FleetSetup> {
  const phone = `138${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const user = await createUser(app.db, { phone, userName: 'fleet bench', password: 'bench1234' });
  const { company } = await createCompany(app.db, { name: 'Fleet bench company', ownerId: user.id });
  const fleetItemId = await makeItem(app, company.id, user.id, 'fleet meters', []);
  const rateFrameItemId = await makeItem(app, company.id, user.id, 'rate test: frames', []);
  const rateJsonItemId = await makeItem(app, company.id, user.id, 'rate test: JSON', input.rate);
  const fleetPacketId = await makePacket(app, company.id, user.id, 'fleet voltages', fleetItemId);
  const ratePacketId = await makePacket(app, company.id, user.id, 'rate voltages', rateFrameItemId);

  let t0 = performance.now();
  const registered: FleetSetup['gateways'] = [];
  const all = [...input.fleet, ...input.rate];
  for (let i = 0; i < all.length; i += 1000) {
    const batch = await registerGateways(app, {
      serialNumbers: all.slice(i, i + 1000),
      model: 'SDG-200',
      userId: user.id,
    });
    for (const g of batch) registered.push({ id: g.id, sn: g.serialNumber, secret: g.secret });
  }
  const register = (performance.now() - t0) / 1000;

  t0 = performance.now();
  const at = new Date();
  await pool(registered, 8, async (g) => {
    await app.db.transaction((tx) =>
      bindNow(tx, {
        gatewayId: g.id,
        companyId: company.id,
        userId: user.id,
        name: g.sn,
        parentId: null,
        at,
      }),
    );
    app.gateways.forget(g.sn);
  });
  const bind = (performance.now() - t0) / 1000;
  return {
    companyId: company.id,
    userId: user.id,
    fleetItemId,
    fleetPacketId,
    rateFrameItemId,
    ratePacketId,
    rateJsonItemId,
    gateways: registered,
    seconds: { register, bind },
  };
}

/** What the fleet's gateways run: COM1 polled for the packet every `intervalS`, frames to the platform. */
export function fleetConfig(packetId: number, intervalS: number): GatewayConfig {
  return {
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
      {
        id: 'packet1',
        type: 'serialPacket',
        name: 'Voltages',
        settings: { packetId, samplingId: 1, intervalS },
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
}

export interface PushInput {
  companyId: number;
  userId: number;
  packetId: number;
  intervalS: number;
  gatewayIds: number[];
  /** pushes at a time */
  width: number;
}

/** Pushes the polling configuration to each gateway (online ones); answers how many were sent and refused. */
export async function pushFleet(
  app: App,
  input: PushInput,
): Promise<{ sent: number; failed: number; firstError: string | null; seconds: number }> {
  const t0 = performance.now();
  const config = fleetConfig(input.packetId, input.intervalS);
  const rows = await app.db
    .select({ id: gateways.id, sn: gateways.serialNumber, online: gateways.online })
    .from(gateways)
    .where(inArray(gateways.id, input.gatewayIds));
  const nodes = new Map(
    (
      await app.db
        .select({ id: cabinNodes.id, refId: cabinNodes.refId })
        .from(cabinNodes)
        .where(and(eq(cabinNodes.companyId, input.companyId), eq(cabinNodes.type, 'device')))
    ).map((n) => [n.refId, n.id] as const),
  );
  let sent = 0;
  let failed = 0;
  let firstError: string | null = null;
  const caller = { companyId: input.companyId, userId: input.userId };
  await pool(rows, input.width, async (g) => {
    try {
      await pushConfig(
        app,
        caller,
        {
          id: g.id,
          serialNumber: g.sn,
          companyId: input.companyId,
          nodeId: nodes.get(g.id)!,
          name: g.sn,
          online: g.online,
          level: DATA_PERMISSION.admin,
        },
        null,
        config,
      );
      sent += 1;
    } catch (error) {
      failed += 1;
      firstError ??= `${g.sn}: ${(error as Error).message}`;
    }
  });
  return { sent, failed, firstError, seconds: (performance.now() - t0) / 1000 };
}

/** Pushes by state, for the company. */
export async function pushStates(app: App, companyId: number): Promise<Record<string, number>> {
  const rows = await app.db
    .select({ state: gatewayConfigPushes.state, n: count() })
    .from(gatewayConfigPushes)
    .where(eq(gatewayConfigPushes.companyId, companyId))
    .groupBy(gatewayConfigPushes.state);
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

/** How many of the company's gateways the platform shows online. */
export async function onlineCount(app: App, companyId: number): Promise<number> {
  const [row] = await app.db
    .select({ n: sql<number>`count(*) FILTER (WHERE ${gateways.online})` })
    .from(gateways)
    .where(eq(gateways.companyId, companyId));
  return Number(row?.n ?? 0);
}
