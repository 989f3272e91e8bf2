/**
 * Ingest benchmarks on PostgreSQL, all in one run against one fresh database:
 * - copyBaseline: a raw COPY of the rows the pipeline writes, into the same table
 * - httpBench: autocannon against a bare Fastify route, then the real submission route with
 *   one record per request and with batches (records per second from the rows stored)
 * - mqttBench: 3-value JSON messages through a broker (Mosquitto or the embedded aedes),
 *   closed loop (at most `window` messages published and not yet answered), counted in by the
 *   result topic and counted out as rows
 */

import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { resultTopic, submissionAcl, submitTopic } from '@platform/domain';
import autocannon from 'autocannon';
import type { FastifyBaseLogger } from 'fastify';
import mqtt from 'mqtt';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { DynsecAdmin } from '../apps/server/src/platform/mqtt-dynsec';
import { brokerAddress } from '../apps/server/src/platform/mqtt-external';
import { MqttStats } from '../apps/server/src/platform/mqtt-stats';
import { type ServerChild, type ServerStats, startServer } from './lib/child';
import { type Fixture, sampleRecord } from './lib/fixture';

export interface PipelineFigures {
  flushes: number;
  records: number;
  /** records per group-commit transaction */
  batch: number;
  /** pg queries the server sent per stored record */
  queriesPerRecord: number;
  rssMb: number;
  /** server CPU (user + system) per stored record, µs: less noisy than rates on a shared machine */
  cpuPerRecordMicros: number;
  /** server CPU used over the run / wall time: 1 = one core busy all the time */
  cpuCores: number;
}

function pipelineFigures(before: ServerStats, after: ServerStats, seconds: number): PipelineFigures {
  const flushes = after.flushes - before.flushes;
  const records = after.records - before.records;
  return {
    flushes,
    records,
    batch: flushes ? records / flushes : 0,
    queriesPerRecord: records ? (after.queries - before.queries) / records : 0,
    rssMb: after.rss / 1048576,
    cpuPerRecordMicros: records ? (after.cpuMicros - before.cpuMicros) / records : 0,
    cpuCores: (after.cpuMicros - before.cpuMicros) / 1e6 / seconds,
  };
}

async function countRows(url: string, itemId: number): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      'SELECT count(*) AS n FROM data_records WHERE item_id = $1',
      [itemId],
    );
    return Number(rows[0]!.n);
  } finally {
    await client.end();
  }
}

export interface CopyFigures {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
}

/** COPY FROM STDIN of `rows` records shaped as the pipeline stores them (no rollups: COPY has none). */
export async function copyBaseline(
  url: string,
  fx: Fixture,
  itemId: number,
  rows: number,
): Promise<CopyFigures> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const start = Date.UTC(2026, 0, 1);
    function* lines(): Generator<string> {
      const chunk: string[] = [];
      for (let i = 0; i < rows; i++) {
        const { itemId: _, ...values } = sampleRecord(itemId, i);
        const ts = new Date(start + i * 1000).toISOString();
        chunk.push(`${fx.companyId}\t${itemId}\t${ts}\t${JSON.stringify(values)}\thttp\t${fx.userId}\n`);
        if (chunk.length === 1000) {
          yield chunk.join('');
          chunk.length = 0;
        }
      }
      if (chunk.length) yield chunk.join('');
    }
    const t0 = performance.now();
    const stream = client.query(
      copyFrom('COPY data_records (company_id, item_id, ts, "values", source, created_by) FROM STDIN'),
    );
    await pipeline(Readable.from(lines()), stream);
    const seconds = (performance.now() - t0) / 1000;
    return { rows, seconds, rowsPerSecond: rows / seconds };
  } finally {
    await client.end();
  }
}

export interface HttpFigures {
  label: string;
  recordsPerRequest: number;
  connections: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  non2xx: number;
  errors: number;
  latencyP50: number;
  latencyP99: number;
  /** rows stored (0 for the bare route) */
  rows: number;
  recordsPerSecond: number;
  pipeline?: PipelineFigures;
}

