/**
 * `npm run bench:screen-display` — issue 13 "Speed": a configuration screen of 500 bound elements
 * updating every second in headless Chromium, no frame over 50 ms while idle, heap flat over 30
 * minutes. Against the compiled server (apps/server/dist/main.mjs, what `npm start` runs; build
 * first: `npm run build`, or set WEB_DIST to a web build elsewhere) on a fresh PostgreSQL
 * database `bench_screen_<timestamp>` (dropped afterwards).
 *
 * Setup: a company and its administrator, three gateways registered and bound to it (A, B, C), and
 * `--fields` / 10 IoT items (kind 13) of 10 decimal fields each whose data sources name A and B,
 * so every field is a bindable point of both (bindablePoints of the screens service), and one
 * such item naming C that nobody writes. Gateway A gets a screen of `--elements` (500) elements,
 * B one of `--baseline` (50), C the 500 on the quiet item's fields: a repeating
 * mix of tanks, gauges, texts, lights, pumps and pipes (flow while the value is not 0) on a
 * 1920×1080 canvas, element i bound to field i mod `--fields`, every third with threshold rules.
 * All pass checkScreenBody and are inserted straight into config_screens. The gateways are
 * registered without MQTT accounts and marked online in the table (no gateway connects).
 *
 * Load: a publisher loop in this process submits one record per item per second over HTTP
 * (`/general/smartdata/submit`, the administrator's user key) with a new value in every field,
 * some of them 0, so every bound point changes every second (the show page asks for the values
 * every 2.5 s, so each element changes on screen every 2.5 s).
 *
 * The page: /showConfigurationTool/{deviceId}, 1920×1080, logged in as the administrator, no
 * input (idle). frames: one page at a time, in turn: the 500, the 50 baseline, the 500 again, a
 * third gateway's 500-element screen of the same layout bound to an item that never gets a record
 * (all grey and still: what is left is the page's own redraw each second), and the live 500 with
 * the SVG's SMIL clock paused from the test (svg.pauseAnimations(): a diagnostic of what the
 * turning pumps and flowing pipes cost). Each after `--warmup` s, for `--seconds` s:
 * requestAnimationFrame deltas, 'long-animation-frame' entries (with their time in scripts and
 * in rendering) and 'longtask' entries (PerformanceObserver), and how many elements' drawn text
 * changed (a MutationObserver on data-text: the page really updating). heap: the 500 and the 50
 * pages open side by side for `--minutes`; every `--sample` s CDP HeapProfiler.collectGarbage,
 * Runtime.getHeapUsage, Memory.getDOMCounters and the document's element count. Growth = last
 * sample against the first after `--warmup` s.
 *
 * Flags: --only frames,heap  --seconds 60  --minutes 5  --sample 30  --warmup 30
 *        --elements 500  --baseline 50  --fields 50  --pg URL
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  checkScreenBody,
  type FieldDef,
  type RuleEffects,
  type ScreenBody,
  type ThresholdRule,
} from '@platform/domain';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { cabinNodes } from '../apps/server/src/modules/cabin/tables';
import { createCompany } from '../apps/server/src/modules/companies/service';
import { dataItems } from '../apps/server/src/modules/dataitems/tables';
import { bindNow } from '../apps/server/src/modules/devices/binding';
import { registerGateways } from '../apps/server/src/modules/gateways/registry';
import { gateways } from '../apps/server/src/modules/gateways/tables';
import { createKey } from '../apps/server/src/modules/ingest/keys';
import { configScreens } from '../apps/server/src/modules/screens/tables';
import { createUser } from '../apps/server/src/modules/users/service';
import type { App } from '../apps/server/src/platform/context';
import { ROOT } from './lib/child';
import { DEFAULT_PG_URL, openPostgres } from './lib/fixture';

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string', default: 'frames,heap' },
    seconds: { type: 'string', default: '60' },
    minutes: { type: 'string', default: '5' },
    sample: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '30' },
    elements: { type: 'string', default: '500' },
    baseline: { type: 'string', default: '50' },
    fields: { type: 'string', default: '50' },
    pg: { type: 'string', default: process.env.BENCH_PG_URL ?? DEFAULT_PG_URL },
  },
});

const FIELDS_PER_ITEM = 10;
const PASSWORD = 'bench1234';
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const load = () => os.loadavg()[0]!.toFixed(1);
const log = (line: string) =>
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)} load ${load()}] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '–');

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

// ---------------------------------------------------------------- database and server

async function createDatabase(adminUrl: string) {
  const name = `bench_screen_${new Date()
    .toISOString()
    .replace(/[-:.TZ]/g, '')
    .slice(0, 14)}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  return {
    name,
    url: target.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
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

interface Server {
  url: string;
  stop(): Promise<void>;
}

async function startServer(databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const mqttPort = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-screen-'));
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'apps/server/dist/main.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      LOGIN_RATE_LIMIT: '1000',
      MQTT_PORT: String(mqttPort),
      DEMO_PUBLISHER: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (c) => {
    out += c.toString();
  });
  child.stderr?.on('data', (c) => {
    out += c.toString();
  });
  const deadline = Date.now() + 120_000;
  while (!out.includes('is running at')) {
    if (child.exitCode != null) throw new Error(`server exited early:\n${out}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start:\n${out}`);
    }
    await sleep(100);
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode == null) {
        child.kill('SIGTERM');
        await new Promise((r) => {
          const timer = setTimeout(() => {
            child.kill('SIGKILL');
            r(null);
          }, 10_000);
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

// ---------------------------------------------------------------- the screens

const KINDS = ['tank', 'gauge', 'text', 'light', 'pump', 'line'] as const;
const rule = (op: ThresholdRule['op'], value: number, effects: RuleEffects, value2?: number) =>
  value2 === undefined ? { op, value, effects } : { op, value, value2, effects };

/**
 * `count` elements on a 1920×1080 canvas in a grid of 25 × 20 cells (76 × 54 px), element i
 * bound to point i mod points.length; every third with threshold rules.
 */
