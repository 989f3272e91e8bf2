/**
 * CONTRACT with the app (web engineers keep to it):
 * - the app keeps the chosen language in localStorage under 'lang' ('zh' | 'en');
 * - the login page's password tab has data-testid 'login-phone', 'login-password',
 *   'login-submit' on its phone input, password input and submit button.
 *
 * Browser-test harness: the real server (built web app, fresh embedded database seeded with
 * the demo company) on a free port, and Debian's Chromium driven by playwright-core.
 *
 * Each `startServer()` gets a data folder of its own. By default it is a copy of the folder the
 * e2e global setup seeded once (global-setup.ts): the same demo company, and nothing another
 * file did. A server whose seed differs (DEMO_LANG, SEED_DEMO) or that asks for
 * `{ seed: 'fresh' }` (its first start's output is under test) migrates and seeds its own.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { inject } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '../../..');
export const SCREENSHOT_DIR = path.join(REPO_ROOT, '.test-artifacts/screenshots');

export const DEMO_ADMIN = { phone: '13800000000', password: 'demo1234' };
export const DEMO_LIMITED = { phone: '13800000001', password: 'demo1234' };

export interface RunningServer {
  url: string;
  /** everything the server printed so far */
  output(): string;
  /** the last SMS code the embedded SMS stand-in wrote to the log for this phone */
  smsCode(phone: string): string | undefined;
  /** wait until a code for this phone newer than `after` codes appears */
  waitForSmsCode(phone: string, previous?: string): Promise<string>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Settings that change what the demo seed writes: a server given one seeds its own folder. */
const SEED_SETTINGS = ['DEMO_LANG', 'SEED_DEMO', 'DATABASE_URL', 'DATA_DIR'];

export interface StartOptions {
  /**
   * 'template' (default): start on a copy of the data folder the global setup seeded;
   * 'fresh': an empty folder the server migrates and seeds itself, as on a first start.
   */
  seed?: 'template' | 'fresh';
}

/**
 * Every server process a test file started and has not stopped: killed when the test process
 * exits, so a file that fails before its afterAll (a browser that would not launch beside a
 * server that did) leaves no server running into the next files.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function startServer(
  env: Record<string, string> = {},
  opts: StartOptions = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'platform-e2e-'));
  const template = inject('e2eDemoTemplate');
  if (opts.seed !== 'fresh' && template && !SEED_SETTINGS.some((key) => key in env)) {
    // the folder's lock socket is the template server's and is gone after its clean stop; a
    // socket left anyway is not copied (the server makes its own)
    cpSync(template, dataDir, { recursive: true, filter: (source) => !source.endsWith('.sock') });
  }
  // node itself runs the compiled server (what `npm start` runs), so a kill reaches the server,
  // not a wrapper; the e2e global setup compiled it
  const child: ChildProcess = spawn(
    process.execPath,
    ['--enable-source-maps', path.join(REPO_ROOT, 'apps/server/dist/main.mjs')],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: '',
        HOST: '127.0.0.1',
        PORT: String(port),
        DATA_DIR: dataDir,
        SEED_DEMO: 'true',
        // what `npm start` runs at
        LOG_LEVEL: 'warn',
        LOGIN_RATE_LIMIT: '1000',
        MQTT_PORT: '0',
        // the demo boiler would add records to the demo item while tests count them
        DEMO_PUBLISHER: 'off',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk) => {
    out += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (!out.includes('is running at')) {
    if (child.exitCode != null) throw new Error(`server exited early:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  // the codes are read the way the README tells a person to: from the server's console
  const smsCode = (phone: string): string | undefined => {
    const pattern = new RegExp(`^ *SMS code for ${phone}: (\\d{6}) `, 'gm');
    let code: string | undefined;
    for (const match of out.matchAll(pattern)) code = match[1];
    return code;
  };
  return {
    url,
    output: () => out,
    smsCode,
    async waitForSmsCode(phone, previous) {
      const until = Date.now() + 15_000;
      for (;;) {
        const code = smsCode(phone);
        if (code && code !== previous) return code;
        if (Date.now() > until) throw new Error(`no SMS code for ${phone}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      if (child.exitCode == null) {
        child.kill('SIGTERM');
        await new Promise((r) => {
          const timer = setTimeout(() => {
            child.kill('SIGKILL');
            r(null);
          }, 5000);
          child.once('exit', () => {
            clearTimeout(timer);
            r(null);
          });
        });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The features playwright-core (1.65, server/chromium/chromiumSwitches) disables itself. Chromium
 * keeps only the last --disable-features switch, so ours below must repeat them; compare the list
 * again when playwright-core is upgraded.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  // headless is the full browser (new headless) and each context's window preloads the address
  // bar's WebUI popups (chrome://omnibox-popup.top-chrome/) in a renderer of their own
  // (--top-chrome-webui): ~1.7 CPU-s per context, ~15 % of Chromium's CPU in sales.e2e.ts
  // (docs/operations.md, "Browser tests: Chromium's CPU")
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'].join(',')}`,
];

/*
 * The page-error guard. Every page of every context the harness's browser opens is watched: an
 * uncaught exception or unhandled rejection (`pageerror`) and every console message of type
 * error (a failed request included) is recorded, and the e2e setup (guard.setup.ts) fails the
 * test during which it came unless the test allowed it. A test allows only what it provokes on
 * purpose, with `allowPageErrors`, narrowly (the request's path and status), saying why.
 */
