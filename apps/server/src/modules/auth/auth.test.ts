import { ERROR_CODES } from '@platform/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  login,
  makeCompany,
  nextPhone,
  TEST_PASSWORD,
  type TestApp,
  type TestCompany,
} from '../../test/helper';
import { createUser } from '../users/service';
import { users } from '../users/tables';
import { smsCodes, tokens } from './tables';
import { postJson, requestCode, rowCount, wrongCode } from './test-support';

let t: TestApp;
let a: TestCompany;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '1000' });
  a = await makeCompany(t, 'Acme');
});
afterAll(() => t.close());

function getToken(body: string, lang = 'en') {
  return t.app.inject({
    method: 'POST',
    url: '/general/user/access/getToken',
    payload: body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': lang },
  });
}

describe('POST /user/access/getToken', () => {
  it('returns a token that opens getUser, stored only as a hash', async () => {
    const res = await getToken(`phone=${a.admin.phone}&password=${TEST_PASSWORD}`);
    const body = res.json();
    expect(body.code).toBe(0);
    expect(body.data.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const rows = await t.db.select().from(tokens).where(eq(tokens.userId, a.admin.id));
    expect(rows.some((r) => r.tokenHash === body.data.token)).toBe(false);
    const me = await t.app.inject({
      method: 'GET',
      url: '/general/user/getUser',
      headers: bearer(body.data.token),
    });
    expect(me.json().data.phone).toBe(a.admin.phone);
    expect(me.json().data.menuCode).toContain('um_user');
  });

  it('names the missing field and issues nothing', async () => {
    const [before] = await t.db.select({ n: count() }).from(tokens);
    const res = await getToken(`phone=${a.admin.phone}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'password' } });
    expect(res.json().message).toBe('password is required');
    const [after] = await t.db.select({ n: count() }).from(tokens);
    expect(after!.n).toBe(before!.n);
  });

  it('rejects a malformed phone by name, in Chinese by default', async () => {
    const res = await getToken('phone=123&password=x', 'zh-CN');
    expect(res.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: '请输入正确的手机号码',
      data: { field: 'phone' },
    });
  });

  it('gives one answer for a wrong password and an unknown phone', async () => {
    const wrong = await getToken(`phone=${a.admin.phone}&password=wrong999`);
    const unknown = await getToken('phone=13999999999&password=wrong999');
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().code).toBe(ERROR_CODES.LOGIN_FAILED);
  });
});

describe('GET /user/access/logout', () => {
  it('revokes the token: the next call gets 70006', async () => {
    const token = await login(t.app, a.limited.phone);
    const out = await t.app.inject({
      method: 'GET',
      url: '/general/user/access/logout',
      headers: bearer(token),
    });
    expect(out.json()).toMatchObject({ code: 0 });
    const after = await t.app.inject({ method: 'GET', url: '/general/user/getUser', headers: bearer(token) });
    expect(after.json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    expect(after.statusCode).toBe(401);
  });
});

function me(token: string) {
  return t.app.inject({ method: 'GET', url: '/general/user/getUser', headers: bearer(token) });
}

describe('POST /user/addUser (register)', () => {
  it('creates an account with no company, returns its token, and the password logs in', async () => {
    const phone = nextPhone();
    const smsCode = await requestCode(t, phone);
    const res = await postJson(t, '/user/addUser', {
      phone,
      smsCode,
      password: 'newpass99',
      userName: ' Zhang San ',
    });
    expect(res.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    expect(res.json().data.expiresIn).toBe(t.app.config.tokenTtlHours * 3600);
    const profile = (await me(res.json().data.token)).json().data;
    expect(profile).toMatchObject({ phone, userName: 'Zhang San', companyId: null, menuCode: [] });
    const [row] = await t.db.select().from(users).where(eq(users.phone, phone));
    expect(row!.passwordHash).toMatch(/^scrypt\$/);
    expect(row!.passwordHash).not.toContain('newpass99');
    expect(row!.currentCompanyId).toBeNull();
    await expect(login(t.app, phone, 'newpass99')).resolves.toMatch(/^[\w-]{40,}$/);
  });

  it('names the account after the phone when no userName is given', async () => {
    const phone = nextPhone();
    const smsCode = await requestCode(t, phone);
    const res = await postJson(t, '/user/addUser', { phone, smsCode, password: 'newpass99' });
    expect((await me(res.json().data.token)).json().data.userName).toBe(`用户${phone.slice(-4)}`);
  });

  it('refuses bad input by field name, writes nothing and keeps the code usable', async () => {
    const phone = nextPhone();
    const smsCode = await requestCode(t, phone);
    const usersBefore = await rowCount(t, users);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { phone: '1234', smsCode, password: 'newpass99' },
        'phone',
        'Please enter a valid mobile phone number',
      ],
      [
        { phone, smsCode, password: 'short1' },
        'password',
        'The password must be 8 to 64 characters and contain letters and digits',
      ],
      [
        { phone, smsCode, password: 'onlyletters' },
        'password',
        'The password must be 8 to 64 characters and contain letters and digits',
      ],
      [
        { phone, smsCode, password: 'newpass99', userName: 'x'.repeat(26) },
        'userName',
        'The length of the name cannot exceed 25 characters',
      ],
      [{ phone, password: 'newpass99' }, 'smsCode', 'smsCode is required'],
      [{ smsCode, password: 'newpass99' }, 'phone', 'phone is required'],
    ];
    for (const [body, field, message] of cases) {
      const res = await postJson(t, '/user/addUser', body);
      expect(res.statusCode, field).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        message,
        data: { field },
      });
    }
    expect(await rowCount(t, users)).toBe(usersBefore);
    const [code] = await t.db.select().from(smsCodes).where(eq(smsCodes.phone, phone));
    expect(code!.attempts).toBe(0);
    expect((await postJson(t, '/user/addUser', { phone, smsCode, password: 'newpass99' })).json().code).toBe(
      0,
    );
  });

  it('refuses a wrong code and creates nothing', async () => {
    const phone = nextPhone();
    const smsCode = await requestCode(t, phone);
    const res = await postJson(t, '/user/addUser', {
      phone,
      smsCode: wrongCode(smsCode),
      password: 'newpass99',
    });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    expect(await t.db.select().from(users).where(eq(users.phone, phone))).toHaveLength(0);
  });

  it('refuses a registered phone with 40900 on the phone field and changes nothing', async () => {
    const smsCode = await requestCode(t, a.limited.phone);
    const [before] = await t.db.select().from(users).where(eq(users.phone, a.limited.phone));
    const usersBefore = await rowCount(t, users);
    const res = await postJson(t, '/user/addUser', {
      phone: a.limited.phone,
      smsCode,
      password: 'takeover99',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'This phone number is already registered',
      data: { field: 'phone' },
    });
    expect(await rowCount(t, users)).toBe(usersBefore);
    const [after] = await t.db.select().from(users).where(eq(users.phone, a.limited.phone));
    expect(after!.passwordHash).toBe(before!.passwordHash);
    await expect(login(t.app, a.limited.phone)).resolves.toBeTruthy();
  });
});

describe('POST /user/access/resetPassword', () => {
  it('sets the new password and ends every session: old tokens get 70006, the old password fails', async () => {
    const phone = nextPhone();
    const user = await createUser(t.db, { phone, password: TEST_PASSWORD });
    const first = await login(t.app, phone);
    const second = await login(t.app, phone);
    const smsCode = await requestCode(t, phone);
    const res = await postJson(t, '/user/access/resetPassword', { phone, smsCode, password: 'brandnew42' });
    expect(res.json()).toEqual({ code: 0, message: 'Operation successful', data: null });
    for (const old of [first, second]) {
      const after = await me(old);
      expect(after.statusCode).toBe(401);
      expect(after.json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    }
    const live = await t.db
      .select()
      .from(tokens)
      .where(eq(tokens.userId, user.id))
      .then((rows) => rows.filter((r) => r.revokedAt == null));
    expect(live).toHaveLength(0);
    expect((await getToken(`phone=${phone}&password=${TEST_PASSWORD}`)).json().code).toBe(
      ERROR_CODES.LOGIN_FAILED,
    );
    const fresh = await login(t.app, phone, 'brandnew42');
    expect((await me(fresh)).json().data.phone).toBe(phone);
  });

  it('refuses an unregistered phone, a weak password or a wrong code, and changes nothing', async () => {
    const phone = nextPhone();
    const user = await createUser(t.db, { phone, password: TEST_PASSWORD });
    const token = await login(t.app, phone);
    const smsCode = await requestCode(t, phone);
    const stranger = nextPhone();
    const strangerCode = await requestCode(t, stranger);

    const unknown = await postJson(t, '/user/access/resetPassword', {
      phone: stranger,
      smsCode: strangerCode,
      password: 'brandnew42',
    });
    expect(unknown.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'This phone number is not registered',
      data: { field: 'phone' },
    });
    const weak = await postJson(t, '/user/access/resetPassword', { phone, smsCode, password: 'weak' });
    expect(weak.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'password' } });
    const wrong = await postJson(t, '/user/access/resetPassword', {
      phone,
      smsCode: wrongCode(smsCode),
      password: 'brandnew42',
    });
    expect(wrong.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    const missing = await postJson(t, '/user/access/resetPassword', { phone, password: 'brandnew42' });
    expect(missing.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });

    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.passwordHash).toBe(user.passwordHash);
    expect((await me(token)).json().code).toBe(0);
    const revoked = await t.db
      .select()
      .from(tokens)
      .where(eq(tokens.userId, user.id))
      .then((rows) => rows.filter((r) => r.revokedAt != null));
    expect(revoked).toHaveLength(0);
    await expect(login(t.app, phone)).resolves.toBeTruthy();
  });
});

describe('rate limits', () => {
  it(`answers the ${4}th getToken within a minute with 42900 and HTTP 429`, async () => {
    const limited = await buildTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const attempt = () =>
        limited.app.inject({
          method: 'POST',
          url: '/general/user/access/getToken',
          payload: 'phone=13900000000&password=wrong999',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en' },
        });
      for (let i = 0; i < 3; i += 1) expect((await attempt()).json().code).toBe(ERROR_CODES.LOGIN_FAILED);
      const fourth = await attempt();
      expect(fourth.statusCode).toBe(429);
      expect(fourth.json()).toMatchObject({
        code: ERROR_CODES.RATE_LIMITED,
        message: 'Too many attempts, please try again later',
      });

      // the other public auth routes carry the same limit
      const smsCalls = [];
      for (let i = 0; i < 4; i += 1) {
        smsCalls.push(
          await limited.app.inject({ method: 'GET', url: '/general/user/access/getSmsCode?phone=1' }),
        );
      }
      expect(smsCalls.map((r) => r.statusCode)).toEqual([400, 400, 400, 429]);
      const register = [];
      for (let i = 0; i < 4; i += 1) {
        register.push(
          (await limited.app.inject({ method: 'POST', url: '/general/user/addUser', payload: {} }))
            .statusCode,
        );
      }
      expect(register).toEqual([400, 400, 400, 429]);

      // polling every 2 s must keep working far beyond the login limit
      for (let i = 0; i < 30; i += 1) {
        const poll = await limited.app.inject({
          method: 'GET',
          url: '/general/user/PollingWXScanLoginStatus?sceneId=unknown',
        });
        expect(poll.json()).toMatchObject({ code: 0, data: { status: 'expired' } });
      }
    } finally {
      await limited.close();
    }
  }, 120_000);
});

describe('getSmsCode', () => {
  it('answers in the caller language', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/general/user/access/getSmsCode?phone=${nextPhone()}`,
      headers: { 'accept-language': 'zh-CN' },
    });
    expect(res.json()).toEqual({ code: 0, message: '操作成功', data: null });
  });
});
