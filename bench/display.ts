/**
 * `npm run bench:display` — issue 11 "Speed", what a person watching a board sees, measured in
 * headless Chromium (playwright-core) against the compiled server (apps/server/dist/main.mjs,
 * what `npm start` runs) on a fresh PostgreSQL database `bench_<timestamp>` (dropped afterwards)
 * with the embedded MQTT broker. Build first: `npm run build`.
 *
 * latency: a board of 10 number cards on 10 items, open at /showdashboard/{id}. A publisher in its
 *   own process (bench/lib/publish-rate.ts) sends `--rate` messages/s for `--seconds` s through
 *   the embedded broker, QoS 1, each `{itemId, f1: sequence number, f2: send time}`. The page
 *   records when each record reaches it on the app's live WebSocket (every record) and when each
 *   number card's text changes (checked every animation frame); latency = arrival − send time
 *   (same machine clock). Dropped = published records that never reached the page.
 * heap: a big screen of 100 widgets (20 number cards on items that get a record every second,
 *   40 number cards and 10 tables on quiet items, 10 texts, 10 clocks, 5 marquees, 5 device
 *   status), open at /showdashboard/{id}, and a carousel of 4 such boards at /dashboardmarquee/{id}
 *   (10 s each), side by side in one browser for `--minutes`. Every `--sample` s, on each page:
 *   CDP HeapProfiler.collectGarbage, then Runtime.getHeapUsage; blank widgets counted (a widget
 *   with no text and no picture). Growth = last sample against the first after `--warmup` s.
 *
 * Flags: --only latency,heap  --rate 1000  --seconds 30  --repeat 3  --minutes 60  --sample 60
 *        --warmup 120  --pg URL
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Widget } from '@platform/domain';
import { submitTopic } from '@platform/domain';
import { sql } from 'drizzle-orm';
import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { ROOT } from './lib/child';
import { createBenchDatabase, DEFAULT_PG_URL, makeFixture, openPostgres, rowsOf } from './lib/fixture';
import { median } from './lib/stats';

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string', default: 'latency,heap' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '30' },
    repeat: { type: 'string', default: '3' },
    minutes: { type: 'string', default: '60' },
    sample: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '120' },
    pg: { type: 'string', default: process.env.BENCH_PG_URL ?? DEFAULT_PG_URL },
  },
});

const load = () => os.loadavg()[0]!.toFixed(1);
const log = (line: string) =>
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)} load ${load()}] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

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
  mqttPort: number;
  stop(): Promise<void>;
}

async function startServer(databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const mqttPort = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-display-'));
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
    mqttPort,
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

/** The server's JSON API under /general. */
function apiOf(url: string, token: () => string) {
  return async <T>(p: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${url}/general${p}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { code: number; data: T };
    if (json.code !== 0) throw new Error(`${p}: ${JSON.stringify(json)}`);
    return json.data;
  };
}

interface Setup {
  server: Server;
  phone: string;
  key: string;
  mqttUsername: string;
  itemIds: number[];
  api: ReturnType<typeof apiOf>;
  cleanup(): Promise<void>;
}