async function cannon(
  port: number,
  body: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
): Promise<{ result: autocannon.Result; seconds: number }> {
  const t0 = performance.now();
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/general/smartdata/submit`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    connections,
    duration: seconds,
  });
  return { result, seconds: (performance.now() - t0) / 1000 };
}

export interface HttpOptions {
  url: string;
  fx: Fixture;
  seconds: number;
  connections: number;
  batch: number;
  /** items: single-record run, batch run */
  itemIds: [number, number];
  /** write a CPU profile of each measured window here: http-<records per request>.cpuprofile */
  profileDir?: string;
}

/** The bare route, then the real route with 1 record per request, then with `batch` per request. */
export async function httpBench(o: HttpOptions): Promise<HttpFigures[]> {
  const out: HttpFigures[] = [];
  const single = JSON.stringify(sampleRecord(o.itemIds[0], 1));
  const warm = Math.min(3, o.seconds);

  const bare = await startServer('bare', {});
  try {
    await cannon(bare.port, single, {}, o.connections, warm);
    if (o.profileDir) await bare.profileStart();
    const { result, seconds } = await cannon(bare.port, single, {}, o.connections, o.seconds);
    if (o.profileDir) await bare.profileStop(`${o.profileDir}/http-bare.cpuprofile`);
    out.push(httpFigures('bare Fastify route (1 record, no work)', 1, o.connections, result, seconds, 0));
  } finally {
    await bare.close();
  }

  const runs: Array<{ label: string; itemId: number; size: number }> = [
    { label: 'submission route, 1 record per request', itemId: o.itemIds[0], size: 1 },
    { label: `submission route, ${o.batch} records per request`, itemId: o.itemIds[1], size: o.batch },
  ];
  for (const run of runs) {
    const body = JSON.stringify(
      run.size === 1
        ? sampleRecord(run.itemId, 1)
        : Array.from({ length: run.size }, (_, i) => sampleRecord(run.itemId, i)),
    );
    const app = await startServer('app', { DATABASE_URL: o.url, MQTT_PORT: 'off' });
    try {
      await cannon(app.port, body, { authorization: o.fx.key }, o.connections, warm);
      const rowsBefore = await countRows(o.url, run.itemId);
      if (o.profileDir) await app.profileStart();
      const before = await app.stats();
      const { result, seconds } = await cannon(
        app.port,
        body,
        { authorization: o.fx.key },
        o.connections,
        o.seconds,
      );
      const after = await app.stats();
      if (o.profileDir) await app.profileStop(`${o.profileDir}/http-${run.size}.cpuprofile`);
      const rows = (await countRows(o.url, run.itemId)) - rowsBefore;
      out.push({
        ...httpFigures(run.label, run.size, o.connections, result, seconds, rows),
        pipeline: pipelineFigures(before, after, seconds),
      });
    } finally {
      await app.close();
    }
  }
  return out;
}

function httpFigures(
  label: string,
  size: number,
  connections: number,
  r: autocannon.Result,
  seconds: number,
  rows: number,
): HttpFigures {
  const requests = r.requests.total;
  return {
    label,
    recordsPerRequest: size,
    connections,
    seconds,
    requests,
    requestsPerSecond: requests / seconds,
    non2xx: r.non2xx,
    errors: r.errors,
    latencyP50: r.latency.p50,
    latencyP99: r.latency.p99,
    rows,
    recordsPerSecond: rows / seconds,
  };
}

export interface MqttFigures {
  broker: string;
  seconds: number;
  window: number;
  qos: 0 | 1;
  published: number;
  answeredOk: number;
  answeredError: number;
  rows: number;
  lost: number;
  /** answered OK per second over the publishing window */
  messagesPerSecond: number;
  /** slowest and median one-second interval after the first 5 s */
  slowestSecond: number;
  medianSecond: number;
  /** seconds after publishing stopped until the last answer */
  drainSeconds: number;
  pipeline: PipelineFigures;
  firstError?: string;
}

export interface MqttOptions {
  url: string;
  fx: Fixture;
  itemId: number;
  broker: 'mosquitto' | 'aedes';
  /** a Mosquitto with dynamic security, the server's admin account in the URL */
  mosquittoUrl: string;
  seconds: number;
  window: number;
  qos: 0 | 1;
  /** write a CPU profile of the publishing window here: mqtt-<broker>.cpuprofile */
  profileDir?: string;
  progress?: (line: string) => void;
}

/** Creates the fixture key's account on a dynamic-security Mosquitto, as the server does at key creation. */
async function provisionKey(adminUrl: string, fx: Fixture): Promise<void> {
  const admin = await mqtt.connectAsync(adminUrl, {
    reconnectPeriod: 0,
    clientId: `bench-setup-${process.pid}`,
  });
  const quiet = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
  const dynsec = new DynsecAdmin(
    admin,
    decodeURIComponent(new URL(adminUrl).username),
    null,
    new MqttStats(quiet),
    quiet,
  );
  try {
    await dynsec.listen();
    await dynsec.put({ kind: 'key', username: fx.mqttUsername, acl: submissionAcl(fx.mqttUsername) }, fx.key);
  } finally {
    dynsec.close();
    await admin.endAsync();
  }
}

export async function mqttBench(o: MqttOptions): Promise<MqttFigures> {
  const env: Record<string, string> =
    o.broker === 'mosquitto'
      ? { DATABASE_URL: o.url, MQTT_URL: o.mosquittoUrl }
      : { DATABASE_URL: o.url, MQTT_PORT: '0' };
  const server: ServerChild = await startServer('app', env);
  const brokerUrl =
    o.broker === 'mosquitto' ? brokerAddress(o.mosquittoUrl) : `mqtt://127.0.0.1:${server.mqttPort}`;
  // the fixture's key was made before the server met the broker: give it its account there
  if (o.broker === 'mosquitto') await provisionKey(o.mosquittoUrl, o.fx);
  const client = await mqtt.connectAsync(brokerUrl, {
    clean: true,
    reconnectPeriod: 0,
    username: o.fx.mqttUsername,
    password: o.fx.key,
  });
  // the load generator sends at once too: Nagle's delay would measure itself, not the server
  (client.stream as Partial<Socket> | undefined)?.setNoDelay?.(true);
  try {
    const rowsBefore = await countRows(o.url, o.itemId);
    let answeredOk = 0;
    let answeredError = 0;
    let firstError: string | undefined;
    let wake: (() => void) | null = null;
    client.on('message', (_topic, payload) => {
      const text = payload.toString();
      if (text.startsWith('{"code":0,')) answeredOk += 1;
      else {
        answeredError += 1;
        firstError ??= text.slice(0, 300);
      }
      const w = wake;
      wake = null;
      w?.();
    });
    await client.subscribeAsync(resultTopic(o.fx.mqttUsername), { qos: 0 });
    const topic = submitTopic(o.fx.mqttUsername);
    if (o.profileDir) await server.profileStart();
    const before = await server.stats();
    let published = 0;
    const perSecond: number[] = [];
    const t0 = performance.now();
    const end = t0 + o.seconds * 1000;
    let nextTick = t0 + 1000;
    let lastAnswered = 0;
    let lastLog = t0;
    while (performance.now() < end) {
      const inFlight = published - answeredOk - answeredError;
      if (inFlight >= o.window) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      } else {
        // a burst up to the window, then let the socket and the answers through
        const burst = Math.min(o.window - inFlight, 200);
        for (let i = 0; i < burst; i++) {
          client.publish(topic, JSON.stringify(sampleRecord(o.itemId, published)), { qos: o.qos });
          published += 1;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const now = performance.now();
      if (now >= nextTick) {
        const answered = answeredOk + answeredError;
        perSecond.push(answered - lastAnswered);
        lastAnswered = answered;
        nextTick += 1000;
        if (now - lastLog >= 10_000) {
          lastLog = now;
          o.progress?.(
            `  mqtt/${o.broker} ${Math.round((now - t0) / 1000)} s: ${answeredOk} stored, last second ${perSecond.at(-1)} msg/s`,
          );
        }
      }
    }
    const publishSeconds = (performance.now() - t0) / 1000;
    if (o.profileDir) await server.profileStop(`${o.profileDir}/mqtt-${o.broker}.cpuprofile`);
    const okDuringWindow = answeredOk;
    const drainStart = performance.now();
    let drained = drainStart;
    let seen = answeredOk + answeredError;
    while (answeredOk + answeredError < published && performance.now() - drained < 15_000) {
      await sleep(100);
      if (answeredOk + answeredError !== seen) {
        seen = answeredOk + answeredError;
        drained = performance.now();
      }
    }
    const drainSeconds = (drained - drainStart) / 1000;
    await sleep(500);
    const after = await server.stats();
    const rows = (await countRows(o.url, o.itemId)) - rowsBefore;
    const steady = perSecond.slice(5).sort((a, b) => a - b);
    return {
      broker: o.broker === 'mosquitto' ? `Mosquitto (${brokerAddress(o.mosquittoUrl)})` : 'embedded aedes',
      seconds: publishSeconds,
      window: o.window,
      qos: o.qos,
      published,
      answeredOk,
      answeredError,
      rows,
      lost: published - rows,
      messagesPerSecond: okDuringWindow / publishSeconds,
      slowestSecond: steady[0] ?? 0,
      medianSecond: steady[Math.floor(steady.length / 2)] ?? 0,
      drainSeconds,
      pipeline: pipelineFigures(before, after, (performance.now() - t0) / 1000),
      ...(firstError ? { firstError } : {}),
    };
  } finally {
    await client.endAsync();
    await server.close();
  }
}

export interface StoreFigures {
  label: string;
  rowsPerStatement: number;
  rows: number;
  rowsPerSecond: number;
}

/**
 * Where PostgreSQL's share goes, without HTTP, MQTT, validation or permission checks: the
 * same rows written in equal chunks (one transaction each) by COPY, by the pipeline's INSERT
 * without its rollup step, and by the pipeline's own statement (store.ts insertRecords:
 * INSERT plus the hour and day rollup upsert).
 */
export async function storeBreakdown(
  url: string,
  fx: Fixture,
  itemIds: [number, number, number],
  rowsPerStatement: number,
  statements: number,
): Promise<StoreFigures[]> {
  const { openDatabase } = await import('../apps/server/src/platform/db');
  const { insertRecords } = await import('../apps/server/src/modules/ingest/store');
  const { sql } = await import('drizzle-orm');
  const database = await openDatabase({ url });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const base = Date.now();
  const rowsOf = (itemId: number, s: number) =>
    Array.from({ length: rowsPerStatement }, (_, i) => {
      const { itemId: _item, ...values } = sampleRecord(itemId, s * rowsPerStatement + i);
      return {
        companyId: fx.companyId,
        itemId,
        ts: new Date(base + s * rowsPerStatement + i),
        values,
        source: 'http',
        createdBy: fx.userId,
      };
    });
  const out: StoreFigures[] = [];
  const measure = async (label: string, write: (s: number) => Promise<void>) => {
    await write(0); // warm-up statement, not counted
    const t0 = performance.now();
    for (let s = 1; s <= statements; s++) await write(s);
    const seconds = (performance.now() - t0) / 1000;
    const rows = rowsPerStatement * statements;
    out.push({ label, rowsPerStatement, rows, rowsPerSecond: rows / seconds });
  };
  try {
    await measure('COPY FROM STDIN', async (s) => {
      const text = rowsOf(itemIds[0], s)
        .map(
          (r) =>
            `${r.companyId}\t${r.itemId}\t${r.ts.toISOString()}\t${JSON.stringify(r.values)}\t${r.source}\t${r.createdBy}\n`,
        )
        .join('');
      const stream = client.query(
        copyFrom('COPY data_records (company_id, item_id, ts, "values", source, created_by) FROM STDIN'),
      );
      await pipeline(Readable.from([text]), stream);
    });
    await measure('pipeline INSERT without rollups', async (s) => {
      const payload = JSON.stringify(
        rowsOf(itemIds[1], s).map((r) => ({
          c: r.companyId,
          i: r.itemId,
          t: r.ts.toISOString(),
          v: r.values,
          s: r.source,
          u: r.createdBy,
        })),
      );
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`
          INSERT INTO data_records (company_id, item_id, ts, "values", parent_id, source, created_by)
          SELECT (r->>'c')::int, (r->>'i')::int, (r->>'t')::timestamptz, r->'v', NULL, r->>'s', (r->>'u')::int
          FROM jsonb_array_elements(${payload}::jsonb) WITH ORDINALITY AS x(r, n)
          ORDER BY n
          RETURNING id`);
      });
    });
    await measure('pipeline statement (INSERT + rollups, store.ts)', async (s) => {
      await database.db.transaction(async (tx) => {
        await insertRecords(tx as unknown as typeof database.db, rowsOf(itemIds[2], s));
      });
    });
  } finally {
    await client.end();
    await database.close();
  }
  return out;
}
