/**
 * The scan-code login with WeChat Open Platform website login, against a local fake of
 * WeChat's endpoints (qrconnect, sns/oauth2/access_token, sns/userinfo) that behaves as
 * documented: a code is issued when the person confirms in the app, exchanged once, and
 * refused after that.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, nextPhone, type TestApp } from '../../test/helper';
import { users } from '../users/tables';
import { scanSessions, tokens } from './tables';
import { newScene, pollScan, postJson, requestCode, rowCount, type Scene } from './test-support';
import { displayName, WechatLogin, WechatLoginError } from './wechat';

const APP_ID = 'wx_test_app';
const APP_SECRET = `secret_${randomBytes(8).toString('hex')}`;

/** WeChat as far as the server sees it; `confirm` plays the person confirming in the app. */
class FakeWechat {
  readonly exchanges: Array<Record<string, string>> = [];
  readonly userinfoCalls: Array<Record<string, string>> = [];
  /** answer every API call with HTTP 500 */
  down = false;
  private readonly codes = new Map<string, { openid: string; nickname: string }>();
  private readonly accessTokens = new Map<string, { openid: string; nickname: string }>();
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const q = Object.fromEntries(url.searchParams);
      const json = (body: unknown) => {
        // WeChat answers JSON as text/plain
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/connect/qrconnect') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>QR</html>');
        return;
      }
      if (this.down) {
        res.writeHead(500);
        res.end('down');
        return;
      }
      if (url.pathname === '/sns/oauth2/access_token') {
        this.exchanges.push(q);
        const person = q.code ? this.codes.get(q.code) : undefined;
        if (q.appid !== APP_ID || q.secret !== APP_SECRET)
          return json({ errcode: 40125, errmsg: 'invalid appsecret' });
        if (q.grant_type !== 'authorization_code' || !person)
          return json({ errcode: 40029, errmsg: 'invalid code' });
        this.codes.delete(q.code!); // a code is used once
        const accessToken = randomBytes(12).toString('hex');
        this.accessTokens.set(accessToken, person);
        return json({
          access_token: accessToken,
          expires_in: 7200,
          refresh_token: 'r',
          openid: person.openid,
          scope: 'snsapi_login',
          unionid: `u_${person.openid}`,
        });
      }
      if (url.pathname === '/sns/userinfo') {
        this.userinfoCalls.push(q);
        const person = q.access_token ? this.accessTokens.get(q.access_token) : undefined;
        if (!person || person.openid !== q.openid)
          return json({ errcode: 40001, errmsg: 'invalid credential' });
        return json({
          openid: person.openid,
          nickname: person.nickname,
          sex: 0,
          headimgurl: '',
          privilege: [],
        });
      }
      res.writeHead(404);
      res.end();
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The person scanned and confirmed in WeChat: the code WeChat puts in the redirect. */
  confirm(openid: string, nickname: string): string {
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, { openid, nickname });
    return code;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const fake = new FakeWechat();
let t: TestApp;