function screenOf(count: number, points: Array<{ itemId: number; field: string }>): ScreenBody {
  const elements: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const type = KINDS[i % KINDS.length]!;
    const x = (i % 25) * 76 + 2;
    const y = Math.floor(i / 25) * 54 + 2;
    const binding = points[i % points.length]!;
    const ruled = i % 3 === 0;
    const base = { id: `e${i}`, type, x, y, z: i, binding };
    switch (type) {
      case 'tank':
        elements.push({
          ...base,
          w: 40,
          h: 50,
          config: { min: 0, max: 100, showValue: true },
          rules: ruled
            ? [rule('>', 90, { fill: '#ff4d4f', blink: true }), rule('between', 60, { fill: '#faad14' }, 90)]
            : [],
        });
        break;
      case 'gauge':
        elements.push({
          ...base,
          w: 50,
          h: 50,
          config: { min: 0, max: 100, unit: 'bar', decimals: 1 },
          rules: ruled ? [rule('>=', 80, { color: '#ff4d4f' }), rule('<', 10, { color: '#1677ff' })] : [],
        });
        break;
      case 'text':
        elements.push({
          ...base,
          w: 72,
          h: 30,
          style: { fontSize: 12 },
          config: { text: `P${i % points.length}`, unit: '°C', decimals: 1, align: 'left' },
          rules: ruled ? [rule('>', 75, { color: '#ff4d4f', blink: true })] : [],
        });
        break;
      case 'light':
        elements.push({
          ...base,
          w: 30,
          h: 30,
          config: { onColor: '#52c41a', offColor: '#8c8c8c' },
          rules: ruled ? [rule('>', 95, { fill: '#ff4d4f' })] : [],
        });
        break;
      case 'pump':
        elements.push({
          ...base,
          w: 50,
          h: 50,
          config: { shape: i % 2 ? 'fan' : 'pump' },
          rules: ruled ? [rule('>', 50, { rotate: 45 })] : [],
        });
        break;
      case 'line':
        elements.push({
          ...base,
          w: 72,
          h: 20,
          config: {
            points: [
              { x: 0, y: 10 },
              { x: 72, y: 10 },
            ],
            pipe: true,
            width: 8,
            flow: 'value',
          },
          rules: ruled ? [rule('<', 20, { color: '#faad14' })] : [],
        });
        break;
    }
  }
  const checked = checkScreenBody({
    width: 1920,
    height: 1080,
    background: '#001529',
    staleSeconds: 30,
    elements,
  });
  if (!checked.ok) throw new Error(`screen body refused: ${checked.field} ${checked.reason}`);
  return checked.body;
}

