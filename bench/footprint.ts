/**
 * `npm run bench:footprint` (or `npm run bench -- --only footprint`): what `npm start` costs a
 * new user's machine, in a temporary data folder (removed at the end):
 *   1. first start (seeds the demo company): time from spawn to the login page served, and the
 *      peak resident memory (VmHWM of the server process; the sampled sum of the process tree);
 *   2. restarts on the existing store: time from spawning `npm start` to the login page served
 *      (HTTP 200 for / and for every script and stylesheet it names), N times;
 *   3. idle with demo data for --idle seconds after a start: RSS median of the server and of the
 *      whole tree (npm, scripts/start.mjs, the server), and the breakdown of the server's memory
 *      at the end: PGlite's WebAssembly memory (its size and the part resident), Node's heap,
 *      buffers (external, array buffers) and the rest (code, malloc, V8 internals). The server
 *      writes its half on SIGUSR2 (FOOTPRINT_REPORT, apps/server/src/platform/footprint.ts);
 *      the resident part of each mapping is read from /proc/<pid>/smaps;
 *   4. baselines in the same run: the server idle with DEMO_GATEWAYS=off, a bare Node process
 *      with PGlite opened on the same store (bench/lib/pglite-only.mjs), and a bare Node process.
 *
 * Flags: --restarts N (default 5), --idle S (default 60), --env NAME=VALUE (repeatable, for
 * every start: e.g. --env PGLITE_SETTINGS=shared_buffers=128MB to measure another setting),
 * --out FILE (bench/RESULTS.md), --section NAME (footprint), --no-write. Linux only (/proc).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { FootprintReport } from '../apps/server/src/platform/footprint';
import { BENCH_DIR, ROOT } from './lib/child';

const { values: flags } = parseArgs({
  options: {
    restarts: { type: 'string', default: '5' },
    idle: { type: 'string', default: '60' },
    env: { type: 'string', multiple: true, default: [] },
    out: { type: 'string', default: path.join(BENCH_DIR, 'RESULTS.md') },
    section: { type: 'string', default: 'footprint' },
    'no-write': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});

const MB = 1024 * 1024;
const log = (line: string) => console.log(line);
const mb = (bytes: number) => Math.round(bytes / MB);
const kbToMb = (kb: number) => Math.round(kb / 1024);
const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : Number.NaN;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const extraEnv: Record<string, string> = Object.fromEntries(
  (flags.env ?? []).map((pair) => {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`--env must be NAME=VALUE, not "${pair}"`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }),
);

// ---------- /proc ----------

function statusKb(pid: number): { rss: number; hwm: number } {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return { rss: 0, hwm: 0 };
  }
}

/** the process and all its descendants */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // the command name may hold spaces and parentheses: the ppid follows the last ')'
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** CPU seconds (user + system, with children that exited) of the processes: load-independent */
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields from the state on: utime, stime, cutime, cstime are the 12th to 15th
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

interface Mappings {
  /** resident KB of PGlite's WebAssembly memory (the anonymous mapping of its size) */
  wasmRssKb: number | null;
  fileRssKb: number;
  anonRssKb: number;
}

/** resident memory by mapping; the WebAssembly memory is the anonymous mapping of its exact size */
function mappings(pid: number, wasmBytes: number): Mappings {
  const text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  let fileRssKb = 0;
  let anonRssKb = 0;
  let wasmRssKb: number | null = null;
  let current: { file: boolean; sizeKb: number } | null = null;
  for (const line of text.split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+\s+\S+\s+\S+\s+\S+\s+\d+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1] ?? '';
      current = { file: name.startsWith('/'), sizeKb: 0 };
      continue;
    }
    if (!current) continue;
    const size = /^Size:\s+(\d+) kB/.exec(line);
    if (size) current.sizeKb = Number(size[1]);
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) {
      const kb = Number(rss[1]);
      if (current.file) fileRssKb += kb;
      else anonRssKb += kb;
      if (!current.file && wasmBytes > 0 && current.sizeKb * 1024 === wasmBytes) wasmRssKb = kb;
    }
  }
  return { wasmRssKb, fileRssKb, anonRssKb };
}

