/**
 * `npm run bench:meter-report` — the electricity meters' monthly report at scale: a company with
 * 1,000 standard meters, children of one parent meter (itself standard), each reading a data item
 * of its own that holds 15-minute readings of its cumulative energy for one whole month (2,977
 * readings for October 2026 in Asia/Shanghai: the month's two boundaries included), and a
 * time-of-use tariff, so every step is split by period and priced.
 *
 * Measures, through the real app in this process (app.inject: auth, permission, data permission
 * of each meter and item, the report):
 * - the parent's monthly report, GET /general/meter/report (balance against its 1,000 children);
 * - the baseline in the same process: one child's monthly report (one meter's readings);
 * - the parent's report as PDF, GET /general/meter/report/pdf (the same report, laid out);
 * - the parent's report with its children's day rollups unable to tell (their `falls` unknown,
 *   as for rollups written before they kept it): the children's summary then reads every
 *   reading of the month, as before the rollups were read (`--rounds` runs after the others);
 * - once, the parent's report with every child counted step by step (a tariff without a valley
 *   price: the one-query count of balance.ts then stands aside), whose 1,000 figures must equal
 *   those of the one-query count.
 * Medians of `--rounds` timed rounds after one warm-up round, rounds interleaved. The parent's
 * balance is checked against energies computed in SQL from the same readings.
 *
 * Data: made inside the database with INSERT … SELECT generate_series (no HTTP): nodes, items,
 * meters in three multi-row statements, the readings in one statement per 100 items; then each
 * item's hour and day rollups recomputed from its readings (ingest/store.ts recomputeRollups,
 * what an edit runs), which ingest would have kept as the readings came.
 * PostgreSQL: a fresh database `bench_<timestamp>`, dropped at the end; PGlite in memory.
 *
 * Flags: --meters N (children, default 1000), --rounds N (default 5), --only pg,pglite,
 *        --pglite-meters N (children on PGlite, default the same), --pg URL, --keep.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { zonedToInstant } from '@platform/domain';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { companyTimeZone } from '../apps/server/src/modules/companies/service';
import { recomputeRollups } from '../apps/server/src/modules/ingest/store';
import { touSettings } from '../apps/server/src/modules/meters/tables';
import type { Database } from '../apps/server/src/platform/db';
import {
  createBenchDatabase,
  DEFAULT_PG_URL,
  makeFixture,
  openPglite,
  openPostgres,
  rowsOf,
} from './lib/fixture';
import { median } from './lib/stats';

const { values: flags } = parseArgs({
  options: {
    meters: { type: 'string', default: '1000' },
    'pglite-meters': { type: 'string' },
    rounds: { type: 'string', default: '5' },
    only: { type: 'string', default: 'pg,pglite' },
    pg: { type: 'string', default: process.env.BENCH_PG_URL ?? DEFAULT_PG_URL },
    keep: { type: 'boolean', default: false },
  },
});

const YEAR = 2026;
const MONTH = 10;
const STEP_MIN = 15;
const rounds = Number(flags.rounds);

const load = () => os.loadavg()[0]!.toFixed(1);
const log = (line: string) =>
  process.stderr.write(`[${new Date().toISOString().slice(11, 19)} load ${load()}] ${line}\n`);

interface Figures {
  engine: string;
  children: number;
  readings: number;
  loadS: number;
  parent: number[];
  parentFirst: number;
  /** the parent's report with every child counted step by step (one run) */
  stepByStep: number;
  /** the parent's report with the children's summary read from their readings */
  fromReadings: number[];
  child: number[];
  pdf: number[];
  pdfBytes: number;
  pdfPages: number;
  parentKWh: number;
  childrenKWh: number;
  loadStart: string;
  loadEnd: string;
}

/**
 * Register value of item `i` (0 = the parent) at step n: children advance by 0.25–0.85 per
 * quarter hour (item-dependent) with a wobble of at most 0.04 that never makes it go back; the
 * parent by the children's sum plus 3 % (losses).
 */
