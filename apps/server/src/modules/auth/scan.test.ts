import { ERROR_CODES } from '@platform/domain';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, nextPhone, TEST_PASSWORD, type TestApp } from '../../test/helper';
import { createUser } from '../users/service';
import { users } from '../users/tables';
import { scanSessions, smsCodes } from './tables';
import {
  ageCodes,
  newScene as openScene,
  pollScan,
  postJson,
  requestCode,
  rowCount,
  type Scene,
  StandInPhone,
  wrongCode,
} from './test-support';

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

const newScene = (): Promise<Scene> => openScene(t);
const poll = (scene: Scene) => pollScan(t, scene.sceneId);
const newPhone = () => new StandInPhone(t);

async function session(scene: Scene) {
  const [row] = await t.db.select().from(scanSessions).where(eq(scanSessions.id, scene.sceneId));
  return row!;
}

async function userByPhone(phone: string) {
  const [row] = await t.db.select().from(users).where(eq(users.phone, phone));
  return row;
}

async function phoneRegister(scene: Scene, phone: string, smsCode?: string) {
  return postJson(t, '/user/WXScanPhoneRegister', {
    sceneId: scene.sceneId,
    phone,
    smsCode: smsCode ?? (await requestCode(t, phone)),
  });
}

async function whoIs(token: string) {
  const res = await t.app.inject({ method: 'GET', url: '/general/user/getUser', headers: bearer(token) });
  return res.json().data as { userId: number; phone: string; userName: string };
}

async function expire(scene: Scene) {
  await t.db
    .update(scanSessions)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(scanSessions.id, scene.sceneId));
}

describe('GET /user/access/getWXScanQrCode', () => {
  it('opens a 2-minute session; the scan URL on the request origin names the session by a state, not by its scene id', async () => {
    const before = Date.now();
    const res = await t.app.inject({
      method: 'GET',
      url: '/general/user/access/getWXScanQrCode',
      headers: { host: 'iot.local:8080' },
    });
    const { sceneId, scanUrl, expiresIn, provider, display } = res.json().data;
    expect(sceneId).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(expiresIn).toBe(120);
    expect({ provider, display }).toEqual({ provider: 'standin', display: 'qr' });
    const row = await session({ sceneId, scanUrl });
    expect(scanUrl).toBe(`http://iot.local:8080/general/user/wxScan/${row.state}`);
    expect(row.state).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(scanUrl).not.toContain(sceneId);
    expect(row.status).toBe('waiting');
    expect(row.provider).toBe('standin');
    expect(row.expiresAt.getTime() - before).toBeGreaterThan(115_000);
    expect(row.expiresAt.getTime() - before).toBeLessThanOrEqual(125_000);
    expect((await newScene()).sceneId).not.toBe(sceneId);
  });

  it('uses PUBLIC_URL when configured', async () => {
    const configured = await buildTestApp({ PUBLIC_URL: 'https://iot.example.com/' });
    try {
      const res = await configured.app.inject({ method: 'GET', url: '/general/user/access/getWXScanQrCode' });
      expect(res.json().data.scanUrl).toMatch(
        /^https:\/\/iot\.example\.com\/general\/user\/wxScan\/[\w-]{32}$/,
      );
    } finally {
      await configured.close();
    }
  }, 120_000);
});

