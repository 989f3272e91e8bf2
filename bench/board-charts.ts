/**
 * `npm run bench:board-charts` — issue 11 "Speed": a board of 10 charts, each a month of
 * 1-minute data (43,200 points per series), with `--records` records in the database in all.
 * Measures the server time to answer the ten chart data requests of the board at once
 * (GET /general/smartdata/chart/data, the real app in this process through app.inject: auth,
 * permission, chart check, rollup read, downsampling), on PostgreSQL and on an in-memory PGlite.
 *
 * Data: made inside the database with INSERT … SELECT generate_series into data_records (no
 * HTTP); the ten charted items' hour and day rollups with the aggregates of the product's
 * recomputeRollups (ingest/store.ts) in one statement, checked against recomputeRollups itself; the background items' hourly rollups one row per hour and
 * field, as ingest would keep them for 1-minute data, their values from the same formula.
 *
 * Baselines in the same run: one chart alone, and the ten charts' months read from the records
 * (seriesOf with 30-minute buckets, the path windows of two days or less take).
 *
 * Flags: --records N (PostgreSQL, default 100000000), --pglite-records N (default 500000),
 *        --rounds N (timed rounds of the ten, default 30), --width PX (default 800),
 *        --only pg,pglite, --pg URL, --keep (do not drop the database: for a second look).
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { HOUR_S, seriesOf } from '../apps/server/src/modules/deviceviews/series';
import { ROLLUP_TIME_ZONE, recomputeRollups } from '../apps/server/src/modules/ingest/store';
import type { Database } from '../apps/server/src/platform/db';
import {
  createBenchDatabase,
  DEFAULT_PG_URL,
  makeFixture,
  openPglite,
  openPostgres,
  rowsOf,
} from './lib/fixture';

const { values: flags } = parseArgs({
  options: {
    records: { type: 'string', default: '100000000' },
    'pglite-records': { type: 'string', default: '500000' },
    rounds: { type: 'string', default: '30' },
    width: { type: 'string', default: '800' },
    only: { type: 'string', default: 'pg,pglite' },
    pg: { type: 'string', default: process.env.BENCH_PG_URL ?? DEFAULT_PG_URL },
    keep: { type: 'boolean', default: false },
  },
});

const MONTH_ROWS = 43_200;
const CHARTS = 10;
const rounds = Number(flags.rounds);
const width = Number(flags.width);

const load = () => os.loadavg()[0]!.toFixed(1);
const log = (line: string) =>
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)} load ${load()}] ${line}\n`);

/** f1 of minute n (n = 0 … 43,199 from the start of the month): the same on every item. */
const F1 = (n: string) => `round((20 + 5 * sin(${n} / 720.0) + (${n} % 13) / 10.0)::numeric, 2)`;

interface Figures {
  engine: string;
  records: number;
  loadS: number;
  rollupS: number;
  tenFirst: number;
  ten: number[];
  one: number[];
  raw: number[];
  pointsPerChart: number;
  source: string;
  loadStart: string;
  loadEnd: string;
}

