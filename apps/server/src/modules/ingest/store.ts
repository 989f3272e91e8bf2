/**
 * The one place records are written in bulk, with their rollups kept current in the same
 * statement. Every source (forms, lists, import, HTTP, MQTT, jumps, analysis) ends here,
 * through the ingest pipeline or directly inside its own transaction.
 *
 * Rollups: every JSON number in a record's values is a numeric field (types 10/1/2 store
 * numbers, every other type stores text, files or null), so the rollup step needs no item
 * definitions. Hour buckets are UTC hours; day buckets are local days of the company time
 * zone, stored as the instant of local midnight. New rows are folded into buckets in JavaScript
 * (one pass, no sort) and the statement upserts one row per bucket; edits and deletes recompute
 * their buckets from raw rows in SQL (`recomputeRollups`), which the tests hold the fold to.
 */
import { DEFAULT_TIME_ZONE, decimalPlaces, type RecordValues, startOfDay } from '@platform/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';

export interface NewRecord {
  companyId: number;
  itemId: number;
  ts: Date;
  values: RecordValues;
  parentId?: number | null;
  source: string;
  createdBy?: number | null;
}

/** rows per INSERT statement; one JSON parameter carries them, so no parameter limit applies */
export const CHUNK = 10_000;

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * The zone whose midnights the day rollups start at. A storage detail, the same for every
 * company: a window in a company's own zone (statsInWindow) takes the day rollups it wholly
 * covers and hour rollups and raw rows around them, so changing a company's time zone moves
 * its report days without rewriting any rollup.
 */
export const ROLLUP_TIME_ZONE = DEFAULT_TIME_ZONE;

/**
 * Inserts the rows (one multi-row INSERT per 10,000) and merges them into the hour and day
 * rollups in the same statement. Returns the new ids in the order of `rows`. Up to CHUNK rows
 * are one statement, atomic on its own; call it inside a transaction when more must land
 * together or with other writes.
 */
export async function insertRecords(
  db: Db,
  rows: NewRecord[],
  timeZone: string = ROLLUP_TIME_ZONE,
): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += CHUNK) {
    ids.push(...(await insertChunk(db, rows.slice(start, start + CHUNK), timeZone)));
  }
  return ids;
}

/** One rollup bucket of a chunk, folded in JavaScript before the upsert. */
interface Fold {
  i: number;
  k: string;
  g: 'h' | 'd';
  b: string;
  c: number;
  s: number;
  mn: number;
  mx: number;
  ft: number;
  fv: number;
  lt: number;
  lv: number;
  /** steps down or onto the same instant, in time order (null until counted: see foldRollups) */
  fl: number | null;
  /** the most decimal places of a value */
  pl: number;
  /** sub-records among the rows */
  sb: number;
  /** times and values in row order, to count `fl` from */
  pts: number[];
}

const HOUR_MS = 3_600_000;
/** every zone offset in use is a multiple of 15 minutes, so a day starts on such a boundary */
const SLOT_MS = 15 * 60_000;

/** local midnight of each 15-minute slot already seen, per zone (Intl is slow; slots repeat) */
const dayStarts = new Map<string, Map<number, number>>();
const DAY_STARTS_KEPT = 20_000;

function dayStartOf(slot: number, timeZone: string): number {
  let zone = dayStarts.get(timeZone);
  if (!zone) {
    zone = new Map();
    dayStarts.set(timeZone, zone);
  }
  let day = zone.get(slot);
  if (day === undefined) {
    if (zone.size >= DAY_STARTS_KEPT) zone.clear();
    day = startOfDay(slot, timeZone);
    zone.set(slot, day);
  }
  return day;
}

/**
 * The hour and local-day buckets of a chunk's numeric values, in one pass over the rows (no
 * sort): the rows are in id order, so among equal times the earlier row is the first value
 * and the later one the last, as `ORDER BY ts, id` would give.
 */
