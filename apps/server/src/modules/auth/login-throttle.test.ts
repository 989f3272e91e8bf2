/**
 * Finding 7 as an attacker tries it: escaping the per-address limit with X-Forwarded-For,
 * guessing one phone's password or code from many addresses, and telling registered phones
 * from unknown ones by the answers.
 */
import { ERROR_CODES } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { buildTestApp, nextPhone, TEST_PASSWORD, type TestApp } from '../../test/helper';
import { createUser } from '../users/service';
import { users } from '../users/tables';
import { loginThrottle, scanSessions } from './tables';
import { ageCodes, endWait, form, postJson, requestCode, wrongCode } from './test-support';
import { ATTEMPTS_FREE } from './throttle';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

let address = 0;
/** A new client address each call: the attacker's botnet. */
function anotherAddress(): string {
  address += 1;
  return `198.51.${Math.floor(address / 250) % 250}.${(address % 250) + 1}`;
}

function passwordLogin(
  app: TestApp['app'],
  phone: string,
  password: string,
  remoteAddress = anotherAddress(),
) {
  return app.inject({
    method: 'POST',
    url: '/general/user/access/getToken',
    payload: form({ phone, password }),
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
  });
}

async function throttleOf(phone: string, kind: 'verify' | 'sms' = 'verify') {
  const [row] = await t.db
    .select()
    .from(loginThrottle)
    .where(and(eq(loginThrottle.phone, phone), eq(loginThrottle.kind, kind)));
  return row;
}

describe('the per-address limit', () => {
  it('a spoofed X-Forwarded-For does not escape the per-address limit', async () => {
    const limited = await buildTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/general/user/access/getToken',
          payload: form({ phone: nextPhone(), password: 'wrong999' }),
          remoteAddress: '203.0.113.7',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-forwarded-for': `10.9.${i}.${i + 1}`,
          },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.close();
    }
  }, 120_000);

  it('behind a proxy named in TRUST_PROXY each client has its own limit; nobody else is believed', async () => {
    const proxied = await buildTestApp({ LOGIN_RATE_LIMIT: '2', TRUST_PROXY: '10.0.0.0/8' });
    try {
      const attempt = (remoteAddress: string, forwardedFor: string) =>
        proxied.app
          .inject({
            method: 'POST',
            url: '/general/user/access/getToken',
            payload: form({ phone: nextPhone(), password: 'wrong999' }),
            remoteAddress,
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
          })
          .then((res) => res.statusCode);
      // through the proxy: two clients, two limits
      expect([await attempt('10.0.0.5', '192.0.2.1'), await attempt('10.0.0.5', '192.0.2.1')]).toEqual([
        401, 401,
      ]);
      expect(await attempt('10.0.0.5', '192.0.2.1')).toBe(429);
      expect(await attempt('10.0.0.5', '192.0.2.2')).toBe(401);
      // straight to the server, writing its own X-Forwarded-For: counted by its socket address
      expect(await attempt('203.0.113.9', '192.0.2.50')).toBe(401);
      expect(await attempt('203.0.113.9', '192.0.2.51')).toBe(401);
      expect(await attempt('203.0.113.9', '192.0.2.52')).toBe(429);
    } finally {
      await proxied.close();
    }
  }, 120_000);
});

