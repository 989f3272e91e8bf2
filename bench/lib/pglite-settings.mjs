// What a PGlite memory setting costs in speed (bench/RESULTS.md, "Footprint"):
// `node bench/lib/pglite-settings.mjs "<settings, comma-separated, or empty>" [rows]` on a fresh
// store in a temporary folder: inserts `rows` rows (default 400,000, ~80 MB with its index:
// larger than the smaller buffer pools) in 2,000-row statements, then point lookups by index
// spread over the whole table, then two full aggregates; prints one JSON line with the rates,
// the RSS and the peak RSS.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';

const [settingsArg = '', rowsArg = '400000'] = process.argv.slice(2);
const settings = settingsArg ? settingsArg.split(',') : [];
const total = Number(rowsArg);
const dir = mkdtempSync(path.join(os.tmpdir(), 'pglite-settings-'));
const status = () => {
  const text = readFileSync('/proc/self/status', 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), hwmMb: Math.round(kb('VmHWM') / 1024) };
};
const seconds = (from) => Number(process.hrtime.bigint() - from) / 1e9;
try {
  const db = new PGlite(path.join(dir, 'db'), {
    startParams: [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])],
  });
  await db.waitReady;
  await db.exec(
    'CREATE TABLE r (id bigserial PRIMARY KEY, item int NOT NULL, ts timestamptz NOT NULL, v jsonb NOT NULL);' +
      'CREATE INDEX r_item_ts ON r (item, ts);',
  );
  let t = process.hrtime.bigint();
  const chunk = 2000;
  for (let i = 0; i < total; i += chunk) {
    const values = [];
    const params = [];
    for (let j = 0; j < chunk; j++) {
      const n = i + j;
      params.push(
        n % 50,
        new Date(1.7e12 + n * 60_000).toISOString(),
        JSON.stringify({ f1: n % 97, f2: n / 7 }),
      );
      values.push(`($${3 * j + 1}, $${3 * j + 2}, $${3 * j + 3})`);
    }
    await db.query(`INSERT INTO r (item, ts, v) VALUES ${values.join(',')}`, params);
  }
  const insertRowsPerS = total / seconds(t);
  const lookups = 3000;
  t = process.hrtime.bigint();
  for (let k = 0; k < lookups; k++) {
    const n = Math.floor(Math.random() * total);
    await db.query('SELECT v FROM r WHERE item = $1 AND ts >= $2 ORDER BY ts LIMIT 5', [
      n % 50,
      new Date(1.7e12 + n * 60_000).toISOString(),
    ]);
  }
  const lookupsPerS = lookups / seconds(t);
  t = process.hrtime.bigint();
  for (let k = 0; k < 2; k++) await db.query("SELECT item, avg((v->>'f1')::numeric) FROM r GROUP BY item");
  const scanMs = (seconds(t) * 1000) / 2;
  const size = await db.query("SELECT pg_total_relation_size('r')::bigint AS b");
  console.log(
    JSON.stringify({
      settings: settingsArg || '(defaults)',
      rows: total,
      tableMb: Math.round(Number(size.rows[0].b) / 1024 / 1024),
      insertRowsPerS: Math.round(insertRowsPerS),
      lookupsPerS: Math.round(lookupsPerS),
      scanMs: Math.round(scanMs),
      ...status(),
    }),
  );
  await db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
