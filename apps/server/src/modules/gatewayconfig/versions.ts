/**
 * Versions of a gateway's configuration (docs/gateway-config.md, "Versions and conflicts").
 * A save names the version the editor loaded (`baseVersion`, null for none): a save on any
 * other base is refused with who saved what when, so two people editing one gateway cannot
 * silently overwrite each other. The unique (company, gateway, version) settles two saves that
 * raced past the check: the second insert fails and is refused the same way.
 *
 * Content equal to the head's (same hash: only nodes moved) keeps the head's version and
 * stores the new layout in it; anything else is a new version.
 */
import { createHash } from 'node:crypto';
import {
  canonicalConfigText,
  formatInstant,
  type GatewayConfig,
  MAX_GATEWAY_NODES,
  withoutFrames,
} from '@platform/domain';
import { and, count, desc, eq, gt, inArray, notExists } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { uniqueViolation } from '../auth/service';
import { companies } from '../companies/tables';
import { users } from '../users/tables';
import { type ConfigVersionRow, gatewayConfigVersions } from './tables';

export interface Who {
  companyId: number;
  userId: number;
}

export interface VersionMeta {
  version: number;
  hash: string;
  nodeCount: number;
  savedAt: string;
  savedBy: { id: number; name: string } | null;
  restoredFrom: number | null;
}

export interface SaveResult {
  version: number;
  hash: string;
  created: boolean;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The hash of a configuration: SHA-256 of its canonical form. */
export function configHash(config: unknown): string {
  return sha256Hex(canonicalConfigText(config));
}

/** What is stored of an editor's configuration: its nodes (with positions) and links, no frames, nothing else. */
export function storable(config: GatewayConfig): GatewayConfig {
  const plain: GatewayConfig = {
    nodes: config.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      name: n.name,
      settings: n.settings,
      ...(n.position ? { position: { x: n.position.x, y: n.position.y } } : {}),
    })) as GatewayConfig['nodes'],
    links: config.links.map((l) => ({ from: l.from, to: l.to })),
  };
  return withoutFrames(plain);
}

const scope = (who: Who, gatewayId: number) =>
  and(eq(gatewayConfigVersions.companyId, who.companyId), eq(gatewayConfigVersions.gatewayId, gatewayId));

async function metaOf(db: Db, rows: ConfigVersionRow[]): Promise<VersionMeta[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.savedBy ? [r.savedBy] : [])))];
  const names = new Map(
    ids.length === 0
      ? []
      : (
          await db.select({ id: users.id, name: users.userName }).from(users).where(inArray(users.id, ids))
        ).map((u) => [u.id, u.name] as const),
  );
  return rows.map((r) => ({
    version: r.version,
    hash: r.hash,
    nodeCount: r.nodeCount,
    savedAt: r.savedAt.toISOString(),
    savedBy: r.savedBy ? { id: r.savedBy, name: names.get(r.savedBy) ?? '' } : null,
    restoredFrom: r.restoredFrom,
  }));
}

export async function headVersion(db: Db, who: Who, gatewayId: number): Promise<ConfigVersionRow | null> {
  const [row] = await db
    .select()
    .from(gatewayConfigVersions)
    .where(scope(who, gatewayId))
    .orderBy(desc(gatewayConfigVersions.version))
    .limit(1);
  return row ?? null;
}

export async function headMeta(db: Db, who: Who, gatewayId: number) {
  const head = await headVersion(db, who, gatewayId);
  return head ? { row: head, meta: (await metaOf(db, [head]))[0]! } : null;
}

export async function versionRow(
  db: Db,
  who: Who,
  gatewayId: number,
  version: number,
): Promise<ConfigVersionRow> {
  const [row] = await db
    .select()
    .from(gatewayConfigVersions)
    .where(and(scope(who, gatewayId), eq(gatewayConfigVersions.version, version)));
  if (!row) throw new AppError('configVersionUnknown', { version }, { field: 'version' });
  return row;
}

