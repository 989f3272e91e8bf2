/** Opaque random API tokens; only their SHA-256 is stored, with an expiry. */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { tokens } from '../modules/auth/tables';
import type { Db } from './db';

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export async function issueToken(db: Db, userId: number, ttlHours: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(tokens).values({
    tokenHash: sha256(token),
    userId,
    expiresAt: new Date(Date.now() + ttlHours * 3_600_000),
  });
  return token;
}

export async function revokeToken(db: Db, token: string): Promise<void> {
  await db
    .update(tokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(tokens.tokenHash, sha256(token)), isNull(tokens.revokedAt)));
}

/**
 * Revokes every live token of a user: on a password reset and when the account is disabled
 * (users/members.ts), so enabling it again brings no old session back.
 */
export async function revokeAllTokens(db: Db, userId: number): Promise<void> {
  await db
    .update(tokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(tokens.userId, userId), isNull(tokens.revokedAt)));
}
