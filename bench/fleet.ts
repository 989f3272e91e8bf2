/**
 * `npm run bench:fleet` — the fleet benchmarks of the issue "Devices and gateways" ("Speed and
 * scale"), in one run against a fresh PostgreSQL database (`bench_<timestamp>`, dropped at the
 * end). Writes its figure block into bench/RESULTS.md (`<!-- figures:fleet… -->`).
 *
 * 1. Fleet: the server (compiled, embedded broker) in one process, N simulated gateways
 *    (apps/gateway-sim) in another, connecting within a ramp; each registered and bound through
 *    the server's services and sent a pushed configuration (one packet + parser) that makes it
 *    poll its meter and send one frame every --interval seconds. Online count over time, frames
 *    sent (simulator) vs stored (rows) vs refused (frame_stats), server and simulator RSS/CPU.
 * 2. Offline detection: --kill gateways lose their network abruptly (socket destroyed, no
 *    DISCONNECT) and --silent ones silently (socket left hanging: only the broker's keep-alive
 *    can tell); time from each loss to the platform's registry showing it offline.
 * 3. Frames vs JSON: --rate-gateways plain MQTT clients signed in as gateways publish the same
 *    three values as raw frames (decoded and stored) and then as JSON telemetry, as fast as the
 *    platform takes them (QoS 1, --rate-window unacknowledged per client), --rate-seconds each.
 *
 * Flags: --gateways N (10000) | --quick (1000 gateways, 60 s), --duration S (300, the steady
 * window after every gateway runs its configuration), --interval S (10), --connect-rate N
 * (200 connects/s), --keepalive S (30), --kill N (1000), --silent N (1000), --rate-gateways N
 * (100), --rate-seconds S (20), --rate-window N (10), --push-width N (16), --connect-timeout S
 * (900: how long connecting and configuring every gateway may take on a busy machine), --profile,
 * --pg URL, --out FILE, --no-write.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { generatedSn } from '../apps/gateway-sim/src/fleet';
import { BENCH_DIR, ROOT, type ServerChild, startServer } from './lib/child';
import { createBenchDatabase, DEFAULT_PG_URL } from './lib/fixture';
import { type ProfileSummary, summarizeProfile } from './lib/profile';

const { values: flags } = parseArgs({
  options: {
    gateways: { type: 'string' },
    quick: { type: 'boolean', default: false },
    duration: { type: 'string' },
    interval: { type: 'string', default: '10' },
    'connect-rate': { type: 'string', default: '200' },
    keepalive: { type: 'string', default: '30' },
    kill: { type: 'string' },
    silent: { type: 'string' },
    'rate-gateways': { type: 'string', default: '100' },
    'rate-seconds': { type: 'string', default: '20' },
    'rate-window': { type: 'string', default: '10' },
    'push-width': { type: 'string', default: '16' },
    'connect-timeout': { type: 'string', default: '900' },
    profile: { type: 'boolean', default: false },
    pg: { type: 'string', default: process.env.BENCH_PG_URL ?? DEFAULT_PG_URL },
    out: { type: 'string', default: path.join(BENCH_DIR, 'RESULTS.md') },
    'no-write': { type: 'boolean', default: false },
  },
});

const quick = flags.quick === true;
const num = (name: keyof typeof flags, fallback: number): number => {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number`);
  return value;
};
const N = num('gateways', quick ? 1000 : 10_000);
const DURATION = num('duration', quick ? 60 : 300);
const INTERVAL = num('interval', 10);
const KEEPALIVE = num('keepalive', 30);
const KILL = Math.min(num('kill', quick ? 100 : 1000), N);
const SILENT = Math.min(num('silent', quick ? 100 : 1000), N - KILL);
const RATE_GATEWAYS = num('rate-gateways', 100);

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const pct = (n: number) => `${Math.round(n * 100)} %`;

// ---- processes ----------------------------------------------------------------------

/** RSS and CPU time of a process, read from /proc (no help from its event loop). */
function procStats(pid: number): { rss: number; cpuMs: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 (1-based) of the whole line, in clock ticks (100/s)
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { rss: rssKb * 1024, cpuMs: ticks * 10 };
  } catch {
    return null;
  }
}