interface Setup {
  server: Server;
  phone: string;
  key: string;
  itemIds: number[];
  /** gateway id of the big screen, of the baseline */
  big: number;
  small: number;
  /** the big screen's layout on points that never get a value */
  quiet: number;
  cleanup(): Promise<void>;
}

async function setUp(): Promise<Setup> {
  const bench = await createDatabase(flags.pg);
  log(`database ${bench.name}`);
  const database = await openPostgres(bench.url);
  const { db } = database;
  const phone = `137${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const user = await createUser(db, { phone, userName: 'screen bench', password: PASSWORD });
  const { company } = await createCompany(db, { name: 'Screen bench company', ownerId: user.id });
  // registered without a broker account (no MQTT from the gateways here), bound at once
  const stub = { db, mqtt: undefined, log: { error: () => undefined } } as unknown as App;
  const sns = ['A', 'B', 'C'].map((x) => `BSCR${process.pid % 100000}${x}`);
  const registered = await registerGateways(stub, { serialNumbers: sns, model: 'SDG-200', userId: user.id });
  for (const g of registered) {
    await db.transaction((tx) =>
      bindNow(tx, {
        gatewayId: g.id,
        companyId: company.id,
        userId: user.id,
        name: `screen bench ${g.serialNumber}`,
        parentId: null,
        at: new Date(),
      }),
    );
  }
  // shown online (the page's banner would say offline otherwise)
  await db
    .update(gateways)
    .set({ online: true, onlineAt: new Date() })
    .where(
      sql`${gateways.id} IN (${sql.join(
        registered.map((g) => sql`${g.id}`),
        sql`, `,
      )})`,
    );
  const fields: FieldDef[] = Array.from({ length: FIELDS_PER_ITEM }, (_, i) => ({
    key: `f${i + 1}`,
    name: `point${i + 1}`,
    type: 1,
    decimals: 2,
  }));
  const makeItem = (name: string, sns: string[]) =>
    db.transaction(async (tx) => {
      const [node] = await tx
        .insert(cabinNodes)
        .values({ companyId: company.id, parentId: null, type: 'dataItem', name, createdBy: user.id })
        .returning({ id: cabinNodes.id });
      const [item] = await tx
        .insert(dataItems)
        .values({
          companyId: company.id,
          nodeId: node!.id,
          name,
          kind: 13,
          fields,
          nextFieldNo: fields.length + 1,
          sources: sns.map((sn) => ({ deviceId: sn, deviceName: sn })),
        })
        .returning({ id: dataItems.id });
      await tx.update(cabinNodes).set({ refId: item!.id }).where(eq(cabinNodes.id, node!.id));
      return item!.id;
    });
  const itemIds: number[] = [];
  const itemCount = Math.ceil(Number(flags.fields) / FIELDS_PER_ITEM);
  for (let n = 0; n < itemCount; n++)
    itemIds.push(await makeItem(`screen bench item ${n + 1}`, [sns[0]!, sns[1]!]));
  // never written: the third screen's points have no value (grey, still)
  const quietId = await makeItem('screen bench quiet item', [sns[2]!]);
  const points = Array.from({ length: Number(flags.fields) }, (_, k) => ({
    itemId: itemIds[Math.floor(k / FIELDS_PER_ITEM)]!,
    field: `f${(k % FIELDS_PER_ITEM) + 1}`,
  }));
  const quietPoints = fields.map((f) => ({ itemId: quietId, field: f.key }));
  const [big, small, quiet] = registered.map((g) => g.id) as [number, number, number];
  for (const [gatewayId, count, bound] of [
    [big, Number(flags.elements), points],
    [small, Number(flags.baseline), points],
    [quiet, Number(flags.elements), quietPoints],
  ] as const) {
    const body = screenOf(count, bound);
    await db.insert(configScreens).values({
      companyId: company.id,
      gatewayId,
      body,
      elementCount: body.elements.length,
      updatedBy: user.id,
    });
  }
  const { key } = await createKey(db, {
    companyId: company.id,
    userId: user.id,
    name: 'bench',
    kind: 'user',
  });
  await database.close();
  const server = await startServer(bench.url);
  const login = await fetch(`${server.url}/general/user/access/getToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ phone, password: PASSWORD }).toString(),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const accepted = await fetch(`${server.url}/general/user/acceptTerms`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ accepted: true }),
  });
  if (((await accepted.json()) as { code: number }).code !== 0) throw new Error('acceptTerms refused');
  return {
    server,
    phone,
    key,
    itemIds,
    big,
    small,
    quiet,
    cleanup: async () => {
      await server.stop();
      await bench.drop();
    },
  };
}

