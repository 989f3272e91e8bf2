import { ERROR_CODES } from '@platform/domain';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, nextPhone, TEST_PASSWORD, type TestApp } from '../../test/helper';
import { createUser } from '../users/service';
import { users } from '../users/tables';
import { scanOpenId } from './scan';
import { scanSessions, smsCodes } from './tables';
import { ageCodes, form, postJson, requestCode, rowCount, wrongCode } from './test-support';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

let nicknameCounter = 0;
function nextNickname(): string {
  nicknameCounter += 1;
  return `扫码者${process.pid % 1000}-${nicknameCounter}`;
}

async function newScene(): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url: '/general/user/access/getWXScanQrCode' });
  expect(res.json().code).toBe(0);
  return res.json().data.sceneId as string;
}

function poll(sceneId: string) {
  return t.app
    .inject({
      method: 'GET',
      url: `/general/user/PollingWXScanLoginStatus?sceneId=${encodeURIComponent(sceneId)}`,
    })
    .then((res) => res.json());
}

function openPage(sceneId: string) {
  return t.app.inject({ method: 'GET', url: `/general/user/wxScan/${sceneId}` });
}

function confirm(sceneId: string, nickname: string) {
  return t.app.inject({
    method: 'POST',
    url: `/general/user/wxScan/${sceneId}`,
    payload: form({ nickname }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

async function session(sceneId: string) {
  const [row] = await t.db.select().from(scanSessions).where(eq(scanSessions.id, sceneId));
  return row!;
}

async function userByPhone(phone: string) {
  const [row] = await t.db.select().from(users).where(eq(users.phone, phone));
  return row;
}

async function phoneRegister(sceneId: string, phone: string, smsCode?: string) {
  return postJson(t, '/user/WXScanPhoneRegister', {
    sceneId,
    phone,
    smsCode: smsCode ?? (await requestCode(t, phone)),
  });
}

async function whoIs(token: string) {
  const res = await t.app.inject({ method: 'GET', url: '/general/user/getUser', headers: bearer(token) });
  return res.json().data as { userId: number; phone: string; userName: string };
}

describe('GET /user/access/getWXScanQrCode', () => {
  it('opens a 2-minute session and gives a scan URL on the request origin', async () => {
    const before = Date.now();
    const res = await t.app.inject({
      method: 'GET',
      url: '/general/user/access/getWXScanQrCode',
      headers: { host: 'iot.local:8080' },
    });
    const { sceneId, scanUrl, expiresIn } = res.json().data;
    expect(sceneId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(expiresIn).toBe(120);
    expect(scanUrl).toBe(`http://iot.local:8080/general/user/wxScan/${sceneId}`);
    const row = await session(sceneId);
    expect(row.status).toBe('waiting');
    expect(row.expiresAt.getTime() - before).toBeGreaterThan(115_000);
    expect(row.expiresAt.getTime() - before).toBeLessThanOrEqual(125_000);
    expect(await newScene()).not.toBe(sceneId);
  });

  it('uses PUBLIC_URL when configured', async () => {
    const configured = await buildTestApp({ PUBLIC_URL: 'https://iot.example.com/' });
    try {
      const res = await configured.app.inject({ method: 'GET', url: '/general/user/access/getWXScanQrCode' });
      const { sceneId, scanUrl } = res.json().data;
      expect(scanUrl).toBe(`https://iot.example.com/general/user/wxScan/${sceneId}`);
    } finally {
      await configured.close();
    }
  });
});

describe('the scan page (messaging-app stand-in)', () => {
  it('is a self-contained mobile page in both languages; opening it marks the session scanned', async () => {
    const sceneId = await newScene();
    expect((await poll(sceneId)).data).toEqual({ status: 'waiting' });
    const page = await openPage(sceneId);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain('扫码登录');
    expect(page.body).toContain('Scan to log in');
    expect(page.body).toContain('name="viewport"');
    expect(page.body).toMatch(/<form method="post"/);
    expect(page.body).toContain('name="nickname"');
    expect(page.body).not.toMatch(/<script|src=|href=/i);
    expect((await poll(sceneId)).data).toEqual({ status: 'scanned' });
  });

  it('escapes the nickname it shows back', async () => {
    const sceneId = await newScene();
    await openPage(sceneId);
    const res = await confirm(sceneId, '<script>alert(1)</script>');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('已确认，请回到电脑上继续');
    expect(res.body).toContain('Confirmed, return to the computer');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain('<script');
    expect((await poll(sceneId)).data).toEqual({
      status: 'needPhone',
      nickname: '<script>alert(1)</script>',
    });

    const other = await newScene();
    const bad = await confirm(other, `"><script>x</script>${'y'.repeat(30)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('名称长度不能超过25个字符');
    expect(bad.body).toContain('The length of the name cannot exceed 25 characters');
    expect(bad.body).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;');
    expect(bad.body).not.toContain('<script');
  });

  it('refuses an empty nickname with the form again and changes nothing', async () => {
    const sceneId = await newScene();
    await openPage(sceneId);
    const res = await confirm(sceneId, '   ');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('请输入名称');
    expect(res.body).toContain('Please enter a name');
    const row = await session(sceneId);
    expect(row.status).toBe('scanned');
    expect(row.openId).toBeNull();
  });

  it('shows the expired page for an expired, used or unknown scene (410 / 404)', async () => {
    const sceneId = await newScene();
    await t.db
      .update(scanSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(scanSessions.id, sceneId));
    const expired = await openPage(sceneId);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('二维码已失效');
    expect(expired.body).toContain('This QR code has expired');
    expect((await confirm(sceneId, nextNickname())).statusCode).toBe(410);
    expect((await session(sceneId)).status).toBe('waiting');
    expect((await poll(sceneId)).data).toEqual({ status: 'expired' });

    const used = await newScene();
    await confirm(used, nextNickname());
    expect((await openPage(used)).statusCode).toBe(410);
    expect((await confirm(used, nextNickname())).statusCode).toBe(410);

    const unknown = await openPage('no-such-scene');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('This QR code has expired');
    expect((await confirm('no-such-scene', nextNickname())).statusCode).toBe(404);
    expect((await poll('no-such-scene')).data).toEqual({ status: 'expired' });
  });
});

describe('scan-code login end to end', () => {
  it('a new identity gives its phone, gets a token, and from then on logs straight in', async () => {
    const nickname = nextNickname();
    const phone = nextPhone();
    const sceneId = await newScene();
    await openPage(sceneId);
    await confirm(sceneId, nickname);
    expect(await poll(sceneId)).toMatchObject({ code: 0, data: { status: 'needPhone', nickname } });

    const res = await phoneRegister(sceneId, phone);
    expect(res.json().code).toBe(0);
    expect(res.json().data.expiresIn).toBe(t.app.config.tokenTtlHours * 3600);
    const profile = await whoIs(res.json().data.token);
    expect(profile).toMatchObject({ phone, userName: nickname });
    const created = await userByPhone(phone);
    expect(created!.wxOpenId).toBe(scanOpenId(nickname));
    expect(created!.currentCompanyId).toBeNull();
    expect((await session(sceneId)).status).toBe('done');
    expect((await poll(sceneId)).data).toEqual({ status: 'expired' });

    // second time: the same nickname is the same person
    const again = await newScene();
    await openPage(again);
    const page = await confirm(again, nickname);
    expect(page.body).toContain('Confirmed, return to the computer');
    const first = await poll(again);
    expect(first.data.status).toBe('success');
    expect(first.data.expiresIn).toBe(t.app.config.tokenTtlHours * 3600);
    expect((await whoIs(first.data.token)).userId).toBe(created!.id);
    const second = await poll(again);
    expect(second.data).toEqual({ status: 'expired' });
  });

  it('binds an existing account by its phone, which keeps its password', async () => {
    const phone = nextPhone();
    const existing = await createUser(t.db, { phone, userName: 'Existing', password: TEST_PASSWORD });
    const nickname = nextNickname();
    const sceneId = await newScene();
    await confirm(sceneId, nickname);
    const usersBefore = await rowCount(t, users);
    const res = await phoneRegister(sceneId, phone);
    expect(res.json().code).toBe(0);
    expect(await rowCount(t, users)).toBe(usersBefore);
    const profile = await whoIs(res.json().data.token);
    expect(profile).toMatchObject({ userId: existing.id, userName: 'Existing' });
    expect((await userByPhone(phone))!.wxOpenId).toBe(scanOpenId(nickname));
  });

  it('hands the token of a confirmed scan to exactly one of two parallel polls', async () => {
    const nickname = nextNickname();
    const phone = nextPhone();
    const first = await newScene();
    await confirm(first, nickname);
    await phoneRegister(first, phone);

    const sceneId = await newScene();
    await confirm(sceneId, nickname);
    expect((await session(sceneId)).status).toBe('confirmed');
    const results = await Promise.all([poll(sceneId), poll(sceneId), poll(sceneId)]);
    const winners = results.filter((r) => r.data.status === 'success');
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.data.status === 'expired')).toHaveLength(2);
    expect(results.every((r) => r.data.status === 'success' || r.data.token === undefined)).toBe(true);
  });

  it('gives no token for a confirmed scan polled after it expired', async () => {
    const nickname = nextNickname();
    const first = await newScene();
    await confirm(first, nickname);
    await phoneRegister(first, nextPhone());
    const sceneId = await newScene();
    await confirm(sceneId, nickname);
    await t.db
      .update(scanSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(scanSessions.id, sceneId));
    expect((await poll(sceneId)).data).toEqual({ status: 'expired' });
  });

  it('gives the phone step more time than the QR code itself', async () => {
    const sceneId = await newScene();
    const before = Date.now();
    await confirm(sceneId, nextNickname());
    const row = await session(sceneId);
    expect(row.status).toBe('needPhone');
    expect(row.expiresAt.getTime() - before).toBeGreaterThan(4 * 60_000);
  });
});

describe('POST /user/WXScanPhoneRegister refusals', () => {
  it('refuses a phone whose account is bound to another identity, and changes nothing', async () => {
    const phone = nextPhone();
    const bound = await newScene();
    const firstNickname = nextNickname();
    await confirm(bound, firstNickname);
    expect((await phoneRegister(bound, phone)).json().code).toBe(0);

    const sceneId = await newScene();
    await confirm(sceneId, nextNickname());
    await ageCodes(t, phone);
    const smsCode = await requestCode(t, phone);
    const res = await phoneRegister(sceneId, phone, smsCode);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'This phone number or scan identity is already bound to another account',
      data: { field: 'phone' },
    });
    expect((await userByPhone(phone))!.wxOpenId).toBe(scanOpenId(firstNickname));
    expect((await session(sceneId)).status).toBe('needPhone');
    const [code] = await t.db
      .select()
      .from(smsCodes)
      .where(eq(smsCodes.phone, phone))
      .orderBy(desc(smsCodes.id));
    expect(code!.consumedAt).toBeNull();
    expect(code!.attempts).toBe(0);
  });

  it('refuses a scene that is not waiting for a phone, or has expired (scanExpired)', async () => {
    const phone = nextPhone();
    const smsCode = await requestCode(t, phone);
    const waiting = await newScene();
    const expectExpired = (res: Awaited<ReturnType<typeof postJson>>) =>
      expect(res.json()).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        message: 'The QR code has expired, please refresh it',
        data: { field: 'sceneId' },
      });
    expectExpired(await phoneRegister(waiting, phone, smsCode));
    expectExpired(await phoneRegister('no-such-scene', phone, smsCode));

    const late = await newScene();
    await confirm(late, nextNickname());
    await t.db
      .update(scanSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(scanSessions.id, late));
    expectExpired(await phoneRegister(late, phone, smsCode));
    expect(await userByPhone(phone)).toBeUndefined();
    // the code was never spent on those
    const [code] = await t.db.select().from(smsCodes).where(eq(smsCodes.phone, phone));
    expect(code!.attempts).toBe(0);
  });

  it('refuses a bad phone or a wrong code by field name and creates nothing', async () => {
    const sceneId = await newScene();
    await confirm(sceneId, nextNickname());
    const usersBefore = await rowCount(t, users);
    const badPhone = await postJson(t, '/user/WXScanPhoneRegister', {
      sceneId,
      phone: '12',
      smsCode: '123456',
    });
    expect(badPhone.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'phone' } });
    const missing = await postJson(t, '/user/WXScanPhoneRegister', { sceneId, phone: nextPhone() });
    expect(missing.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    const phone = nextPhone();
    const smsCode = await requestCode(t, phone);
    const wrong = await phoneRegister(sceneId, phone, wrongCode(smsCode));
    expect(wrong.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    expect(await rowCount(t, users)).toBe(usersBefore);
    expect((await session(sceneId)).status).toBe('needPhone');
    // the scene still works with the right code
    expect((await phoneRegister(sceneId, phone, smsCode)).json().code).toBe(0);
  });
});
