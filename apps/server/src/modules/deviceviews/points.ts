/**
 * A device's data points (docs/devices.md, "Device views"): what the configuration the gateway
 * runs produces. A point is one field of a kind-13 item that a value of the device feeds: a
 * value of the parsing definition of a serial parser node (bound to its item and field in
 * Device communication → parsing), or an element node of the configuration naming its item and
 * field. Points of items the caller cannot read are left out (and counted), so their names and
 * values never reach the caller.
 *
 * The configuration the gateway runs: the version the gateway reports running when it is one
 * of this company's versions, else the version of the company's last push the gateway applied
 * (committed, unchanged, or applied and waiting for the commit). A gateway rebound from another
 * company may report a version number of its old company's: until it is pushed a configuration
 * of the new company's, the view may draw the new company's version of that number (only ever
 * the caller's own company's data).
 */
import {
  DATA_PERMISSION,
  type FieldType,
  type GatewayConfig,
  NUMERIC_FIELD_TYPES,
  type ParserValue,
} from '@platform/domain';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { type DataCaller, levelsFor } from '../cabin/permissions';
import { dataItems } from '../dataitems/tables';
import { gatewayConfigPushes, gatewayConfigVersions } from '../gatewayconfig/tables';
import { gateways } from '../gateways/tables';
import { serialParsers } from '../packets/tables';

export interface AppliedConfig {
  version: number;
  config: GatewayConfig;
}

export interface DevicePoint {
  /** `itemId:fieldKey`, what the series route takes */
  key: string;
  itemId: number;
  itemName: string;
  fieldKey: string;
  fieldName: string;
  unit: string | null;
  fieldType: FieldType;
  /** numbers can be charted */
  numeric: boolean;
  /** the parser values (or element nodes) feeding it */
  sources: Array<{ name: string; packetId: number | null; port: number | null; nodeId: string }>;
}

const APPLIED_STATES = ['committed', 'unchanged', 'applied'] as const;

/** The configuration the gateway runs, or null when none of this company's was applied. */
export async function appliedConfig(
  db: Db,
  companyId: number,
  gatewayId: number,
): Promise<AppliedConfig | null> {
  const scope = and(
    eq(gatewayConfigVersions.companyId, companyId),
    eq(gatewayConfigVersions.gatewayId, gatewayId),
  );
  const [gateway] = await db
    .select({ version: gateways.configVersion })
    .from(gateways)
    .where(eq(gateways.id, gatewayId));
  const [push] = await db
    .select({ version: gatewayConfigPushes.version })
    .from(gatewayConfigPushes)
    .where(
      and(
        eq(gatewayConfigPushes.companyId, companyId),
        eq(gatewayConfigPushes.gatewayId, gatewayId),
        inArray(gatewayConfigPushes.state, [...APPLIED_STATES]),
      ),
    )
    .orderBy(desc(gatewayConfigPushes.id))
    .limit(1);
  // the gateway's own word wins (a gateway provisioned with its configuration reports it
  // without any push); else the last push it applied
  const version = gateway?.version ?? push?.version ?? null;
  if (version === null) return null;
  const [row] = await db
    .select({ version: gatewayConfigVersions.version, config: gatewayConfigVersions.config })
    .from(gatewayConfigVersions)
    .where(and(scope, eq(gatewayConfigVersions.version, version)));
  if (row) return row;
  if (push && push.version !== version) {
    const [pushed] = await db
      .select({ version: gatewayConfigVersions.version, config: gatewayConfigVersions.config })
      .from(gatewayConfigVersions)
      .where(and(scope, eq(gatewayConfigVersions.version, push.version)));
    return pushed ?? null;
  }
  return null;
}

interface Binding {
  itemId: number;
  fieldKey: string;
  source: DevicePoint['sources'][number];
}