/** One record per item per second, every field a new value (some 0: lights, pumps, pipes go off). */
function startPublisher(s: Setup) {
  const state = { running: true, seconds: 0, records: 0, errors: 0, slowest: 0 };
  const done = (async () => {
    while (state.running) {
      const t = Date.now();
      const n = ++state.seconds;
      const records = s.itemIds.map((itemId, item) => {
        const record: Record<string, number> = { itemId };
        for (let f = 0; f < FIELDS_PER_ITEM; f++) {
          const k = item * FIELDS_PER_ITEM + f;
          const v = (n * 37 + k * 11) % 101;
          record[`f${f + 1}`] = v % 10 === 0 ? 0 : v + ((n + k) % 10) / 10;
        }
        return record;
      });
      try {
        const res = await fetch(`${s.server.url}/general/smartdata/submit`, {
          method: 'POST',
          headers: { authorization: s.key, 'content-type': 'application/json' },
          body: JSON.stringify(records),
        });
        const json = (await res.json()) as { code: number };
        if (json.code !== 0) throw new Error(JSON.stringify(json));
        state.records += records.length;
      } catch (error) {
        state.errors += 1;
        if (state.errors <= 3) log(`submit failed: ${String(error)}`);
      }
      state.slowest = Math.max(state.slowest, Date.now() - t);
      await sleep(Math.max(0, 1000 - (Date.now() - t)));
    }
  })();
  return {
    state,
    stop: async () => {
      state.running = false;
      await done;
    },
  };
}

// ---------------------------------------------------------------- the browser

async function loggedInPage(browser: Browser, s: Setup): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'zh-CN' });
  const page = await context.newPage();
  page.on('pageerror', (e) => log(`pageerror: ${e.message}`));
  await page.goto(`${s.server.url}/login`);
  await page.getByTestId('login-phone').fill(s.phone);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 60_000 });
  return page;
}

async function openScreen(
  browser: Browser,
  s: Setup,
  deviceId: number,
  count: number,
  live = true,
): Promise<Page> {
  const page = await loggedInPage(browser, s);
  await page.goto(`${s.server.url}/showConfigurationTool/${deviceId}`);
  // drawn, and the values arrived (a bound element is live, not `none`)
  await page.waitForFunction(
    ([n, live]) =>
      document.querySelectorAll('[data-testid^=show-el-]').length >= n * 0.8 &&
      (!live || document.querySelectorAll('[data-quality=live]').length > 0),
    [count, live] as const,
    { timeout: 60_000 },
  );
  return page;
}