// ---------- the platform ----------

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

interface Platform {
  child: ChildProcess;
  port: number;
  reportFile: string;
  output: string[];
  exited: Promise<number | null>;
}

function spawnPlatform(
  dataDir: string,
  port: number,
  mqttPort: number,
  env: Record<string, string>,
): Platform {
  const reportFile = path.join(dataDir, `footprint-${Date.now()}.json`);
  const child = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      MQTT_PORT: String(mqttPort),
      LOG_LEVEL: 'warn',
      FOOTPRINT_REPORT: reportFile,
      ...extraEnv,
      ...env,
    },
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, port, reportFile, output, exited };
}

/** true once / and every script and stylesheet it names answer 200 */
async function loginPageServed(port: number): Promise<boolean> {
  try {
    const base = `http://127.0.0.1:${port}`;
    const page = await fetch(`${base}/`);
    if (page.status !== 200) return false;
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
    if (!assets.some((a) => a.endsWith('.js'))) return false;
    for (const asset of assets) {
      const res = await fetch(`${base}${asset}`);
      await res.arrayBuffer();
      if (res.status !== 200) return false;
    }
    return true;
  } catch {
    return false;
  }
}

function serverPid(platform: Platform): number | null {
  for (const pid of processTree(platform.child.pid!)) {
    if (commandLine(pid).includes('dist/main.mjs')) return pid;
  }
  return null;
}

function treeRssKb(platform: Platform): number {
  return processTree(platform.child.pid!).reduce((sum, pid) => sum + statusKb(pid).rss, 0);
}

interface Started {
  platform: Platform;
  seconds: number;
  /** largest sampled sum of the tree's RSS until served */
  treePeakKb: number;
  /** CPU seconds the tree used until served (what the wall time would be on an idle core) */
  cpu: number;
}

async function startAndWait(
  dataDir: string,
  env: Record<string, string> = {},
  timeoutS = 600,
): Promise<Started> {
  const [port, mqttPort] = [await freePort(), await freePort()];
  const began = process.hrtime.bigint();
  const platform = spawnPlatform(dataDir, port, mqttPort, env);
  let treePeakKb = 0;
  const sampler = setInterval(() => {
    treePeakKb = Math.max(treePeakKb, treeRssKb(platform));
  }, 100);
  let exitCode: number | null | undefined;
  void platform.exited.then((code) => {
    exitCode = code;
  });
  try {
    while (!(await loginPageServed(port))) {
      if (exitCode !== undefined)
        throw new Error(`npm start exited (${exitCode}):\n${platform.output.join('')}`);
      if (Number(process.hrtime.bigint() - began) / 1e9 > timeoutS)
        throw new Error(`no login page after ${timeoutS} s:\n${platform.output.join('')}`);
      await sleep(25);
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = Number(process.hrtime.bigint() - began) / 1e9;
  const cpu = cpuSeconds(processTree(platform.child.pid!));
  return { platform, seconds, cpu, treePeakKb: Math.max(treePeakKb, treeRssKb(platform)) };
}

async function stop(platform: Platform): Promise<void> {
  // Ctrl-C in a terminal: the whole group gets SIGINT
  try {
    process.kill(-platform.child.pid!, 'SIGINT');
  } catch {
    return;
  }
  const done = await Promise.race([platform.exited.then(() => true), sleep(30_000).then(() => false)]);
  if (!done) {
    process.kill(-platform.child.pid!, 'SIGKILL');
    await platform.exited;
  }
  // the server is the last to go: wait until no process of the group is left
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(-platform.child.pid!, 0);
      await sleep(50);
    } catch {
      return;
    }
  }
}

async function report(platform: Platform, pid: number): Promise<FootprintReport> {
  rmSync(platform.reportFile, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 200 && !existsSync(platform.reportFile); i++) await sleep(25);
  await sleep(50);
  return JSON.parse(readFileSync(platform.reportFile, 'utf8')) as FootprintReport;
}

interface Idle {
  label: string;
  serverRssMedianKb: number;
  serverRssMinKb: number;
  serverRssMaxKb: number;
  treeRssMedianKb: number;
  serverHwmKb: number;
  processes: Array<{ command: string; rssKb: number }>;
  report: FootprintReport;
  maps: Mappings;
}