describe('the scan page (messaging-app stand-in)', () => {
  it('is a self-contained mobile page in both languages; opening it marks the session scanned', async () => {
    const scene = await newScene();
    expect((await poll(scene)).data).toEqual({ status: 'waiting' });
    const page = await newPhone().open(scene.scanUrl);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('扫码登录');
    expect(page.body).toContain('Scan to log in');
    expect(page.body).toContain('the nickname is only the name shown');
    expect(page.body).toContain('name="viewport"');
    expect(page.body).toMatch(/<form method="post"/);
    expect(page.body).toContain('name="nickname"');
    expect(page.body).not.toMatch(/<script|src=|href=/i);
    expect((await poll(scene)).data).toEqual({ status: 'scanned' });
  });

  it("gives a browser its identity the first time: a random secret in an HttpOnly cookie of the stand-in's path, kept afterwards", async () => {
    const phone = newPhone();
    const first = await phone.open((await newScene()).scanUrl);
    const setCookie = String(first.headers['set-cookie']);
    expect(setCookie).toMatch(/^scan_standin_id=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain('Path=/general/user/wxScan;');
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).not.toContain('Secure'); // plain http here; set behind https
    const secret = phone.cookies.get('scan_standin_id');
    const again = await phone.open((await newScene()).scanUrl);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(phone.cookies.get('scan_standin_id')).toBe(secret);
    // another browser gets another secret
    const other = newPhone();
    await other.open((await newScene()).scanUrl);
    expect(other.cookies.get('scan_standin_id')).not.toBe(secret);
  });

  it('escapes the nickname it shows back', async () => {
    const scene = await newScene();
    const res = await newPhone().confirm(scene.scanUrl, '<script>alert(1)</script>');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('已确认，请回到电脑上继续');
    expect(res.body).toContain('Confirmed, return to the computer');
    expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(res.body).not.toContain('<script');
    expect((await poll(scene)).data).toEqual({
      status: 'needPhone',
      nickname: '<script>alert(1)</script>',
    });

    const other = await newScene();
    const bad = await newPhone().confirm(other.scanUrl, `"><script>x</script>${'y'.repeat(30)}`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('名称长度不能超过25个字符');
    expect(bad.body).toContain('The length of the name cannot exceed 25 characters');
    expect(bad.body).toContain('value="&quot;&gt;&lt;script&gt;x&lt;/script&gt;');
    expect(bad.body).not.toContain('<script');
  });

  it('refuses an empty nickname with the form again and changes nothing', async () => {
    const scene = await newScene();
    const res = await newPhone().confirm(scene.scanUrl, '   ');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('请输入名称');
    expect(res.body).toContain('Please enter a name');
    const row = await session(scene);
    expect(row.status).toBe('scanned');
    expect(row.openId).toBeNull();
  });

  it('remembers the nickname for the next confirmation on that phone', async () => {
    const phone = newPhone();
    const nickname = nextNickname();
    await phone.confirm((await newScene()).scanUrl, nickname);
    const page = await phone.open((await newScene()).scanUrl);
    expect(page.body).toContain(`value="${nickname}"`);
  });

  it('shows the expired page for an expired, used or unknown scene (410 / 404)', async () => {
    const phone = newPhone();
    const scene = await newScene();
    await expire(scene);
    const expired = await phone.open(scene.scanUrl);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('二维码已失效');
    expect(expired.body).toContain('This QR code has expired');
    expect((await phone.submit(scene.scanUrl, nextNickname())).statusCode).toBe(410);
    expect((await session(scene)).status).toBe('waiting');
    expect((await poll(scene)).data).toEqual({ status: 'expired' });

    const used = await newScene();
    await phone.confirm(used.scanUrl, nextNickname());
    expect((await phone.open(used.scanUrl)).statusCode).toBe(410);
    expect((await phone.submit(used.scanUrl, nextNickname())).statusCode).toBe(410);

    const unknown = await phone.open('/general/user/wxScan/no-such-scene');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain('This QR code has expired');
    expect((await phone.submit('/general/user/wxScan/no-such-scene', nextNickname())).statusCode).toBe(404);
    expect((await pollScan(t, 'no-such-scene')).data).toEqual({ status: 'expired' });
  });
});

describe('hostile input on the public scan routes', () => {
  it('a NUL or other junk in a scene id or state is refused as input, never a server error', async () => {
    for (const url of [
      '/general/user/PollingWXScanLoginStatus?sceneId=%00',
      '/general/user/PollingWXScanLoginStatus?sceneId=a%20b',
      '/general/user/wxScan/%00',
      '/general/user/access/wxLoginCallback?code=x&state=%00',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
    }
    const post = await t.app.inject({
      method: 'POST',
      url: '/general/user/wxScan/%00',
      payload: 'nickname=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(post.statusCode).toBe(400);
  });

  it('a NUL in a nickname is refused naming the field; other control characters are dropped', async () => {
    const scene = await newScene();
    const refused = await newPhone().confirm(scene.scanUrl, '张\u0000三');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ data: { field: 'nickname' } });
    expect((await session(scene)).status).not.toBe('needPhone');
    const res = await newPhone().confirm(scene.scanUrl, '张\u0007三\u001b');
    expect(res.statusCode).toBe(200);
    expect((await poll(scene)).data).toEqual({ status: 'needPhone', nickname: '张三' });
  });
});

describe('scan-code login end to end', () => {
  it('a new identity gives its phone, gets a token, and from then on logs straight in from that browser', async () => {
    const nickname = nextNickname();
    const phoneNumber = nextPhone();
    const phone = newPhone();
    const scene = await newScene();
    await phone.confirm(scene.scanUrl, nickname);
    expect(await poll(scene)).toMatchObject({ code: 0, data: { status: 'needPhone', nickname } });

    const res = await phoneRegister(scene, phoneNumber);
    expect(res.json().code).toBe(0);
    expect(res.json().data.expiresIn).toBe(t.app.config.tokenTtlHours * 3600);
    const profile = await whoIs(res.json().data.token);
    expect(profile).toMatchObject({ phone: phoneNumber, userName: nickname });
    const created = await userByPhone(phoneNumber);
    expect(created!.wxOpenId).toMatch(/^standin:[0-9a-f]{48}$/);
    expect(created!.currentCompanyId).toBeNull();
    expect((await session(scene)).status).toBe('done');
    expect((await poll(scene)).data).toEqual({ status: 'expired' });

    // second time: the same browser is the same person, whatever nickname it types
    const again = await newScene();
    const page = await phone.confirm(again.scanUrl, nextNickname());
    expect(page.body).toContain('Confirmed, return to the computer');
    const first = await poll(again);
    expect(first.data.status).toBe('success');
    expect(first.data.expiresIn).toBe(t.app.config.tokenTtlHours * 3600);
    expect((await whoIs(first.data.token)).userId).toBe(created!.id);
    const second = await poll(again);
    expect(second.data).toEqual({ status: 'expired' });
  });

  it('binds an existing account by its phone, which keeps its password', async () => {
    const phoneNumber = nextPhone();
    const existing = await createUser(t.db, {
      phone: phoneNumber,
      userName: 'Existing',
      password: TEST_PASSWORD,
    });
    const scene = await newScene();
    await newPhone().confirm(scene.scanUrl, nextNickname());
    const usersBefore = await rowCount(t, users);
    const res = await phoneRegister(scene, phoneNumber);
    expect(res.json().code).toBe(0);
    expect(await rowCount(t, users)).toBe(usersBefore);
    const profile = await whoIs(res.json().data.token);
    expect(profile).toMatchObject({ userId: existing.id, userName: 'Existing' });
    expect((await userByPhone(phoneNumber))!.wxOpenId).toBe((await session(scene)).openId);
  });

  it('hands the token of a confirmed scan to exactly one of two parallel polls', async () => {
    const phone = newPhone();
    const first = await newScene();
    await phone.confirm(first.scanUrl, nextNickname());
    await phoneRegister(first, nextPhone());

    const scene = await newScene();
    await phone.confirm(scene.scanUrl, nextNickname());
    expect((await session(scene)).status).toBe('confirmed');
    const results = await Promise.all([poll(scene), poll(scene), poll(scene)]);
    const winners = results.filter((r) => r.data.status === 'success');
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.data.status === 'expired')).toHaveLength(2);
    expect(results.every((r) => r.data.status === 'success' || r.data.token === undefined)).toBe(true);
  });

  it('gives no token for a confirmed scan polled after it expired', async () => {
    const phone = newPhone();
    const first = await newScene();
    await phone.confirm(first.scanUrl, nextNickname());
    await phoneRegister(first, nextPhone());
    const scene = await newScene();
    await phone.confirm(scene.scanUrl, nextNickname());
    await expire(scene);
    expect((await poll(scene)).data).toEqual({ status: 'expired' });
  });

  it('gives the phone step more time than the QR code itself', async () => {
    const scene = await newScene();
    const before = Date.now();
    await newPhone().confirm(scene.scanUrl, nextNickname());
    const row = await session(scene);
    expect(row.status).toBe('needPhone');
    expect(row.expiresAt.getTime() - before).toBeGreaterThan(4 * 60_000);
  });
});