/** Installed in the page: rAF deltas, long frames and tasks, changes of the drawn texts. */
function startRecording(): void {
  const w = window as unknown as {
    __frames: number[];
    __loaf: number[];
    __longtasks: number[];
    __textChanges: number;
    __stop: boolean;
    __observers: Array<{ disconnect(): void }>;
  };
  w.__frames = [];
  w.__loaf = [];
  w.__longtasks = [];
  w.__textChanges = 0;
  w.__stop = false;
  w.__observers = [];
  let last = 0;
  const frame = (at: number) => {
    if (w.__stop) return;
    if (last) w.__frames.push(at - last);
    last = at;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  for (const [type, into] of [
    ['long-animation-frame', w.__loaf],
    ['longtask', w.__longtasks],
  ] as const) {
    try {
      const observer = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (type === 'longtask') {
            into.push(e.duration);
            continue;
          }
          // a long animation frame: its length, the scripts' part, and style + layout + paint
          const f = e as PerformanceEntry & {
            renderStart: number;
            scripts?: Array<{ duration: number }>;
          };
          const end = f.startTime + f.duration;
          const scripts = (f.scripts ?? []).reduce((sum, x) => sum + x.duration, 0);
          into.push(f.duration, scripts, f.renderStart > 0 ? end - f.renderStart : 0);
        }
      });
      observer.observe({ type, buffered: false });
      w.__observers.push(observer);
    } catch {
      // not supported: left empty
    }
  }
  const mutations = new MutationObserver((list) => {
    w.__textChanges += list.length;
  });
  mutations.observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-text'] });
  w.__observers.push(mutations);
}

function stopRecording() {
  const w = window as unknown as {
    __frames: number[];
    __loaf: number[];
    __longtasks: number[];
    __textChanges: number;
    __stop: boolean;
    __observers: Array<{ disconnect(): void }>;
  };
  w.__stop = true;
  for (const o of w.__observers) o.disconnect();
  return {
    frames: w.__frames,
    loaf: w.__loaf,
    longtasks: w.__longtasks,
    textChanges: w.__textChanges,
    elements: document.querySelectorAll('[data-testid^=show-el-]').length,
    live: document.querySelectorAll('[data-quality=live]').length,
    nodes: document.getElementsByTagName('*').length,
  };
}

interface FrameRun {
  name: string;
  elements: number;
  frames: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  over50: number;
  over33: number;
  loaf: number;
  loafMax: number;
  loafScriptMs: number;
  loafRenderMs: number;
  longtasks: number;
  longtaskMax: number;
  textChangesPerSecond: number;
  live: number;
  nodes: number;
  loadavg: string;
}