async function setUp(items: number): Promise<Setup> {
  const bench = await createBenchDatabase(flags.pg);
  log(`database ${bench.name}`);
  const database = await openPostgres(bench.url);
  const fx = await makeFixture(database, items);
  const phone = (
    await rowsOf<{ phone: string }>(database.db, sql`SELECT phone FROM users WHERE id = ${fx.userId}`)
  )[0]!.phone;
  await database.close();
  const server = await startServer(bench.url);
  let token = '';
  const login = await fetch(`${server.url}/general/user/access/getToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ phone, password: 'bench1234' }).toString(),
  });
  token = ((await login.json()) as { data: { token: string } }).data.token;
  const api = apiOf(server.url, () => token);
  await api('/user/acceptTerms', { accepted: true });
  return {
    server,
    phone,
    key: fx.key,
    mqttUsername: fx.mqttUsername,
    itemIds: fx.itemIds,
    api,
    cleanup: async () => {
      await server.stop();
      await bench.drop();
    },
  };
}

async function submit(s: Setup, records: Array<Record<string, number>>): Promise<void> {
  const res = await fetch(`${s.server.url}/general/smartdata/submit`, {
    method: 'POST',
    headers: { authorization: s.key, 'content-type': 'application/json' },
    body: JSON.stringify(records),
  });
  const json = (await res.json()) as { code: number };
  if (json.code !== 0) throw new Error(`submit: ${JSON.stringify(json)}`);
}

async function makeBoard(s: Setup, name: string, widgets: Widget[]): Promise<number> {
  const created = await s.api<{ id: number }>('/smartdata/board/create', { name, mode: 'canvas' });
  const got = await s.api<{ version: number }>(`/smartdata/board/get?id=${created.id}`);
  await s.api('/smartdata/board/save', {
    id: created.id,
    version: got.version,
    body: { mode: 'canvas', width: 1920, height: 1080, scale: 'fit', background: '', widgets },
  });
  return created.id;
}

const base = { locked: false, hidden: false };
function numberWidget(i: number, itemId: number, x: number, y: number, w: number, h: number): Widget {
  return {
    ...base,
    id: `n${i}`,
    type: 'number',
    x,
    y,
    w,
    h,
    z: i,
    config: { title: '', itemId, field: 'f1', staleMinutes: 5, fontSize: 24 },
  };
}

async function openBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_FLAGS });
}

async function loggedInPage(browser: Browser, s: Setup, width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'zh-CN' });
  const page = await context.newPage();
  page.on('pageerror', (e) => log(`pageerror: ${e.message}`));
  await page.goto(`${s.server.url}/login`);
  await page.getByTestId('login-phone').fill(s.phone);
  await page.getByTestId('login-password').fill('bench1234');
  await page.getByTestId('login-submit').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 60_000 });
  return page;
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;

// ---------------------------------------------------------------- latency

/** Installed before the app's scripts: every live record's arrival, every number card change. */
function recordArrivals(): void {
  const w = window as unknown as {
    __arrivals: number[];
    __shown: number[];
    WebSocket: typeof WebSocket;
  };
  w.__arrivals = [];
  w.__shown = [];
  const Native = w.WebSocket;
  w.WebSocket = class extends Native {
    constructor(url: string | URL, protocols?: string | string[]) {
      super(url, protocols);
      this.addEventListener('message', (event) => {
        const at = Date.now();
        if (typeof event.data !== 'string' || !event.data.includes('"records"')) return;
        const message = JSON.parse(event.data) as {
          type: string;
          records?: Array<{ values: { f1?: number; f2?: number } }>;
        };
        if (message.type !== 'records') return;
        for (const r of message.records ?? []) {
          if (typeof r.values.f2 === 'number' && r.values.f2 > 1e12)
            w.__arrivals.push(r.values.f1 ?? -1, r.values.f2, at);
        }
      });
    }
  } as typeof WebSocket;
  const last = new Map<number, string>();
  const frame = () => {
    const at = Date.now();
    const cards = document.querySelectorAll('[data-testid=widget-number-value]');
    cards.forEach((el, i) => {
      const text = (el as HTMLElement).innerText;
      if (last.get(i) !== text) {
        last.set(i, text);
        // the card groups thousands ("12,345.00"): without the commas, the sequence number
        const value = Number.parseFloat(text.replace(/,/g, ''));
        if (Number.isFinite(value)) w.__shown.push(value, at);
      }
    });
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

interface LatencyRun {
  published: number;
  arrived: number;
  duplicates: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  shown: number;
  shownP50: number;
  shownP95: number;
  shownP99: number;
  rateAchieved: number;
  load: string;
}

async function latencyBench(): Promise<string[]> {
  const s = await setUp(10);
  const browser = await openBrowser();
  const lines: string[] = [];
  try {
    // the sequence numbers of f1 must fit a 2-decimal field: one record each first, so cards show a value
    await submit(
      s,
      s.itemIds.map((itemId) => ({ itemId, f1: 0, f2: 0, f3: 0 })),
    );
    const widgets = s.itemIds.map((itemId, i) =>
      numberWidget(i, itemId, (i % 5) * 384, Math.floor(i / 5) * 540, 384, 540),
    );
    const boardId = await makeBoard(s, 'latency', widgets);
    const runs: LatencyRun[] = [];
    for (let round = 0; round < Number(flags.repeat); round++) {
      const page = await loggedInPage(browser, s, 1920, 1080);
      // tsx keeps function names with a `__name` helper the page does not have: without it the
      // script stopped at its first named function, before the cards were watched
      await page.addInitScript({ content: 'globalThis.__name = globalThis.__name || ((f) => f);' });
      await page.addInitScript(recordArrivals);
      await page.goto(`${s.server.url}/showdashboard/${boardId}`);
      await page.getByTestId('board-live').getByText('实时').waitFor({ timeout: 60_000 });
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid=widget-number-value]').length === 10,
      );
      await sleep(1000);
      const loadAt = load();
      const sent = await publish(s, round);
      // let the last records arrive
      await sleep(3000);
      const arrivals = await page.evaluate(() => (window as unknown as { __arrivals: number[] }).__arrivals);
      const shown = await page.evaluate(() => (window as unknown as { __shown: number[] }).__shown);
      await page.context().close();
      const seen = new Set<number>();
      let duplicates = 0;
      const latencies: number[] = [];
      for (let i = 0; i < arrivals.length; i += 3) {
        const seq = arrivals[i]!;
        if (seen.has(seq)) {
          duplicates += 1;
          continue;
        }
        seen.add(seq);
        latencies.push(arrivals[i + 2]! - arrivals[i + 1]!);
      }
      // the shown value is the sequence number: its send time from the publisher's log
      const shownLatencies: number[] = [];
      for (let i = 0; i < shown.length; i += 2) {
        const sentAt = sent.times.get(shown[i]!);
        if (sentAt !== undefined) shownLatencies.push(shown[i + 1]! - sentAt);
      }
      latencies.sort((a, b) => a - b);
      shownLatencies.sort((a, b) => a - b);
      const run: LatencyRun = {
        published: sent.count,
        arrived: seen.size,
        duplicates,
        p50: pct(latencies, 50),
        p95: pct(latencies, 95),
        p99: pct(latencies, 99),
        max: latencies.at(-1) ?? Number.NaN,
        shown: shownLatencies.length,
        shownP50: pct(shownLatencies, 50),
        shownP95: pct(shownLatencies, 95),
        shownP99: pct(shownLatencies, 99),
        rateAchieved: sent.rate,
        load: `${loadAt} / ${load()}`,
      };
      log(`latency run ${round + 1}: ${JSON.stringify(run)}`);
      runs.push(run);
    }
    lines.push(
      `Publisher: ${flags.rate} msg/s for ${flags.seconds} s per run, QoS 1, one 3-value record per message, round-robin over 10 items; the page: /showdashboard of a board of 10 number cards (1920×1080).`,
      '',
      '| run | published | reached the page | lost | publish rate achieved msg/s | live socket arrival p50 / p95 / p99 / max ms | card text changes | card change p50 / p95 / p99 ms | load avg start / end |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    runs.forEach((r, i) => {
      lines.push(
        `| ${i + 1} | ${r.published.toLocaleString('en')} | ${r.arrived.toLocaleString('en')}${r.duplicates ? ` (+${r.duplicates} twice)` : ''} | ${r.published - r.arrived} | ${r.rateAchieved.toFixed(0)} | ${r.p50} / ${r.p95} / **${r.p99}** / ${r.max} | ${r.shown.toLocaleString('en')} | ${r.shownP50} / ${r.shownP95} / **${r.shownP99}** | ${r.load} |`,
      );
    });
  } finally {
    await browser.close();
    await s.cleanup();
  }
  return lines;
}

/** Runs the publisher process; its send times by sequence number. */
async function publish(
  s: Setup,
  round: number,
): Promise<{ count: number; rate: number; times: Map<number, number> }> {
  const outFile = path.join(os.tmpdir(), `bench-publish-${process.pid}-${round}.json`);
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/lib/publish-rate.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PUBLISH: JSON.stringify({
        url: `mqtt://127.0.0.1:${s.server.mqttPort}`,
        username: s.mqttUsername,
        password: s.key,
        topic: submitTopic(s.mqttUsername),
        itemIds: s.itemIds,
        rate: Number(flags.rate),
        seconds: Number(flags.seconds),
        // f1 is the sequence number: runs do not reuse one
        firstSeq: 1 + round * 1_000_000,
        out: outFile,
      }),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  if (code !== 0) throw new Error(`publisher exited ${code}`);
  const result = JSON.parse(readFileSync(outFile, 'utf8')) as { sent: number[]; rate: number };
  rmSync(outFile, { force: true });
  const times = new Map<number, number>();
  for (let i = 0; i < result.sent.length; i += 2) times.set(result.sent[i]!, result.sent[i + 1]!);
  return { count: times.size, rate: result.rate, times };
}

