/**
 * The one place records are written in bulk, with their rollups kept current in the same
 * statement. Every source (forms, lists, import, HTTP, MQTT, jumps, analysis) ends here,
 * through the ingest pipeline or directly inside its own transaction.
 *
 * Rollups: every JSON number in a record's values is a numeric field (types 10/1/2 store
 * numbers, every other type stores text, files or null), so the rollup step needs no item
 * definitions. Hour buckets are UTC hours; day buckets are local days of the company time
 * zone, stored as the instant of local midnight.
 */
import { DEFAULT_TIME_ZONE, type RecordValues } from '@platform/domain';
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
const CHUNK = 10_000;

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/**
 * Inserts the rows (one multi-row INSERT per 10,000) and merges them into the hour and day
 * rollups in the same statement. Returns the new ids in the order of `rows`. Call it inside
 * a transaction when the rows must land together.
 */
export async function insertRecords(
  db: Db,
  rows: NewRecord[],
  timeZone: string = DEFAULT_TIME_ZONE,
): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += CHUNK) {
    ids.push(...(await insertChunk(db, rows.slice(start, start + CHUNK), timeZone)));
  }
  return ids;
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
  const result = await db.execute(sql`
    WITH ins AS (
      INSERT INTO data_records (company_id, item_id, ts, "values", parent_id, source, created_by)
      SELECT (r->>'c')::int, (r->>'i')::int, (r->>'t')::timestamptz, r->'v',
             (r->>'p')::bigint, r->>'s', (r->>'u')::int
      FROM jsonb_array_elements(${payload}::jsonb) WITH ORDINALITY AS x(r, n)
      ORDER BY n
      RETURNING id, item_id, ts, "values"
    ),
    nums AS (
      SELECT ins.id, ins.item_id, e.key AS field_key, ins.ts, (e.value)::float8 AS v
      FROM ins, jsonb_each(ins."values") AS e
      WHERE jsonb_typeof(e.value) = 'number'
    ),
    buckets AS (
      SELECT id, item_id, field_key, 'h'::varchar AS grain, date_trunc('hour', ts, 'UTC') AS bucket, ts, v
      FROM nums
      UNION ALL
      SELECT id, item_id, field_key, 'd'::varchar, date_trunc('day', ts, ${timeZone}), ts, v
      FROM nums
    ),
    up AS (
      INSERT INTO data_rollups AS r
        (item_id, field_key, grain, bucket, count, sum, min, max, first_ts, first_value, last_ts, last_value)
      SELECT item_id, field_key, grain, bucket, count(*), sum(v), min(v), max(v),
             min(ts), (array_agg(v ORDER BY ts ASC, id ASC))[1],
             max(ts), (array_agg(v ORDER BY ts DESC, id DESC))[1]
      FROM buckets
      GROUP BY item_id, field_key, grain, bucket
      ON CONFLICT (item_id, field_key, grain, bucket) DO UPDATE SET
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
  timeZone: string = DEFAULT_TIME_ZONE,
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
      (item_id, field_key, grain, bucket, count, sum, min, max, first_ts, first_value, last_ts, last_value)
    SELECT ${itemId}, e.key, b.grain, b.bucket, count(*), sum((e.value)::float8),
           min((e.value)::float8), max((e.value)::float8),
           min(d.ts), (array_agg((e.value)::float8 ORDER BY d.ts ASC, d.id ASC))[1],
           max(d.ts), (array_agg((e.value)::float8 ORDER BY d.ts DESC, d.id DESC))[1]
    FROM (${bucketsSql}) b
    JOIN data_records d ON d.item_id = ${itemId} AND d.ts >= b.bucket AND d.ts < b.bucket_end
    CROSS JOIN LATERAL jsonb_each(d."values") AS e
    WHERE jsonb_typeof(e.value) = 'number'
    GROUP BY e.key, b.grain, b.bucket
  `);
}