interface SimChild {
  pid: number;
  command(message: Record<string, unknown>): Promise<Record<string, unknown>>;
}

async function startSim(): Promise<SimChild> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--max-old-space-size=4096', path.join(ROOT, 'apps/server/dist/fleet-sim.mjs')],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const lines = createInterface({ input: child.stdout! });
  const waiting: Array<(line: Record<string, unknown>) => void> = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  lines.on('line', (line) => {
    try {
      waiting.shift()?.(JSON.parse(line));
    } catch {
      process.stderr.write(`[sim] ${line}\n`);
    }
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      waiting.push(resolve);
      void exited.then((code) => reject(new Error(`simulator exited (${code})`)));
    });
  await next();
  return {
    pid: child.pid!,
    command: async (message) => {
      const answer = next();
      child.stdin!.write(`${JSON.stringify(message)}\n`);
      const result = await answer;
      if (typeof result.error === 'string') throw new Error(`simulator: ${result.error}`);
      return result;
    },
  };
}

async function serverCommand(server: ServerChild, line: string): Promise<Record<string, unknown>> {
  const answer = await server.command(line);
  if (typeof answer.error === 'string') throw new Error(`server: ${answer.error}`);
  return answer;
}

// ---- figures ------------------------------------------------------------------------

interface Sample {
  t: number;
  phase: string;
  platformOnline: number;
  simOnline: number | null;
  framesSent: number | null;
  rowsStored: number;
  serverRss: number;
  serverCpuMs: number;
  simRss: number;
  simCpuMs: number;
}

interface RateFigures {
  kind: 'frame' | 'telemetry';
  published: number;
  rows: number;
  seconds: number;
  perSecond: number;
  serverCpuMs: number;
  cpuMicrosPerRecord: number;
  serverRssPeak: number;
  queriesPerRecord: number;
  recordsPerCommit: number;
}