const pageErrors: string[] = [];
let allowances: RegExp[] = [];

function record(entry: string): void {
  pageErrors.push(entry);
}

/** Watch every page the context opens, popups included. */
export function watchContext(context: BrowserContext): void {
  context.on('page', (page) => {
    page.on('pageerror', (error) => {
      record(`pageerror at ${page.url()}: ${error.stack ?? error.message}`);
    });
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      record(`console error at ${page.url()}: ${message.text()} [${message.location().url}]`);
    });
  });
}

/**
 * Let the errors matching `pattern` pass during the current test only. For errors the test itself
 * provokes (a refused request it makes on purpose, say): name the request's path and status.
 */
export function allowPageErrors(...patterns: RegExp[]): void {
  allowances.push(...patterns);
}

/** The errors recorded since the last call that no allowance covers; clears the record. */
export function takePageErrors(): string[] {
  return pageErrors.splice(0).filter((entry) => !allowances.some((pattern) => pattern.test(entry)));
}

/** Ends the current test's allowances (the e2e setup calls it after each test). */
export function forgetAllowances(): void {
  allowances = [];
}

/** A refused request's console line ("Failed to load resource: … status of 401 …") for this path. */
export function refused(status: number, path: string): RegExp {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `Failed to load resource: the server responded with a status of ${status} .*\\[[^\\]]*${escaped}`,
  );
}

/**
 * A server and a browser, started together; if either fails to start, the other is stopped
 * before the error is thrown (`Promise.all` would leave it running).
 */
export async function startServerAndBrowser(
  env: Record<string, string> = {},
  opts: StartOptions = {},
): Promise<[RunningServer, Browser]> {
  const [server, browser] = await Promise.allSettled([startServer(env, opts), openBrowser()]);
  if (server.status === 'fulfilled' && browser.status === 'fulfilled') return [server.value, browser.value];
  if (server.status === 'fulfilled') await server.value.stop();
  if (browser.status === 'fulfilled') await browser.value.close();
  throw server.status === 'rejected' ? server.reason : (browser as PromiseRejectedResult).reason;
}

export async function openBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_FLAGS,
  });
  // every context, however a test makes it (browser.newPage makes one through this too), is watched
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watchContext(context);
    return context;
  };
  return browser;
}

export type Lang = 'zh' | 'en';

/** Key under which the web app keeps the chosen language. */
export const LANG_STORAGE_KEY = 'lang';

export async function newContext(
  browser: Browser,
  /** timezoneId: the zone the browser's clock reads (the machine's when absent) */
  opts: { width?: number; lang?: Lang; timezoneId?: string } = {},
): Promise<BrowserContext> {
  const width = opts.width ?? 1440;
  const context = await browser.newContext({
    viewport: { width, height: width >= 992 ? 900 : 844 },
    locale: opts.lang === 'en' ? 'en-US' : 'zh-CN',
    deviceScaleFactor: 1,
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
  if (opts.lang) {
    await context.addInitScript(
      ([key, lang]) => {
        // the app's own document only: a new page's about:blank and a framed page (sandboxed,
        // storage denied) are left alone
        if (window.top !== window || !window.location.protocol.startsWith('http')) return;
        if (!window.localStorage.getItem(key as string))
          window.localStorage.setItem(key as string, lang as string);
      },
      [LANG_STORAGE_KEY, opts.lang],
    );
  }
  return context;
}

export async function newPage(browser: Browser, opts: { width?: number; lang?: Lang } = {}): Promise<Page> {
  const context = await newContext(browser, opts);
  return context.newPage();
}

/** Log in through the login page's password tab, as a person does. */
export async function loginAs(page: Page, url: string, phone: string, password: string): Promise<void> {
  await page.goto(`${url}/login`);
  await page.getByTestId('login-phone').fill(phone);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20_000 });
}

export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}
