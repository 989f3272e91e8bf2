/**
 * Per-phone limits with backoff, on top of the per-address limit of every public auth route.
 * The address limit alone is beaten by an attacker with many addresses; these counters follow
 * the phone, live in the database (every node and every restart sees them) and count unknown
 * phones exactly like registered ones, so a lock says nothing about whether an account exists.
 *
 * Each attempt takes a slot before anything is checked: ATTEMPTS_FREE attempts pass freely,
 * the ATTEMPTS_FREE-th and every later one locks the phone for BACKOFF_BASE_S, doubling up to
 * BACKOFF_CAP_S. Taking the slot and locking are one statement, so parallel attempts cannot
 * slip past the limit. A success clears the counter; a phone left alone for a day starts over.
 *
 *   verify: checks of a password or of an SMS code (login, registration, reset, scan binding)
 *   sms:    codes sent to the phone (cleared when one of them is used)
 */
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { loginThrottle } from './tables';

export type ThrottleKind = 'verify' | 'sms';

export const ATTEMPTS_FREE = 5;
export const BACKOFF_BASE_S = 60;
export const BACKOFF_CAP_S = 30 * 60;
/** a counter untouched this long is forgotten */
export const THROTTLE_MEMORY = '24 hours';

/** Seconds a phone stays locked after its n-th counted attempt (0: not locked). */
export function backoffSeconds(attempts: number): number {
  if (attempts < ATTEMPTS_FREE) return 0;
  return Math.min(BACKOFF_BASE_S * 2 ** Math.min(attempts - ATTEMPTS_FREE, 20), BACKOFF_CAP_S);
}

const FREE = sql.raw(String(ATTEMPTS_FREE));

/** backoffSeconds in SQL; the exponent is bounded so power() stays finite however long an attacker persists */
function lockFor(attempts: SQL) {
  return sql`CASE WHEN ${attempts} >= ${FREE}
    THEN now() + least(${sql.raw(String(BACKOFF_BASE_S))} * power(2, least(${attempts} - ${FREE}, 20)), ${sql.raw(String(BACKOFF_CAP_S))}) * interval '1 second'
    ELSE NULL END`;
}

/**
 * Counts an attempt for the phone, or refuses it with 'tooManyAttempts' (42900, how many
 * minutes to wait in the message, `data.retryAfter` in seconds) while the phone is locked.
 */
export async function takeAttempt(db: Db, phone: string, kind: ThrottleKind): Promise<void> {
  const t = loginThrottle;
  const next = sql`(CASE WHEN ${t.updatedAt} < now() - interval '${sql.raw(THROTTLE_MEMORY)}' THEN 1 ELSE ${t.attempts} + 1 END)`;
  const taken = await db
    .insert(t)
    .values({ phone, kind, attempts: 1, lockedUntil: sql`${lockFor(sql`1`)}`, updatedAt: sql`now()` })
    .onConflictDoUpdate({
      target: [t.phone, t.kind],
      set: { attempts: sql`${next}`, lockedUntil: sql`${lockFor(next)}`, updatedAt: sql`now()` },
      setWhere: sql`${t.lockedUntil} IS NULL OR ${t.lockedUntil} <= now()`,
    })
    .returning({ attempts: t.attempts });
  if (taken.length > 0) return;
  const [locked] = await db
    .select({ wait: sql<number>`ceil(extract(epoch from ${t.lockedUntil} - now()))::int` })
    .from(t)
    .where(and(eq(t.phone, phone), eq(t.kind, kind)));
  const wait = Math.max(1, Number(locked?.wait ?? 1));
  throw new AppError('tooManyAttempts', { minutes: Math.ceil(wait / 60) }, { retryAfter: wait });
}

/** Gives back an attempt that did not happen after all (an SMS the provider failed to send). */
export async function releaseAttempt(db: Db, phone: string, kind: ThrottleKind): Promise<void> {
  const t = loginThrottle;
  await db
    .update(t)
    .set({ attempts: sql`greatest(${t.attempts} - 1, 0)`, lockedUntil: null })
    .where(and(eq(t.phone, phone), eq(t.kind, kind)));
}

/** A success: the phone starts over. */
export async function clearAttempts(
  db: Db,
  phone: string,
  kinds: ThrottleKind[] = ['verify', 'sms'],
): Promise<void> {
  await db
    .delete(loginThrottle)
    .where(and(eq(loginThrottle.phone, phone), inArray(loginThrottle.kind, kinds)));
}
