/**
 * Scan-code login, with a stand-in for the social messaging app so the flow runs end to end.
 *
 *   browser: getWXScanQrCode → shows scanUrl as a QR code, polls every 2 s
 *   phone:   opens scanUrl (→ scanned), picks a nickname, confirms
 *            identity bound to a user → confirmed → the next poll gets the token, once (→ done)
 *            identity unknown         → needPhone → the browser asks for phone + SMS code
 *                                       (WXScanPhoneRegister binds it, → done)
 *
 * The scene id is the only secret of a session (32 random url-safe characters). Every state
 * change is one conditional UPDATE, so two pollers or two confirmations cannot both win.
 * A QR code lives 2 minutes; reaching needPhone gives the person 5 more minutes, the life of
 * an SMS code, to type their phone and the code.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import { sha256 } from '../../platform/tokens';
import { findUserById, findUserByPhone, type UserRow } from '../users/service';
import { users } from '../users/tables';
import { type LoginToken, loginTokenFor, registerUser, uniqueViolation } from './service';
import { SMS_CODE_TTL_MS, verifySmsCode } from './sms-codes';
import { scanSessions } from './tables';

export const SCAN_TTL_MS = 2 * 60_000;
export const PHONE_STEP_TTL_MS = SMS_CODE_TTL_MS;

export type ScanState = 'waiting' | 'scanned' | 'confirmed' | 'needPhone' | 'done';
export type PollStatus = 'waiting' | 'scanned' | 'needPhone' | 'success' | 'expired';

/** The messaging-app identity of a nickname: the same nickname is the same person. */
export function scanOpenId(nickname: string): string {
  return sha256(`wx:${nickname}`).slice(0, 32);
}

export async function createScanSession(db: Db): Promise<{ sceneId: string; expiresIn: number }> {
  const sceneId = randomBytes(24).toString('base64url');
  await db.insert(scanSessions).values({ id: sceneId, expiresAt: new Date(Date.now() + SCAN_TTL_MS) });
  return { sceneId, expiresIn: SCAN_TTL_MS / 1000 };
}

async function findSession(db: Db, sceneId: string) {
  const [row] = await db.select().from(scanSessions).where(eq(scanSessions.id, sceneId));
  return row;
}

const OPEN_STATES: ScanState[] = ['waiting', 'scanned'];

/** The phone opened the scan page: 'open' when it may still confirm (and the session is now 'scanned'). */
export async function openScanSession(db: Db, sceneId: string): Promise<'open' | 'expired' | 'unknown'> {
  const row = await findSession(db, sceneId);
  if (!row) return 'unknown';
  if (row.expiresAt.getTime() <= Date.now() || !OPEN_STATES.includes(row.status as ScanState))
    return 'expired';
  await db
    .update(scanSessions)
    .set({ status: 'scanned' })
    .where(and(eq(scanSessions.id, sceneId), eq(scanSessions.status, 'waiting')));
  return 'open';
}

/** The person confirmed on the phone as `nickname`. */
export async function confirmScanSession(
  db: Db,
  sceneId: string,
  nickname: string,
): Promise<'confirmed' | 'needPhone' | 'expired' | 'unknown'> {
  const row = await findSession(db, sceneId);
  if (!row) return 'unknown';
  const openId = scanOpenId(nickname);
  const [bound] = await db.select({ id: users.id }).from(users).where(eq(users.wxOpenId, openId));
  const now = new Date();
  const next = bound
    ? { status: 'confirmed', userId: bound.id, openId, nickname }
    : { status: 'needPhone', openId, nickname, expiresAt: new Date(now.getTime() + PHONE_STEP_TTL_MS) };
  const [changed] = await db
    .update(scanSessions)
    .set(next)
    .where(
      and(
        eq(scanSessions.id, sceneId),
        inArray(scanSessions.status, OPEN_STATES),
        gt(scanSessions.expiresAt, now),
      ),
    )
    .returning({ status: scanSessions.status });
  return changed ? (changed.status as 'confirmed' | 'needPhone') : 'expired';
}