describe('the per-phone backoff', () => {
  it(`many wrong passwords for one phone from many addresses lock the phone after ${ATTEMPTS_FREE}, even for the right password`, async () => {
    const phone = nextPhone();
    await createUser(t.db, { phone, password: TEST_PASSWORD });
    for (let i = 0; i < ATTEMPTS_FREE; i += 1) {
      expect((await passwordLogin(t.app, phone, `wrong${i}aa`)).json().code).toBe(ERROR_CODES.LOGIN_FAILED);
    }
    const locked = await passwordLogin(t.app, phone, TEST_PASSWORD);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({
      code: ERROR_CODES.RATE_LIMITED,
      message: 'Too many attempts for this phone number, please try again in 1 min',
      data: { retryAfter: expect.any(Number) },
    });
    expect(locked.json().data.retryAfter).toBeGreaterThan(50);
    expect(locked.json().data.retryAfter).toBeLessThanOrEqual(60);
    const zh = await t.app.inject({
      method: 'POST',
      url: '/general/user/access/getToken',
      payload: form({ phone, password: TEST_PASSWORD }),
      remoteAddress: anotherAddress(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'zh-CN' },
    });
    expect(zh.json().message).toBe('该手机号尝试次数过多，请1分钟后再试');

    // the wait over: one more wrong guess locks it twice as long
    await endWait(t, phone);
    expect((await passwordLogin(t.app, phone, 'wrong9aa')).json().code).toBe(ERROR_CODES.LOGIN_FAILED);
    const longer = await passwordLogin(t.app, phone, TEST_PASSWORD);
    expect(longer.json().message).toContain('try again in 2 min');

    // the wait over: the right password logs in and the phone starts over
    await endWait(t, phone);
    expect((await passwordLogin(t.app, phone, TEST_PASSWORD)).json().code).toBe(0);
    expect(await throttleOf(phone)).toBeUndefined();
  });

  it('the waits double and stop growing at 30 minutes', async () => {
    const phone = nextPhone();
    const waits: number[] = [];
    for (let i = 0; i < ATTEMPTS_FREE + 7; i += 1) {
      await passwordLogin(t.app, phone, 'wrong999');
      const row = await throttleOf(phone);
      if (row?.lockedUntil) waits.push(Math.round((row.lockedUntil.getTime() - Date.now()) / 60_000));
      await endWait(t, phone);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 30, 30, 30]);
  });

  it('parallel guesses cannot slip past the limit', async () => {
    const phone = nextPhone();
    const results = await Promise.all(
      Array.from({ length: ATTEMPTS_FREE + 5 }, (_, i) => passwordLogin(t.app, phone, `guess${i}aa`)),
    );
    const codes = results.map((res) => res.json().code);
    expect(codes.filter((code) => code === ERROR_CODES.LOGIN_FAILED)).toHaveLength(ATTEMPTS_FREE);
    expect(codes.filter((code) => code === ERROR_CODES.RATE_LIMITED)).toHaveLength(5);
  });

  it('the count lives in the database: another server node sees the lock', async () => {
    const phone = nextPhone();
    await createUser(t.db, { phone, password: TEST_PASSWORD });
    const otherNode = await buildApp({ config: t.app.config, db: t.db, logger: false });
    await otherNode.ready();
    try {
      for (let i = 0; i < ATTEMPTS_FREE; i += 1) await passwordLogin(t.app, phone, 'wrong999');
      expect((await passwordLogin(otherNode, phone, TEST_PASSWORD)).statusCode).toBe(429);
    } finally {
      await otherNode.close();
    }
  }, 120_000);

  it('an unknown phone is counted and locked exactly like a registered one', async () => {
    const known = nextPhone();
    await createUser(t.db, { phone: known, password: TEST_PASSWORD });
    const unknown = nextPhone();
    for (let i = 0; i < ATTEMPTS_FREE; i += 1) {
      const [a, b] = await Promise.all([
        passwordLogin(t.app, known, 'wrong999'),
        passwordLogin(t.app, unknown, 'wrong999'),
      ]);
      expect(a.json()).toEqual(b.json());
    }
    const [a, b] = await Promise.all([
      passwordLogin(t.app, known, 'wrong999'),
      passwordLogin(t.app, unknown, 'wrong999'),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([429, 429]);
    expect(a.json().message).toBe(b.json().message);
  });

  it('SMS-code guesses over fresh codes from many addresses hit the same backoff', async () => {
    const phone = nextPhone();
    await createUser(t.db, { phone });
    const smsLogin = (smsCode: string) =>
      t.app.inject({
        method: 'POST',
        url: '/general/user/access/getToken',
        payload: form({ phone, smsCode }),
        remoteAddress: anotherAddress(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
      });
    let code = await requestCode(t, phone);
    for (let i = 0; i < ATTEMPTS_FREE; i += 1) {
      // a new code every other guess: asking for codes does not buy guesses
      if (i % 2 === 1) {
        await ageCodes(t, phone);
        code = await requestCode(t, phone);
      }
      expect((await smsLogin(wrongCode(code))).json().code).toBe(ERROR_CODES.VALIDATION);
    }
    const locked = await smsLogin(code);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe(ERROR_CODES.RATE_LIMITED);
    // registration and reset check codes for the phone too, and are held back alike
    const register = await postJson(t, '/user/addUser', { phone, smsCode: code, password: 'newpass99' });
    const reset = await postJson(t, '/user/access/resetPassword', {
      phone,
      smsCode: code,
      password: 'newpass99',
    });
    expect([register.statusCode, reset.statusCode]).toEqual([429, 429]);
    // the wait over, the right code works and clears the count
    await endWait(t, phone);
    expect((await smsLogin(code)).json().code).toBe(0);
    expect(await throttleOf(phone)).toBeUndefined();
  });

  it('a phone that keeps asking for codes waits longer each time, until a code is used', async () => {
    const phone = nextPhone();
    await createUser(t.db, { phone });
    let code = '';
    for (let i = 0; i < ATTEMPTS_FREE; i += 1) {
      await ageCodes(t, phone);
      code = await requestCode(t, phone);
    }
    await ageCodes(t, phone);
    const held = await t.app.inject({
      method: 'GET',
      url: `/general/user/access/getSmsCode?phone=${phone}`,
      headers: { 'accept-language': 'en' },
    });
    expect(held.statusCode).toBe(429);
    expect(held.json().message).toBe('Too many attempts for this phone number, please try again in 1 min');
    expect(t.sms.lastCode(phone)).toBe(code);
    // using the last code resets the count: the next one is sent after the usual minute
    const login = await t.app.inject({
      method: 'POST',
      url: '/general/user/access/getToken',
      payload: form({ phone, smsCode: code }),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(login.json().code).toBe(0);
    expect(await throttleOf(phone, 'sms')).toBeUndefined();
    await ageCodes(t, phone);
    expect((await requestCode(t, phone)).length).toBe(6);
  });
});

describe('registered and unknown phones answered alike', () => {
  it('an unknown phone, an account without a password and a wrong password give identical answers (body and status)', async () => {
    const known = nextPhone();
    await createUser(t.db, { phone: known, password: TEST_PASSWORD });
    const passwordless = nextPhone();
    await createUser(t.db, { phone: passwordless });
    for (const lang of ['en', 'zh-CN']) {
      const answers = await Promise.all(
        [known, passwordless, nextPhone()].map((phone) =>
          t.app.inject({
            method: 'POST',
            url: '/general/user/access/getToken',
            payload: form({ phone, password: 'wrong999' }),
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': lang },
          }),
        ),
      );
      expect(new Set(answers.map((res) => res.statusCode))).toEqual(new Set([401]));
      expect(answers[0]!.json()).toEqual(answers[1]!.json());
      expect(answers[0]!.json()).toEqual(answers[2]!.json());
      expect(answers[0]!.json().code).toBe(ERROR_CODES.LOGIN_FAILED);
      expect(answers[0]!.body).not.toMatch(/regist|注册/);
    }
  });

  it('SMS login, registration, reset and the scan binding answer a wrong code alike for registered and unknown phones', async () => {
    const known = nextPhone();
    await createUser(t.db, { phone: known, password: TEST_PASSWORD });
    const unknown = nextPhone();
    const knownCode = await requestCode(t, known);
    const unknownCode = await requestCode(t, unknown);
    const scan = await t.app.inject({ method: 'GET', url: '/general/user/access/getWXScanQrCode' });
    const sceneId = scan.json().data.sceneId as string;

    const routes: Array<
      [string, (phone: string, smsCode: string) => Promise<{ statusCode: number; body: string }>]
    > = [
      [
        'SMS login',
        (phone, smsCode) =>
          t.app.inject({
            method: 'POST',
            url: '/general/user/access/getToken',
            payload: form({ phone, smsCode }),
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
          }),
      ],
      [
        'register',
        (phone, smsCode) => postJson(t, '/user/addUser', { phone, smsCode, password: 'newpass99' }),
      ],
      [
        'reset',
        (phone, smsCode) =>
          postJson(t, '/user/access/resetPassword', { phone, smsCode, password: 'newpass99' }),
      ],
    ];
    for (const [name, call] of routes) {
      const a = await call(known, wrongCode(knownCode));
      const b = await call(unknown, wrongCode(unknownCode));
      expect(a.statusCode, name).toBe(b.statusCode);
      expect(a.body, name).toBe(b.body);
      expect(JSON.parse(a.body), name).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field: 'smsCode' },
      });
    }
    // the scan binding: a wrong code for the phone of a bound account is answered like any wrong code
    await t.db.update(loginThrottle).set({ attempts: 0 });
    await t.db.update(users).set({ wxOpenId: 'standin:someone-else' }).where(eq(users.phone, known));
    // the scene waits for a phone, as after a confirmation on the stand-in
    await t.db
      .update(scanSessions)
      .set({ status: 'needPhone', openId: 'standin:new', expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(scanSessions.id, sceneId));
    const a = await postJson(t, '/user/WXScanPhoneRegister', {
      sceneId,
      phone: known,
      smsCode: wrongCode(knownCode),
    });
    const b = await postJson(t, '/user/WXScanPhoneRegister', {
      sceneId,
      phone: unknown,
      smsCode: wrongCode(unknownCode),
    });
    expect(a.statusCode).toBe(b.statusCode);
    expect(a.body).toBe(b.body);
  });
});