async function idle(
  label: string,
  dataDir: string,
  seconds: number,
  env: Record<string, string>,
): Promise<Idle> {
  const { platform } = await startAndWait(dataDir, env);
  try {
    const pid = serverPid(platform);
    if (!pid) throw new Error('no server process (dist/main.mjs) under npm start');
    const server: number[] = [];
    const tree: number[] = [];
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      await sleep(1000);
      server.push(statusKb(pid).rss);
      tree.push(treeRssKb(platform));
    }
    const rep = await report(platform, pid);
    const maps = mappings(pid, rep.wasmMemoryBytes);
    const processes = processTree(platform.child.pid!).map((p) => ({
      command: commandLine(p).replace(ROOT, '.').slice(0, 60),
      rssKb: statusKb(p).rss,
    }));
    return {
      label,
      serverRssMedianKb: median(server),
      serverRssMinKb: Math.min(...server),
      serverRssMaxKb: Math.max(...server),
      treeRssMedianKb: median(tree),
      serverHwmKb: statusKb(pid).hwm,
      processes,
      report: rep,
      maps,
    };
  } finally {
    await stop(platform);
  }
}

interface PgliteOnly {
  nodeOnlyRssKb: number;
  rssKb: number;
  hwmKb: number;
  tables: number;
  rows: number;
  wasmMemoryBytes: number;
  memoryUsage: NodeJS.MemoryUsage;
}