// ---------------------------------------------------------------- heap

function bigScreen(itemIds: number[], live: number[]): Widget[] {
  const widgets: Widget[] = [];
  const cell = (i: number) => ({ x: (i % 10) * 192, y: Math.floor(i / 10) * 108, w: 192, h: 108, z: i });
  for (let i = 0; i < 100; i++) {
    const at = cell(i);
    if (i < 20) widgets.push(numberWidget(i, live[i]!, at.x, at.y, at.w, at.h));
    else if (i < 60) widgets.push(numberWidget(i, itemIds[i]!, at.x, at.y, at.w, at.h));
    else if (i < 70)
      widgets.push({
        ...base,
        ...at,
        id: `t${i}`,
        type: 'table',
        config: { title: '', itemId: itemIds[i]!, rows: 3, staleMinutes: 5 },
      });
    else if (i < 80)
      widgets.push({
        ...base,
        ...at,
        id: `x${i}`,
        type: 'text',
        config: { text: `Line ${i}`, fontSize: 20, color: '', align: 'center' },
      });
    else if (i < 90)
      widgets.push({ ...base, ...at, id: `c${i}`, type: 'clock', config: { format: 'time', fontSize: 20 } });
    else if (i < 95)
      widgets.push({
        ...base,
        ...at,
        id: `m${i}`,
        type: 'marquee',
        config: { text: `Notice ${i}`, fontSize: 18, color: '', seconds: 8 },
      });
    else widgets.push({ ...base, ...at, id: `d${i}`, type: 'deviceStatus', config: { title: '' } });
  }
  return widgets;
}