export function foldRollups(rows: NewRecord[], timeZone: string): Fold[] {
  const folds = new Map<string, Fold>();
  const add = (
    itemId: number,
    key: string,
    grain: 'h' | 'd',
    bucket: number,
    ts: number,
    v: number,
    places: number,
    sub: number,
  ) => {
    const id = `${itemId}|${grain}|${bucket}|${key}`;
    const f = folds.get(id);
    if (!f) {
      folds.set(id, {
        i: itemId,
        k: key,
        g: grain,
        b: new Date(bucket).toISOString(),
        c: 1,
        s: v,
        mn: v,
        mx: v,
        ft: ts,
        fv: v,
        lt: ts,
        lv: v,
        fl: null,
        pl: places,
        sb: sub,
        pts: [ts, v],
      });
      return;
    }
    f.c += 1;
    f.s += v;
    if (places > f.pl) f.pl = places;
    f.sb += sub;
    f.pts.push(ts, v);
    if (v < f.mn) f.mn = v;
    if (v > f.mx) f.mx = v;
    if (ts < f.ft) {
      f.ft = ts;
      f.fv = v;
    }
    if (ts >= f.lt) {
      f.lt = ts;
      f.lv = v;
    }
  };
  for (const r of rows) {
    const ts = r.ts.getTime();
    let hour = -1;
    let day = -1;
    for (const key in r.values) {
      const v = r.values[key];
      if (typeof v !== 'number') continue;
      if (hour < 0) {
        hour = Math.floor(ts / HOUR_MS) * HOUR_MS;
        day = dayStartOf(Math.floor(ts / SLOT_MS) * SLOT_MS, timeZone);
      }
      const sub = r.parentId == null ? 0 : 1;
      const places = decimalPlaces(v);
      add(r.itemId, key, 'h', hour, ts, v, places, sub);
      add(r.itemId, key, 'd', day, ts, v, places, sub);
    }
  }
  for (const f of folds.values()) f.fl = fallsOf(f.pts);
  // a fixed order: concurrent upserts lock rollup rows in the same order, so never deadlock
  return [...folds.values()].sort(
    (x, y) =>
      x.i - y.i || (x.k < y.k ? -1 : x.k > y.k ? 1 : 0) || x.g.localeCompare(y.g) || x.b.localeCompare(y.b),
  );
}

/**
 * The steps of a bucket's rows that go down or share the instant of the one before, in the
 * order of `ORDER BY ts, id` (`pts`: time and value of each row in id order; a stable sort by
 * time gives that order when they are not in it already).
 */
export function fallsOf(pts: number[]): number {
  let rows: [number, number][] | null = null;
  for (let j = 2; j < pts.length; j += 2)
    if (pts[j]! < pts[j - 2]!) {
      rows = [];
      for (let k = 0; k < pts.length; k += 2) rows.push([pts[k]!, pts[k + 1]!]);
      rows.sort((x, y) => x[0] - y[0]);
      break;
    }
  let falls = 0;
  if (rows) {
    for (let j = 1; j < rows.length; j++)
      if (rows[j]![0] === rows[j - 1]![0] || rows[j]![1] < rows[j - 1]![1]) falls += 1;
  } else {
    for (let j = 2; j < pts.length; j += 2)
      if (pts[j] === pts[j - 2] || pts[j + 1]! < pts[j - 1]!) falls += 1;
  }
  return falls;
}

async function insertChunk(db: Db, rows: NewRecord[], timeZone: string): Promise<number[]> {
  if (rows.length === 0) return [];
  const payload = JSON.stringify(
    rows.map((r) => ({
      c: r.companyId,
      i: r.itemId,
      t: r.ts.toISOString(),
      v: r.values,
      p: r.parentId ?? null,
      s: r.source,
      u: r.createdBy ?? null,
    })),
  );
  const folds = JSON.stringify(
    foldRollups(rows, timeZone).map(({ pts: _pts, ...f }) => ({
      ...f,
      ft: new Date(f.ft).toISOString(),
      lt: new Date(f.lt).toISOString(),
    })),
  );
  // data-modifying CTEs run once whether or not the outer query reads them
  const result = await db.execute(sql`
    WITH ins AS (
      INSERT INTO data_records (company_id, item_id, ts, "values", parent_id, source, created_by)
      SELECT (r->>'c')::int, (r->>'i')::int, (r->>'t')::timestamptz, r->'v',
             (r->>'p')::bigint, r->>'s', (r->>'u')::int
      FROM jsonb_array_elements(${payload}::jsonb) WITH ORDINALITY AS x(r, n)
      ORDER BY n
      RETURNING id
    ),
    up AS (
      INSERT INTO data_rollups AS r
        (item_id, field_key, grain, bucket, count, sum, min, max, first_ts, first_value, last_ts,
         last_value, falls, places, subs)
      SELECT (f->>'i')::int, f->>'k', f->>'g', (f->>'b')::timestamptz, (f->>'c')::int,
             (f->>'s')::float8, (f->>'mn')::float8, (f->>'mx')::float8,
             (f->>'ft')::timestamptz, (f->>'fv')::float8, (f->>'lt')::timestamptz, (f->>'lv')::float8,
             (f->>'fl')::int, (f->>'pl')::smallint, (f->>'sb')::int
      FROM jsonb_array_elements(${folds}::jsonb) WITH ORDINALITY AS x(f, n)
      ORDER BY n
      ON CONFLICT (item_id, field_key, grain, bucket) DO UPDATE SET
        -- every expression reads the row as it was. The new rows have the higher ids: after the
        -- old ones they add the step between (onto the same instant counts); before them, only
        -- when strictly earlier; interleaved, the falls are not known until a recompute
        falls = CASE
          WHEN r.falls IS NULL OR excluded.falls IS NULL THEN NULL
          WHEN excluded.first_ts > r.last_ts
            THEN r.falls + excluded.falls + (excluded.first_value < r.last_value)::int
          WHEN excluded.first_ts = r.last_ts THEN r.falls + excluded.falls + 1
          WHEN excluded.last_ts < r.first_ts
            THEN r.falls + excluded.falls + (r.first_value < excluded.last_value)::int
          END,
        places = CASE WHEN r.places IS NULL THEN NULL ELSE greatest(r.places, excluded.places) END,
        subs = r.subs + excluded.subs,
        count = r.count + excluded.count,
        sum = r.sum + excluded.sum,
        min = least(r.min, excluded.min),
        max = greatest(r.max, excluded.max),
        first_value = CASE WHEN excluded.first_ts < r.first_ts THEN excluded.first_value ELSE r.first_value END,
        first_ts = least(r.first_ts, excluded.first_ts),
        last_value = CASE WHEN excluded.last_ts >= r.last_ts THEN excluded.last_value ELSE r.last_value END,
        last_ts = greatest(r.last_ts, excluded.last_ts)
      RETURNING 1
    )
    SELECT id FROM ins
  `);
  // identities are drawn in insertion order (ORDER BY n), so ascending ids follow `rows`
  return rowsOf<{ id: string | number }>(result)
    .map((r) => Number(r.id))
    .sort((x, y) => x - y);
}

