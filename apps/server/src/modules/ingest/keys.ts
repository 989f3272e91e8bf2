/**
 * Submission keys: `sdk_` + 32 random bytes (base64url), shown once at creation. Only the
 * SHA-256 is stored, with the first 12 characters to recognise a key in the list. A key acts
 * for its creator in its company; a device key only for items that name its deviceId.
 * Over MQTT a key is the password of the username `key-<id>` (public: it names the key in
 * topics, never its secret).
 */
import { randomBytes } from 'node:crypto';
import { keyMqttUsername, submissionAcl } from '@platform/domain';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { inFlightPer } from '../../platform/in-flight';
import { sha256 } from '../../platform/tokens';
import { companies, companyMembers } from '../companies/tables';
import { users } from '../users/tables';
import { submissionKeys } from './tables';

export const KEY_PREFIX = 'sdk_';
export type KeyKind = 'user' | 'device';

export interface KeyRow {
  id: number;
  name: string;
  kind: string;
  deviceId: string | null;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export function newKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export async function listKeys(db: Db, companyId: number, userId: number): Promise<KeyRow[]> {
  return db
    .select({
      id: submissionKeys.id,
      name: submissionKeys.name,
      kind: submissionKeys.kind,
      deviceId: submissionKeys.deviceId,
      prefix: submissionKeys.prefix,
      createdAt: submissionKeys.createdAt,
      lastUsedAt: submissionKeys.lastUsedAt,
      revokedAt: submissionKeys.revokedAt,
    })
    .from(submissionKeys)
    .where(and(eq(submissionKeys.companyId, companyId), eq(submissionKeys.userId, userId)))
    .orderBy(desc(submissionKeys.id));
}

export async function createKey(
  db: Db,
  input: { companyId: number; userId: number; name: string; kind: KeyKind; deviceId?: string | null },
): Promise<{ id: number; key: string }> {
  const key = newKey();
  const [row] = await db
    .insert(submissionKeys)
    .values({
      companyId: input.companyId,
      userId: input.userId,
      name: input.name,
      kind: input.kind,
      deviceId: input.kind === 'device' ? (input.deviceId ?? null) : null,
      prefix: key.slice(0, 12),
      keyHash: sha256(key),
    })
    .returning({ id: submissionKeys.id });
  return { id: row!.id, key };
}

/**
 * Creates a key and, when the server keeps the accounts of an external MQTT broker (Mosquitto's
 * dynamic security), the key's account there: this is the only moment the server holds the
 * key in plain text. If the broker cannot take it, the key is not created.
 */
export async function issueKey(
  app: App,
  input: { companyId: number; userId: number; name: string; kind: KeyKind; deviceId?: string | null },
): Promise<{ id: number; key: string }> {
  const created = await createKey(app.db, input);
  const accounts = app.mqtt?.accounts;
  if (accounts) {
    const username = keyMqttUsername(created.id);
    try {
      await accounts.put({ kind: 'key', username, acl: submissionAcl(username) }, created.key);
    } catch (error) {
      app.log.error({ err: error }, 'could not create the MQTT broker account of a new key');
      await app.db.delete(submissionKeys).where(eq(submissionKeys.id, created.id));
      throw new AppError('mqttBrokerUnavailable');
    }
  }
  return created;
}

/** Revokes one of the caller's own keys; another's (or another company's) is absent. */
export async function revokeKey(db: Db, companyId: number, userId: number, id: number): Promise<void> {
  const [row] = await db
    .select({ revokedAt: submissionKeys.revokedAt })
    .from(submissionKeys)
    .where(
      and(
        eq(submissionKeys.id, id),
        eq(submissionKeys.companyId, companyId),
        eq(submissionKeys.userId, userId),
      ),
    );
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  if (!row.revokedAt) {
    await db
      .update(submissionKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(submissionKeys.id, id), isNull(submissionKeys.revokedAt)));
  }
}

export interface KeyHolder {
  id: number;
  companyId: number;
  userId: number;
  kind: KeyKind;
  deviceId: string | null;
}

/**
 * The holder of a raw key, or the invalid-key error: unknown, revoked, its user disabled or no
 * longer an active member, or its company deleted.
 */
export async function resolveKey(db: Db, raw: string | undefined | null): Promise<KeyHolder> {
  const key = raw?.replace(/^Bearer\s+/i, '').trim();
  if (!key?.startsWith(KEY_PREFIX) || key.length > 100) throw new AppError('submitKeyInvalid');
  const hash = sha256(key);
  const [row] = await keyLookups(db).run(hash, () => resolveStatement(db).execute({ hash }));
  return holderOf(row);
}

