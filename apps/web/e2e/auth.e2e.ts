/**
 * The login page as a person uses it: password login (wrong then right, redirect target),
 * SMS-code login, registration, password reset, the scan-code flow across two browsers
 * (the second one plays the phone), client-side validation, the QR code's expiry, and
 * screenshots of every view at 1440 and 390 px in zh and en.
 */
import { CATALOGUE } from '@platform/domain';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  allowPageErrors,
  DEMO_ADMIN,
  DEMO_LIMITED,
  type Lang,
  newPage,
  type RunningServer,
  refused,
  shot,
  startServerAndBrowser,
} from './harness';
import { pathOf, supportFor } from './support';

let server: RunningServer;
let browser: Browser;
const { api, tokenOf } = supportFor(() => ({ server, browser }));

let phoneCounter = 0;
/** A phone no account has yet; each gets its own SMS code (the server sends one a minute per phone). */
function freshPhone(): string {
  return `1391234${String(1000 + phoneCounter++).padStart(4, '0')}`;
}

async function closePage(page: Page): Promise<void> {
  await page.context().close();
}

async function openLogin(opts: { width?: number; lang?: Lang; query?: string } = {}): Promise<Page> {
  const page = await newPage(browser, { width: opts.width ?? 1440, lang: opts.lang ?? 'zh' });
  await page.goto(`${server.url}/login${opts.query ?? ''}`);
  await page.getByTestId('login-submit').waitFor();
  return page;
}

/** Text of the latest error notification (the http client's "tip" notification). */
async function lastNotification(page: Page): Promise<string> {
  const notice = page.locator('.ant-notification-notice').last();
  await notice.waitFor();
  return ((await notice.locator('.ant-notification-notice-description').textContent()) ?? '').trim();
}

/** Click "get code", see the countdown start, and read the code the SMS stand-in logged. */
async function requestCode(page: Page, prefix: string, phone: string, previous?: string): Promise<string> {
  const button = page.getByTestId(`${prefix}-get-code`);
  await button.click();
  await expect
    .poll(() => button.textContent(), { timeout: 10_000 })
    .toMatch(/^(\d+ 秒后重新获取|Resend in \d+ s)$/);
  expect(await button.isDisabled()).toBe(true);
  return server.waitForSmsCode(phone, previous);
}

async function landed(page: Page, path = '/home'): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { timeout: 20_000 });
}

function termsDialog(page: Page) {
  return page.locator('.ant-modal').filter({ has: page.getByTestId('terms-body') });
}

