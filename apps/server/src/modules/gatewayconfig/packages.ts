/**
 * The company's serial data packages as a configuration needs them (Device communication →
 * data packages and parsing): names for the editor, the values their parsing defines for the
 * check, the bytes sent (frame and CRC) for the push. And the other way round: a package the
 * latest configuration of one of the company's gateways names cannot be deleted.
 */
import { sentBytes, toHex } from '@platform/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { devices } from '../devices/tables';
import { gateways } from '../gateways/tables';
import { serialPackages, serialParsers } from '../packets/tables';
import { gatewayConfigVersions } from './tables';

export interface PackageInfo {
  id: number;
  name: string;
  /** hex of the bytes a gateway sends, CRC included where the definition appends one */
  frame: string;
  /** the names of its parsing's values; null when it has no parsing */
  parserValues: string[] | null;
}

/** Every data package of the company, by name. */
export async function companyPackages(db: Db, companyId: number): Promise<PackageInfo[]> {
  const rows = await db
    .select({
      id: serialPackages.id,
      name: serialPackages.name,
      frame: serialPackages.frame,
      appendCrc: serialPackages.appendCrc,
      values: serialParsers.values,
    })
    .from(serialPackages)
    .leftJoin(
      serialParsers,
      and(eq(serialParsers.packageId, serialPackages.id), eq(serialParsers.companyId, companyId)),
    )
    .where(eq(serialPackages.companyId, companyId))
    .orderBy(asc(serialPackages.name), asc(serialPackages.id));
  return rows.map((r) => {
    const bytes = sentBytes({ frame: r.frame, appendCrc: r.appendCrc });
    return {
      id: r.id,
      name: r.name,
      frame: bytes ? toHex(bytes) : '',
      parserValues: r.values ? r.values.map((v) => v.name) : null,
    };
  });
}

/**
 * Registers with the data packages the check made before one is deleted: the latest version of
 * a gateway's configuration naming it (in a serial packet or a serial parser) keeps it.
 * Older versions do not: history may name what is gone (a restore then fails the check).
 */
export function registerPacketUse(app: App): void {
  app.packetUses.register(async (db, companyId, packageId) => {
    const latest = db
      .select({
        gatewayId: gatewayConfigVersions.gatewayId,
        latestVersion: sql<number>`max(${gatewayConfigVersions.version})`.as('latest_version'),
      })
      .from(gatewayConfigVersions)
      .where(eq(gatewayConfigVersions.companyId, companyId))
      .groupBy(gatewayConfigVersions.gatewayId)
      .as('latest');
    const [row] = await db
      .select({ version: gatewayConfigVersions.version, name: devices.name, sn: gateways.serialNumber })
      .from(gatewayConfigVersions)
      .innerJoin(
        latest,
        and(
          eq(latest.gatewayId, gatewayConfigVersions.gatewayId),
          eq(latest.latestVersion, gatewayConfigVersions.version),
        ),
      )
      .innerJoin(gateways, eq(gateways.id, gatewayConfigVersions.gatewayId))
      .leftJoin(
        devices,
        and(eq(devices.gatewayId, gatewayConfigVersions.gatewayId), eq(devices.companyId, companyId)),
      )
      .where(
        and(
          eq(gatewayConfigVersions.companyId, companyId),
          sql`exists (select 1 from jsonb_array_elements(${gatewayConfigVersions.config}->'nodes') as n
            where n->>'type' in ('serialPacket', 'serialParser')
            and n->'settings'->>'packetId' = ${String(packageId)})`,
        ),
      )
      .limit(1);
    return row ? `${row.name ?? row.sn} (${row.sn}) v${row.version}` : null;
  });
}
