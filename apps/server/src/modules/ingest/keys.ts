/**
 * Submission keys: `sdk_` + 32 random bytes (base64url), shown once at creation. Only the
 * SHA-256 is stored, with the first 12 characters to recognise a key in the list. A key acts
 * for its creator in its company; a device key only for items that name its deviceId.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
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
  if (
    !row ||
    row.revokedAt ||
    row.userStatus !== 1 ||
    row.memberStatus !== 'active' ||
    row.companyDeletedAt
  ) {
    throw new AppError('submitKeyInvalid');
  }
  return {
    id: row.id,
    companyId: row.companyId,
    userId: row.userId,
    kind: row.kind === 'device' ? 'device' : 'user',
    deviceId: row.deviceId,
  };
}

/**
 * The key lookup runs on every submission: built once per database and prepared (drizzle
 * skips rebuilding the SQL, PostgreSQL skips parsing and planning it on each connection).
 */
function prepareResolve(db: Db) {
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
    .where(eq(submissionKeys.keyHash, sql.placeholder('hash')))
    .prepare('submission_key_resolve');
}
/** concurrent submissions with one key share its lookup (platform/in-flight.ts) */
const keyLookups = inFlightPer<Db, Awaited<ReturnType<ReturnType<typeof prepareResolve>['execute']>>>();
const resolveStatements = new WeakMap<Db, ReturnType<typeof prepareResolve>>();
function resolveStatement(db: Db): ReturnType<typeof prepareResolve> {
  let statement = resolveStatements.get(db);
  if (!statement) {
    statement = prepareResolve(db);
    resolveStatements.set(db, statement);
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