beforeAll(async () => {
  [server, browser] = await startServerAndBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('password login', () => {
  test("a wrong password shows the server's error; the right one (Enter) lands on /home", async () => {
    const page = await openLogin();
    await page.getByTestId('login-phone').fill(DEMO_ADMIN.phone);
    await page.getByTestId('login-password').fill('wrong-password1');
    // the wrong password is the test's own: the login is refused on purpose
    allowPageErrors(refused(401, '/general/user/access/getToken'));
    await page.getByTestId('login-submit').click();
    expect(await lastNotification(page)).toBe(CATALOGUE.loginFailed.zh);
    expect(pathOf(page)).toBe('/login');
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();

    await page.getByTestId('login-password').fill(DEMO_ADMIN.password);
    await page.getByTestId('login-password').press('Enter');
    await landed(page);
    const stored = await page.evaluate(() => window.localStorage.getItem('token'));
    expect(stored).toBeTruthy();
    // the user record was stored with the token
    const user = await page.evaluate(() => window.localStorage.getItem('user'));
    expect(user).toContain(DEMO_ADMIN.phone);
    await closePage(page);
  });

  test('a visitor sent to /login from a page returns to it; a foreign redirect is ignored', async () => {
    const page = await newPage(browser, { width: 1440, lang: 'zh' });
    await page.goto(`${server.url}/user/userinfo`);
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect')).toBe('/user/userinfo');
    await page.getByTestId('login-phone').fill(DEMO_LIMITED.phone);
    await page.getByTestId('login-password').fill(DEMO_LIMITED.password);
    await page.getByTestId('login-submit').click();
    await landed(page, '/user/userinfo');
    await closePage(page);

    for (const evil of ['//evil.example/x', '/\\evil.example', 'https://evil.example/']) {
      const other = await openLogin({ query: `?redirect=${encodeURIComponent(evil)}` });
      // dropped from the address before anything can follow it
      await expect.poll(() => new URL(other.url()).searchParams.get('redirect')).toBeNull();
      await other.getByTestId('login-phone').fill(DEMO_LIMITED.phone);
      await other.getByTestId('login-password').fill(DEMO_LIMITED.password);
      await other.getByTestId('login-submit').click();
      await landed(other);
      expect(new URL(other.url()).origin).toBe(server.url);
      await closePage(other);
    }
  });

  test('the phone is checked before anything is sent, in the chosen language', async () => {
    const page = await openLogin({ lang: 'en' });
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/general/user/access/getToken')) calls += 1;
    });
    await page.getByTestId('login-phone').fill('12345');
    await page.getByTestId('login-password').fill('whatever1');
    await page.getByTestId('login-submit').click();
    await expect
      .poll(() => page.locator('.ant-form-item-explain-error').allTextContents())
      .toContain('Please enter a valid mobile phone number');
    expect(calls).toBe(0);
    // the page has its own language switch
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('lang-zh').click();
    await expect.poll(() => page.getByTestId('login-submit').textContent()).toBe('登 录');
    await closePage(page);
  });
});

describe('SMS code login', () => {
  test("a wrong code shows the server's message under the field; the right code logs in", async () => {
    const page = await openLogin();
    await page.getByTestId('tab-sms').click();
    await page.getByTestId('sms-phone').fill(DEMO_LIMITED.phone);
    const code = await requestCode(page, 'sms', DEMO_LIMITED.phone);
    expect(code).toMatch(/^\d{6}$/);

    const wrong = code === '000000' ? '111111' : '000000';
    await page.getByTestId('sms-code').fill(wrong);
    // the wrong code is the test's own: the login is refused on purpose
    allowPageErrors(refused(400, '/general/user/access/getToken'));
    await page.getByTestId('sms-submit').click();
    expect(await lastNotification(page)).toBe(CATALOGUE.smsCodeInvalid.zh);
    await expect
      .poll(() => page.getByTestId('sms-form').locator('.ant-form-item-explain-error').allTextContents())
      .toContain(CATALOGUE.smsCodeInvalid.zh);
    await shot(page, 'auth-sms-wrong-code-1440-zh');

    await page.getByTestId('sms-code').fill(code);
    await page.getByTestId('sms-submit').click();
    await landed(page);
    await closePage(page);
  });
});

