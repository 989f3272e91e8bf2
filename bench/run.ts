/**
 * `npm run bench` — the data-engine benchmarks of issue #3, in one run against a fresh
 * PostgreSQL database (`bench_<timestamp>`, dropped at the end). Prints the figures and writes
 * them into bench/RESULTS.md between the figure markers (the analysis around them is kept).
 *
 * Flags (all optional):
 *   --duration S        seconds of each HTTP load (autocannon), default 10
 *   --mqtt-duration S   seconds of each sustained MQTT run, default 60 (the goal says 600)
 *   --connections N     HTTP connections, default 50
 *   --batch N           records per request of the batched HTTP run, default 100
 *   --copy-rows N       rows of the COPY baseline, default 200000
 *   --mqtt-window N     MQTT messages published and not yet answered, at most; default 500
 *   --mqtt-qos 0|1      publish QoS, default 1
 *   --brokers LIST      mosquitto,aedes (default both)
 *   --iterations N      runs of each acquisition method, default 200
 *   --only LIST         copy,store,http,mqtt,acquire (default all)
 *   --store-rows N      rows per statement of the store breakdown, default 2000 (a typical commit)
 *   --store-statements N  statements per store-breakdown variant, default 25
 *   --profile           CPU-profile the server processes, summaries in the results
 *   --pg URL            PostgreSQL admin URL, default $BENCH_PG_URL or postgres://postgres@127.0.0.1:5432/postgres
 *   --mosquitto URL     a Mosquitto with dynamic security, the server's admin account in the URL
 *                       (mqtt://user:password@host:port); default: one of the run's own, started with
 *                       the configuration docs/mqtt-broker.md recommends
 *   --out FILE          default bench/RESULTS.md; --no-write prints only
 *   --section NAME      the figure block of the file to replace, default main (e.g. mqtt-10min)
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { type Mosquitto, startMosquitto } from '../apps/server/src/test/mosquitto';
import { type AcquireFigures, acquireBench, acquireInMemory, MONTH_ROWS } from './acquire';
import {
  type CopyFigures,
  copyBaseline,
  type HttpFigures,
  httpBench,
  type MqttFigures,
  mqttBench,
  type StoreFigures,
  storeBreakdown,
} from './ingest';
import { BENCH_DIR, ROOT } from './lib/child';
import { createBenchDatabase, DEFAULT_PG_URL, makeFixture, openPglite, openPostgres } from './lib/fixture';
import { type ProfileSummary, summarizeProfile } from './lib/profile';

const { values: flags } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    'mqtt-duration': { type: 'string', default: '60' },
    connections: { type: 'string', default: '50' },
    batch: { type: 'string', default: '100' },
    'copy-rows': { type: 'string', default: '200000' },
    'mqtt-window': { type: 'string', default: '500' },
    'mqtt-qos': { type: 'string', default: '1' },
    brokers: { type: 'string', default: 'mosquitto,aedes' },
    iterations: { type: 'string', default: '200' },
    only: { type: 'string', default: 'copy,store,http,mqtt,acquire' },
    'store-rows': { type: 'string', default: '2000' },
    'store-statements': { type: 'string', default: '25' },
    profile: { type: 'boolean', default: false },
    pg: { type: 'string', default: process.env.BENCH_PG_URL ?? DEFAULT_PG_URL },
    mosquitto: { type: 'string' },
    out: { type: 'string', default: path.join(BENCH_DIR, 'RESULTS.md') },
    section: { type: 'string', default: 'main' },
    'no-write': { type: 'boolean', default: false },
  },
});

const num = (name: keyof typeof flags): number => {
  const value = Number(flags[name]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a number`);
  return value;
};
const only = new Set(String(flags.only).split(','));
const brokers = String(flags.brokers)
  .split(',')
  .filter((b): b is 'mosquitto' | 'aedes' => b === 'mosquitto' || b === 'aedes');

const log = (line: string) => console.log(line);
const loadAtStart = os.loadavg()[0]!;
const f0 = (n: number) => Math.round(n).toLocaleString('en-US');
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);
const pct = (n: number) => `${Math.round(n * 100)} %`;
const goal = (ok: boolean) => (ok ? 'met' : 'not met');

interface Results {
  copy?: CopyFigures;
  store?: StoreFigures[];
  http?: HttpFigures[];
  mqtt: MqttFigures[];
  acquire: AcquireFigures[];
  profiles: Array<{ label: string; summary: ProfileSummary }>;
}

function machine(pgVersion: string): string[] {
  const memGb = os.totalmem() / 1024 ** 3;
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  return [
    `- date: ${new Date().toISOString()}`,
    `- cores (nproc): ${os.availableParallelism()} (${cpu})`,
    `- memory: ${memGb.toFixed(1)} GiB`,
    `- node: ${process.version}`,
    `- PostgreSQL: ${pgVersion}`,
    `- load generator, server and PostgreSQL (and Mosquitto) share these cores`,
    `- load average (1 min) at start / end: ${loadAtStart.toFixed(1)} / ${os.loadavg()[0]!.toFixed(1)} (other work on the machine shows here)`,
  ];
}

function render(r: Results, pgVersion: string, command: string): string {
  const lines: string[] = [];
  lines.push(`Command: \`${command}\``, '', '### Machine', '', ...machine(pgVersion), '');
  lines.push('### Goals', '', '| goal | target | measured | |', '|---|---|---|---|');
  const copy = r.copy?.rowsPerSecond;
  const bare = r.http?.find((h) => h.rows === 0 && h.label.startsWith('bare'));
  const httpRuns = r.http?.filter((h) => !h.label.startsWith('bare')) ?? [];
  for (const h of httpRuns) {
    if (copy) {
      const ratio = h.recordsPerSecond / copy;
      lines.push(
        `| HTTP records/s vs COPY (${h.recordsPerRequest}/request) | ≥ 50 % | ${f0(h.recordsPerSecond)} / ${f0(copy)} = ${pct(ratio)} | ${goal(ratio >= 0.5)} |`,
      );
    }
  }
  for (const m of r.mqtt) {
    if (copy) {
      const ratio = m.messagesPerSecond / copy;
      lines.push(
        `| MQTT records/s vs COPY (${m.broker}) | ≥ 50 % | ${f0(m.messagesPerSecond)} / ${f0(copy)} = ${pct(ratio)} | ${goal(ratio >= 0.5)} |`,
      );
    }
  }
  const single = httpRuns.find((h) => h.recordsPerRequest === 1);
  if (bare && single) {
    const ratio = single.requestsPerSecond / bare.requestsPerSecond;
    lines.push(
      `| HTTP requests/s vs bare Fastify route | ≥ 50 % | ${f0(single.requestsPerSecond)} / ${f0(bare.requestsPerSecond)} = ${pct(ratio)} | ${goal(ratio >= 0.5)} |`,
    );
  }
  for (const m of r.mqtt) {
    lines.push(
      `| MQTT 3-value msg/s stored, sustained ${f0(m.seconds)} s, zero loss (${m.broker}) | 20,000 msg/s, 600 s, 0 lost | ${f0(m.messagesPerSecond)} msg/s, ${f0(m.lost)} lost | ${goal(m.messagesPerSecond >= 20_000 && m.lost === 0 && m.seconds >= 599)} |`,
    );
  }
  const pgAcq = r.acquire.find((a) => a.engine.startsWith('PostgreSQL'));
  if (pgAcq) {
    const worst = Math.max(...pgAcq.methods.map((m) => m.p50));
    lines.push(
      `| acquisition p50 on PostgreSQL, worst method | ≤ 5 ms | ${f2(worst)} ms | ${goal(worst <= 5)} |`,
    );
  }
  lines.push('');

  if (r.copy) {
    lines.push(
      '### Baseline: raw COPY',
      '',
      `COPY FROM STDIN of ${f0(r.copy.rows)} rows shaped as the pipeline stores them, into data_records ` +
        `(same table and indexes; COPY keeps no rollups): ${f1(r.copy.seconds)} s, **${f0(r.copy.rowsPerSecond)} rows/s**.`,
      '',
    );
  }
  if (r.store) {
    lines.push(
      '### PostgreSQL share: the same rows by COPY, by the INSERT alone, by the pipeline statement',
      '',
      `${r.store[0]!.rowsPerStatement} rows per statement and transaction, ${r.store[0]!.rows / r.store[0]!.rowsPerStatement} statements each, no HTTP, MQTT, validation or permission check.`,
      '',
      '| write | rows/s | vs COPY |',
      '|---|---|---|',
      ...r.store.map(
        (s) =>
          `| ${s.label} | ${f0(s.rowsPerSecond)} | ${pct(s.rowsPerSecond / r.store![0]!.rowsPerSecond)} |`,
      ),
      '',
    );
  }
  if (r.http) {
    lines.push(
      '### HTTP (autocannon)',
      '',
      '| run | conn. | requests/s | records/s (rows stored) | p50 / p99 latency ms | non-2xx | errors | records per commit | pg queries per record | server CPU µs per record | server cores busy | server RSS MB |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const h of r.http) {
      const p = h.pipeline;
      lines.push(
        `| ${h.label} | ${h.connections} | ${f0(h.requestsPerSecond)} | ${h.rows ? f0(h.recordsPerSecond) : '—'} | ${h.latencyP50} / ${h.latencyP99} | ${h.non2xx} | ${h.errors} | ${p ? f1(p.batch) : '—'} | ${p ? f2(p.queriesPerRecord) : '—'} | ${p ? f0(p.cpuPerRecordMicros) : '—'} | ${p ? f2(p.cpuCores) : '—'} | ${p ? f0(p.rssMb) : '—'} |`,
      );
    }
    lines.push('');
  }
  if (r.mqtt.length) {
    lines.push(
      '### MQTT (3-value JSON messages, closed loop)',
      '',
      '| broker | s | QoS | window | published | stored OK | error answers | rows out | lost | msg/s stored | median / slowest second | drain s | records per commit | pg queries per record | server CPU µs per record | server cores busy | server RSS MB |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const m of r.mqtt) {
      lines.push(
        `| ${m.broker} | ${f0(m.seconds)} | ${m.qos} | ${m.window} | ${f0(m.published)} | ${f0(m.answeredOk)} | ${f0(m.answeredError)} | ${f0(m.rows)} | ${f0(m.lost)} | **${f0(m.messagesPerSecond)}** | ${f0(m.medianSecond)} / ${f0(m.slowestSecond)} | ${f1(m.drainSeconds)} | ${f1(m.pipeline.batch)} | ${f2(m.pipeline.queriesPerRecord)} | ${f0(m.pipeline.cpuPerRecordMicros)} | ${f2(m.pipeline.cpuCores)} | ${f0(m.pipeline.rssMb)} |`,
      );
      if (m.firstError) lines.push('', `First error answer: \`${m.firstError}\``, '');
    }
    lines.push('');
  }
  if (r.acquire.length) {
    lines.push(
      `### Acquisition methods (${f0(MONTH_ROWS)} rows of 1-minute data, field f1, range methods over thisMonth)`,
      '',
      `| method | ${r.acquire.map((a) => `${a.engine} p50 / p95 ms`).join(' | ')} |`,
      `|---|${r.acquire.map(() => '---').join('|')}|`,
    );
    for (const [i, m] of r.acquire[0]!.methods.entries()) {
      lines.push(
        `| ${m.method} | ${r.acquire.map((a) => `${f2(a.methods[i]!.p50)} / ${f2(a.methods[i]!.p95)}`).join(' | ')} |`,
      );
    }
    lines.push(
      '',
      r.acquire
        .filter((a) => a.loadSeconds > 0)
        .map((a) => `Loading the month through the ingest store: ${a.engine} ${f1(a.loadSeconds)} s.`)
        .join(' '),
      `${r.acquire[0]!.iterations} timed runs per method after 10 warm-up runs.`,
      '',
    );
  }
  for (const p of r.profiles) {
    lines.push(
      `### Server CPU profile of the measured window: ${p.label} (${f0(p.summary.totalMs)} ms on CPU)`,
      '',
      '| package / source | self time |',
      '|---|---|',
      ...p.summary.byPackage.map((x) => `| ${x.name} | ${pct(x.share)} |`),
      '',
      '| function | self time |',
      '|---|---|',
      ...p.summary.byFunction
        .slice(0, 8)
        .map((x) => `| \`${x.name.replace(/\|/g, '\\|')}\` | ${pct(x.share)} |`),
      '',
    );
  }
  return lines.join('\n');
}

function writeResults(file: string, section: string, figures: string): void {
  const START = `<!-- figures:${section}:start (written by npm run bench) -->`;
  const END = `<!-- figures:${section}:end -->`;
  const block = `${START}\n${figures}\n${END}`;
  let text = existsSync(file)
    ? readFileSync(file, 'utf8')
    : `# Data-engine benchmarks (issue #3 "Speed")\n\n${START}\n${END}\n`;
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  text = a >= 0 && b > a ? text.slice(0, a) + block + text.slice(b + END.length) : `${text}\n${block}\n`;
  writeFileSync(file, text);
}

async function main(): Promise<void> {
  const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim();
  const admin = new pg.Client({ connectionString: flags.pg });
  await admin.connect();
  const pgVersion = (await admin.query<{ v: string }>("SELECT current_setting('server_version') AS v"))
    .rows[0]!.v;
  await admin.end();
  if (only.has('http') || only.has('mqtt')) {
    // the server under load runs compiled, as `npm start` runs it
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-server.mjs')], {
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error('could not compile the server (npm run build:server)');
  }
  const bench = await createBenchDatabase(flags.pg!);
  log(`database ${bench.name} on PostgreSQL ${pgVersion}`);
  const profileDir = flags.profile ? mkdtempSync(path.join(os.tmpdir(), 'bench-prof-')) : undefined;
  const results: Results = { mqtt: [], acquire: [], profiles: [] };
  try {
    const database = await openPostgres(bench.url);
    // items: 0 http single, 1 http batch, 2 mqtt mosquitto, 3 mqtt aedes, 4 COPY, 5-7 store breakdown
    const fx = await makeFixture(database, 8);
    await database.close();

    if (only.has('copy')) {
      results.copy = await copyBaseline(bench.url, fx, fx.itemIds[4]!, num('copy-rows'));
      log(`COPY: ${f0(results.copy.rowsPerSecond)} rows/s (${f0(results.copy.rows)} rows)`);
    }
    if (only.has('store')) {
      results.store = await storeBreakdown(
        bench.url,
        fx,
        [fx.itemIds[5]!, fx.itemIds[6]!, fx.itemIds[7]!],
        num('store-rows'),
        num('store-statements'),
      );
      for (const s of results.store) log(`store: ${s.label}: ${f0(s.rowsPerSecond)} rows/s`);
    }
    if (only.has('http')) {
      results.http = await httpBench({
        url: bench.url,
        fx,
        seconds: num('duration'),
        connections: num('connections'),
        batch: num('batch'),
        itemIds: [fx.itemIds[0]!, fx.itemIds[1]!],
        ...(profileDir ? { profileDir } : {}),
      });
      for (const h of results.http) {
        log(
          `HTTP ${h.label}: ${f0(h.requestsPerSecond)} req/s, ${f0(h.recordsPerSecond)} records/s, non-2xx ${h.non2xx}` +
            (h.pipeline
              ? `, ${f1(h.pipeline.batch)} records/commit, ${f2(h.pipeline.queriesPerRecord)} queries/record, ${f0(h.pipeline.cpuPerRecordMicros)} µs CPU/record`
              : ''),
        );
      }
    }
    if (only.has('mqtt')) {
      let own: Mosquitto | null = null;
      if (brokers.includes('mosquitto') && !flags.mosquitto) {
        own = await startMosquitto();
        log(`Mosquitto of this run on ${own.address}`);
      }
      const mosquittoUrl = flags.mosquitto ?? own?.url ?? '';
      try {
        for (const broker of brokers) {
          log(`MQTT via ${broker} for ${num('mqtt-duration')} s…`);
          const m = await mqttBench({
            url: bench.url,
            fx,
            itemId: fx.itemIds[broker === 'mosquitto' ? 2 : 3]!,
            broker,
            mosquittoUrl,
            seconds: num('mqtt-duration'),
            window: num('mqtt-window'),
            qos: num('mqtt-qos') === 0 ? 0 : 1,
            ...(profileDir ? { profileDir } : {}),
            progress: log,
          });
          results.mqtt.push(m);
          log(
            `MQTT ${m.broker}: ${f0(m.messagesPerSecond)} msg/s stored, published ${m.published}, rows ${m.rows}, lost ${m.lost}, errors ${m.answeredError}, ${f0(m.pipeline.cpuPerRecordMicros)} µs CPU/record`,
          );
        }
      } finally {
        await own?.stop();
      }
    }
    if (only.has('acquire')) {
      const now = Date.now();
      const iterations = num('iterations');
      const pgDb = await openPostgres(bench.url);
      try {
        // an item of its own in the same database (the ingest runs' rows are other items')
        results.acquire.push(await acquireBench(pgDb, 'PostgreSQL', now, iterations));
      } finally {
        await pgDb.close();
      }
      const lite = await openPglite();
      try {
        results.acquire.push(await acquireBench(lite, 'PGlite', now, iterations));
      } finally {
        await lite.close();
      }
      results.acquire.push(await acquireInMemory(now, iterations));
      for (const a of results.acquire) {
        log(
          `acquisition ${a.engine}: ${a.methods.map((m) => `${m.method} ${f2(m.p50)}/${f2(m.p95)}`).join(', ')}`,
        );
      }
    }
  } finally {
    await bench.drop();
    log(`dropped ${bench.name}`);
  }
  if (profileDir) {
    for (const label of ['http-bare', 'http-1', `http-${num('batch')}`, 'mqtt-mosquitto', 'mqtt-aedes']) {
      const file = path.join(profileDir, `${label}.cpuprofile`);
      if (existsSync(file)) results.profiles.push({ label, summary: summarizeProfile(file) });
    }
  }
  const figures = render(results, pgVersion, command);
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