/**
 * Recomputes, from raw rows, the hour and day buckets of one item that contain any of
 * `timestamps` (after an edit, a delete or a clear). Buckets left without numeric values
 * lose their rollup row. Run it in the transaction that changed the records.
 */
export async function recomputeRollups(
  db: Db,
  itemId: number,
  timestamps: Date[],
  timeZone: string = ROLLUP_TIME_ZONE,
): Promise<void> {
  if (timestamps.length === 0) return;
  const unique = [...new Set(timestamps.map((t) => t.toISOString()))];
  const list = JSON.stringify(unique);
  const bucketsSql = sql`
    SELECT DISTINCT 'h'::varchar AS grain, date_trunc('hour', t, 'UTC') AS bucket,
           date_trunc('hour', t, 'UTC') + interval '1 hour' AS bucket_end
    FROM (SELECT jsonb_array_elements_text(${list}::jsonb)::timestamptz AS t) s
    UNION
    SELECT DISTINCT 'd'::varchar, date_trunc('day', t, ${timeZone}),
           ((date_trunc('day', t, ${timeZone}) AT TIME ZONE ${timeZone}) + interval '1 day') AT TIME ZONE ${timeZone}
    FROM (SELECT jsonb_array_elements_text(${list}::jsonb)::timestamptz AS t) s
  `;
  await db.execute(sql`
    DELETE FROM data_rollups d
    USING (${bucketsSql}) b
    WHERE d.item_id = ${itemId} AND d.grain = b.grain AND d.bucket = b.bucket
  `);
  await db.execute(sql`
    INSERT INTO data_rollups
      (item_id, field_key, grain, bucket, count, sum, min, max, first_ts, first_value, last_ts,
       last_value, falls, places, subs)
    SELECT ${itemId}, w.key, w.grain, w.bucket, count(*), sum(w.v), min(w.v), max(w.v),
           min(w.ts), (array_agg(w.v ORDER BY w.ts ASC, w.id ASC))[1],
           max(w.ts), (array_agg(w.v ORDER BY w.ts DESC, w.id DESC))[1],
           count(*) FILTER (WHERE w.ts = w.prev_ts OR w.v < w.prev), max(w.places),
           count(*) FILTER (WHERE w.parent_id IS NOT NULL)
    FROM (
      SELECT e.key, b.grain, b.bucket, d.id, d.ts, d.parent_id, (e.value)::float8 AS v,
             scale((e.value)::numeric) AS places,
             lag((e.value)::float8) OVER by_time AS prev, lag(d.ts) OVER by_time AS prev_ts
      FROM (${bucketsSql}) b
      JOIN data_records d ON d.item_id = ${itemId} AND d.ts >= b.bucket AND d.ts < b.bucket_end
      CROSS JOIN LATERAL jsonb_each(d."values") AS e
      WHERE jsonb_typeof(e.value) = 'number'
      WINDOW by_time AS (PARTITION BY e.key, b.grain, b.bucket ORDER BY d.ts, d.id)
    ) w
    GROUP BY w.key, w.grain, w.bucket
  `);
}
