/**
 * One-time SMS codes. A phone has at most one live code: issuing a new one retires the
 * older ones, so the attempt limit cannot be multiplied by asking for more codes. A code is
 * stored only as sha256(phone:code), lives 5 minutes, may be tried 5 times (each try is
 * counted atomically before the comparison, so parallel guesses cannot exceed the limit),
 * and is consumed by the first correct try. The code itself goes only to the SMS provider.
 * Codes sent to a phone and tries of its codes also count towards the phone's backoff
 * (throttle.ts), so asking for a new code every minute does not buy more guesses.
 */
import { randomInt } from 'node:crypto';
import { and, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import type { SmsProvider } from '../../platform/sms';
import { sha256 } from '../../platform/tokens';
import { smsCodes } from './tables';
import { clearAttempts, releaseAttempt, takeAttempt } from './throttle';

export const SMS_CODE_TTL_MS = 5 * 60_000;
export const SMS_RESEND_MS = 60_000;
export const SMS_MAX_ATTEMPTS = 5;

const CODE_FORMAT = /^\d{6}$/;

function codeHash(phone: string, code: string): string {
  return sha256(`${phone}:${code}`);
}

/** Issues and sends a new code; refuses a second one for the same phone within 60 s. */
export async function issueSmsCode(db: Db, sms: SmsProvider, phone: string): Promise<void> {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = Date.now();
  const id = await db.transaction(async (tx) => {
    // serialise requests for one phone so two parallel calls cannot both pass the 60 s check
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sms:${phone}`}))`);
    const [recent] = await tx
      .select({ id: smsCodes.id })
      .from(smsCodes)
      .where(and(eq(smsCodes.phone, phone), gt(smsCodes.createdAt, new Date(now - SMS_RESEND_MS))))
      .limit(1);
    if (recent) throw new AppError('smsTooFrequent', {}, { field: 'phone' });
    await takeAttempt(tx as unknown as Db, phone, 'sms');
    await tx
      .update(smsCodes)
      .set({ consumedAt: new Date(now) })
      .where(and(eq(smsCodes.phone, phone), isNull(smsCodes.consumedAt)));
    const [row] = await tx
      .insert(smsCodes)
      .values({
        phone,
        codeHash: codeHash(phone, code),
        createdAt: new Date(now),
        expiresAt: new Date(now + SMS_CODE_TTL_MS),
      })
      .returning({ id: smsCodes.id });
    return row!.id;
  });
  try {
    await sms.sendCode(phone, code);
  } catch (error) {
    // an unsent code must not block the phone for a minute, nor count towards its backoff
    await db.delete(smsCodes).where(eq(smsCodes.id, id));
    await releaseAttempt(db, phone, 'sms');
    throw error;
  }
}

/** A six-digit code in the right form; anything else is refused before any try is counted. */
export function assertSmsCodeFormat(code: string): void {
  if (!CODE_FORMAT.test(code)) throw fieldError('smsCode', 'smsCodeInvalid');
}

/**
 * The person proves they hold the phone: the code's form, then the phone's backoff (a try
 * counted, or 'tooManyAttempts' while locked), then the code itself. Returns the code's id
 * for consumeSmsCode.
 */
export async function proveSmsCode(db: Db, phone: string, code: string): Promise<number> {
  assertSmsCodeFormat(code);
  await takeAttempt(db, phone, 'verify');
  return checkSmsCode(db, phone, code);
}

/**
 * Checks a code against the phone's live code, counting the try, without using it up: the
 * caller consumes it (consumeSmsCode) once the action it proves is allowed, so a code that
 * proved the phone but could not be used (a taken phone at registration, say) stays usable.
 * Any failure (no live code, wrong code, too many tries, already used, expired) is
 * 'smsCodeInvalid' on the field smsCode. A right code clears the phone's backoff.
 */
export async function checkSmsCode(db: Db, phone: string, code: string): Promise<number> {
  assertSmsCodeFormat(code);
  const now = new Date();
  const live = db
    .select({ id: smsCodes.id })
    .from(smsCodes)
    .where(and(eq(smsCodes.phone, phone), isNull(smsCodes.consumedAt), gt(smsCodes.expiresAt, now)))
    .orderBy(desc(smsCodes.createdAt), desc(smsCodes.id))
    .limit(1);
  // count the try first; a code with no tries left is not selected
  const [tried] = await db
    .update(smsCodes)
    .set({ attempts: sql`${smsCodes.attempts} + 1` })
    .where(
      and(
        sql`${smsCodes.id} = (${live})`,
        isNull(smsCodes.consumedAt),
        lt(smsCodes.attempts, SMS_MAX_ATTEMPTS),
      ),
    )
    .returning({ id: smsCodes.id, codeHash: smsCodes.codeHash, attempts: smsCodes.attempts });
  if (!tried) throw fieldError('smsCode', 'smsCodeInvalid');
  if (tried.codeHash === codeHash(phone, code)) {
    await clearAttempts(db, phone);
    return tried.id;
  }
  if (tried.attempts >= SMS_MAX_ATTEMPTS) {
    // burned: the last try was wrong
    await db
      .update(smsCodes)
      .set({ consumedAt: now })
      .where(and(eq(smsCodes.id, tried.id), isNull(smsCodes.consumedAt)));
  }
  throw fieldError('smsCode', 'smsCodeInvalid');
}

/** Uses up a code checkSmsCode accepted; of two parallel uses one wins, the other is 'smsCodeInvalid'. */
export async function consumeSmsCode(db: Db, id: number): Promise<void> {
  const [consumed] = await db
    .update(smsCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(smsCodes.id, id), isNull(smsCodes.consumedAt)))
    .returning({ id: smsCodes.id });
  if (!consumed) throw fieldError('smsCode', 'smsCodeInvalid');
}