function readingSql(i: string, n: string, children: number): string {
  const rate = (k: string) => `(0.25 + ((${k}) % 7) / 10.0)`;
  // sum over k = 1…children of 0.25 + (k % 7) / 10
  let sumRate = 0;
  for (let k = 1; k <= children; k++) sumRate += 0.25 + (k % 7) / 10;
  const parentRate = (sumRate * 1.03).toFixed(6);
  return `CASE WHEN ${i} = 0
      THEN round((50000 + ${n} * ${parentRate})::numeric, 2)
      ELSE round((1000 * ${i} + ${n} * ${rate(i)} + ((${n} * ${i}) % 5) / 100.0)::numeric, 2) END`;
}

async function makeData(database: Database, children: number, engine: string) {
  const { db } = database;
  const fx = await makeFixture(database, 0);
  const tz = await companyTimeZone(db, fx.companyId);
  const start = zonedToInstant({ year: YEAR, month: MONTH, day: 1 }, tz);
  const end = zonedToInstant({ year: YEAR, month: MONTH + 1, day: 1 }, tz);
  const steps = (end - start) / (STEP_MIN * 60_000);
  const t0 = performance.now();
  const count = children + 1;
  // a directory for the meters, the items' nodes, the items, the meters' nodes, the meters
  await db.execute(
    sql.raw(`INSERT INTO cabin_nodes (company_id, parent_id, type, name, created_by)
      SELECT ${fx.companyId}, NULL, 'dataItem', 'cabinet ' || i, ${fx.userId}
      FROM generate_series(0, ${count - 1}) i`),
  );
  await db.execute(
    sql.raw(`INSERT INTO data_items (company_id, node_id, name, kind, fields, next_field_no)
      SELECT n.company_id, n.id, n.name, 13,
             '[{"key":"f1","name":"energy","unit":"kWh","type":1,"decimals":2}]'::jsonb, 2
      FROM cabin_nodes n WHERE n.company_id = ${fx.companyId} AND n.type = 'dataItem'`),
  );
  await db.execute(
    sql.raw(`UPDATE cabin_nodes n SET ref_id = d.id FROM data_items d
      WHERE d.node_id = n.id AND n.company_id = ${fx.companyId}`),
  );
  await db.execute(
    sql.raw(`INSERT INTO cabin_nodes (company_id, parent_id, type, name, created_by)
      SELECT ${fx.companyId}, NULL, 'meter',
             CASE WHEN i = 0 THEN 'incomer' ELSE 'feeder ' || i END, ${fx.userId}
      FROM generate_series(0, ${count - 1}) i`),
  );
  // meter i reads item "cabinet i"; the parent (i = 0) first, so its id is known to the children
  const ofMeter = (where: string) =>
    `SELECT ${fx.companyId}, m.id, 101, CASE WHEN m.name = 'incomer' THEN 'MAIN' ELSE 'F' || substr(m.name, 8) END,
            d.id, '{"energy":"f1"}'::jsonb, 4, %PARENT%
     FROM cabin_nodes m JOIN data_items d
       ON d.company_id = m.company_id
      AND d.name = 'cabinet ' || CASE WHEN m.name = 'incomer' THEN '0' ELSE substr(m.name, 8) END
     WHERE m.company_id = ${fx.companyId} AND m.type = 'meter' AND ${where}`;
  const cols = '(company_id, node_id, type, code, item_id, points, sampling_id, parent_meter_id)';
  await db.execute(
    sql.raw(`INSERT INTO meters ${cols} ${ofMeter("m.name = 'incomer'").replace('%PARENT%', 'NULL')}`),
  );
  const [parent] = await rowsOf<{ id: number; node_id: number; item_id: number }>(
    db,
    sql.raw(`SELECT id, node_id, item_id FROM meters WHERE company_id = ${fx.companyId} AND code = 'MAIN'`),
  );
  await db.execute(
    sql.raw(
      `INSERT INTO meters ${cols} ${ofMeter("m.name <> 'incomer'").replace('%PARENT%', String(parent!.id))}`,
    ),
  );
  await db.execute(
    sql.raw(`UPDATE cabin_nodes n SET ref_id = m.id FROM meters m
      WHERE m.node_id = n.id AND n.company_id = ${fx.companyId}`),
  );
  await db.insert(touSettings).values({
    companyId: fx.companyId,
    schedule: {
      valley: [{ from: 23, to: 7 }],
      flat: [
        { from: 7, to: 10 },
        { from: 15, to: 18 },
        { from: 21, to: 23 },
      ],
      peak: [
        { from: 10, to: 12 },
        { from: 18, to: 21 },
      ],
      sharp: [{ from: 12, to: 15 }],
    },
    prices: { sharp: 150, peak: 120, flat: 70, valley: 30 },
  });
  // the readings: item by item in blocks of 100, n = 0 … steps (both boundaries)
  const items = await rowsOf<{ item_id: number; i: number }>(
    db,
    sql.raw(`SELECT m.item_id, CASE WHEN m.code = 'MAIN' THEN 0 ELSE substr(m.code, 2)::int END AS i
      FROM meters m WHERE m.company_id = ${fx.companyId} ORDER BY 2`),
  );
  const startSql = new Date(start).toISOString();
  for (let b = 0; b < items.length; b += 100) {
    const block = items.slice(b, b + 100);
    const pairs = block.map((r) => `(${r.item_id}, ${r.i})`).join(', ');
    await db.execute(
      sql.raw(`INSERT INTO data_records (company_id, item_id, ts, "values", source)
        SELECT ${fx.companyId}, x.item_id, timestamptz '${startSql}' + n * interval '${STEP_MIN} minutes',
               jsonb_build_object('f1', ${readingSql('x.i', 'n', children)}), 'http'
        FROM (VALUES ${pairs}) AS x(item_id, i), generate_series(0, ${steps}) n`),
    );
    if ((b / 100) % 3 === 0) log(`${engine}: readings of meters ${b + 1}–${b + block.length} of ${count}`);
  }
  // the rollups ingest keeps, from the readings: every hour of the month names its hour and day
  const hours = Array.from(
    { length: (end - start) / 3_600_000 + 1 },
    (_, h) => new Date(start + h * 3_600_000),
  );
  const queue = [...items];
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let item = queue.shift(); item; item = queue.shift())
        await recomputeRollups(db, item.item_id, hours);
    }),
  );
  log(`${engine}: rollups of ${count} items`);
  await db.execute(sql`ANALYZE data_records`);
  await db.execute(sql`ANALYZE meters`);
  await db.execute(sql`ANALYZE cabin_nodes`);
  const loadS = (performance.now() - t0) / 1000;
  const [child] = await rowsOf<{ node_id: number }>(
    db,
    sql.raw(`SELECT node_id FROM meters WHERE company_id = ${fx.companyId} AND code = 'F1'`),
  );
  // the energies in SQL, straight from the readings: register advance × 1 (no transformers)
  const [sums] = await rowsOf<{ parent: string; children: string; readings: string }>(
    db,
    sql.raw(`SELECT
        sum(CASE WHEN m.code = 'MAIN' THEN e.kwh ELSE 0 END)::text AS parent,
        sum(CASE WHEN m.code = 'MAIN' THEN 0 ELSE e.kwh END)::text AS children,
        sum(e.n)::text AS readings
      FROM meters m CROSS JOIN LATERAL (
        SELECT max((r."values" ->> 'f1')::numeric) - min((r."values" ->> 'f1')::numeric) AS kwh, count(*) AS n
        FROM data_records r WHERE r.item_id = m.item_id) e
      WHERE m.company_id = ${fx.companyId}`),
  );
  log(
    `${engine}: ${count} meters, ${Number(sums!.readings).toLocaleString('en')} readings in ${loadS.toFixed(0)} s`,
  );
  return {
    fx,
    parentNode: parent!.node_id,
    childNode: child!.node_id,
    loadS,
    readings: Number(sums!.readings),
    expected: { parent: Number(sums!.parent), children: Number(sums!.children) },
  };
}