async function frameRun(
  browser: Browser,
  s: Setup,
  name: string,
  deviceId: number,
  count: number,
  live = true,
  paused = false,
) {
  const page = await openScreen(browser, s, deviceId, count, live);
  // a diagnostic: the SVG's SMIL clock stopped (turning pumps, flowing pipes still drawn, not moving)
  if (paused)
    await page.evaluate(() => document.querySelector<SVGSVGElement>('svg.scr-live')!.pauseAnimations());
  log(`frames ${name}: open, warm-up ${flags.warmup} s`);
  await sleep(Number(flags.warmup) * 1000);
  // tsx keeps function names through a `__name` helper the page does not have
  await page.evaluate('window.__name = (f) => f');
  await page.evaluate(startRecording);
  const startedAt = Date.now();
  await sleep(Number(flags.seconds) * 1000);
  const got = await page.evaluate(stopRecording);
  const seconds = (Date.now() - startedAt) / 1000;
  await page.screenshot({ path: path.join(os.tmpdir(), `bench-screen-${name.replace(/\W+/g, '-')}.png`) });
  await page.context().close();
  const sorted = [...got.frames].sort((a, b) => a - b);
  const run: FrameRun = {
    name,
    elements: got.elements,
    frames: sorted.length,
    p50: pct(sorted, 50),
    p95: pct(sorted, 95),
    p99: pct(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
    over50: sorted.filter((d) => d > 50).length,
    over33: sorted.filter((d) => d > 33.4).length,
    loaf: got.loaf.length / 3,
    loafMax: Math.max(0, ...got.loaf.filter((_, i) => i % 3 === 0)),
    loafScriptMs: got.loaf.filter((_, i) => i % 3 === 1).reduce((a, b) => a + b, 0),
    loafRenderMs: got.loaf.filter((_, i) => i % 3 === 2).reduce((a, b) => a + b, 0),
    longtasks: got.longtasks.length,
    longtaskMax: got.longtasks.length ? Math.max(...got.longtasks) : 0,
    textChangesPerSecond: got.textChanges / seconds,
    live: got.live,
    nodes: got.nodes,
    loadavg: loadavg(),
  };
  log(`frames ${name}: ${JSON.stringify(run)}`);
  return run;
}

async function framesBench(browser: Browser, s: Setup): Promise<string[]> {
  const big = Number(flags.elements);
  const small = Number(flags.baseline);
  const runs: FrameRun[] = [];
  runs.push(await frameRun(browser, s, `${big} elements`, s.big, big));
  runs.push(await frameRun(browser, s, `${small} elements`, s.small, small));
  runs.push(await frameRun(browser, s, `${big} elements again`, s.big, big));
  runs.push(await frameRun(browser, s, `${big} elements, no values`, s.quiet, big, false));
  runs.push(await frameRun(browser, s, `${big} elements, SMIL paused`, s.big, big, true, true));
  const lines = [
    `Each page alone in the browser, idle (no input), ${flags.warmup} s warm-up then ${flags.seconds} s recorded; frame time = requestAnimationFrame delta; LoAF = 'long-animation-frame' entries (over 50 ms by definition), their time in scripts (entry.scripts) and from renderStart to the end (style, layout, paint); long tasks = 'longtask' entries. "no values": the ${big}-element layout bound to an item that never gets a record (every element grey and still: no pump turning, no pipe flowing, no blink), the page's own once-a-second redraw left. "SMIL paused": the live ${big}-element screen with the SVG's animation clock stopped from the test (svg.pauseAnimations(), a diagnostic, not something the page does): values, rules and the redraws as before, pumps and pipes not moving.`,
    '',
    '| screen | elements drawn / live at the end | frames | frame p50 / p95 / p99 / max ms | frames over 50 ms | over 33 ms | LoAF (longest ms) | LoAF time in scripts / in rendering ms | long tasks (longest ms) | drawn texts changed /s | DOM elements | load avg (1/5/15 min) after |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of runs)
    lines.push(
      `| ${r.name} | ${r.elements} / ${r.live} | ${r.frames.toLocaleString('en')} | ${ms(r.p50)} / ${ms(r.p95)} / **${ms(r.p99)}** / ${ms(r.max)} | **${r.over50}** | ${r.over33} | ${r.loaf} (${ms(r.loafMax)}) | ${r.loafScriptMs.toFixed(0)} / ${r.loafRenderMs.toFixed(0)} | ${r.longtasks} (${ms(r.longtaskMax)}) | ${r.textChangesPerSecond.toFixed(0)} | ${r.nodes} | ${r.loadavg} |`,
    );
  const [a, b, c] = runs as [FrameRun, FrameRun, FrameRun, FrameRun, FrameRun];
  lines.push(
    '',
    `Ratio ${big} / ${small} elements: p99 frame ${((a.p99 + c.p99) / 2 / b.p99).toFixed(2)}× (mean of the two ${big}-element runs), frames over 50 ms ${a.over50 + c.over50} in two runs against ${b.over50} in one.`,
  );
  return lines;
}

interface Sample {
  heap: number;
  nodes: number;
  domNodes: number;
  listeners: number;
}

async function sample(page: Page, cdp: CDPSession): Promise<Sample> {
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  const counters = (await cdp.send('Memory.getDOMCounters')) as { nodes: number; jsEventListeners: number };
  const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
  return { heap: usage.usedSize, nodes, domNodes: counters.nodes, listeners: counters.jsEventListeners };
}

async function heapBench(browser: Browser, s: Setup): Promise<string[]> {
  const big = Number(flags.elements);
  const small = Number(flags.baseline);
  const pages: Array<{ name: string; page: Page; cdp: CDPSession; samples: Sample[] }> = [];
  for (const [name, deviceId, count] of [
    [`${big} elements`, s.big, big],
    [`${small} elements`, s.small, small],
  ] as const) {
    const page = await openScreen(browser, s, deviceId, count);
    pages.push({ name, page, cdp: await page.context().newCDPSession(page), samples: [] });
  }
  const startedAt = Date.now();
  const loadStart = loadavg();
  log(`heap: both pages open; ${flags.minutes} min`);
  const stopAt = startedAt + Number(flags.minutes) * 60_000;
  const warmupEnd = startedAt + Number(flags.warmup) * 1000;
  let first = true;
  while (Date.now() < stopAt) {
    const next = Date.now() + Number(flags.sample) * 1000;
    for (const p of pages) {
      const one = await sample(p.page, p.cdp);
      // the very first sample is before the warm-up; kept only as the starting DOM count
      if (Date.now() >= warmupEnd || first) p.samples.push(one);
      log(
        `heap ${p.name}: ${(one.heap / 1e6).toFixed(2)} MB, ${one.nodes} elements, ${one.domNodes} DOM nodes (CDP), ${one.listeners} listeners`,
      );
    }
    first = false;
    await sleep(Math.max(0, Math.min(next, stopAt) - Date.now()));
  }
  for (const p of pages) p.samples.push(await sample(p.page, p.cdp));
  const lines = [
    `Both pages open side by side for ${flags.minutes} min (${new Date(startedAt).toISOString()} to ${new Date().toISOString()}); samples every ${flags.sample} s after garbage collection; growth against the first sample after ${flags.warmup} s; load average (1/5/15 min) at the start ${loadStart}, at the end ${loadavg()}.`,
    '',
    '| screen | JS heap after warm-up MB | at the end MB | growth | highest MB | document elements first / last | DOM nodes (CDP) first / last | JS listeners first / last |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const p of pages) {
    const measured = p.samples.length > 2 ? p.samples.slice(1) : p.samples;
    const a = measured[0]!;
    const z = measured.at(-1)!;
    const f = p.samples[0]!;
    const highest = Math.max(...measured.map((x) => x.heap));
    lines.push(
      `| ${p.name} | ${(a.heap / 1e6).toFixed(2)} | ${(z.heap / 1e6).toFixed(2)} | **${(((z.heap - a.heap) / a.heap) * 100).toFixed(1)} %** | ${(highest / 1e6).toFixed(2)} | ${f.nodes} / ${z.nodes} | ${f.domNodes} / ${z.domNodes} | ${f.listeners} / ${z.listeners} |`,
    );
  }
  lines.push('', 'Samples (MB):');
  for (const p of pages)
    lines.push(`- ${p.name}: ${p.samples.map((x) => (x.heap / 1e6).toFixed(2)).join(', ')}`);
  for (const p of pages) await p.page.context().close();
  return lines;
}

// ---------------------------------------------------------------- run

const only = new Set(flags.only.split(','));
const out: string[] = [
  `- date: ${new Date().toISOString()}; cores: ${os.cpus().length}; node ${process.version}; load average at start ${loadavg()}`,
  '',
];
const s = await setUp();
const publisher = startPublisher(s);
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: CHROMIUM_FLAGS,
});
try {
  out.push(`- chromium ${browser.version()}`, '');
  if (only.has('frames')) out.push('#### Frames, idle', '', ...(await framesBench(browser, s)), '');
  if (only.has('heap')) out.push('#### Heap', '', ...(await heapBench(browser, s)), '');
  const p = publisher.state;
  out.push(
    `Publisher: ${p.seconds} s, ${p.records.toLocaleString('en')} records (${s.itemIds.length} items × ${FIELDS_PER_ITEM} fields a second), ${p.errors} failed, slowest submission ${p.slowest} ms.`,
  );
} finally {
  await publisher.stop();
  await browser.close();
  await s.cleanup();
}
console.log(out.join('\n'));
