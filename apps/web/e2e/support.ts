/**
 * Helpers the browser tests share: the server's JSON API (login, terms, registration), pages
 * opened logged in, and the antd messages, modals and selects the tests drive.
 *
 * The helpers that reach the server or the browser come from `supportFor`, made once at the top
 * of a test file; it reads the file's server, browser and token at each call, so they may be
 * set later, in `beforeAll`. The others are plain functions of a page.
 */
import type { Browser, BrowserContext, Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { COMPANY_KEY, TOKEN_KEY, USER_KEY } from '../src/app/store/session';
import { DEMO_ADMIN, type Lang, newContext, openBrowser, type RunningServer, startServer } from './harness';

/** The spec's words for a refused image upload (English), checked word for word. */
export const SPEC_FORMAT =
  'The file format is incorrect. Please upload the image type, such as JPG or PNG files with suffixes.';
export const SPEC_SIZE = 'The image size exceeds 3M';

/** The server's answer around every JSON result. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/** A fetch's options, and the token to send as the bearer (else the file's own, if any). */
export type ApiInit = RequestInit & { token?: string };

/** What a test file has once its `beforeAll` has run. */
export interface Run {
  server: RunningServer;
  browser: Browser;
  /** the bearer sent when a call names none */
  token?: string;
}

export interface Person {
  phone: string;
  password: string;
}

/** The helpers bound to a test file's server and browser, read from `run` at each call. */
export function supportFor(run: () => Run) {
  let routes = new Set<string>();

  /** A call to the server's API under /general, answering its envelope. */
  async function api<T>(path: string, init: ApiInit = {}): Promise<Envelope<T>> {
    const headers = new Headers(init.headers);
    const token = init.token ?? run().token;
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const response = await fetch(`${run().server.url}/general${path}`, { ...init, headers });
    return (await response.json()) as Envelope<T>;
  }

  /** POST a JSON body, with the file's token; `headers` are sent besides (an Accept-Language, say). */
  function postJson<T>(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<Envelope<T>> {
    return api<T>(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  /** Password login through the API: the token. */
  async function tokenOf(phone: string, password: string): Promise<string> {
    const result = await api<{ token: string }>('/user/access/getToken', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ phone, password }).toString(),
    });
    expect(result.code).toBe(0);
    return result.data.token;
  }

  /** Accept the terms for this person, so the first-login dialog does not stand in the way. */
  async function acceptTerms(phone: string, password: string): Promise<void> {
    const result = await api('/user/acceptTerms', {
      method: 'POST',
      token: await tokenOf(phone, password),
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ accepted: true }),
    });
    expect(result.code).toBe(0);
  }

  /** A new account registered by SMS code: no company yet, terms not yet accepted. */
  async function registerUser(phone: string, password: string, userName?: string): Promise<void> {
    expect((await api(`/user/access/getSmsCode?phone=${phone}`)).code).toBe(0);
    const smsCode = await run().server.waitForSmsCode(phone);
    const result = await api('/user/addUser', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ phone, smsCode, password, userName }),
    });
    expect(result.code).toBe(0);
  }

  /**
   * A new browser context and page, logged in (as the demo administrator unless told), on the
   * app's home page. The session comes from the API and is put in the page's local storage as
   * the login page stores it (token with its expiry, user, company): a person's login is what
   * auth.e2e.ts tests; here it would only cost every test a boot of the login page.
   */
  async function openAs(
    lang: Lang = 'zh',
    width = 1440,
    who: Person = DEMO_ADMIN,
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await newContext(run().browser, { lang, width });
    const page = await context.newPage();
    const login = await api<{ token: string; expiresIn?: number }>('/user/access/getToken', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ phone: who.phone, password: who.password }).toString(),
    });
    expect(login.code, login.message).toBe(0);
    const { token, expiresIn } = login.data;
    const user = await api<{ companyId: number | null }>('/user/getUser', { token });
    expect(user.code, user.message).toBe(0);
    const company = user.data.companyId == null ? null : (await api('/company/getCompany', { token })).data;
    // a static file of the app's origin, so its local storage can be written before the app boots
    await page.goto(`${run().server.url}/favicon.svg`);
    const stored = [
      [TOKEN_KEY, token, expiresIn ? Date.now() + expiresIn * 1000 : null],
      [USER_KEY, user.data, null],
      [COMPANY_KEY, company, null],
    ] as const;
    await page.evaluate((entries) => {
      for (const [key, v, e] of entries)
        if (v != null) window.localStorage.setItem(key, JSON.stringify(e ? { v, e } : { v }));
    }, stored);
    await page.goto(run().server.url);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20_000 });
    return { context, page };
  }

  /** Go to a path of the app and wait for the element with this test id. */
  async function go(page: Page, path: string, testId: string): Promise<void> {
    await page.goto(`${run().server.url}${path}`);
    await page.getByTestId(testId).waitFor();
  }

  /** Read the server's routes from its OpenAPI document, for `routeMissing`. */
  async function loadRoutes(): Promise<void> {
    const doc = (await (await fetch(`${run().server.url}/general/docs/json`)).json()) as { paths?: object };
    routes = new Set(Object.keys(doc.paths ?? {}));
  }

  /** The routes (paths under /general) the server lacks, joined, or null when it has them all. */
  function routeMissing(...paths: string[]): string | null {
    const missing = paths.filter((p) => !routes.has(`/general${p}`));
    return missing.length ? missing.join(', ') : null;
  }

  return { api, postJson, tokenOf, acceptTerms, registerUser, openAs, go, loadRoutes, routeMissing };
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/**
 * Follow a link in a list to the page it leads to (`arrived`, visible there). On a loaded
 * machine a click on a plan's number, just after the list had refetched, was seen to lead
 * nowhere (once in CI, cause not found): if the path has not changed after 10 s, the link is
 * clicked again, as a person would.
 */