async function benchEngine(engine: string, database: Database, children: number): Promise<Figures> {
  const loadStart = load();
  const data = await makeData(database, children, engine);
  const { db } = database;
  const config = {
    ...loadConfig({ LOGIN_RATE_LIMIT: '1000000', MQTT_PORT: 'off', WEB_DIST: '/nonexistent' }),
    seedDemo: false,
  };
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  try {
    const phone = (
      await rowsOf<{ phone: string }>(db, sql`SELECT phone FROM users WHERE id = ${data.fx.userId}`)
    )[0]!.phone;
    const login = await app.inject({
      method: 'POST',
      url: '/general/user/access/getToken',
      payload: `phone=${phone}&password=bench1234`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const headers = { authorization: `Bearer ${login.json().data.token as string}` };
    const query = (id: number) => `meterId=${id}&year=${YEAR}&month=${MONTH}`;
    const report = async (id: number) => {
      const res = await app.inject({ method: 'GET', url: `/general/meter/report?${query(id)}`, headers });
      const body = res.json();
      if (body.code !== 0) throw new Error(`report: ${res.body.slice(0, 300)}`);
      return body.data as {
        kWh: number;
        issues: unknown[];
        balance: { children: Array<{ code: string; kWh: number | null }>; childrenKWh: number } | null;
      };
    };
    const pdf = async () => {
      const res = await app.inject({
        method: 'GET',
        url: `/general/meter/report/pdf?${query(data.parentNode)}`,
        headers,
      });
      if (res.statusCode !== 200 || !res.headers['content-type']?.toString().includes('pdf'))
        throw new Error(`pdf: ${res.body.slice(0, 300)}`);
      return res.rawPayload;
    };
    const timed = async (run: () => Promise<unknown>) => {
      const t = performance.now();
      await run();
      return performance.now() - t;
    };
    const t = performance.now();
    const first = await report(data.parentNode);
    const parentFirst = performance.now() - t;
    // the same numbers as SQL computes from the readings
    const close = (a: number, b: number) => Math.abs(a - b) < 1e-6 * Math.max(1, Math.abs(b));
    if (first.balance?.children.length !== children) throw new Error('the balance misses children');
    if (!close(first.kWh, data.expected.parent) || !close(first.balance.childrenKWh, data.expected.children))
      throw new Error(
        `report ${first.kWh} / ${first.balance.childrenKWh} against SQL ${data.expected.parent} / ${data.expected.children}`,
      );
    if (first.issues.length > 0) throw new Error(`issues: ${JSON.stringify(first.issues.slice(0, 3))}`);
    const file = await pdf();
    const pdfPages = file.toString('latin1').match(/\/Type\s*\/Page\b(?!s)/g)?.length ?? 0;
    await report(data.childNode);
    const parent: number[] = [];
    const child: number[] = [];
    const pdfs: number[] = [];
    for (let i = 0; i < rounds; i++) {
      parent.push(await timed(() => report(data.parentNode)));
      child.push(await timed(() => report(data.childNode)));
      pdfs.push(await timed(pdf));
      log(
        `${engine}: round ${i + 1}: parent ${parent.at(-1)!.toFixed(0)} ms, child ${child.at(-1)!.toFixed(0)} ms, pdf ${pdfs.at(-1)!.toFixed(0)} ms`,
      );
    }
    const fast = await report(data.parentNode);
    const kWhs = (r: typeof fast) => JSON.stringify(r.balance!.children);
    // the children's day rollups unable to tell: their summary from every reading of the month
    await db.execute(sql`UPDATE data_rollups SET falls = NULL
      WHERE grain = 'd' AND item_id IN (SELECT item_id FROM meters WHERE company_id = ${data.fx.companyId})`);
    const fromReadings: number[] = [];
    let read = fast;
    for (let i = 0; i < rounds; i++) {
      const r0 = performance.now();
      read = await report(data.parentNode);
      fromReadings.push(performance.now() - r0);
    }
    if (kWhs(read) !== kWhs(fast)) throw new Error('the balance from the readings differs from the rollups’');
    log(`${engine}: from the readings ${median(fromReadings).toFixed(0)} ms (median), the same figures`);
    // the same report with every child counted step by step (energy.ts): a tariff without a
    // valley price leaves the one-query count no choice; the children's figures must not move
    await db.execute(
      sql`UPDATE tou_settings SET prices = prices - 'valley' WHERE company_id = ${data.fx.companyId}`,
    );
    const s0 = performance.now();
    const slow = await report(data.parentNode);
    const stepByStep = performance.now() - s0;
    await db.execute(
      sql`UPDATE tou_settings SET prices = prices || '{"valley": 30}'::jsonb WHERE company_id = ${data.fx.companyId}`,
    );
    if (kWhs(fast) !== kWhs(slow) || fast.kWh !== slow.kWh)
      throw new Error('the one-query balance differs from the step-by-step one');
    log(`${engine}: step by step ${stepByStep.toFixed(0)} ms, the same ${children} figures`);
    return {
      engine,
      children,
      stepByStep,
      fromReadings,
      readings: data.readings,
      loadS: data.loadS,
      parent,
      parentFirst,
      child,
      pdf: pdfs,
      pdfBytes: file.length,
      pdfPages,
      parentKWh: first.kWh,
      childrenKWh: first.balance.childrenKWh,
      loadStart,
      loadEnd: load(),
    };
  } finally {
    await app.close();
  }
}

const results: Figures[] = [];
const only = new Set(flags.only.split(','));
const children = Number(flags.meters);
if (only.has('pg')) {
  const bench = await createBenchDatabase(flags.pg);
  log(`PostgreSQL database ${bench.name}`);
  const database = await openPostgres(bench.url);
  try {
    results.push(await benchEngine('PostgreSQL', database, children));
  } finally {
    await database.close();
    if (!flags.keep) await bench.drop();
  }
}
if (only.has('pglite')) {
  const database = await openPglite();
  try {
    results.push(
      await benchEngine('PGlite (in memory)', database, Number(flags['pglite-meters'] ?? children)),
    );
  } finally {
    await database.close();
  }
}

const ms = (v: number) => v.toFixed(0);
const cpu = os.cpus()[0]?.model ?? 'unknown';
console.log(
  `\n- date: ${new Date().toISOString()}; ${os.cpus().length} × ${cpu}; ${(os.totalmem() / 2 ** 30).toFixed(0)} GB; node ${process.version}`,
);
console.log(`- ${rounds} timed rounds after one warm-up; rounds interleave the three requests; medians\n`);
console.log(
  '| engine | meters (children + parent), readings | parent report median ms (first, cold) | one child’s report median ms (baseline) | ratio parent / child | parent report, children’s summary from their readings (no rollups) median ms | parent report, children counted step by step (one run) ms | parent PDF median ms (pages, bytes) | parent kWh / children kWh | load avg start / end |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.engine} | ${r.children} + 1, ${r.readings.toLocaleString('en')} (made in ${r.loadS.toFixed(0)} s) | **${ms(median(r.parent))}** (${ms(r.parentFirst)}) | ${ms(median(r.child))} | ${(median(r.parent) / median(r.child)).toFixed(0)} | ${ms(median(r.fromReadings))} | ${ms(r.stepByStep)} | ${ms(median(r.pdf))} (${r.pdfPages}, ${r.pdfBytes.toLocaleString('en')}) | ${r.parentKWh.toLocaleString('en')} / ${r.childrenKWh.toLocaleString('en')} | ${r.loadStart} / ${r.loadEnd} |`,
  );
}