function pgliteOnly(dbDir: string, settings: string): PgliteOnly {
  const res = spawnSync(
    process.execPath,
    [path.join(BENCH_DIR, 'lib/pglite-only.mjs'), dbDir, settings, '5'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (res.status !== 0) throw new Error(`pglite-only failed: ${res.stderr}`);
  return JSON.parse(res.stdout.trim().split('\n').pop()!) as PgliteOnly;
}

/** the settings the server's PGlite starts with (PGLITE_SETTINGS of this run, or the defaults) */
async function serverSettings(): Promise<string> {
  if (extraEnv.PGLITE_SETTINGS !== undefined) return extraEnv.PGLITE_SETTINGS;
  const { PGLITE_MEMORY_SETTINGS } = await import('../apps/server/src/platform/db');
  return PGLITE_MEMORY_SETTINGS.join(',');
}

// ---------- the run ----------

function ensureBuilt(): void {
  // built before the clock starts, so that the first start measures the seed, not the build
  const res = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const l = await import('./scripts/lib.mjs'); if (l.ensureWebBuild() !== 0) process.exit(1); await l.buildServer();",
    ],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (res.status !== 0) throw new Error('could not build the web app and the server');
}

function writeResults(file: string, section: string, figures: string): void {
  const START = `<!-- figures:${section}:start (written by npm run bench:footprint) -->`;
  const END = `<!-- figures:${section}:end -->`;
  const block = `${START}\n${figures}\n${END}`;
  let text = readFileSync(file, 'utf8');
  const a = text.indexOf(START.slice(0, START.indexOf(' (')));
  const b = text.indexOf(END);
  text = a >= 0 && b > a ? text.slice(0, a) + block + text.slice(b + END.length) : `${text}\n${block}\n`;
  writeFileSync(file, text);
}

async function main(): Promise<void> {
  if (process.platform !== 'linux') throw new Error('the footprint bench reads /proc: Linux only');
  const command = `npm run bench:footprint -- ${process.argv.slice(2).join(' ')}`.trim();
  const restarts = Number(flags.restarts);
  const idleSeconds = Number(flags.idle);
  ensureBuilt();
  const loadAtStart = os.loadavg()[0]!;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'footprint-'));
  const lines: string[] = [];
  try {
    // 1. first start: the seed
    log(`first start in ${dataDir} …`);
    const first = await startAndWait(dataDir);
    await sleep(3000); // the demo gateways are provisioned and connect after the page is up
    const firstPid = serverPid(first.platform);
    const firstHwmKb = firstPid ? statusKb(firstPid).hwm : 0;
    const firstTreeKb = Math.max(first.treePeakKb, treeRssKb(first.platform));
    await stop(first.platform);
    log(
      `first start: ${first.seconds.toFixed(2)} s to the login page (${first.cpu.toFixed(1)} s CPU), server peak ${kbToMb(firstHwmKb)} MB, tree peak ${kbToMb(firstTreeKb)} MB`,
    );

    // 2. restarts on the existing store
    const restartTimes: number[] = [];
    const restartCpu: number[] = [];
    const restartHwm: number[] = [];
    for (let i = 0; i < restarts; i++) {
      const started = await startAndWait(dataDir);
      restartTimes.push(started.seconds);
      restartCpu.push(started.cpu);
      const pid = serverPid(started.platform);
      if (pid) restartHwm.push(statusKb(pid).hwm);
      await stop(started.platform);
      log(`restart ${i + 1}: ${started.seconds.toFixed(2)} s (${started.cpu.toFixed(2)} s CPU)`);
    }

    // 3. idle with demo data, and the baselines
    log(`idle ${idleSeconds} s with the demo gateways …`);
    const full = await idle('platform, demo gateways on', dataDir, idleSeconds, {});
    log(`idle: server ${kbToMb(full.serverRssMedianKb)} MB, tree ${kbToMb(full.treeRssMedianKb)} MB`);
    log(`idle ${idleSeconds} s with DEMO_GATEWAYS=off …`);
    const noFleet = await idle('platform, DEMO_GATEWAYS=off', dataDir, idleSeconds, { DEMO_GATEWAYS: 'off' });
    log(`idle without gateways: server ${kbToMb(noFleet.serverRssMedianKb)} MB`);
    const settings = await serverSettings();
    const liteSame = pgliteOnly(path.join(dataDir, 'db'), settings);
    // PostgreSQL's own 128 MB pool, named: the store's postgresql.conf carries the settings it was made with
    const liteDefault = pgliteOnly(path.join(dataDir, 'db'), 'shared_buffers=128MB');
    const bare = spawnSync(
      process.execPath,
      ['-e', "setTimeout(() => console.log(require('fs').readFileSync('/proc/self/status','utf8')), 1000)"],
      { encoding: 'utf8' },
    );
    const bareRssKb = Number(/VmRSS:\s+(\d+)/.exec(bare.stdout)?.[1] ?? 0);
    const loadAtEnd = os.loadavg()[0]!;

    // ---------- figures ----------
    const r = full.report;
    const wasmRssKb = full.maps.wasmRssKb;
    const heapKb = r.heap.totalPhysical / 1024;
    // V8 counts the WebAssembly memory as external memory: the buffers are the rest of it
    const buffersBytes = Math.max(0, r.memoryUsage.external - r.wasmMemoryBytes);
    const restKb = full.serverRssMedianKb - (wasmRssKb ?? 0) - heapKb - buffersBytes / 1024;
    const goal = (ok: boolean) => (ok ? 'met' : 'not met');
    const restartMedian = median(restartTimes);
    lines.push(
      `Command: \`${command}\``,
      '',
      '### Machine',
      '',
      `- date: ${new Date().toISOString()}`,
      `- cores (nproc): ${os.availableParallelism()} (${os.cpus()[0]?.model ?? 'unknown'}), memory ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB, node ${process.version}`,
      `- load average (1 min) at start / end: ${loadAtStart.toFixed(1)} / ${loadAtEnd.toFixed(1)} (other work on the machine shows here)`,
      `- PGlite settings of the server: ${settings ? `\`${settings}\`` : "PGlite's defaults"}${
        Object.keys(extraEnv).length
          ? `; environment: ${Object.entries(extraEnv)
              .map(([k, v]) => `\`${k}=${v}\``)
              .join(', ')}`
          : ''
      }`,
      '',
      '### Goals',
      '',
      '| goal | target | measured | |',
      '|---|---|---|---|',
      `| restart of \`npm start\` on an existing store, spawn to login page served | ≤ 3 s | median ${restartMedian.toFixed(2)} s (min ${Math.min(...restartTimes).toFixed(2)}, max ${Math.max(...restartTimes).toFixed(2)}, ${restarts} restarts) | ${goal(restartMedian <= 3)} |`,
      `| idle RSS with demo data (server process, median of ${idleSeconds} s) | ≤ 350 MB | ${kbToMb(full.serverRssMedianKb)} MB (min ${kbToMb(full.serverRssMinKb)}, max ${kbToMb(full.serverRssMaxKb)}); whole \`npm start\` tree ${kbToMb(full.treeRssMedianKb)} MB | ${goal(full.serverRssMedianKb <= 350 * 1024)} |`,
      `| first start (seed) peak RSS, server process | no peak above the idle budget (953 MB before) | server ${kbToMb(firstHwmKb)} MB (VmHWM), tree ${kbToMb(firstTreeKb)} MB (sampled), login page after ${first.seconds.toFixed(1)} s | ${goal(firstHwmKb <= 350 * 1024)} |`,
      '',
      `Restarts, spawn to login page (s): ${restartTimes.map((t) => t.toFixed(2)).join(', ')}; CPU used by the processes of \`npm start\` until then (s): ${restartCpu.map((t) => t.toFixed(2)).join(', ')} (median ${median(restartCpu).toFixed(2)}: the time on cores nobody else uses); first start ${first.cpu.toFixed(1)} s CPU. Server peak during a restart ${kbToMb(median(restartHwm))} MB.`,
      '',
      '### Idle breakdown of the server process (at the end of the idle window)',
      '',
      '| part | MB | how measured |',
      '|---|---|---|',
      `| PGlite WebAssembly memory, resident | ${wasmRssKb === null ? '?' : kbToMb(wasmRssKb)} (of ${mb(r.wasmMemoryBytes)} reserved) | /proc/<pid>/smaps: the anonymous mapping of the Memory's size |`,
      `| V8 heap, resident | ${kbToMb(heapKb)} (used ${mb(r.heap.used)}) | v8.getHeapStatistics total_physical_size |`,
      `| buffers (external memory without the WebAssembly memory; array buffers ${mb(r.memoryUsage.arrayBuffers)}) | ${mb(buffersBytes)} | process.memoryUsage external − the Memory's size (at most; not all resident) |`,
      `| the rest: compiled WebAssembly and JavaScript code, malloc, thread stacks | ${kbToMb(restKb)} (file-backed pages ${kbToMb(full.maps.fileRssKb)}) | RSS − the three above |`,
      `| **server RSS** | **${kbToMb(full.serverRssMedianKb)}** | /proc/<pid>/status VmRSS, median |`,
      '',
      '### Baselines of the same run',
      '',
      '| process | RSS MB | vs platform |',
      '|---|---|---|',
      `| platform, demo gateways on (server) | ${kbToMb(full.serverRssMedianKb)} | 100 % |`,
      `| platform, DEMO_GATEWAYS=off (server) | ${kbToMb(noFleet.serverRssMedianKb)} | ${Math.round((100 * noFleet.serverRssMedianKb) / full.serverRssMedianKb)} % |`,
      `| bare Node + PGlite on the same store, same settings, every table read (WebAssembly memory ${mb(liteSame.wasmMemoryBytes)} MB) | ${kbToMb(liteSame.rssKb)} | ${Math.round((100 * liteSame.rssKb) / full.serverRssMedianKb)} % |`,
      `| bare Node + PGlite on the same store, PGlite's default shared_buffers=128MB (WebAssembly memory ${mb(liteDefault.wasmMemoryBytes)} MB) | ${kbToMb(liteDefault.rssKb)} | ${Math.round((100 * liteDefault.rssKb) / full.serverRssMedianKb)} % |`,
      `| bare Node (\`node -e\`) | ${kbToMb(bareRssKb)} | ${Math.round((100 * bareRssKb) / full.serverRssMedianKb)} % |`,
      '',
      `Processes of \`npm start\` at idle: ${full.processes.map((p) => `\`${p.command}\` ${kbToMb(p.rssKb)} MB`).join(', ')}.`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const figures = lines.join('\n');
  console.log(`\n${figures}`);
  if (!flags['no-write']) {
    writeResults(flags.out!, flags.section!, figures);
    log(`\nwritten to ${path.relative(process.cwd(), flags.out!)}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