interface OfflineFigures {
  how: 'kill' | 'silent';
  gateways: number;
  detected: number;
  p50: number;
  p95: number;
  max: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main(): Promise<void> {
  const command = `npm run bench:fleet -- ${process.argv.slice(2).join(' ')}`.trim();
  const loadAtStart = os.loadavg();
  const started = new Date();
  const admin = new pg.Client({ connectionString: flags.pg });
  await admin.connect();
  const pgVersion = (await admin.query<{ v: string }>("SELECT current_setting('server_version') AS v"))
    .rows[0]!.v;
  await admin.end();
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], {
    stdio: 'inherit',
  });
  if (built.status !== 0) throw new Error('could not compile the server (npm run build:server)');
  const bench = await createBenchDatabase(flags.pg!);
  log(`database ${bench.name} on PostgreSQL ${pgVersion}; ${N} gateways, ${DURATION} s steady`);
  const profileDir = flags.profile ? mkdtempSync(path.join(os.tmpdir(), 'fleet-prof-')) : undefined;
  const profiles: Array<{ label: string; summary: ProfileSummary }> = [];
  const db = new pg.Client({ connectionString: bench.url });
  let server: ServerChild | null = null;
  let sim: SimChild | null = null;
  const samples: Sample[] = [];
  const notes: string[] = [];
  try {
    server = await startServer('app', {
      DATABASE_URL: bench.url,
      MQTT_PORT: '0',
      MQTT_CONNECT_FAIL_LIMIT: '100000',
    });
    await db.connect();
    const url = `mqtt://127.0.0.1:${server.mqttPort}`;
    const fleetSns = Array.from({ length: N }, (_, i) => generatedSn('FLT', i + 1));
    const rateSns = Array.from({ length: RATE_GATEWAYS }, (_, i) => generatedSn('RATE', i + 1));
    log('registering and binding the gateways…');
    const setup = (await serverCommand(
      server,
      `fleet-setup ${JSON.stringify({ fleet: fleetSns, rate: rateSns })}`,
    )) as unknown as {
      companyId: number;
      userId: number;
      fleetItemId: number;
      fleetPacketId: number;
      rateFrameItemId: number;
      ratePacketId: number;
      rateJsonItemId: number;
      gateways: Array<{ id: number; sn: string; secret: string }>;
      seconds: { register: number; bind: number };
    };
    log(`registered in ${f1(setup.seconds.register)} s, bound in ${f1(setup.seconds.bind)} s`);
    const fleetGateways = setup.gateways.slice(0, N);
    const rateGateways = setup.gateways.slice(N);

    const count = async (sql: string, params: unknown[]) =>
      Number((await db.query<{ n: string }>(sql, params)).rows[0]!.n);
    const platformOnline = () =>
      count('SELECT count(*) AS n FROM gateways WHERE company_id = $1 AND online AND serial_number LIKE $2', [
        setup.companyId,
        'FLT%',
      ]);
    const rowsOf = (itemId: number) =>
      count('SELECT count(*) AS n FROM data_records WHERE item_id = $1', [itemId]);

    sim = await startSim();
    const t0 = Date.now();
    let phase = 'connect';
    let sampling = true;
    const takeSample = async () => {
      const s = procStats(server!.pid);
      const m = procStats(sim!.pid);
      const simStats = await sim!.command({ cmd: 'stats' }).catch(() => null);
      samples.push({
        t: (Date.now() - t0) / 1000,
        phase,
        platformOnline: await platformOnline(),
        simOnline: typeof simStats?.online === 'number' ? simStats.online : null,
        framesSent: typeof simStats?.framesPublished === 'number' ? simStats.framesPublished : null,
        rowsStored: await rowsOf(setup.fleetItemId),
        serverRss: s?.rss ?? 0,
        serverCpuMs: s?.cpuMs ?? 0,
        simRss: m?.rss ?? 0,
        simCpuMs: m?.cpuMs ?? 0,
      });
      const x = samples.at(-1)!;
      log(
        `sample ${f0(x.t)} s ${x.phase}: shown online ${x.platformOnline}, simulator online ${x.simOnline}, sent ${x.framesSent}, rows ${x.rowsStored}, server RSS ${mb(x.serverRss)} MB CPU ${f1(x.serverCpuMs / 1000)} s, simulator RSS ${mb(x.simRss)} MB`,
      );
    };
    const sampler = (async () => {
      while (sampling) {
        await takeSample().catch((error) => log(`sample failed: ${(error as Error).message}`));
        await sleep(5_000);
      }
    })();

    // 1. connect
    await sim.command({
      cmd: 'start',
      url,
      gateways: fleetGateways.map((g) => ({ sn: g.sn, secret: g.secret })),
      connectRate: num('connect-rate', 200),
      keepalive: KEEPALIVE,
    });
    const connectDeadline = Date.now() + num('connect-timeout', 900) * 1000;
    let online = 0;
    for (;;) {
      online = await platformOnline();
      if (online >= N || Date.now() > connectDeadline) break;
      await sleep(1_000);
    }
    const allOnlineS = (Date.now() - t0) / 1000;
    log(`${online} of ${N} online after ${f1(allOnlineS)} s`);
    if (online < N)
      notes.push(`only ${online} of ${N} gateways were online ${f1(allOnlineS)} s after the start`);

    // 2. configuration pushed to each (again to those that were offline, until every one has it)
    phase = 'push';
    const push = { sent: 0, failed: 0, firstError: null as string | null, seconds: 0, rounds: 0 };
    const pushFrom = Date.now();
    let states: Record<string, number> = {};
    const pushDeadline = Date.now() + num('connect-timeout', 900) * 1000;
    for (;;) {
      const pending = (
        await db.query<{ id: number }>(
          `SELECT g.id FROM gateways g WHERE g.company_id = $1 AND g.serial_number LIKE 'FLT%'
             AND NOT EXISTS (SELECT 1 FROM gateway_config_pushes p WHERE p.gateway_id = g.id
                             AND p.state IN ('waiting', 'committed', 'unchanged'))`,
          [setup.companyId],
        )
      ).rows.map((r) => r.id);
      if (pending.length === 0 || Date.now() > pushDeadline) break;
      const round = (await serverCommand(
        server,
        `fleet-push ${JSON.stringify({
          companyId: setup.companyId,
          userId: setup.userId,
          packetId: setup.fleetPacketId,
          intervalS: INTERVAL,
          gatewayIds: pending,
          width: num('push-width', 16),
        })}`,
      )) as unknown as { sent: number; failed: number; firstError: string | null };
      push.rounds += 1;
      push.sent += round.sent;
      push.failed += round.failed;
      push.firstError ??= round.firstError;
      log(`push round ${push.rounds}: ${round.sent} sent, ${round.failed} not (${round.firstError ?? ''})`);
      for (;;) {
        states = (await serverCommand(server, `fleet-pushes ${setup.companyId}`)) as Record<string, number>;
        if ((states.waiting ?? 0) === 0 || Date.now() > pushDeadline) break;
        await sleep(1_000);
      }
      if (round.sent === 0) await sleep(2_000);
    }
    push.seconds = (Date.now() - pushFrom) / 1000;
    const committedS = (Date.now() - t0) / 1000;
    log(`pushes: ${JSON.stringify(states)} at ${f1(committedS)} s`);

    // 3. steady
    phase = 'steady';
    const steadyFrom = Date.now();
    const cpuBefore = procStats(server.pid)!;
    const rowsBefore = await rowsOf(setup.fleetItemId);
    if (profileDir) await server.profileStart();
    while (Date.now() - steadyFrom < DURATION * 1000) await sleep(1_000);
    if (profileDir) {
      const file = path.join(profileDir, 'fleet-steady.cpuprofile');
      await server.profileStop(file);
      profiles.push({ label: `fleet steady window (${N} gateways)`, summary: summarizeProfile(file) });
    }
    const cpuAfter = procStats(server.pid)!;
    const rowsAfter = await rowsOf(setup.fleetItemId);
    const steadySeconds = (Date.now() - steadyFrom) / 1000;
    const steady = {
      seconds: steadySeconds,
      rows: rowsAfter - rowsBefore,
      rowsPerSecond: (rowsAfter - rowsBefore) / steadySeconds,
      cores: (cpuAfter.cpuMs - cpuBefore.cpuMs) / 1000 / steadySeconds,
      cpuMicrosPerRow: ((cpuAfter.cpuMs - cpuBefore.cpuMs) * 1000) / Math.max(1, rowsAfter - rowsBefore),
      onlineAtEnd: await platformOnline(),
    };
    log(`steady: ${f0(steady.rowsPerSecond)} rows/s, server ${steady.cores.toFixed(2)} cores`);

    // 4. offline detection
    phase = 'offline';
    const offline: OfflineFigures[] = [];
    const killSns = fleetGateways.slice(N - KILL).map((g) => g.sn);
    const silentSns = fleetGateways.slice(N - KILL - SILENT, N - KILL).map((g) => g.sn);
    const lost = new Map<string, { at: number; how: 'kill' | 'silent' }>();
    for (const [how, sns] of [
      ['kill', killSns],
      ['silent', silentSns],
    ] as const) {
      if (sns.length === 0) continue;
      const { at } = (await sim.command({ cmd: 'kill', how, sns })) as { at: Record<string, number> };
      for (const [sn, when] of Object.entries(at)) lost.set(sn, { at: when, how });
    }
    const detected = new Map<string, number>();
    const offlineDeadline = Date.now() + KEEPALIVE * 3 * 1000;
    while (detected.size < lost.size && Date.now() < offlineDeadline) {
      const rows = await db.query<{ sn: string; at: Date }>(
        'SELECT serial_number AS sn, offline_at AS at FROM gateways WHERE serial_number = ANY($1) AND NOT online',
        [[...lost.keys()].filter((sn) => !detected.has(sn))],
      );
      for (const r of rows.rows) detected.set(r.sn, r.at.getTime());
      await sleep(250);
    }
    for (const how of ['kill', 'silent'] as const) {
      const mine = [...lost].filter(([, l]) => l.how === how);
      if (mine.length === 0) continue;
      const delays = mine
        .filter(([sn]) => detected.has(sn))
        .map(([sn, l]) => (detected.get(sn)! - l.at) / 1000)
        .sort((a, b) => a - b);
      offline.push({
        how,
        gateways: mine.length,
        detected: delays.length,
        p50: quantile(delays, 0.5),
        p95: quantile(delays, 0.95),
        max: delays.at(-1) ?? Number.NaN,
      });
    }
    for (const o of offline)
      log(`offline (${o.how}): ${o.detected}/${o.gateways}, p50 ${f1(o.p50)} s, max ${f1(o.max)} s`);

    // 5. the books: every gateway says goodbye, the platform drains, sent vs stored
    phase = 'stop';
    await sim.command({ cmd: 'stop' });
    let last = -1;
    for (let stable = 0; stable < 3; ) {
      await sleep(2_000);
      const rows = await rowsOf(setup.fleetItemId);
      stable = rows === last ? stable + 1 : 0;
      last = rows;
    }
    const counters = (await sim.command({ cmd: 'counters' })) as Record<
      string,
      { published: number; dropped: number }
    >;
    const statsRows = await db.query<Record<string, string>>(
      `SELECT sn, stored, bad_crc, wrong_length, bad_answer, unknown_packet, decode_errors, refused, malformed
       FROM frame_stats WHERE company_id = $1`,
      [setup.companyId],
    );
    const storedBySn = new Map(statsRows.rows.map((r) => [r.sn!, Number(r.stored)]));
    let refused = 0;
    for (const r of statsRows.rows)
      for (const k of [
        'bad_crc',
        'wrong_length',
        'bad_answer',
        'unknown_packet',
        'decode_errors',
        'refused',
        'malformed',
      ])
        refused += Number(r[k]);
    const books = {
      sent: 0,
      storedFrames: 0,
      droppedOffline: 0,
      keptSent: 0,
      keptStored: 0,
      lostSent: 0,
      lostStored: 0,
    };
    for (const [sn, c] of Object.entries(counters)) {
      const stored = storedBySn.get(sn) ?? 0;
      books.sent += c.published;
      books.storedFrames += stored;
      books.droppedOffline += c.dropped;
      if (lost.has(sn)) {
        books.lostSent += c.published;
        books.lostStored += stored;
      } else {
        books.keptSent += c.published;
        books.keptStored += stored;
      }
    }
    const rowsTotal = await rowsOf(setup.fleetItemId);
    const serverStats = await server.stats();
    log(
      `books: sent ${books.sent}, rows ${rowsTotal}, frames stored ${books.storedFrames}, refused ${refused}; ` +
        `never killed: sent ${books.keptSent} stored ${books.keptStored}`,
    );

    // 6. frames vs JSON at the platform's pace
    phase = 'rate';
    const rates: RateFigures[] = [];
    const values = [230.15, 229.8, 231.45];
    for (const kind of ['frame', 'telemetry'] as const) {
      const itemId = kind === 'frame' ? setup.rateFrameItemId : setup.rateJsonItemId;
      const before = await rowsOf(itemId);
      const cpu0 = procStats(server.pid)!;
      const stats0 = await server.stats();
      const t = Date.now();
      let rssPeak = 0;
      const watch = setInterval(() => {
        rssPeak = Math.max(rssPeak, procStats(server!.pid)?.rss ?? 0);
      }, 500);
      if (profileDir) await server.profileStart();
      const answer = (await sim.command({
        cmd: 'rate',
        url,
        gateways: rateGateways.map((g) => ({ sn: g.sn, secret: g.secret })),
        kind,
        packetId: setup.ratePacketId,
        itemId,
        values,
        seconds: num('rate-seconds', 20),
        window: num('rate-window', 10),
        tsBase: Date.now() - 86_400_000 * (kind === 'frame' ? 2 : 1),
      })) as { published: number; seconds: number; connectSeconds: number };
      // the last rows: wait until the count stands still
      let rows = await rowsOf(itemId);
      let lastChange = Date.now();
      for (;;) {
        await sleep(200);
        const now = await rowsOf(itemId);
        if (now !== rows) {
          rows = now;
          lastChange = Date.now();
        } else if (Date.now() - lastChange > 2_000) break;
      }
      if (profileDir) {
        const file = path.join(profileDir, `rate-${kind}.cpuprofile`);
        await server.profileStop(file);
        profiles.push({
          label: `rate test, ${kind === 'frame' ? 'frames' : 'JSON telemetry'}`,
          summary: summarizeProfile(file),
        });
      }
      clearInterval(watch);
      const cpu1 = procStats(server.pid)!;
      const stats1 = await server.stats();
      const stored = rows - before;
      // connecting is not storing: the clock runs from the first publish
      const seconds = (lastChange - t) / 1000 - answer.connectSeconds;
      rates.push({
        kind,
        published: answer.published,
        rows: stored,
        seconds,
        perSecond: stored / seconds,
        serverCpuMs: cpu1.cpuMs - cpu0.cpuMs,
        cpuMicrosPerRecord: ((cpu1.cpuMs - cpu0.cpuMs) * 1000) / Math.max(1, stored),
        serverRssPeak: rssPeak,
        queriesPerRecord: (stats1.queries - stats0.queries) / Math.max(1, stored),
        recordsPerCommit: (stats1.records - stats0.records) / Math.max(1, stats1.flushes - stats0.flushes),
      });
      log(`rate ${kind}: ${f0(stored / seconds)} records/s (${stored} of ${answer.published})`);
    }
    sampling = false;
    await sampler;
    await sim.command({ cmd: 'exit' }).catch(() => undefined);

    const figures = render({
      command,
      started,
      loadAtStart,
      pgVersion,
      setup,
      allOnlineS,
      online,
      push,
      states,
      committedS,
      steady,
      offline,
      books,
      rowsTotal,
      refused,
      drops: (serverStats as unknown as { gatewayDrops?: Record<string, number> }).gatewayDrops ?? {},
      rates,
      samples,
      notes,
      profiles,
    });
    console.log(`\n${figures}`);
    if (!flags['no-write']) {
      writeResults(flags.out!, 'fleet', figures);
      log(`written to ${path.relative(process.cwd(), flags.out!)}`);
    }
  } finally {
    await db.end().catch(() => undefined);
    await server?.close().catch(() => undefined);
    await bench.drop();
    log(`dropped ${bench.name}`);
  }
}