describe('registration', () => {
  test('client-side rules first; then a new phone registers, is logged in and meets the terms dialog', async () => {
    const page = await openLogin();
    await page.getByTestId('to-register').click();
    await page.getByTestId('register-form').waitFor();
    expect(new URL(page.url()).searchParams.get('view')).toBe('register');

    const phone = freshPhone();
    await page.getByTestId('register-phone').fill(phone);
    await page.getByTestId('register-password').fill('short');
    await page.getByTestId('register-confirm').fill('different1');
    await page.getByTestId('register-submit').click();
    const errors = page.getByTestId('register-form').locator('.ant-form-item-explain-error');
    await expect.poll(() => errors.allTextContents()).toContain(CATALOGUE.passwordWeak.zh);
    await expect.poll(() => errors.allTextContents()).toContain('两次输入的密码不一致');
    await expect.poll(() => errors.allTextContents()).toContain('请输入6位数字验证码');

    const code = await requestCode(page, 'register', phone);
    await page.getByTestId('register-code').fill(code);
    await page.getByTestId('register-username').fill('新注册用户');
    await page.getByTestId('register-password').fill('newuser123');
    await page.getByTestId('register-confirm').fill('newuser123');
    await page.getByTestId('register-submit').click();
    await landed(page);
    await termsDialog(page).waitFor({ state: 'visible' });
    const user = await page.evaluate(() => window.localStorage.getItem('user'));
    expect(user).toContain('新注册用户');
    await closePage(page);

    // the account exists with that password
    expect(await tokenOf(phone, 'newuser123')).toBeTruthy();
  });

  test('a phone that already has an account is refused under the phone field', async () => {
    const page = await openLogin({ lang: 'en', width: 390 });
    await page.getByTestId('to-register').click();
    await page.getByTestId('register-phone').fill(DEMO_ADMIN.phone);
    // the phone is taken on purpose: the registration is refused
    allowPageErrors(refused(409, '/general/user/addUser'));
    const code = await requestCode(page, 'register', DEMO_ADMIN.phone);
    await page.getByTestId('register-code').fill(code);
    await page.getByTestId('register-password').fill('another123');
    await page.getByTestId('register-confirm').fill('another123');
    await page.getByTestId('register-submit').click();
    expect(await lastNotification(page)).toBe(CATALOGUE.phoneTaken.en);
    await expect
      .poll(() => page.getByTestId('register-form').locator('.ant-form-item-explain-error').allTextContents())
      .toContain(CATALOGUE.phoneTaken.en);
    await shot(page, 'auth-register-phone-taken-390-en');
    expect(pathOf(page)).toBe('/login');
    await closePage(page);
  });
});

describe('forgot password', () => {
  test('reset with an SMS code: back on the password tab with the phone filled; the old password fails', async () => {
    // an account with a known password, made by the administrator (no SMS code spent on it)
    const admin = await tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
    const phone = freshPhone();
    const created = await api('/user/addSysUser', {
      method: 'POST',
      token: admin,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone, userName: '忘记密码用户', password: 'oldpass123', roleIds: [] }),
    });
    expect(created.code).toBe(0);

    const page = await openLogin();
    await page.getByTestId('to-forgot').click();
    await page.getByTestId('forgot-form').waitFor();
    await page.getByTestId('forgot-phone').fill(phone);
    const code = await requestCode(page, 'forgot', phone);
    await page.getByTestId('forgot-code').fill(code);
    await page.getByTestId('forgot-password').fill('newpass456');
    await page.getByTestId('forgot-confirm').fill('newpass456');
    await page.getByTestId('forgot-submit').click();

    await page.getByTestId('password-form').waitFor();
    await expect.poll(() => page.locator('.ant-message-notice').last().textContent()).toContain('密码已重置');
    expect(await page.getByTestId('login-phone').inputValue()).toBe(phone);
    expect(new URL(page.url()).searchParams.get('view')).toBeNull();

    await page.getByTestId('login-password').fill('oldpass123');
    // the old password is tried on purpose: the login is refused
    allowPageErrors(refused(401, '/general/user/access/getToken'));
    await page.getByTestId('login-submit').click();
    expect(await lastNotification(page)).toBe(CATALOGUE.loginFailed.zh);
    expect(pathOf(page)).toBe('/login');

    await page.getByTestId('login-password').fill('newpass456');
    await page.getByTestId('login-submit').click();
    await landed(page);
    await closePage(page);
  });
});

