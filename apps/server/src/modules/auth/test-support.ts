/** Helpers shared by the auth module's tests. */
import { count, eq, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { TestApp } from '../../test/helper';
import { smsCodes } from './tables';

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export function getToken(t: TestApp, fields: Record<string, string>, lang = 'en') {
  return t.app.inject({
    method: 'POST',
    url: '/general/user/access/getToken',
    payload: form(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': lang },
  });
}

export function postJson(t: TestApp, url: string, body: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/general${url}`,
    payload: body as Record<string, unknown>,
    headers: { 'accept-language': 'en', ...headers },
  });
}

export function getSmsCode(t: TestApp, phone: string) {
  return t.app.inject({
    method: 'GET',
    url: `/general/user/access/getSmsCode?phone=${encodeURIComponent(phone)}`,
    headers: { 'accept-language': 'en' },
  });
}

/** Asks the real route for a code and reads it from the test SMS provider. */
export async function requestCode(t: TestApp, phone: string): Promise<string> {
  const res = await getSmsCode(t, phone);
  if (res.json().code !== 0) throw new Error(`getSmsCode failed for ${phone}: ${res.body}`);
  const code = t.sms.lastCode(phone);
  if (!code) throw new Error(`no code was sent to ${phone}`);
  return code;
}

/** Moves every code of the phone a minute back, as if the resend pause had passed. */
export async function ageCodes(t: TestApp, phone: string): Promise<void> {
  await t.db
    .update(smsCodes)
    .set({ createdAt: sql`${smsCodes.createdAt} - interval '61 seconds'` })
    .where(eq(smsCodes.phone, phone));
}

/** A six-digit code that is certainly not `code`. */
export function wrongCode(code: string): string {
  return code === '000000' ? '111111' : '000000';
}

export async function rowCount(t: TestApp, table: PgTable): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(table);
  return Number(row!.n);
}
