/**
 * The README's walkthrough, step by step, as a newcomer follows it: start the platform, read
 * the URL and the demo logins it prints, log in with each demo user, then SMS login,
 * registration and password reset with the codes read where the README says they are: the
 * server's console (`SMS code for <phone>: <code>`) and the SMS outbox page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  DEMO_ADMIN,
  DEMO_LIMITED,
  loginAs,
  newPage,
  REPO_ROOT,
  type RunningServer,
  shot,
  startServerAndBrowser,
} from './harness';

let server: RunningServer;
let browser: Browser;
const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

beforeAll(async () => {
  // the README's walkthrough starts from a first start: the server seeds its own folder and
  // prints the logins it seeded just now
  [server, browser] = await startServerAndBrowser({}, { seed: 'fresh' });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The code the outbox page lists for the phone (its newest row), as a person reads it there. */
async function codeFromOutbox(phone: string, previous?: string): Promise<string> {
  const page = await newPage(browser);
  try {
    for (const until = Date.now() + 15_000; ; ) {
      await page.goto(`${server.url}/general/dev/smsOutbox`);
      const row = page.locator('tbody tr').filter({ hasText: phone }).first();
      const code = (await row.count()) > 0 ? ((await row.locator('.code').textContent()) ?? '').trim() : '';
      if (/^\d{6}$/.test(code) && code !== previous) return code;
      if (Date.now() > until) throw new Error(`the outbox shows no new code for ${phone}`);
      await page.waitForTimeout(200);
    }
  } finally {
    await page.context().close();
  }
}

async function askForCode(page: Page, prefix: string): Promise<void> {
  const button = page.getByTestId(`${prefix}-get-code`);
  await button.click();
  await expect.poll(() => button.isDisabled(), { timeout: 10_000 }).toBe(true);
}

async function landedHome(page: Page): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/home', { timeout: 20_000 });
  await page.getByTestId('home-page').waitFor({ timeout: 30_000 });
}

describe('the README walkthrough', () => {
  test('the start-up output gives the URL, the demo logins of the README table and where SMS codes are', () => {
    const out = server.output();
    expect(out).toContain(`is running at ${server.url}`);
    for (const login of [DEMO_ADMIN, DEMO_LIMITED]) {
      // the README's table and the console agree on each demo login
      expect(README).toContain(`| ${login.phone} | ${login.password} |`);
      expect(out).toContain(`${login.phone} / ${login.password}`);
    }
    expect(out).toContain(`${server.url}/general/dev/smsOutbox`);
    expect(README).toContain('/general/dev/smsOutbox');
  });

  test('each demo user logs in with the password from the table', async () => {
    for (const login of [DEMO_ADMIN, DEMO_LIMITED]) {
      const page = await newPage(browser);
      await loginAs(page, server.url, login.phone, login.password);
      await landedHome(page);
      // the session kept is this user's (stored as {"v": user})
      const stored = JSON.parse((await page.evaluate(() => window.localStorage.getItem('user'))) ?? '{}');
      expect(stored.v?.phone).toBe(login.phone);
      await page.context().close();
    }
  });

  test('SMS login with the code read from the outbox page', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByTestId('tab-sms').click();
    await page.getByTestId('sms-phone').fill(DEMO_LIMITED.phone);
    await askForCode(page, 'sms');
    const code = await codeFromOutbox(DEMO_LIMITED.phone);
    // the console printed the same code
    expect(server.smsCode(DEMO_LIMITED.phone)).toBe(code);
    await page.getByTestId('sms-code').fill(code);
    await page.getByTestId('sms-submit').click();
    await landedHome(page);
    await page.context().close();
  });

  test('register with the code printed on the console', async () => {
    const phone = '13912340999';
    const page = await newPage(browser, { lang: 'en' });
    await page.goto(`${server.url}/login`);
    await page.getByTestId('to-register').click();
    await page.getByTestId('register-phone').fill(phone);
    await askForCode(page, 'register');
    const code = await server.waitForSmsCode(phone);
    await page.getByTestId('register-code').fill(code);
    await page.getByTestId('register-username').fill('Newcomer');
    await page.getByTestId('register-password').fill('first1234');
    await page.getByTestId('register-confirm').fill('first1234');
    await page.getByTestId('register-submit').click();
    await landedHome(page);
    await page.context().close();
  });

  test("reset the administrator's password with the code from the outbox page, and log in with it", async () => {
    const page = await newPage(browser, { lang: 'en' });
    await page.goto(`${server.url}/login`);
    await page.getByTestId('to-forgot').click();
    await page.getByTestId('forgot-phone').fill(DEMO_ADMIN.phone);
    await askForCode(page, 'forgot');
    const code = await codeFromOutbox(DEMO_ADMIN.phone);
    await page.getByTestId('forgot-code').fill(code);
    await page.getByTestId('forgot-password').fill('changed1234');
    await page.getByTestId('forgot-confirm').fill('changed1234');
    await page.getByTestId('forgot-submit').click();
    await page.getByTestId('password-form').waitFor();
    await page.getByTestId('login-password').fill('changed1234');
    await page.getByTestId('login-submit').click();
    await landedHome(page);
    await shot(page, 'readme-walkthrough-after-reset-1440-en');
    await page.context().close();
  });
});