describe('POST /user/WXScanPhoneRegister refusals', () => {
  it('tells the proved owner of a phone bound to another identity so, keeps the code, and changes nothing', async () => {
    const phoneNumber = nextPhone();
    const bound = await newScene();
    await newPhone().confirm(bound.scanUrl, nextNickname());
    expect((await phoneRegister(bound, phoneNumber)).json().code).toBe(0);
    const boundIdentity = (await userByPhone(phoneNumber))!.wxOpenId;

    const scene = await newScene();
    await newPhone().confirm(scene.scanUrl, nextNickname());
    await ageCodes(t, phoneNumber);
    const smsCode = await requestCode(t, phoneNumber);
    const res = await phoneRegister(scene, phoneNumber, smsCode);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'This phone number or scan identity is already bound to another account',
      data: { field: 'phone' },
    });
    expect((await userByPhone(phoneNumber))!.wxOpenId).toBe(boundIdentity);
    expect((await session(scene)).status).toBe('needPhone');
    const [code] = await t.db
      .select()
      .from(smsCodes)
      .where(eq(smsCodes.phone, phoneNumber))
      .orderBy(desc(smsCodes.id));
    expect(code!.consumedAt).toBeNull();
  });

  it('refuses a scene that is not waiting for a phone, or has expired (scanExpired)', async () => {
    const phoneNumber = nextPhone();
    const smsCode = await requestCode(t, phoneNumber);
    const waiting = await newScene();
    const expectExpired = (res: Awaited<ReturnType<typeof postJson>>) =>
      expect(res.json()).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        message: 'The QR code has expired, please refresh it',
        data: { field: 'sceneId' },
      });
    expectExpired(await phoneRegister(waiting, phoneNumber, smsCode));
    expectExpired(await phoneRegister({ sceneId: 'no-such-scene', scanUrl: '' }, phoneNumber, smsCode));

    const late = await newScene();
    await newPhone().confirm(late.scanUrl, nextNickname());
    await expire(late);
    expectExpired(await phoneRegister(late, phoneNumber, smsCode));
    expect(await userByPhone(phoneNumber)).toBeUndefined();
    // the code was never tried on those
    const [code] = await t.db.select().from(smsCodes).where(eq(smsCodes.phone, phoneNumber));
    expect(code!.attempts).toBe(0);
  });

  it('refuses a bad phone or a wrong code by field name and creates nothing', async () => {
    const scene = await newScene();
    await newPhone().confirm(scene.scanUrl, nextNickname());
    const usersBefore = await rowCount(t, users);
    const badPhone = await postJson(t, '/user/WXScanPhoneRegister', {
      sceneId: scene.sceneId,
      phone: '12',
      smsCode: '123456',
    });
    expect(badPhone.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'phone' } });
    const missing = await postJson(t, '/user/WXScanPhoneRegister', {
      sceneId: scene.sceneId,
      phone: nextPhone(),
    });
    expect(missing.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    const phoneNumber = nextPhone();
    const smsCode = await requestCode(t, phoneNumber);
    const wrong = await phoneRegister(scene, phoneNumber, wrongCode(smsCode));
    expect(wrong.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'smsCode' } });
    expect(await rowCount(t, users)).toBe(usersBefore);
    expect((await session(scene)).status).toBe('needPhone');
    // the scene still works with the right code
    expect((await phoneRegister(scene, phoneNumber, smsCode)).json().code).toBe(0);
  });
});