interface Sample {
  at: number;
  heap: number;
  nodes: number;
  widgets: number;
  blank: number;
  updatedTexts: number;
}

async function sample(page: Page, cdp: CDPSession): Promise<Sample> {
  await cdp.send('HeapProfiler.collectGarbage');
  const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  const dom = await page.evaluate(() => {
    const widgets = [...document.querySelectorAll('[data-widget-type]')] as HTMLElement[];
    const blank = widgets.filter(
      (el) => el.innerText.trim() === '' && !el.querySelector('img, canvas, svg'),
    ).length;
    return {
      nodes: document.getElementsByTagName('*').length,
      widgets: widgets.length,
      blank,
      updatedTexts: document.querySelectorAll('[data-testid=widget-updated]').length,
    };
  });
  return { at: Date.now(), heap: usage.usedSize, ...dom };
}

async function heapBench(): Promise<string[]> {
  const s = await setUp(70);
  const browser = await openBrowser();
  const live = s.itemIds.slice(0, 20);
  let stopAt = Number.POSITIVE_INFINITY;
  let publishing = true;
  let published = 0;
  let publishErrors = 0;
  try {
    // every item one record, so every card has a value from the start
    await submit(
      s,
      s.itemIds.map((itemId, i) => ({ itemId, f1: i, f2: 1, f3: 1 })),
    );
    const boards: number[] = [];
    for (let b = 0; b < 4; b++)
      boards.push(await makeBoard(s, `big screen ${b + 1}`, bigScreen(s.itemIds, live)));
    const play = await s.api<{ id: number }>('/smartdata/boardplay/save', {
      name: 'four big screens',
      entries: boards.map((boardId) => ({ boardId, seconds: 10 })),
    });
    // the 20 live items: one record each every second
    const publisher = (async () => {
      let n = 0;
      while (publishing) {
        const t = Date.now();
        n += 1;
        try {
          await submit(
            s,
            live.map((itemId) => ({ itemId, f1: (n % 10000) / 10, f2: n % 97, f3: n % 1000 })),
          );
          published += live.length;
        } catch {
          publishErrors += 1;
        }
        await sleep(Math.max(0, 1000 - (Date.now() - t)));
      }
    })();
    const pages: Array<{ name: string; page: Page; cdp: CDPSession; samples: Sample[] }> = [];
    for (const [name, p] of [
      ['big screen', `/showdashboard/${boards[0]}`],
      ['carousel of 4', `/dashboardmarquee/${play.id}`],
    ] as const) {
      const page = await loggedInPage(browser, s, 1920, 1080);
      await page.goto(`${s.server.url}${p}`);
      await page.waitForFunction(
        () => document.querySelectorAll('[data-widget-type]').length === 100,
        undefined,
        {
          timeout: 60_000,
        },
      );
      pages.push({ name, page, cdp: await page.context().newCDPSession(page), samples: [] });
    }
    log(`heap: both pages open; ${flags.minutes} min`);
    const startedAt = Date.now();
    stopAt = startedAt + Number(flags.minutes) * 60_000;
    const warmupEnd = Date.now() + Number(flags.warmup) * 1000;
    while (Date.now() < stopAt) {
      const next = Date.now() + Number(flags.sample) * 1000;
      for (const p of pages) {
        const one = await sample(p.page, p.cdp);
        if (Date.now() >= warmupEnd || p.samples.length === 0) p.samples.push(one);
        log(
          `heap ${p.name}: ${(one.heap / 1e6).toFixed(2)} MB, ${one.nodes} DOM nodes, ${one.widgets} widgets, ${one.blank} blank`,
        );
      }
      await sleep(Math.max(0, Math.min(next, stopAt) - Date.now()));
    }
    for (const p of pages) {
      p.samples.push(await sample(p.page, p.cdp));
      await p.page.screenshot({
        path: path.join(os.tmpdir(), `bench-display-${p.name.replace(/\W+/g, '-')}.png`),
      });
    }
    publishing = false;
    await publisher;
    const lines = [
      `Run: ${flags.minutes} min (${new Date(startedAt).toISOString()} to ${new Date().toISOString()}); ${published.toLocaleString('en')} records to the 20 live items (${publishErrors} failed submissions); samples every ${flags.sample} s after garbage collection, from ${flags.warmup} s on; growth: the median of the last samples against the median of the first (up to ten each: one sample moves by ±10 % from the next with no trend); load average at the end ${load()}.`,
      '',
      '| page | JS heap after warm-up MB | at the end MB | growth, medians of the first / last k samples (k) | highest MB | DOM nodes first / last | widgets, fewest in a sample | blank widgets, worst sample |',
      '|---|---|---|---|---|---|---|---|',
    ];
    for (const p of pages) {
      // the first sample was taken before the warm-up ended, the second is the baseline
      const measured = p.samples.length > 2 ? p.samples.slice(1) : p.samples;
      const first = measured[0]!;
      const last = measured.at(-1)!;
      const highest = Math.max(...measured.map((x) => x.heap));
      const k = Math.max(1, Math.min(10, Math.floor(measured.length / 3)));
      const early = median(measured.slice(0, k).map((x) => x.heap));
      const late = median(measured.slice(-k).map((x) => x.heap));
      lines.push(
        `| ${p.name} | ${(first.heap / 1e6).toFixed(2)} | ${(last.heap / 1e6).toFixed(2)} | **${(((late - early) / early) * 100).toFixed(1)} %** (${(early / 1e6).toFixed(2)} → ${(late / 1e6).toFixed(2)} MB, k = ${k}) | ${(highest / 1e6).toFixed(2)} | ${first.nodes} / ${last.nodes} | ${Math.min(...p.samples.map((x) => x.widgets))} | ${Math.max(...p.samples.map((x) => x.blank))} |`,
      );
    }
    lines.push('', 'Samples (MB): ');
    for (const p of pages)
      lines.push(`- ${p.name}: ${p.samples.map((x) => (x.heap / 1e6).toFixed(1)).join(', ')}`);
    return lines;
  } finally {
    publishing = false;
    await browser.close();
    await s.cleanup();
  }
}

const only = new Set(flags.only.split(','));
const out: string[] = [
  `- date: ${new Date().toISOString()}; cores: ${os.cpus().length}; node ${process.version}; load average at start ${load()}`,
  '',
];
if (only.has('latency')) out.push('#### Publish → browser', '', ...(await latencyBench()), '');
if (only.has('heap')) out.push('#### Big screen heap', '', ...(await heapBench()), '');
console.log(out.join('\n'));
