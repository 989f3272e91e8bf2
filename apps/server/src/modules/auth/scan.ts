/**
 * Scan-code login. The provider (scan-providers.ts) vouches for the person; this file keeps
 * the session's state machine, the same for every provider:
 *
 *   browser: getWXScanQrCode → shows scanUrl (a QR code, or the provider's QR page), polls
 *   phone:   stand-in: opens scanUrl (→ scanned) and confirms with the identity its browser holds
 *            WeChat:   confirms in WeChat; WeChat sends the browser to the callback with a code
 *                      (→ verifying while the code is exchanged)
 *            identity bound to a user → confirmed → the next poll gets the token, once (→ done)
 *            identity unknown         → needPhone → the browser asks for phone + SMS code
 *                                       (WXScanPhoneRegister binds it, → done)
 *
 * Two random values per session: the scene id, known only to the browser that polls (it is
 * what the token is handed to), and the state, which the phone or the provider sees (in the QR
 * code, in the provider's redirect) and which names the session to the callback. Seeing the QR
 * code therefore gives no way to poll for the token. Every state change is one conditional
 * UPDATE, so two pollers or two confirmations cannot both win. A QR code lives 2 minutes;
 * reaching needPhone gives the person 5 more minutes, the life of an SMS code, to type their
 * phone and the code.
 */
import { randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import { sha256 } from '../../platform/tokens';
import { findUserById, findUserByPhone, type UserRow } from '../users/service';
import { users } from '../users/tables';
import type { ScanIdentity, ScanProviderKind } from './scan-providers';
import { type LoginToken, loginTokenFor, registerUser, uniqueViolation } from './service';
import { consumeSmsCode, proveSmsCode, SMS_CODE_TTL_MS } from './sms-codes';
import { scanSessions } from './tables';

export const SCAN_TTL_MS = 2 * 60_000;
export const PHONE_STEP_TTL_MS = SMS_CODE_TTL_MS;

export type ScanState = 'waiting' | 'scanned' | 'verifying' | 'confirmed' | 'needPhone' | 'done' | 'failed';
export type PollStatus = 'waiting' | 'scanned' | 'needPhone' | 'success' | 'expired';

const random = () => randomBytes(24).toString('base64url');

export async function createScanSession(
  db: Db,
  provider: ScanProviderKind,
): Promise<{ sceneId: string; state: string; expiresIn: number }> {
  const now = Date.now();
  // sessions a day past their end have nothing left to say
  await db.delete(scanSessions).where(lt(scanSessions.expiresAt, new Date(now - 24 * 3600_000)));
  const session = { id: random(), state: random() };
  await db.insert(scanSessions).values({ ...session, provider, expiresAt: new Date(now + SCAN_TTL_MS) });
  return { sceneId: session.id, state: session.state, expiresIn: SCAN_TTL_MS / 1000 };
}

async function findSession(db: Db, sceneId: string) {
  const [row] = await db.select().from(scanSessions).where(eq(scanSessions.id, sceneId));
  return row;
}

async function findByState(db: Db, state: string, provider: ScanProviderKind) {
  const [row] = await db
    .select()
    .from(scanSessions)
    .where(and(eq(scanSessions.state, state), eq(scanSessions.provider, provider)));
  return row;
}

const OPEN_STATES: ScanState[] = ['waiting', 'scanned'];

type Openness = 'open' | 'expired' | 'unknown';

async function standInSession(db: Db, state: string) {
  const row = await findByState(db, state, 'standin');
  const openness: Openness = !row
    ? 'unknown'
    : row.expiresAt.getTime() <= Date.now() || !OPEN_STATES.includes(row.status as ScanState)
      ? 'expired'
      : 'open';
  return { row, openness };
}

/** Whether the stand-in session of `state` may still be confirmed. */
export async function standInSessionOpenness(db: Db, state: string): Promise<Openness> {
  return (await standInSession(db, state)).openness;
}

/** The stand-in page was opened: 'open' when it may still confirm (and the session is now 'scanned'). */
export async function openScanSession(db: Db, state: string): Promise<Openness> {
  const { row, openness } = await standInSession(db, state);
  if (openness !== 'open' || !row) return openness;
  await db
    .update(scanSessions)
    .set({ status: 'scanned' })
    .where(and(eq(scanSessions.id, row.id), eq(scanSessions.status, 'waiting')));
  return 'open';
}

/**
 * The provider vouched for `identity` on the session: confirmed when the identity is bound
 * to a user, needPhone otherwise. Only from the states given, and only before the end.
 */
async function completeScan(
  db: Db,
  sceneId: string,
  identity: ScanIdentity,
  from: ScanState[],
): Promise<'confirmed' | 'needPhone' | 'expired'> {
  const { openId, nickname } = identity;
  const [bound] = await db.select({ id: users.id }).from(users).where(eq(users.wxOpenId, openId));
  const now = new Date();
  const next = bound
    ? { status: 'confirmed', userId: bound.id, openId, nickname }
    : { status: 'needPhone', openId, nickname, expiresAt: new Date(now.getTime() + PHONE_STEP_TTL_MS) };
  const [changed] = await db
    .update(scanSessions)
    .set(next)
    .where(
      and(eq(scanSessions.id, sceneId), inArray(scanSessions.status, from), gt(scanSessions.expiresAt, now)),
    )
    .returning({ status: scanSessions.status });
  return changed ? (changed.status as 'confirmed' | 'needPhone') : 'expired';
}

/** The person confirmed on the stand-in page, as the identity their browser holds. */
export async function confirmStandInScan(
  db: Db,
  state: string,
  identity: ScanIdentity,
): Promise<'confirmed' | 'needPhone' | 'expired' | 'unknown'> {
  const row = await findByState(db, state, 'standin');
  if (!row) return 'unknown';
  return completeScan(db, row.id, identity, OPEN_STATES);
}

/**
 * The provider's callback: claims the session named by `state` for one code, before the code
 * is exchanged. Null when no open session has that state (a forged or replayed callback) or
 * when the code already completed a session. The claim is what makes both single-use.
 */
export async function claimScanForCode(db: Db, state: string, code: string): Promise<string | null> {
  try {
    const [claimed] = await db
      .update(scanSessions)
      .set({ status: 'verifying', codeHash: sha256(`scan-code:${code}`) })
      .where(
        and(
          eq(scanSessions.state, state),
          eq(scanSessions.provider, 'wechat'),
          inArray(scanSessions.status, OPEN_STATES),
          gt(scanSessions.expiresAt, new Date()),
        ),
      )
      .returning({ id: scanSessions.id });
    return claimed?.id ?? null;
  } catch (error) {
    if (uniqueViolation(error)?.includes('code_hash')) return null;
    throw error;
  }
}

/** The claimed code turned into an identity: the session moves on like a stand-in confirmation. */
export function completeClaimedScan(
  db: Db,
  sceneId: string,
  identity: ScanIdentity,
): Promise<'confirmed' | 'needPhone' | 'expired'> {
  return completeScan(db, sceneId, identity, ['verifying']);
}

/** The provider refused the claimed code: the session ends (the browser shows "refresh the QR code"). */
export async function failClaimedScan(db: Db, sceneId: string): Promise<void> {
  await db
    .update(scanSessions)
    .set({ status: 'failed' })
    .where(and(eq(scanSessions.id, sceneId), eq(scanSessions.status, 'verifying')));
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
    case 'verifying':
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
  // the phone is proved first: before that, nothing here may tell whether it has an account
  const codeId = await proveSmsCode(db, input.phone, input.smsCode);
  const existing = await findUserByPhone(db, input.phone);
  if (existing) {
    if (existing.wxOpenId && existing.wxOpenId !== openId) throw fieldError('phone', 'wxAlreadyBound');
    if (existing.status !== 1) throw new AppError('userDisabled');
  }
  await consumeSmsCode(db, codeId);
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