describe('scan-code login', () => {
  async function scanUrlOn(page: Page): Promise<string> {
    await page.getByTestId('tab-scan').click();
    await page.getByTestId('scan-qr').waitFor();
    expect(await page.getByTestId('scan-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    const href = await page.getByTestId('scan-url').getAttribute('href');
    expect(href).toContain('/general/user/wxScan/');
    return href!;
  }

  /**
   * The second browser plays the phone: open the scanned link, confirm as `nickname`. Its
   * identity is the secret the stand-in keeps in that browser, not the nickname.
   */
  async function confirmOnPhone(
    phonePage: Page,
    scanUrl: string,
    nickname: string,
    watch?: Page,
    shotName?: string,
  ) {
    await phonePage.goto(scanUrl);
    if (watch) await watch.getByTestId('scan-scanned').waitFor({ timeout: 10_000 });
    if (shotName) await shot(phonePage, shotName);
    await phonePage.locator('#nickname').fill(nickname);
    await phonePage.locator('button[type=submit]').click();
    await phonePage.getByText('已确认').waitFor();
  }

  test('first scan binds a phone (needPhone), a second scan with the same identity logs straight in', async () => {
    const nickname = `扫码${Date.now() % 100000}`;
    const page = await openLogin();
    const phonePage = await newPage(browser, { width: 390, lang: 'zh' });

    const scanUrl = await scanUrlOn(page);
    await confirmOnPhone(phonePage, scanUrl, nickname, page);
    await shot(phonePage, 'auth-scan-phone-confirmed-390');

    const bind = page.getByTestId('scan-bind');
    await bind.waitFor({ timeout: 10_000 });
    expect(await bind.textContent()).toContain(nickname);
    await shot(page, 'auth-scan-bind-1440-zh');
    const phone = freshPhone();
    await page.getByTestId('bind-phone').fill(phone);
    const code = await requestCode(page, 'bind', phone);
    await page.getByTestId('bind-code').fill(code);
    await page.getByTestId('bind-submit').click();
    await landed(page);
    const user = await page.evaluate(() => window.localStorage.getItem('user'));
    expect(user).toContain(phone);
    await closePage(page);

    const again = await openLogin();
    const secondUrl = await scanUrlOn(again);
    expect(secondUrl).not.toBe(scanUrl);
    await confirmOnPhone(phonePage, secondUrl, nickname);
    await landed(again);
    expect(await again.evaluate(() => window.localStorage.getItem('user'))).toContain(phone);
    await closePage(again);
    await closePage(phonePage);
  });

  test("another phone typing someone's nickname is another person: asked for a phone, not logged in", async () => {
    const nickname = `冒名${Date.now() % 100000}`;
    // the real owner binds their phone's identity first
    const owner = await openLogin();
    const ownerPhone = await newPage(browser, { width: 390, lang: 'zh' });
    await confirmOnPhone(ownerPhone, await scanUrlOn(owner), nickname, owner);
    await owner.getByTestId('scan-bind').waitFor({ timeout: 10_000 });
    const phone = freshPhone();
    await owner.getByTestId('bind-phone').fill(phone);
    await owner.getByTestId('bind-code').fill(await requestCode(owner, 'bind', phone));
    await owner.getByTestId('bind-submit').click();
    await landed(owner);
    await closePage(owner);

    // the attacker, on their own phone, types the same nickname
    const page = await openLogin({ lang: 'en' });
    const attackerPhone = await newPage(browser, { width: 390, lang: 'en' });
    await confirmOnPhone(attackerPhone, await scanUrlOn(page), nickname, page, 'auth-scan-phone-form-390');
    const bind = page.getByTestId('scan-bind');
    await bind.waitFor({ timeout: 10_000 });
    expect(pathOf(page)).toBe('/login');
    expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
    await shot(page, 'auth-scan-other-phone-asked-for-phone-1440-en');
    await closePage(page);
    await closePage(attackerPhone);
    await closePage(ownerPhone);
  });

  test('a platform without scan-code login says so on the scan tab', async () => {
    for (const lang of ['zh', 'en'] as const) {
      const page = await openLogin({ lang, width: 390 });
      // the test's own answer: scan-code login is not configured (404)
      allowPageErrors(refused(404, '/general/user/access/getWXScanQrCode'));
      await page.route('**/general/user/access/getWXScanQrCode', (route) =>
        route.fulfill({
          status: 404,
          contentType: 'application/json',
          body: JSON.stringify({
            code: 40400,
            message: CATALOGUE.scanNotConfigured[lang],
            data: null,
          }),
        }),
      );
      await page.getByTestId('tab-scan').click();
      const panel = page.getByTestId('scan-unavailable');
      await panel.waitFor();
      expect(await panel.textContent()).toContain(
        lang === 'zh' ? '本平台未配置扫码登录' : 'Scan-code login is not configured on this platform',
      );
      // told in the tab, not in an error notification
      expect(await page.locator('.ant-notification-notice').count()).toBe(0);
      await shot(page, `auth-scan-unavailable-390-${lang}`);
      await closePage(page);
    }
  });

  test("with the messaging app's real login, the tab frames its QR page", async () => {
    const page = await openLogin({ lang: 'zh' });
    const provider = 'https://open.weixin.qq.com/connect/qrconnect';
    await page.route('**/general/user/access/getWXScanQrCode', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          code: 0,
          message: 'success',
          data: {
            sceneId: 'framed-scene',
            scanUrl: `${provider}?appid=wx1&response_type=code&scope=snsapi_login&state=s1#wechat_redirect`,
            expiresIn: 120,
            provider: 'wechat',
            display: 'embed',
          },
        }),
      }),
    );
    await page.route('**/general/user/PollingWXScanLoginStatus**', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ code: 0, message: 'success', data: { status: 'waiting' } }),
      }),
    );
    // the provider's page, as a stand-in picture of a QR code
    await page.route(`${provider}**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<body style="margin:0;display:flex;align-items:center;justify-content:center;height:100vh;font:16px sans-serif">WeChat QR page</body>',
      }),
    );
    await page.getByTestId('tab-scan').click();
    const frame = page.getByTestId('scan-embed');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toContain(provider);
    expect(await page.getByTestId('scan-url').count()).toBe(0);
    await shot(page, 'auth-scan-embed-1440-zh');
    await closePage(page);
  });

  test('an expired QR code shows the refresh overlay; refreshing brings a new code', async () => {
    const page = await newPage(browser, { width: 1440, lang: 'en' });
    await page.clock.install();
    await page.goto(`${server.url}/login`);
    const first = await scanUrlOn(page);
    await page.clock.fastForward('02:05');
    await page.getByTestId('scan-expired').waitFor();
    expect(await page.getByTestId('scan-expired').textContent()).toContain('The QR code has expired');
    await shot(page, 'auth-scan-expired-1440-en');
    await page.getByTestId('scan-refresh').click();
    await page.getByTestId('scan-expired').waitFor({ state: 'detached' });
    await page.getByTestId('scan-url').waitFor();
    expect(await page.getByTestId('scan-url').getAttribute('href')).not.toBe(first);
    await closePage(page);
  });
});

describe('screenshots', () => {
  for (const lang of ['zh', 'en'] as const) {
    for (const width of [1440, 390]) {
      test(`every view at ${width} px in ${lang}`, async () => {
        const page = await openLogin({ width, lang });
        const name = (view: string) => `auth-${view}-${width}-${lang}`;
        const brand = page.getByTestId('login-brand');
        expect(await brand.isVisible()).toBe(width >= 992);
        await shot(page, name('password'));
        await page.getByTestId('tab-sms').click();
        await page.getByTestId('sms-phone').waitFor();
        await shot(page, name('sms'));
        await page.getByTestId('tab-scan').click();
        await page.getByTestId('scan-qr').waitFor();
        await shot(page, name('scan'));
        await page.getByTestId('to-register').click();
        await page.getByTestId('register-form').waitFor();
        await shot(page, name('register'));
        await page.getByTestId('back-to-login').click();
        await page.getByTestId('tab-password').click();
        await page.getByTestId('to-forgot').click();
        await page.getByTestId('forgot-form').waitFor();
        await shot(page, name('forgot'));
        await closePage(page);
      });
    }
  }
});