export interface PollResult {
  status: PollStatus;
  token?: string;
  expiresIn?: number;
  nickname?: string;
}

/** What the polling browser sees; a confirmed session hands out its token to exactly one poll. */
export async function pollScanSession(db: Db, sceneId: string, ttlHours: number): Promise<PollResult> {
  const row = await findSession(db, sceneId);
  if (!row || row.expiresAt.getTime() <= Date.now()) return { status: 'expired' };
  switch (row.status as ScanState) {
    case 'waiting':
      return { status: 'waiting' };
    case 'scanned':
      return { status: 'scanned' };
    case 'needPhone':
      return { status: 'needPhone', nickname: row.nickname ?? '' };
    case 'confirmed': {
      const issued = await db.transaction(async (tx) => {
        const [claimed] = await tx
          .update(scanSessions)
          .set({ status: 'done' })
          .where(
            and(
              eq(scanSessions.id, sceneId),
              eq(scanSessions.status, 'confirmed'),
              gt(scanSessions.expiresAt, new Date()),
            ),
          )
          .returning({ userId: scanSessions.userId });
        if (!claimed?.userId) return null;
        const user = await findUserById(tx as unknown as Db, claimed.userId);
        if (!user) return null;
        // a disabled account: the error rolls the claim back, and no token is issued
        return loginTokenFor(tx as unknown as Db, user, ttlHours);
      });
      return issued ? { status: 'success', ...issued } : { status: 'expired' };
    }
    default:
      return { status: 'expired' };
  }
}

/**
 * Binds the scanned identity of a needPhone session to the phone's account (created when the
 * phone is new, named after the nickname) and logs it in. An account already bound to another
 * identity is refused, never rebound: the binding is how that person logs in.
 */
export async function registerScanPhone(
  db: Db,
  input: { sceneId: string; phone: string; smsCode: string },
  ttlHours: number,
): Promise<LoginToken> {
  const row = await findSession(db, input.sceneId);
  if (row?.status !== 'needPhone' || !row.openId || row.expiresAt.getTime() <= Date.now()) {
    throw fieldError('sceneId', 'scanExpired');
  }
  const openId = row.openId;
  const existing = await findUserByPhone(db, input.phone);
  if (existing) {
    if (existing.wxOpenId && existing.wxOpenId !== openId) throw fieldError('phone', 'wxAlreadyBound');
    if (existing.status !== 1) throw new AppError('userDisabled');
  }
  await verifySmsCode(db, input.phone, input.smsCode);
  try {
    return await db.transaction(async (raw) => {
      const tx = raw as unknown as Db;
      const [claimed] = await tx
        .update(scanSessions)
        .set({ status: 'done' })
        .where(
          and(
            eq(scanSessions.id, input.sceneId),
            eq(scanSessions.status, 'needPhone'),
            gt(scanSessions.expiresAt, new Date()),
          ),
        )
        .returning({ id: scanSessions.id });
      if (!claimed) throw fieldError('sceneId', 'scanExpired');
      const user = existing
        ? await bindOpenId(tx, existing, openId)
        : await registerUser(tx, {
            phone: input.phone,
            userName: row.nickname ?? undefined,
            wxOpenId: openId,
          });
      await tx.update(scanSessions).set({ userId: user.id }).where(eq(scanSessions.id, input.sceneId));
      return loginTokenFor(tx, user, ttlHours);
    });
  } catch (error) {
    // the identity was bound to another phone in the meantime (users.wx_open_id is unique)
    if (uniqueViolation(error)?.includes('wx_open_id')) throw fieldError('phone', 'wxAlreadyBound');
    throw error;
  }
}

/** Binds only an account with no identity yet (or this one already): a binding is never replaced. */
async function bindOpenId(db: Db, user: UserRow, openId: string): Promise<UserRow> {
  if (user.wxOpenId === openId) return user;
  const [bound] = await db
    .update(users)
    .set({ wxOpenId: openId, updatedAt: new Date() })
    .where(and(eq(users.id, user.id), isNull(users.wxOpenId)))
    .returning();
  if (!bound) throw fieldError('phone', 'wxAlreadyBound');
  return bound;
}
