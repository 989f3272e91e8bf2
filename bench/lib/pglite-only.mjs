// Baseline of bench/footprint.ts: a bare Node process with PGlite opened on a store, nothing
// else. `node bench/lib/pglite-only.mjs <dataDir> <settings, comma-separated, or "">`: opens it,
// reads every demo table once (as the platform's first pages would), idles a few seconds and
// prints one JSON line: RSS, peak RSS, Node's heap and the WebAssembly memory size.
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';

const [dataDir, settingsArg = '', idleArg = '5'] = process.argv.slice(2);
const settings = settingsArg ? settingsArg.split(',') : [];
const status = () => {
  const text = readFileSync('/proc/self/status', 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
  return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
};
const before = status();
const db = new PGlite(dataDir, {
  startParams: [...PGlite.defaultStartParams, ...settings.flatMap((s) => ['-c', s])],
});
await db.waitReady;
const tables = await db.query(
  "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
);
let rows = 0;
for (const { tablename } of tables.rows) {
  const res = await db.query(`SELECT count(*)::int AS n FROM "${tablename}"`);
  rows += res.rows[0].n;
}
await new Promise((resolve) => setTimeout(resolve, Number(idleArg) * 1000));
const after = status();
console.log(
  JSON.stringify({
    nodeOnlyRssKb: before.rssKb,
    rssKb: after.rssKb,
    hwmKb: after.hwmKb,
    tables: tables.rows.length,
    rows,
    memoryUsage: process.memoryUsage(),
    wasmMemoryBytes: db.mod?.wasmMemory?.buffer.byteLength ?? 0,
  }),
);
await db.close();