/** Every (item, field) the configuration's parsers and elements feed, in the order drawn. */
async function bindingsOf(db: Db, companyId: number, config: GatewayConfig): Promise<Binding[]> {
  const byId = new Map(config.nodes.map((n) => [n.id, n]));
  const portOf = new Map<string, number>();
  for (const link of config.links) {
    const from = byId.get(link.from);
    const to = byId.get(link.to);
    if (from?.type === 'com') portOf.set(link.to, from.settings.port);
    if (to?.type === 'com') portOf.set(link.from, to.settings.port);
  }
  // a parser node decodes on the gateway; a packet whose raw frames go up is decoded by the
  // platform with the packet's parsing: both feed the parsing's bound items
  const comOf = new Map<string, string>();
  for (const link of config.links) if (byId.get(link.to)?.type === 'com') comOf.set(link.from, link.to);
  const parsed = new Set(
    config.nodes.flatMap((n) => (n.type === 'serialParser' ? [n.settings.packetId] : [])),
  );
  const parsers = config.nodes.flatMap((n): Array<{ id: string; packetId: number; port: number | null }> => {
    if (n.type === 'serialParser')
      return [{ id: n.id, packetId: n.settings.packetId, port: portOf.get(n.id) ?? null }];
    if (n.type !== 'serialPacket' || parsed.has(n.settings.packetId)) return [];
    const com = comOf.get(n.id);
    return com ? [{ id: com, packetId: n.settings.packetId, port: portOf.get(n.id) ?? null }] : [];
  });
  const packetIds = [...new Set(parsers.map((p) => p.packetId).filter((id) => Number.isInteger(id)))];
  const definitions = new Map<number, ParserValue[]>(
    packetIds.length === 0
      ? []
      : (
          await db
            .select({ packageId: serialParsers.packageId, values: serialParsers.values })
            .from(serialParsers)
            .where(and(eq(serialParsers.companyId, companyId), inArray(serialParsers.packageId, packetIds)))
        ).map((r) => [r.packageId, r.values]),
  );
  const out: Binding[] = [];
  for (const parser of parsers) {
    const { port } = parser;
    for (const value of definitions.get(parser.packetId) ?? []) {
      if (value.itemId == null || value.fieldKey == null) continue;
      out.push({
        itemId: value.itemId,
        fieldKey: value.fieldKey,
        source: { name: value.name, packetId: parser.packetId, port, nodeId: parser.id },
      });
    }
  }
  const parserOf = new Map<string, string>();
  for (const link of config.links)
    if (byId.get(link.from)?.type === 'serialParser') parserOf.set(link.to, link.from);
  for (const node of config.nodes) {
    if (node.type !== 'element') continue;
    const { itemId, fieldKey, name } = node.settings;
    if (!Number.isInteger(itemId) || typeof fieldKey !== 'string') continue;
    const parser = byId.get(parserOf.get(node.id) ?? '');
    const packetId = parser?.type === 'serialParser' ? parser.settings.packetId : null;
    out.push({
      itemId,
      fieldKey,
      source: { name, packetId, port: parser ? (portOf.get(parser.id) ?? null) : null, nodeId: node.id },
    });
  }
  return out;
}

/**
 * The points of a configuration the caller may read, and how many were left out because the
 * caller cannot read their item. Fields since removed from their item are no points.
 */
export async function pointsOf(
  db: Db,
  caller: DataCaller,
  config: GatewayConfig,
): Promise<{ points: DevicePoint[]; hidden: number }> {
  const bindings = await bindingsOf(db, caller.companyId, config);
  const itemIds = [...new Set(bindings.map((b) => b.itemId))];
  if (itemIds.length === 0) return { points: [], hidden: 0 };
  const items = await db
    .select({ id: dataItems.id, nodeId: dataItems.nodeId, name: dataItems.name, fields: dataItems.fields })
    .from(dataItems)
    .where(and(eq(dataItems.companyId, caller.companyId), inArray(dataItems.id, itemIds)));
  const levels = await levelsFor(
    db,
    caller,
    items.map((i) => i.nodeId),
  );
  const itemById = new Map(items.map((i) => [i.id, i]));
  const points = new Map<string, DevicePoint>();
  const hidden = new Set<string>();
  for (const b of bindings) {
    const key = `${b.itemId}:${b.fieldKey}`;
    const item = itemById.get(b.itemId);
    const field = item?.fields.find((f) => f.key === b.fieldKey);
    if (!item || !field) continue;
    if ((levels.get(item.nodeId) ?? DATA_PERMISSION.none) < DATA_PERMISSION.read) {
      hidden.add(key);
      continue;
    }
    const known = points.get(key);
    if (known) {
      if (!known.sources.some((s) => s.nodeId === b.source.nodeId && s.name === b.source.name))
        known.sources.push(b.source);
      continue;
    }
    points.set(key, {
      key,
      itemId: item.id,
      itemName: item.name,
      fieldKey: field.key,
      fieldName: field.name,
      unit: field.unit ? field.unit : null,
      fieldType: field.type,
      numeric: NUMERIC_FIELD_TYPES.includes(field.type),
      sources: [b.source],
    });
  }
  return { points: [...points.values()], hidden: hidden.size };
}
