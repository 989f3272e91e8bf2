import { ERROR_CODES } from '@platform/domain';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import type { SmsProvider } from '../../platform/sms';
import { sha256 } from '../../platform/tokens';
import { bearer, buildTestApp, nextPhone, type TestApp } from '../../test/helper';
import { createUser } from '../users/service';
import { users } from '../users/tables';
import { SMS_MAX_ATTEMPTS } from './sms-codes';
import { smsCodes, tokens } from './tables';
import {
  ageCodes,
  endWait,
  getSmsCode,
  getToken,
  postJson,
  requestCode,
  rowCount,
  wrongCode,
} from './test-support';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

async function codesOf(phone: string) {
  return t.db.select().from(smsCodes).where(eq(smsCodes.phone, phone)).orderBy(desc(smsCodes.id));
}

async function registered(): Promise<string> {
  const phone = nextPhone();
  await createUser(t.db, { phone, userName: 'sms user' });
  return phone;
}

describe('GET /user/access/getSmsCode', () => {
  it('sends six digits through the provider and stores only their hash, valid 5 minutes', async () => {
    const phone = nextPhone();
    const before = Date.now();
    const res = await getSmsCode(t, phone);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 0, message: 'Operation successful', data: null });
    const code = t.sms.lastCode(phone)!;
    expect(code).toMatch(/^\d{6}$/);
    expect(res.body).not.toContain(code);
    const [row] = await codesOf(phone);
    expect(row!.codeHash).toBe(sha256(`${phone}:${code}`));
    expect(row!.attempts).toBe(0);
    expect(row!.consumedAt).toBeNull();
    const ttl = row!.expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThan(5 * 60_000 - 5_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000 + 5_000);
  });

  it('refuses a malformed or missing phone by name and stores nothing', async () => {
    const before = await rowCount(t, smsCodes);
    const bad = await getSmsCode(t, '12345');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'Please enter a valid mobile phone number',
      data: { field: 'phone' },
    });
    const missing = await t.app.inject({ method: 'GET', url: '/general/user/access/getSmsCode' });
    expect(missing.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'phone' } });
    expect(t.sms.lastCode('12345')).toBeUndefined();
    expect(await rowCount(t, smsCodes)).toBe(before);
  });

  it('sends at most one code per phone per minute', async () => {
    const phone = nextPhone();
    const first = await requestCode(t, phone);
    const again = await getSmsCode(t, phone);
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({
      code: ERROR_CODES.RATE_LIMITED,
      message: 'A code was sent recently, please wait a minute',
    });
    expect(t.sms.lastCode(phone)).toBe(first);
    expect(await codesOf(phone)).toHaveLength(1);
    // another phone is not held back
    expect((await getSmsCode(t, nextPhone())).json().code).toBe(0);
  });

  it('retires the older code when a new one is sent a minute later', async () => {
    const phone = await registered();
    const old = await requestCode(t, phone);
    await ageCodes(t, phone);
    const fresh = await requestCode(t, phone);
    const stale = await getToken(t, { phone, smsCode: old });
    // the two codes may coincide by chance (1 in a million); then the old one is the new one
    if (old !== fresh)
      expect(stale.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    expect((await getToken(t, { phone, smsCode: fresh })).json().code).toBe(0);
  });

  it('writes the code nowhere but the provider: not in the response, not in the log', async () => {
    const sent: Array<{ phone: string; code: string }> = [];
    const spy: SmsProvider = {
      name: 'spy',
      async sendCode(phone, code) {
        sent.push({ phone, code });
      },
    };
    const lines: string[] = [];
    const logged = await buildApp({
      config: t.app.config,
      db: t.db,
      sms: spy,
      logger: { level: 'trace', stream: { write: (line: string) => lines.push(line) } },
    });
    await logged.ready();
    try {
      const phone = nextPhone();
      const res = await logged.inject({
        method: 'GET',
        url: `/general/user/access/getSmsCode?phone=${phone}`,
      });
      expect(res.json().code).toBe(0);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.phone).toBe(phone);
      const { code } = sent[0]!;
      // register with it: the code also travels in a request body, which must not be logged either
      const reg = await logged.inject({
        method: 'POST',
        url: '/general/user/addUser',
        payload: { phone, smsCode: code, password: 'secret123' },
      });
      expect(reg.json().code).toBe(0);
      expect(lines.length).toBeGreaterThan(0);
      const standalone = new RegExp(`(?<!\\d)${code}(?!\\d)`);
      expect(res.body).not.toMatch(standalone);
      expect(lines.filter((line) => standalone.test(line))).toEqual([]);
    } finally {
      await logged.close();
    }
  });

  it('keeps no code when the provider fails, so the phone can ask again at once', async () => {
    const failing: SmsProvider = {
      name: 'down',
      async sendCode() {
        throw new Error('gateway down');
      },
    };
    const down = await buildApp({ config: t.app.config, db: t.db, sms: failing, logger: false });
    await down.ready();
    try {
      const phone = nextPhone();
      const res = await down.inject({ method: 'GET', url: `/general/user/access/getSmsCode?phone=${phone}` });
      expect(res.statusCode).toBe(500);
      expect(res.json().code).toBe(ERROR_CODES.INTERNAL);
      expect(await codesOf(phone)).toHaveLength(0);
      expect((await getSmsCode(t, phone)).json().code).toBe(0);
    } finally {
      await down.close();
    }
  });
});

