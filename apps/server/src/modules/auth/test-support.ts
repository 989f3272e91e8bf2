/** Helpers shared by the auth module's tests. */
import { count, eq, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { TestApp } from '../../test/helper';
import { loginThrottle, smsCodes } from './tables';

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

/**
 * A phone's browser on the messaging-app stand-in: it keeps the cookies the stand-in pages
 * set (its identity among them), as a real browser would.
 */
export class StandInPhone {
  readonly cookies = new Map<string, string>();

  constructor(private readonly t: TestApp) {}

  private path(scanUrl: string): string {
    return scanUrl.startsWith('http') ? new URL(scanUrl).pathname : scanUrl;
  }

  private remember(res: { headers: Record<string, unknown> }): void {
    const raw = res.headers['set-cookie'];
    for (const line of Array.isArray(raw) ? raw : raw ? [raw] : []) {
      const [pair] = String(line).split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }

  private cookieHeader(): Record<string, string> {
    if (this.cookies.size === 0) return {};
    return { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') };
  }

  /** Opens the link of the QR code. */
  async open(scanUrl: string) {
    const res = await this.t.app.inject({
      method: 'GET',
      url: this.path(scanUrl),
      headers: this.cookieHeader(),
    });
    this.remember(res);
    return res;
  }

  /** Submits the confirm form as `nickname`, without opening the page first. */
  async submit(scanUrl: string, nickname: string) {
    const res = await this.t.app.inject({
      method: 'POST',
      url: this.path(scanUrl),
      payload: form({ nickname }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...this.cookieHeader() },
    });
    this.remember(res);
    return res;
  }

  /** Opens the link and confirms as `nickname`, as a person does. */
  async confirm(scanUrl: string, nickname: string) {
    await this.open(scanUrl);
    return this.submit(scanUrl, nickname);
  }
}

export interface Scene {
  sceneId: string;
  scanUrl: string;
}

/** A new scan session from the real route. */
export async function newScene(t: TestApp, headers: Record<string, string> = {}): Promise<Scene> {
  const res = await t.app.inject({ method: 'GET', url: '/general/user/access/getWXScanQrCode', headers });
  const body = res.json();
  if (body.code !== 0) throw new Error(`getWXScanQrCode failed: ${res.body}`);
  return { sceneId: body.data.sceneId, scanUrl: body.data.scanUrl };
}

export function pollScan(t: TestApp, sceneId: string) {
  return t.app
    .inject({
      method: 'GET',
      url: `/general/user/PollingWXScanLoginStatus?sceneId=${encodeURIComponent(sceneId)}`,
    })
    .then((res) => res.json());
}

/** The phone's backoff wait is over (its counters stay), as if the time had passed. */
export async function endWait(t: TestApp, phone: string): Promise<void> {
  await t.db
    .update(loginThrottle)
    .set({ lockedUntil: sql`now() - interval '1 second'` })
    .where(eq(loginThrottle.phone, phone));
}
