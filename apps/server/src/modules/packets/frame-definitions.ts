/**
 * What decoding a gateway's frames needs from the database: the packets and parsers of the
 * company (cached a few seconds, forgotten at once in this process when one is saved or
 * deleted), and which items a parser's last saver may write now (kept until access changes).
 */
import { DATA_PERMISSION, type ParserValue } from '@platform/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { AccessCache } from '../../platform/access-cache';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { inFlightPer } from '../../platform/in-flight';
import { levelsFor } from '../cabin/permissions';
import { companyMembers } from '../companies/tables';
import { memberRoles, roles } from '../roles/tables';
import { users } from '../users/tables';
import { serialPackages, serialParsers } from './tables';

export interface Definition {
  companyId: number;
  packet: { frame: string; appendCrc: boolean; encoding: 'ASCII' | 'HEX' };
  parser: { answerLength: number | null; values: ParserValue[]; updatedBy: number | null } | null;
}

/**
 * A change on another server node is seen after this long at most (a packet edited on one
 * node, frames decoded on another); on this node at once.
 */
const CACHE_TTL_MS = 5_000;
const caches = new WeakMap<Db, Map<number, { def: Definition | null; at: number }>>();

function cacheOf(db: Db) {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

/** Forget a packet's definition in this process (after saving or deleting it or its parser). */
export function invalidatePacket(db: Db, packageId: number): void {
  caches.get(db)?.delete(packageId);
}

/** The company's packets among these ids, with their parsers (another company's are absent). */
export async function definitionsOf(
  app: App,
  companyId: number,
  packetIds: number[],
): Promise<Map<number, Definition>> {
  const cache = cacheOf(app.db);
  const now = Date.now();
  const found = new Map<number, Definition | null>();
  const missing: number[] = [];
  for (const id of new Set(packetIds)) {
    const hit = cache.get(id);
    if (hit && now - hit.at < CACHE_TTL_MS) found.set(id, hit.def);
    else missing.push(id);
  }
  if (missing.length > 0) {
    const rows = await app.db
      .select({
        id: serialPackages.id,
        companyId: serialPackages.companyId,
        frame: serialPackages.frame,
        appendCrc: serialPackages.appendCrc,
        encoding: serialPackages.encoding,
        answerLength: serialParsers.answerLength,
        values: serialParsers.values,
        updatedBy: serialParsers.updatedBy,
      })
      .from(serialPackages)
      .leftJoin(serialParsers, eq(serialParsers.packageId, serialPackages.id))
      .where(inArray(serialPackages.id, missing));
    const byId = new Map(rows.map((r) => [r.id, r]));
    // the cache never holds much: a gateway naming ids at random must not grow it for ever
    if (cache.size > 10_000) cache.clear();
    for (const id of missing) {
      const r = byId.get(id);
      const def: Definition | null = r
        ? {
            companyId: r.companyId,
            packet: {
              frame: r.frame,
              appendCrc: r.appendCrc,
              encoding: r.encoding === 'ASCII' ? 'ASCII' : 'HEX',
            },
            parser: r.values
              ? { answerLength: r.answerLength, values: r.values, updatedBy: r.updatedBy }
              : null,
          }
        : null;
      cache.set(id, { def, at: now });
      found.set(id, def);
    }
  }
  const out = new Map<number, Definition>();
  for (const [id, def] of found) if (def && def.companyId === companyId) out.set(id, def);
  return out;
}

/** An enabled account, an active member of the company, holding the parsing code in one of its roles. */
function prepareHolds(db: Db) {
  return db
    .select({ roleId: memberRoles.roleId })
    .from(memberRoles)
    .innerJoin(roles, eq(roles.id, memberRoles.roleId))
    .innerJoin(
      companyMembers,
      and(eq(companyMembers.companyId, memberRoles.companyId), eq(companyMembers.userId, memberRoles.userId)),
    )
    .innerJoin(users, eq(users.id, memberRoles.userId))
    .where(
      and(
        eq(memberRoles.companyId, sql.placeholder('companyId')),
        eq(memberRoles.userId, sql.placeholder('userId')),
        eq(companyMembers.status, 'active'),
        eq(users.status, 1),
        sql`${roles.menuCodes} @> '["cd_parsing"]'::jsonb`,
      ),
    )
    .limit(1)
    .prepare('frame_saver_holds_parsing');
}
const holdStatements = new WeakMap<Db, ReturnType<typeof prepareHolds>>();
/** concurrent messages of parsers saved by one person share the read (platform/in-flight.ts) */
const access = inFlightPer<Db, Set<number>>();
/**
 * and later ones the answer, until access changes on any node (everything the answer reads
 * bumps the access epoch: memberships, roles, users, data permissions, items moved or deleted)
 */
const answers = new WeakMap<Db, AccessCache<Set<number>>>();
/** how long an answer is kept at most when the access epoch cannot be read */
const ANSWER_TTL_MS = 60_000;

/**
 * The items among `itemIds` a parser's last saver may write now: they still hold the parsing
 * code as an active member with an enabled account, and write permission on the item. Kept
 * until access changes (platform/access-cache.ts): a revocation reaches the frames within one
 * access poll, as it reaches live sockets and MQTT connections.
 */
export function writableBy(
  app: App,
  companyId: number,
  userId: number,
  itemIds: number[],
): Promise<Set<number>> {
  const ids = [...new Set(itemIds)].sort((x, y) => x - y);
  const key = `${companyId}:${userId}:${ids.join(',')}`;
  let cache = answers.get(app.db);
  if (!cache) {
    cache = new AccessCache(app.accessWatch, ANSWER_TTL_MS, 10_000);
    answers.set(app.db, cache);
  }
  return cache.get(key, () => readWritable(app, companyId, userId, ids, key));
}

function readWritable(app: App, companyId: number, userId: number, ids: number[], key: string) {
  return access(app.db).run(key, async () => {
    let holds = holdStatements.get(app.db);
    if (!holds) {
      holds = prepareHolds(app.db);
      holdStatements.set(app.db, holds);
    }
    // the item definitions are usually in memory; the two reads then go out together, so a
    // message waits for one round trip to the database, not two
    const heldRead = holds.execute({ companyId, userId });
    const defs = await app.ingest.itemDefs(ids).catch(async (error: unknown) => {
      await heldRead.catch(() => undefined);
      throw error;
    });
    const nodeOf = new Map<number, number>();
    for (const [id, def] of defs) if (def && def.companyId === companyId) nodeOf.set(id, def.nodeId);
    const [held, levels] = await Promise.all([
      heldRead,
      levelsFor(app.db, { companyId, userId }, [...new Set(nodeOf.values())]),
    ]);
    if (held.length === 0) return new Set<number>();
    return new Set(
      [...nodeOf]
        .filter(([, nodeId]) => (levels.get(nodeId) ?? 0) >= DATA_PERMISSION.write)
        .map(([id]) => id),
    );
  });
}
