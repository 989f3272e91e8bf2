/** Accounts seen from the login side: issuing login tokens, registering, resetting passwords. */
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import { hashPassword, verifyPassword } from '../../platform/password';
import { issueToken, revokeAllTokens } from '../../platform/tokens';
import { createUser, defaultUserName, findUserByPhone, type UserRow } from '../users/service';
import { users } from '../users/tables';
import { clearAttempts, takeAttempt } from './throttle';

export interface LoginToken {
  token: string;
  /** seconds */
  expiresIn: number;
}

/**
 * A token for an active user; a disabled account gets none, whichever way it logged in. An
 * unclaimed account (made for an invitation) can only be logged into by proving the phone (SMS
 * code, scan with phone): that login makes it its owner's.
 */
export async function loginTokenFor(db: Db, user: UserRow, ttlHours: number): Promise<LoginToken> {
  if (user.status !== 1) throw new AppError('userDisabled');
  if (user.unclaimed) await db.update(users).set({ unclaimed: false }).where(eq(users.id, user.id));
  return { token: await issueToken(db, user.id, ttlHours), expiresIn: ttlHours * 3600 };
}

let dummyHash: Promise<string> | undefined;

/**
 * The hash of a password nobody knows, made like every real one (same scrypt parameters).
 * A phone with no account, or an account with no password, is checked against it, so the
 * answer costs the same time as a wrong password for a real account.
 */
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString('base64url'));
  return dummyHash;
}

/**
 * Password login: the user of the phone when the password is theirs; otherwise 'loginFailed',
 * with the same answer, the same work (one scrypt) and the same per-phone count whether the
 * phone has no account, an account without a password, or an account and a wrong password.
 */
export async function authenticateByPassword(db: Db, phone: string, password: string): Promise<UserRow> {
  await takeAttempt(db, phone, 'verify');
  const user = await findUserByPhone(db, phone);
  const matches = await verifyPassword(password, user?.passwordHash || (await dummyPasswordHash()));
  if (!user?.passwordHash || !matches) throw new AppError('loginFailed');
  await clearAttempts(db, phone, ['verify']);
  return user;
}

/**
 * The constraint a unique violation broke ('' when it names none), or null for any other
 * error; as raised by node-postgres and by PGlite, possibly wrapped by drizzle.
 */
export function uniqueViolation(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth += 1) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (code === '23505') return typeof constraint === 'string' ? constraint : '';
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * A new account with no company (the person creates one or accepts an invitation later).
 * A phone (or scan identity) taken in the meantime by a parallel request is refused like a
 * taken one.
 */
export async function registerUser(
  db: Db,
  input: { phone: string; password?: string; userName?: string; wxOpenId?: string },
): Promise<UserRow> {
  try {
    return await createUser(db, input);
  } catch (error) {
    const constraint = uniqueViolation(error);
    if (constraint?.includes('wx_open_id')) throw fieldError('phone', 'wxAlreadyBound');
    if (constraint != null) throw fieldError('phone', 'phoneTaken');
    throw error;
  }
}

/**
 * Registration on an unclaimed account (made when a company invited the phone): the phone's
 * owner, proven by the SMS code, sets their own name (or the default one) and password, and the
 * account becomes theirs with its pending invitations, to accept or refuse. Claimed meanwhile
 * by a parallel request: refused like a taken phone.
 */
export async function claimAccount(
  db: Db,
  user: UserRow,
  input: { password: string; userName?: string },
): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (raw) => {
    const tx = raw as unknown as Db;
    const [claimed] = await tx
      .update(users)
      .set({
        passwordHash,
        userName: input.userName ?? defaultUserName(user.phone),
        unclaimed: false,
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, user.id), eq(users.unclaimed, true)))
      .returning();
    if (!claimed) throw fieldError('phone', 'phoneTaken');
    await revokeAllTokens(tx, user.id);
    return claimed;
  });
}

/** Sets a new password and ends every session of the user, in one transaction. */
export async function resetPassword(db: Db, userId: number, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
    await revokeAllTokens(tx as unknown as Db, userId);
  });
}