/**
 * The holder of key `id`, checked as `resolveKey` does. For MQTT submissions: the broker
 * authenticated the client with the key, and its topic names the key by id.
 */
export async function resolveKeyId(db: Db, id: number): Promise<KeyHolder> {
  const [row] = await keyLookups(db).run(`id:${id}`, () => resolveIdStatement(db).execute({ id }));
  return holderOf(row);
}

type KeyLookupRow = Awaited<ReturnType<ReturnType<typeof prepareResolve>['execute']>>[number];

/** Whether a key may be used now: allowed, suspended (its user disabled or not an active member) or gone. */
export function keyState(row: KeyLookupRow | undefined): 'allowed' | 'suspended' | 'gone' {
  if (!row || row.revokedAt || row.companyDeletedAt) return 'gone';
  if (row.userStatus !== 1 || row.memberStatus !== 'active') return 'suspended';
  return 'allowed';
}

function holderOf(row: KeyLookupRow | undefined): KeyHolder {
  if (!row || keyState(row) !== 'allowed') throw new AppError('submitKeyInvalid');
  return {
    id: row.id,
    companyId: row.companyId,
    userId: row.userId,
    kind: row.kind === 'device' ? 'device' : 'user',
    deviceId: row.deviceId,
  };
}

/** The state of each key id (missing ids are gone). */
export async function keyStates(
  db: Db,
  ids: readonly number[],
): Promise<Map<number, 'allowed' | 'suspended' | 'gone'>> {
  const states = new Map<number, 'allowed' | 'suspended' | 'gone'>();
  if (ids.length === 0) return states;
  const rows = await keyLookup(db).where(inArray(submissionKeys.id, [...ids]));
  for (const row of rows) states.set(row.id, keyState(row));
  return states;
}

/** Ids of the keys usable now. */
export async function allowedKeyIds(db: Db): Promise<number[]> {
  const rows = await keyLookup(db).where(isNull(submissionKeys.revokedAt));
  return rows.filter((r) => keyState(r) === 'allowed').map((r) => r.id);
}

/**
 * The key lookup runs on every submission: built once per database and prepared (drizzle
 * skips rebuilding the SQL, PostgreSQL skips parsing and planning it on each connection).
 */
function keyLookup(db: Db) {
  return db
    .select({
      id: submissionKeys.id,
      companyId: submissionKeys.companyId,
      userId: submissionKeys.userId,
      kind: submissionKeys.kind,
      deviceId: submissionKeys.deviceId,
      revokedAt: submissionKeys.revokedAt,
      userStatus: users.status,
      memberStatus: companyMembers.status,
      companyDeletedAt: companies.deletedAt,
    })
    .from(submissionKeys)
    .innerJoin(users, eq(users.id, submissionKeys.userId))
    .innerJoin(companies, eq(companies.id, submissionKeys.companyId))
    .leftJoin(
      companyMembers,
      and(
        eq(companyMembers.companyId, submissionKeys.companyId),
        eq(companyMembers.userId, submissionKeys.userId),
      ),
    )
    .$dynamic();
}
function prepareResolve(db: Db) {
  return keyLookup(db)
    .where(eq(submissionKeys.keyHash, sql.placeholder('hash')))
    .prepare('submission_key_resolve');
}
function prepareResolveId(db: Db) {
  return keyLookup(db)
    .where(eq(submissionKeys.id, sql.placeholder('id')))
    .prepare('submission_key_resolve_id');
}
/** concurrent submissions with one key share its lookup (platform/in-flight.ts) */
const keyLookups = inFlightPer<Db, KeyLookupRow[]>();
const resolveStatements = new WeakMap<Db, ReturnType<typeof prepareResolve>>();
function resolveStatement(db: Db): ReturnType<typeof prepareResolve> {
  let statement = resolveStatements.get(db);
  if (!statement) {
    statement = prepareResolve(db);
    resolveStatements.set(db, statement);
  }
  return statement;
}
const resolveIdStatements = new WeakMap<Db, ReturnType<typeof prepareResolveId>>();
function resolveIdStatement(db: Db): ReturnType<typeof prepareResolveId> {
  let statement = resolveIdStatements.get(db);
  if (!statement) {
    statement = prepareResolveId(db);
    resolveIdStatements.set(db, statement);
  }
  return statement;
}

/** at most once a minute per key, so a busy device does not turn every submission into an UPDATE */
const lastTouched = new Map<number, number>();
export async function touchKey(db: Db, id: number): Promise<void> {
  const now = Date.now();
  if (now - (lastTouched.get(id) ?? 0) < 60_000) return;
  lastTouched.set(id, now);
  await db
    .update(submissionKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(eq(submissionKeys.id, id));
}