beforeAll(async () => {
  await fake.start();
  t = await buildTestApp({
    LOGIN_RATE_LIMIT: '1000',
    PUBLIC_URL: 'https://iot.example.com',
    WECHAT_APP_ID: APP_ID,
    WECHAT_APP_SECRET: APP_SECRET,
    WECHAT_OPEN_URL: fake.url,
    WECHAT_API_URL: fake.url,
  });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

function stateOf(scene: Scene): string {
  return new URL(scene.scanUrl).searchParams.get('state')!;
}

/** WeChat sends the browser's frame to redirect_uri with the code and the state. */
function callback(query: Record<string, string>) {
  return t.app.inject({
    method: 'GET',
    url: `/general/user/access/wxLoginCallback?${new URLSearchParams(query)}`,
  });
}

let openidCounter = 0;
function nextOpenid(): string {
  openidCounter += 1;
  return `oWx_${process.pid}_${openidCounter}`;
}

async function sessionOf(scene: Scene) {
  const [row] = await t.db.select().from(scanSessions).where(eq(scanSessions.id, scene.sceneId));
  return row!;
}

describe('WeChat website login: the QR code', () => {
  it("shows WeChat's QR page: appid, redirect_uri on PUBLIC_URL, response_type=code, scope=snsapi_login, and a state that is not the scene id", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/general/user/access/getWXScanQrCode' });
    const data = res.json().data;
    expect(data).toMatchObject({ provider: 'wechat', display: 'embed', expiresIn: 120 });
    const url = new URL(data.scanUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${fake.url}/connect/qrconnect`);
    expect(url.hash).toBe('#wechat_redirect');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      appid: APP_ID,
      redirect_uri: 'https://iot.example.com/general/user/access/wxLoginCallback',
      response_type: 'code',
      scope: 'snsapi_login',
      self_redirect: 'true',
    });
    const state = url.searchParams.get('state')!;
    expect(state).toMatch(/^[\w-]{32}$/);
    expect(state).not.toBe(data.sceneId);
    expect(data.scanUrl).not.toContain(data.sceneId);
    expect(data.scanUrl).not.toContain(APP_SECRET);
    expect((await sessionOf(data)).state).toBe(state);
  });
});

describe('WeChat website login: the callback', () => {
  it('a new WeChat user gives their phone and logs in; the next scan logs straight in', async () => {
    const openid = nextOpenid();
    const scene = await newScene(t);
    const landed = await callback({ code: fake.confirm(openid, '微信用户甲'), state: stateOf(scene) });
    expect(landed.statusCode).toBe(200);
    expect(landed.body).toContain('Confirmed, return to the computer');
    // the page is shown inside the login page's frame, and nowhere else
    expect(landed.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(landed.body).not.toContain(APP_SECRET);
    expect(fake.exchanges.at(-1)).toMatchObject({
      appid: APP_ID,
      secret: APP_SECRET,
      grant_type: 'authorization_code',
    });
    expect((await pollScan(t, scene.sceneId)).data).toEqual({ status: 'needPhone', nickname: '微信用户甲' });

    const phone = nextPhone();
    const bound = await postJson(t, '/user/WXScanPhoneRegister', {
      sceneId: scene.sceneId,
      phone,
      smsCode: await requestCode(t, phone),
    });
    expect(bound.json().code).toBe(0);
    const [user] = await t.db.select().from(users).where(eq(users.phone, phone));
    expect(user!.wxOpenId).toBe(`wx:${openid}`);
    expect(user!.userName).toBe('微信用户甲');

    const again = await newScene(t);
    expect(
      (await callback({ code: fake.confirm(openid, '改了昵称'), state: stateOf(again) })).statusCode,
    ).toBe(200);
    const polled = await pollScan(t, again.sceneId);
    expect(polled.data.status).toBe('success');
    const me = await t.app.inject({
      method: 'GET',
      url: '/general/user/getUser',
      headers: bearer(polled.data.token),
    });
    expect(me.json().data.userId).toBe(user!.id);
  });

  it('a forged callback with a wrong state gives nothing, and the code is not exchanged', async () => {
    const scene = await newScene(t);
    const code = fake.confirm(nextOpenid(), '受害者');
    const exchangesBefore = fake.exchanges.length;
    const tokensBefore = await rowCount(t, tokens);
    for (const state of [randomBytes(24).toString('base64url'), scene.sceneId, '']) {
      const forged = await callback({ code, state });
      expect(forged.statusCode, state).toBeGreaterThanOrEqual(400);
      expect(forged.body).toContain('This QR code has expired');
    }
    expect(fake.exchanges.length).toBe(exchangesBefore);
    expect((await sessionOf(scene)).status).toBe('waiting');
    expect((await pollScan(t, scene.sceneId)).data).toEqual({ status: 'waiting' });
    expect(await rowCount(t, tokens)).toBe(tokensBefore);
  });

  it('a code is used once: replaying the callback, or carrying its code to another session, gives nothing', async () => {
    const openid = nextOpenid();
    const first = await newScene(t);
    const code = fake.confirm(openid, '重放');
    expect((await callback({ code, state: stateOf(first) })).statusCode).toBe(200);
    const exchanges = fake.exchanges.length;

    const replay = await callback({ code, state: stateOf(first) });
    expect(replay.statusCode).toBe(410);
    const other = await newScene(t);
    const carried = await callback({ code, state: stateOf(other) });
    expect(carried.statusCode).toBe(410);
    expect(fake.exchanges.length).toBe(exchanges);
    expect((await sessionOf(other)).status).toBe('waiting');
  });

  it('a code the provider refuses ends the session: no token, the browser is told to refresh', async () => {
    const scene = await newScene(t);
    const refused = await callback({ code: 'not-a-code-wechat-issued', state: stateOf(scene) });
    expect(refused.statusCode).toBe(502);
    expect(refused.body).toContain('The messaging app could not confirm the login');
    expect((await sessionOf(scene)).status).toBe('failed');
    expect((await pollScan(t, scene.sceneId)).data).toEqual({ status: 'expired' });
    // and the state cannot be tried again with another code
    expect(
      (await callback({ code: fake.confirm(nextOpenid(), 'x'), state: stateOf(scene) })).statusCode,
    ).toBe(410);
  });

  it('a failing or unreachable provider is answered like a refusal; the error that is logged carries no secret', async () => {
    const scene = await newScene(t);
    fake.down = true;
    try {
      const res = await callback({ code: fake.confirm(nextOpenid(), 'x'), state: stateOf(scene) });
      expect(res.statusCode).toBe(502);
      expect(res.body).not.toContain(APP_SECRET);
    } finally {
      fake.down = false;
    }
    expect((await pollScan(t, scene.sceneId)).data).toEqual({ status: 'expired' });

    const config = { appId: APP_ID, appSecret: APP_SECRET, openUrl: fake.url, apiUrl: 'http://127.0.0.1:9' };
    const error = await new WechatLogin(config).identify('some-code').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WechatLoginError);
    expect((error as Error).message).not.toContain(APP_SECRET);
    expect((error as Error).message).not.toContain('some-code');
  });

  it('the person declining in the app (no code) changes nothing', async () => {
    const scene = await newScene(t);
    const declined = await callback({ state: stateOf(scene) });
    expect(declined.statusCode).toBe(400);
    expect((await sessionOf(scene)).status).toBe('waiting');
  });

  it('the stand-in pages do not answer while WeChat is the provider', async () => {
    const scene = await newScene(t);
    const page = await t.app.inject({ method: 'GET', url: `/general/user/wxScan/${stateOf(scene)}` });
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('Scan-code login is not configured');
    const confirm = await t.app.inject({
      method: 'POST',
      url: `/general/user/wxScan/${stateOf(scene)}`,
      payload: 'nickname=x',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        cookie: `scan_standin_id=${'a'.repeat(43)}`,
      },
    });
    expect(confirm.statusCode).toBe(404);
    expect((await sessionOf(scene)).status).toBe('waiting');
  });

  it('the callback does not answer where WeChat is not configured', async () => {
    const plain = await buildTestApp();
    try {
      const res = await plain.app.inject({
        method: 'GET',
        url: '/general/user/access/wxLoginCallback?code=a&state=b',
      });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('Scan-code login is not configured');
    } finally {
      await plain.close();
    }
  }, 120_000);
});

describe('the nickname WeChat gives', () => {
  it('becomes a fit user name: no control characters, at most 25 characters', () => {
    expect(displayName('  小明\u0000\u0007 ')).toBe('小明');
    expect(displayName('字'.repeat(40))).toBe('字'.repeat(25));
    expect(displayName(undefined)).toBe('');
  });
});