interface RenderInput {
  command: string;
  started: Date;
  loadAtStart: number[];
  pgVersion: string;
  setup: { seconds: { register: number; bind: number } };
  allOnlineS: number;
  online: number;
  push: { sent: number; failed: number; firstError: string | null; seconds: number; rounds: number };
  states: Record<string, number>;
  committedS: number;
  steady: {
    seconds: number;
    rows: number;
    rowsPerSecond: number;
    cores: number;
    cpuMicrosPerRow: number;
    onlineAtEnd: number;
  };
  offline: OfflineFigures[];
  books: {
    sent: number;
    storedFrames: number;
    droppedOffline: number;
    keptSent: number;
    keptStored: number;
    lostSent: number;
    lostStored: number;
  };
  rowsTotal: number;
  refused: number;
  drops: Record<string, number>;
  rates: RateFigures[];
  samples: Sample[];
  notes: string[];
  profiles: Array<{ label: string; summary: ProfileSummary }>;
}

function render(r: RenderInput): string {
  const L: string[] = [];
  const fleetSamples = r.samples.filter((s) => s.phase !== 'rate');
  const peakRss = Math.max(...fleetSamples.map((s) => s.serverRss));
  const steadySamples = r.samples.filter((s) => s.phase === 'steady');
  const endRss = steadySamples.at(-1)?.serverRss ?? 0;
  const simPeak = Math.max(...fleetSamples.map((s) => s.simRss));
  const memGb = os.totalmem() / 1024 ** 3;
  const frame = r.rates.find((x) => x.kind === 'frame');
  const json = r.rates.find((x) => x.kind === 'telemetry');
  const ratio = frame && json ? frame.perSecond / json.perSecond : Number.NaN;
  const lostFrames = r.books.keptSent - r.books.keptStored;
  L.push(`Command: \`${r.command}\``, '', '### Machine', '');
  L.push(
    `- date: ${r.started.toISOString()}`,
    `- cores (nproc): ${os.availableParallelism()} (${os.cpus()[0]?.model ?? 'unknown'})`,
    `- memory: ${memGb.toFixed(1)} GiB`,
    `- node: ${process.version}; PostgreSQL ${r.pgVersion} (127.0.0.1:5432, the bench's own database)`,
    `- load average at start (1 / 5 / 15 min): ${r.loadAtStart.map((x) => x.toFixed(2)).join(' / ')}; at end: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}`,
    '- the server, the simulator, PostgreSQL and this script share these cores (and other work on the machine)',
    '',
  );
  L.push('### Goals', '', '| goal | target | measured | |', '|---|---|---|---|');
  const n = r.online;
  L.push(
    `| gateways online at once | all ${f0(N)} | ${f0(r.steady.onlineAtEnd)} shown online at the end of the steady window (${f0(n)} at ${f1(r.allOnlineS)} s) | ${r.steady.onlineAtEnd >= n && n > 0 ? 'met' : 'not met'} |`,
    `| frames lost (gateways never cut off) | 0 | sent ${f0(r.books.keptSent)}, stored ${f0(r.books.keptStored)}: ${f0(lostFrames)} lost | ${lostFrames === 0 ? 'met' : 'not met'} |`,
    `| server RSS | < 1 GB | peak ${f0(mb(peakRss))} MB, end of steady window ${f0(mb(endRss))} MB | ${peakRss < 1024 ** 3 ? 'met' : 'not met'} |`,
    `| frames decoded and stored/s vs JSON telemetry/s, same run | ≥ 80 % | ${frame ? f0(frame.perSecond) : '—'} / ${json ? f0(json.perSecond) : '—'} = ${Number.isFinite(ratio) ? pct(ratio) : '—'} | ${ratio >= 0.8 ? 'met' : 'not met'} |`,
  );
  for (const o of r.offline)
    L.push(
      `| offline shown, ${o.how === 'kill' ? 'socket destroyed' : 'socket left hanging (keep-alive only)'} | all ${f0(o.gateways)} within 1.5 × ${KEEPALIVE} s = ${f1(1.5 * KEEPALIVE)} s | ${f0(o.detected)} shown; p50 ${f1(o.p50)} s, p95 ${f1(o.p95)} s, max ${f1(o.max)} s | ${o.detected === o.gateways && o.max <= 1.5 * KEEPALIVE ? 'met' : 'not met'} |`,
    );
  L.push('');
  L.push('### Fleet', '');
  L.push(
    `- setup through the services: ${f0(N + RATE_GATEWAYS)} gateways registered in ${f1(r.setup.seconds.register)} s, bound in ${f1(r.setup.seconds.bind)} s`,
    `- connect ramp ${num('connect-rate', 200)}/s, keep-alive ${KEEPALIVE} s: ${f0(r.online)} of ${f0(N)} shown online ${f1(r.allOnlineS)} s after the first connect`,
    `- configuration pushed to each (one packet of three floats + its parser, polled every ${INTERVAL} s): ${f0(r.push.sent)} sent in ${f1(r.push.seconds)} s (${r.push.rounds} rounds: a gateway offline at its turn is pushed to in the next), ${f0(r.push.failed)} refused${r.push.firstError ? ` (first: ${r.push.firstError})` : ''}; states at ${f1(r.committedS)} s: ${Object.entries(
      r.states,
    )
      .map(([k, v]) => `${k} ${f0(v)}`)
      .join(', ')}`,
    `- steady window ${f0(r.steady.seconds)} s: ${f0(r.steady.rows)} rows, **${f0(r.steady.rowsPerSecond)} frames stored/s** (offered: ${f0(N / INTERVAL)}/s), server ${r.steady.cores.toFixed(2)} cores busy, ${f0(r.steady.cpuMicrosPerRow)} µs server CPU per frame (everything the server did in the window, divided by rows)`,
    `- books after every gateway said goodbye and the platform drained: frames sent ${f0(r.books.sent)} (simulator), rows stored ${f0(r.rowsTotal)}, frames counted stored ${f0(r.books.storedFrames)}, refused ${f0(r.refused)} (frame_stats), read while offline and dropped by the gateway ${f0(r.books.droppedOffline)}; gateways cut off in the offline test: sent ${f0(r.books.lostSent)}, stored ${f0(r.books.lostStored)}; messages the hub dropped: ${
      Object.entries(r.drops)
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ') || 'none'
    }`,
    `- server RSS peak ${f0(mb(peakRss))} MB; simulator RSS peak ${f0(mb(simPeak))} MB`,
    '',
  );
  L.push('Online count, rows and memory over time (every 5 s; one row per 30 s shown):', '');
  L.push(
    '| s | phase | shown online | simulator online | frames sent | rows stored | server RSS MB | server CPU s | simulator RSS MB |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  let lastShown = -Infinity;
  for (const [i, s] of r.samples.entries()) {
    if (s.t - lastShown < 30 && i !== r.samples.length - 1) continue;
    lastShown = s.t;
    L.push(
      `| ${f0(s.t)} | ${s.phase} | ${f0(s.platformOnline)} | ${s.simOnline === null ? '—' : f0(s.simOnline)} | ${s.framesSent === null ? '—' : f0(s.framesSent)} | ${f0(s.rowsStored)} | ${f0(mb(s.serverRss))} | ${f1(s.serverCpuMs / 1000)} | ${f0(mb(s.simRss))} |`,
    );
  }
  L.push('');
  L.push('### Frames vs JSON telemetry (same three values, same gateways)', '');
  L.push(
    `${RATE_GATEWAYS} gateways (plain MQTT clients), QoS 1, ${num('rate-window', 10)} unacknowledged per client, ${num('rate-seconds', 20)} s each; records/s = rows stored / time from the first publish to the last row.`,
    '',
    '| submitted as | published | rows stored | s | records/s | server CPU µs per record | pg queries per record | records per commit | server RSS peak MB |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const x of r.rates)
    L.push(
      `| ${x.kind === 'frame' ? 'raw frames (decoded by the platform)' : 'JSON telemetry'} | ${f0(x.published)} | ${f0(x.rows)} | ${f1(x.seconds)} | **${f0(x.perSecond)}** | ${f0(x.cpuMicrosPerRecord)} | ${x.queriesPerRecord.toFixed(2)} | ${f1(x.recordsPerCommit)} | ${f0(mb(x.serverRssPeak))} |`,
    );
  L.push('');
  L.push('### Offline detection', '');
  L.push(
    '| how the network went | gateways | shown offline | p50 s | p95 s | max s | bound (1.5 × keep-alive) |',
    '|---|---|---|---|---|---|---|',
  );
  for (const o of r.offline)
    L.push(
      `| ${o.how === 'kill' ? 'socket destroyed, no DISCONNECT' : 'socket left hanging, no DISCONNECT'} | ${f0(o.gateways)} | ${f0(o.detected)} | ${f1(o.p50)} | ${f1(o.p95)} | ${f1(o.max)} | ${f1(1.5 * KEEPALIVE)} |`,
    );
  L.push('');
  for (const note of r.notes) L.push(`Note: ${note}`, '');
  for (const p of r.profiles) {
    L.push(
      `### Server CPU profile: ${p.label} (${f0(p.summary.totalMs)} ms on CPU)`,
      '',
      '| package / source | self time |',
      '|---|---|',
      ...p.summary.byPackage.slice(0, 10).map((x) => `| ${x.name} | ${pct(x.share)} |`),
      '',
      '| function | self time |',
      '|---|---|',
      ...p.summary.byFunction
        .slice(0, 10)
        .map((x) => `| \`${x.name.replace(/\|/g, '\\|')}\` | ${pct(x.share)} |`),
      '',
    );
  }
  return L.join('\n');
}

function writeResults(file: string, section: string, figures: string): void {
  const START = `<!-- figures:${section}:start (written by npm run bench:fleet) -->`;
  const END = `<!-- figures:${section}:end -->`;
  const block = `${START}\n${figures}\n${END}`;
  let text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  text = a >= 0 && b > a ? text.slice(0, a) + block + text.slice(b + END.length) : `${text}\n${block}\n`;
  writeFileSync(file, text);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