export async function follow(page: Page, link: Locator, arrived: Locator): Promise<void> {
  const from = pathOf(page);
  for (let attempt = 1; ; attempt += 1) {
    await link.click();
    const there = await arrived
      .waitFor({ timeout: 10_000 })
      .then(() => true)
      .catch(() => false);
    if (there) return;
    if (pathOf(page) !== from || attempt === 3) return arrived.waitFor();
  }
}

/** The titles of the sidebar's top-level entries. */
export async function topMenuTitles(page: Page): Promise<string[]> {
  const items = page.locator(
    '[data-testid=sidebar] ul.ant-menu-root > li.ant-menu-item, [data-testid=sidebar] ul.ant-menu-root > li.ant-menu-submenu > .ant-menu-submenu-title',
  );
  return (await items.allInnerTexts()).map((text) => text.trim());
}

/**
 * Wait for antd's success message; with `untilGone`, until the messages have left too, so that
 * the next step's message is not taken for this one.
 */
export async function success(page: Page, { untilGone = false } = {}): Promise<void> {
  await page.locator('.ant-message-notice .ant-message-success').last().waitFor({ timeout: 10_000 });
  if (untilGone)
    await page.locator('.ant-message-notice').first().waitFor({ state: 'detached', timeout: 10_000 });
}

/**
 * Wait until the open modal has finished zooming in: before that a screenshot shows its mask
 * with the dialog still invisible (its buttons already answer to a locator).
 */
export async function modalShown(page: Page): Promise<void> {
  await page
    .locator('.ant-modal:visible')
    .evaluate((modal) => Promise.all(modal.getAnimations({ subtree: true }).map((a) => a.finished)));
}

/** Click the primary button of the open modal. */
export async function modalOk(page: Page): Promise<void> {
  await page.locator('.ant-modal-wrap:visible .ant-modal-footer button.ant-btn-primary').click();
}

/** Open an antd TreeSelect and pick the first node whose title contains `title`. */
export function pickTree(page: Page, select: Locator, title: string): Promise<void> {
  return pickIn(page, select, '.ant-select-tree-node-content-wrapper', title);
}

/** Open an antd Select and pick the first option whose text contains `option`. */
export function pickOption(page: Page, select: Locator, option: string): Promise<void> {
  return pickIn(page, select, '.ant-select-item-option', option);
}

async function pickIn(page: Page, select: Locator, entry: string, text: string): Promise<void> {
  await select.click();
  await page.locator(`.ant-select-dropdown:visible ${entry}`, { hasText: text }).first().click();
}

/** A PNG drawn by the page's canvas: a colored box with a label (for upload tests). */
export async function drawPng(page: Page, label: string, color: string): Promise<Buffer> {
  const dataUrl = await page.evaluate(
    ([text, fill]) => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 240;
      const g = canvas.getContext('2d')!;
      g.fillStyle = fill as string;
      g.fillRect(0, 0, 320, 240);
      g.fillStyle = '#ffffff';
      g.font = 'bold 72px sans-serif';
      g.fillText(text as string, 40, 150);
      return canvas.toDataURL('image/png');
    },
    [label, color],
  );
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
}

/** The file input inside an upload control with this test id. */
export function fileInput(page: Page, testId: string): Locator {
  return page.getByTestId(testId).locator('input[type=file]');
}

/** An InputNumber by test id, wherever antd put the id (the input or its wrapper). */
export function numberInput(scope: Page | Locator, testId: string): Locator {
  return scope.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
}

/** Nothing sticks out of the page's width (a phone's) but the tables' own scrollers. */
export async function noSideways(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * The usual head of a test file, as a person who runs the demo company: the file's server and
 * browser started before its tests (and stopped after), the demo administrator's token sent by
 * `api` and `postJson`, the terms of use accepted. Registered where it is called, so a
 * `beforeAll` of the file written below it runs after this one. `run` holds the server, the
 * browser and the token once the tests run.
 */
export function demoAdminRun() {
  const run = {} as Run & { token: string };
  const support = supportFor(() => run);
  beforeAll(async () => {
    run.server = await startServer();
    run.browser = await openBrowser();
    run.token = await support.tokenOf(DEMO_ADMIN.phone, DEMO_ADMIN.password);
    await support.postJson('/user/acceptTerms', { accepted: true });
  });
  afterAll(async () => {
    await run.browser?.close();
    await run.server?.stop();
  });
  return { run, ...support };
}

/**
 * Exports through a list's export button (shared/ExportButton.tsx): opens its choice and takes
 * `format`; the download. `scope` holds the button (a page, or a view of a keep-alive tab).
 */
export async function exportAs(
  page: Page,
  scope: Page | Locator,
  testId: string,
  format: 'csv' | 'xlsx' = 'csv',
): Promise<Download> {
  await scope.getByTestId(testId).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator(`[data-testid="${testId}-${format}"]:visible`).click(),
  ]);
  return download;
}
