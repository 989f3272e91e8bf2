/**
 * What the check and the editor look up in the company's data: its serial data packages (with
 * the values their parsing defines, and the bytes a gateway sends) and its IoT data items
 * (kind 13) with their fields, as far as the caller can read them.
 */
import { type ConfigLookups, DATA_PERMISSION } from '@platform/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { type DataCaller, levelsFor } from '../cabin/permissions';
import { dataItems } from '../dataitems/tables';
import { companyPackages, type PackageInfo } from './packages';

const IOT_KIND = 13;

export interface ItemInfo {
  id: number;
  name: string;
  fields: Array<{ key: string; name: string }>;
}

export interface CompanyLookups {
  packages: PackageInfo[];
  items: ItemInfo[];
}

/** The company's IoT items the caller can read, by name. */
export async function readableIotItems(db: Db, caller: DataCaller): Promise<ItemInfo[]> {
  const rows = await db
    .select({ id: dataItems.id, name: dataItems.name, fields: dataItems.fields, nodeId: dataItems.nodeId })
    .from(dataItems)
    .where(and(eq(dataItems.companyId, caller.companyId), eq(dataItems.kind, IOT_KIND)))
    .orderBy(asc(dataItems.name), asc(dataItems.id));
  if (rows.length === 0) return [];
  const levels = await levelsFor(db, caller);
  return rows
    .filter((r) => (levels.get(r.nodeId) ?? DATA_PERMISSION.none) >= DATA_PERMISSION.read)
    .map((r) => ({ id: r.id, name: r.name, fields: r.fields.map((f) => ({ key: f.key, name: f.name })) }));
}

export async function companyLookups(db: Db, caller: DataCaller): Promise<CompanyLookups> {
  const [packages, items] = await Promise.all([
    companyPackages(db, caller.companyId),
    readableIotItems(db, caller),
  ]);
  return { packages, items };
}

/** The check's lookups over what was read. */
export function checkLookups(data: CompanyLookups): ConfigLookups {
  const fields = new Set(data.items.flatMap((i) => i.fields.map((f) => `${i.id}\u0000${f.key}`)));
  const byId = new Map(data.packages.map((p) => [p.id, p]));
  return {
    packet: (id: number) => byId.get(id) ?? null,
    field: (itemId, fieldKey) => fields.has(`${itemId}\u0000${fieldKey}`),
  };
}