describe('checking a code (through SMS login)', () => {
  it('logs a registered phone in with its code, once', async () => {
    const phone = await registered();
    const code = await requestCode(t, phone);
    const res = await getToken(t, { phone, smsCode: code });
    expect(res.json().code).toBe(0);
    const me = await t.app.inject({
      method: 'GET',
      url: '/general/user/getUser',
      headers: bearer(res.json().data.token),
    });
    expect(me.json().data.phone).toBe(phone);
    const [row] = await codesOf(phone);
    expect(row!.consumedAt).not.toBeNull();

    const tokensBefore = await rowCount(t, tokens);
    const reuse = await getToken(t, { phone, smsCode: code });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'The verification code is wrong or has expired',
      data: { field: 'smsCode' },
    });
    expect(await rowCount(t, tokens)).toBe(tokensBefore);
  });

  it(`burns a code after ${SMS_MAX_ATTEMPTS} wrong tries: then, even after the phone's wait, the right one fails`, async () => {
    const phone = await registered();
    const code = await requestCode(t, phone);
    for (let i = 0; i < SMS_MAX_ATTEMPTS; i += 1) {
      const res = await getToken(t, { phone, smsCode: wrongCode(code) });
      expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    }
    await endWait(t, phone);
    const right = await getToken(t, { phone, smsCode: code });
    expect(right.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    const [row] = await codesOf(phone);
    expect(row!.attempts).toBe(SMS_MAX_ATTEMPTS);
    expect(row!.consumedAt).not.toBeNull();
  });

  it(`accepts the right code on the ${SMS_MAX_ATTEMPTS}th try`, async () => {
    const phone = await registered();
    const code = await requestCode(t, phone);
    for (let i = 0; i < SMS_MAX_ATTEMPTS - 1; i += 1) {
      expect((await getToken(t, { phone, smsCode: wrongCode(code) })).json().code).toBe(
        ERROR_CODES.VALIDATION,
      );
    }
    expect((await getToken(t, { phone, smsCode: code })).json().code).toBe(0);
  });

  it('counts parallel guesses too: never more than the limit', async () => {
    const phone = await registered();
    const code = await requestCode(t, phone);
    await Promise.all(
      Array.from({ length: SMS_MAX_ATTEMPTS + 3 }, () => getToken(t, { phone, smsCode: wrongCode(code) })),
    );
    const [row] = await codesOf(phone);
    expect(row!.attempts).toBe(SMS_MAX_ATTEMPTS);
    await endWait(t, phone);
    expect((await getToken(t, { phone, smsCode: code })).json().code).toBe(ERROR_CODES.VALIDATION);
  });

  it('refuses an expired code', async () => {
    const phone = await registered();
    const code = await requestCode(t, phone);
    await t.db
      .update(smsCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(smsCodes.phone, phone));
    const res = await getToken(t, { phone, smsCode: code });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
  });

  it("refuses another phone's code", async () => {
    const phone = await registered();
    const other = await registered();
    const code = await requestCode(t, other);
    expect((await getToken(t, { phone, smsCode: code })).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'smsCode' },
    });
  });

  it('tells the owner of an unregistered phone, once the code proves it, that it has no account; the code then registers', async () => {
    const phone = nextPhone();
    const code = await requestCode(t, phone);
    const res = await getToken(t, { phone, smsCode: code });
    expect(res.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'This phone number is not registered',
      data: { field: 'phone' },
    });
    const [row] = await codesOf(phone);
    expect(row!.consumedAt).toBeNull();
    const registration = await postJson(t, '/user/addUser', { phone, smsCode: code, password: 'newpass99' });
    expect(registration.json().code).toBe(0);
  });

  it('wants exactly one of password and smsCode, and issues nothing otherwise', async () => {
    const phone = await registered();
    const code = await requestCode(t, phone);
    const before = await rowCount(t, tokens);
    const both = await getToken(t, { phone, password: 'secret123', smsCode: code });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    const neither = await getToken(t, { phone });
    expect(neither.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'password' } });
    const malformed = await getToken(t, { phone, smsCode: '12ab' });
    expect(malformed.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    expect(await rowCount(t, tokens)).toBe(before);
    // none of that spent the code
    expect((await getToken(t, { phone, smsCode: code })).json().code).toBe(0);
  });

  it('refuses a disabled account even with the right code', async () => {
    const phone = nextPhone();
    const user = await createUser(t.db, { phone });
    await t.db.update(users).set({ status: 0 }).where(eq(users.id, user.id));
    const code = await requestCode(t, phone);
    const res = await getToken(t, { phone, smsCode: code });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('This account is disabled');
  });
});