const pct = (list: number[], p: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

async function benchEngine(engine: string, database: Database, records: number): Promise<Figures> {
  const loadStart = load();
  const { db } = database;
  const fx = await makeFixture(database, CHARTS);
  // the month ends at the last whole minute
  const end = Math.floor(Date.now() / 60_000) * 60_000;
  const start = end - MONTH_ROWS * 60_000;
  const startSql = new Date(start).toISOString();
  const t0 = performance.now();
  // the ten charted items
  for (const itemId of fx.itemIds) {
    await db.execute(
      sql.raw(`INSERT INTO data_records (company_id, item_id, ts, "values", source)
        SELECT ${fx.companyId}, ${itemId}, timestamptz '${startSql}' + n * interval '1 minute',
               jsonb_build_object('f1', ${F1('n')}, 'f2', 101.25 + n % 7, 'f3', n % 1000), 'http'
        FROM generate_series(0, ${MONTH_ROWS - 1}) n`),
    );
  }
  // background: other items of the company, a month of 1-minute records each, item after item
  const background = Math.max(0, records - CHARTS * MONTH_ROWS);
  const backgroundItems = Math.ceil(background / MONTH_ROWS);
  const firstBackground = 1_000_000;
  const ITEMS_PER_STATEMENT = 20;
  for (let i = 0; i < backgroundItems; i += ITEMS_PER_STATEMENT) {
    const last = Math.min(backgroundItems, i + ITEMS_PER_STATEMENT) - 1;
    const rows = Math.min(background - i * MONTH_ROWS, (last - i + 1) * MONTH_ROWS);
    await db.execute(
      sql.raw(`INSERT INTO data_records (company_id, item_id, ts, "values", source)
        SELECT ${fx.companyId}, ${firstBackground} + k / ${MONTH_ROWS}, timestamptz '${startSql}' + (k % ${MONTH_ROWS}) * interval '1 minute',
               jsonb_build_object('f1', ${F1(`(k % ${MONTH_ROWS})`)}, 'f2', 101.25 + k % 7, 'f3', k % 1000), 'http'
        FROM generate_series(${i * MONTH_ROWS}, ${i * MONTH_ROWS + rows - 1}) k`),
    );
    if ((i / ITEMS_PER_STATEMENT) % 10 === 0)
      log(`${engine}: background items ${i + 1}–${last + 1} of ${backgroundItems}`);
  }
  const loadS = (performance.now() - t0) / 1000;
  log(`${engine}: ${records.toLocaleString('en')} records in ${loadS.toFixed(0)} s`);

  const t1 = performance.now();
  // the charted items' hour and day rollups: the aggregates of ingest/store.ts recomputeRollups,
  // grouped over the whole month at once (recomputeRollups itself, bucket list by bucket list,
  // took 20 s an item on this loaded machine; one item is checked against it below)
  for (const [grain, bucket] of [
    ['h', `date_trunc('hour', d.ts, 'UTC')`],
    ['d', `date_trunc('day', d.ts, '${ROLLUP_TIME_ZONE}')`],
  ] as const) {
    await db.execute(
      sql.raw(`INSERT INTO data_rollups
        (item_id, field_key, grain, bucket, count, sum, min, max, first_ts, first_value, last_ts, last_value)
        SELECT d.item_id, e.key, '${grain}', ${bucket}, count(*), sum((e.value)::float8),
               min((e.value)::float8), max((e.value)::float8),
               min(d.ts), (array_agg((e.value)::float8 ORDER BY d.ts ASC, d.id ASC))[1],
               max(d.ts), (array_agg((e.value)::float8 ORDER BY d.ts DESC, d.id DESC))[1]
        FROM data_records d CROSS JOIN LATERAL jsonb_each(d."values") AS e
        WHERE d.item_id IN (${fx.itemIds.join(',')}) AND jsonb_typeof(e.value) = 'number'
        GROUP BY d.item_id, e.key, ${bucket}`),
    );
  }
  // the product's own recompute of the first day of the first item gives the same rows
  const probe = sql`SELECT field_key, grain, bucket, count, round(sum::numeric, 6)::text AS sum, min, max, first_value, last_value
    FROM data_rollups WHERE item_id = ${fx.itemIds[0]} AND bucket < ${new Date(start + 86_400_000).toISOString()}::timestamptz
    ORDER BY 1, 2, 3`;
  const before = JSON.stringify(await rowsOf(db, probe));
  await recomputeRollups(
    db,
    fx.itemIds[0]!,
    Array.from({ length: 1440 }, (_, n) => new Date(start + n * 60_000)),
  );
  if (JSON.stringify(await rowsOf(db, probe)) !== before)
    throw new Error('rollups differ from recomputeRollups');
  // background rollups: one per hour and field; f1 exactly as recomputeRollups would find it
  if (backgroundItems > 0) {
    await db.execute(
      sql.raw(`INSERT INTO data_rollups (item_id, field_key, grain, bucket, count, sum, min, max, first_ts, first_value, last_ts, last_value)
        SELECT ${firstBackground} + i, f, 'h', timestamptz '${startSql}' + h * interval '1 hour', 60, 60 * 21.0, 19.0, 25.0,
               timestamptz '${startSql}' + h * interval '1 hour', 20.0,
               timestamptz '${startSql}' + h * interval '1 hour' + interval '59 minutes', 21.0
        FROM generate_series(0, ${backgroundItems - 1}) i, generate_series(0, ${MONTH_ROWS / 60 - 1}) h,
             unnest(array['f1', 'f2', 'f3']) f`),
    );
  }
  await db.execute(sql`ANALYZE data_records`);
  await db.execute(sql`ANALYZE data_rollups`);
  const rollupS = (performance.now() - t1) / 1000;
  log(`${engine}: rollups and ANALYZE in ${rollupS.toFixed(0)} s`);

  const config = {
    ...loadConfig({ LOGIN_RATE_LIMIT: '1000000', MQTT_PORT: 'off', WEB_DIST: '/nonexistent' }),
    seedDemo: false,
  };
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  try {
    const phone = (
      await rowsOf<{ phone: string }>(db, sql`SELECT phone FROM users WHERE id = ${fx.userId}`)
    )[0]!.phone;
    const login = await app.inject({
      method: 'POST',
      url: '/general/user/access/getToken',
      payload: `phone=${phone}&password=bench1234`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const token = login.json().data.token as string;
    const headers = { authorization: `Bearer ${token}` };
    const chartIds: number[] = [];
    for (const itemId of fx.itemIds) {
      const saved = await app.inject({
        method: 'POST',
        url: '/general/smartdata/chart/save',
        headers,
        payload: {
          itemId,
          name: `month ${itemId}`,
          config: {
            type: 'line',
            series: [
              {
                field: 'f1',
                method: 'raw',
                range: 'period',
                from: new Date(start).toISOString(),
                to: new Date(end).toISOString(),
              },
            ],
            downsample: 'lttb',
          },
        },
      });
      const body = saved.json();
      if (body.code !== 0) throw new Error(`chart save: ${saved.body}`);
      chartIds.push(body.data.id);
    }
    const dataOf = async (i: number) => {
      const res = await app.inject({
        method: 'GET',
        url: `/general/smartdata/chart/data?itemId=${fx.itemIds[i]}&id=${chartIds[i]}&width=${width}`,
        headers,
      });
      const body = res.json();
      if (body.code !== 0) throw new Error(`chart data: ${res.body}`);
      return body.data as { series: Array<{ points: number[][]; source: string }> };
    };
    const all = () => Promise.all(fx.itemIds.map((_, i) => dataOf(i)));
    const timed = async (run: () => Promise<unknown>) => {
      const t = performance.now();
      await run();
      return performance.now() - t;
    };
    const tenFirst = await timed(all);
    const sample = await dataOf(0);
    const ten: number[] = [];
    const one: number[] = [];
    const raw: number[] = [];
    const item = { companyId: fx.companyId };
    const rawTen = () =>
      Promise.all(
        fx.itemIds.map((itemId) =>
          seriesOf(db, item.companyId, itemId, 'f1', new Date(start), new Date(end), 1800),
        ),
      );
    const rawSample = await rawTen();
    if (rawSample[0]!.length < 1400) throw new Error(`raw read gave ${rawSample[0]!.length} buckets`);
    // warm-up, then rounds interleaved so that machine noise falls on all three alike
    for (let i = 0; i < 3; i++) {
      await all();
      await dataOf(0);
      await rawTen();
    }
    for (let i = 0; i < rounds; i++) {
      ten.push(await timed(all));
      one.push(await timed(() => dataOf(0)));
      raw.push(await timed(rawTen));
    }
    return {
      engine,
      records: Number(
        (await rowsOf<{ n: string }>(db, sql`SELECT count(*)::text AS n FROM data_records`))[0]!.n,
      ),
      loadS,
      rollupS,
      tenFirst,
      ten,
      one,
      raw,
      pointsPerChart: sample.series[0]!.points.length,
      source: `${sample.series[0]!.source} (${HOUR_S} s buckets)`,
      loadStart,
      loadEnd: load(),
    };
  } finally {
    await app.close();
  }
}

const results: Figures[] = [];
const only = new Set(flags.only.split(','));
if (only.has('pg')) {
  const bench = await createBenchDatabase(flags.pg);
  log(`PostgreSQL database ${bench.name}`);
  const database = await openPostgres(bench.url);
  try {
    results.push(await benchEngine('PostgreSQL', database, Number(flags.records)));
    const size = await rowsOf<{ size: string }>(
      database.db,
      sql`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`,
    );
    log(`database size ${size[0]!.size}`);
  } finally {
    await database.close();
    if (!flags.keep) await bench.drop();
  }
}
if (only.has('pglite')) {
  const database = await openPglite();
  try {
    results.push(await benchEngine('PGlite (in memory)', database, Number(flags['pglite-records'])));
  } finally {
    await database.close();
  }
}

const ms = (v: number) => v.toFixed(1);
console.log(`\n- date: ${new Date().toISOString()}; cores: ${os.cpus().length}; node ${process.version}`);
console.log(
  `- ${rounds} timed rounds after 3 warm-up rounds; chart width ${width} px; rounds interleave the three reads\n`,
);
console.log(
  '| engine | records in the database | ten charts at once p50 / p95 / max ms (first, cold) | one chart p50 / p95 ms | ten months from the records p50 / p95 ms | points per chart | load avg start / end |',
);
console.log('|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.engine} | ${r.records.toLocaleString('en')} (made in ${r.loadS.toFixed(0)} s, rollups ${r.rollupS.toFixed(0)} s) | **${ms(pct(r.ten, 50))}** / ${ms(pct(r.ten, 95))} / ${ms(Math.max(...r.ten))} (${ms(r.tenFirst)}) | ${ms(pct(r.one, 50))} / ${ms(pct(r.one, 95))} | ${ms(pct(r.raw, 50))} / ${ms(pct(r.raw, 95))} | ${r.pointsPerChart}, ${r.source} | ${r.loadStart} / ${r.loadEnd} |`,
  );
}