export async function versionWithMeta(db: Db, who: Who, gatewayId: number, version: number) {
  const row = await versionRow(db, who, gatewayId, version);
  return { meta: (await metaOf(db, [row]))[0]!, config: row.config };
}

export async function listVersions(db: Db, who: Who, gatewayId: number, limit: number, offset: number) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(gatewayConfigVersions)
      .where(scope(who, gatewayId))
      .orderBy(desc(gatewayConfigVersions.version))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(gatewayConfigVersions).where(scope(who, gatewayId)),
  ]);
  return { list: await metaOf(db, rows), total: Number(total?.n ?? 0) };
}

/** The refusal of a save on a stale base: who saved the head, and when (in the company's time zone). */
async function conflict(db: Db, who: Who, gatewayId: number): Promise<AppError> {
  const head = await headVersion(db, who, gatewayId);
  if (!head)
    return new AppError('configSaveConflict', { version: 0, name: '?', at: '?' }, { field: 'baseVersion' });
  const [meta] = await metaOf(db, [head]);
  const [company] = await db
    .select({ tz: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, who.companyId));
  const at = formatInstant(head.savedAt.getTime(), 'yyyy-MM-dd HH:mm:ss', company?.tz ?? 'Asia/Shanghai');
  return new AppError(
    'configSaveConflict',
    { version: head.version, name: meta?.savedBy?.name || '?', at },
    { field: 'baseVersion', version: head.version, savedBy: meta?.savedBy ?? null, savedAt: meta?.savedAt },
  );
}

/**
 * Saves `config` on top of `baseVersion`. Refuses a stale base (configSaveConflict) and more
 * nodes than the maximum (maxNodes); saves anything else, even a configuration that fails the
 * check (a push refuses those): a person's work is never thrown away for being unfinished.
 */
export async function saveVersion(
  db: Db,
  who: Who,
  gatewayId: number,
  baseVersion: number | null,
  input: GatewayConfig,
  restoredFrom: number | null = null,
): Promise<SaveResult> {
  if (input.nodes.length > MAX_GATEWAY_NODES) throw new AppError('maxNodes', {}, { field: 'config.nodes' });
  const config = storable(input);
  const hash = configHash(config);
  const head = await headVersion(db, who, gatewayId);
  if ((head?.version ?? null) !== baseVersion) throw await conflict(db, who, gatewayId);
  if (head && head.hash === hash && restoredFrom == null) {
    // the same content: keep the version, keep the new layout
    const updated = await db
      .update(gatewayConfigVersions)
      .set({ config })
      .where(
        and(
          eq(gatewayConfigVersions.id, head.id),
          // nobody saved a newer version meanwhile
          notExists(
            db
              .select({ one: gatewayConfigVersions.id })
              .from(gatewayConfigVersions)
              .where(and(scope(who, gatewayId), gt(gatewayConfigVersions.version, head.version))),
          ),
        ),
      )
      .returning({ id: gatewayConfigVersions.id });
    if (updated.length === 0) throw await conflict(db, who, gatewayId);
    return { version: head.version, hash, created: false };
  }
  try {
    await db.insert(gatewayConfigVersions).values({
      companyId: who.companyId,
      gatewayId,
      version: (head?.version ?? 0) + 1,
      config,
      hash,
      nodeCount: config.nodes.length,
      restoredFrom,
      savedBy: who.userId,
    });
  } catch (error) {
    if (uniqueViolation(error) === null) throw error;
    throw await conflict(db, who, gatewayId);
  }
  return { version: (head?.version ?? 0) + 1, hash, created: true };
}

/** Saves the content of an old version as a new one (its layout too). */
export async function restoreVersion(
  db: Db,
  who: Who,
  gatewayId: number,
  version: number,
  baseVersion: number | null,
): Promise<SaveResult> {
  const old = await versionRow(db, who, gatewayId, version);
  return saveVersion(db, who, gatewayId, baseVersion, old.config, version);
}
