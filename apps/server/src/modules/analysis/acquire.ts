/**
 * The twelve acquisition methods over stored records, in SQL. The windows are the domain's
 * (`methodWindow` of packages/domain), so the answer equals the domain's `acquire()` over the
 * same series. Totals, averages, maxima and minima read the hour and day rollups for the
 * whole buckets inside the window and raw rows only for the partial hours at its edges, so a
 * month costs about thirty day rows plus two partial hours; the "last…" methods read the last
 * hour rollup of the window, and raw rows only in the partial hours at its edges.
 *
 * Buckets: hours are UTC hours; days are local days of the time zone, stored as the instant
 * of local midnight (apps/server/src/modules/ingest/store.ts writes them). Day rollups are
 * used only when local midnight falls on a whole UTC hour (every zone with a whole-hour
 * offset); otherwise hour rollups cover the middle.
 */
import {
  type AcquisitionMethod,
  DEFAULT_TIME_ZONE,
  EARLIEST_INSTANT,
  methodWindow,
  type TimeRange,
} from '@platform/domain';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { ROLLUP_TIME_ZONE } from '../ingest/store';

export interface AcquireQuery {
  itemId: number;
  /** field key of a numeric field */
  field: string;
  method: AcquisitionMethod;
  range?: TimeRange;
  /** range 'period': ISO instants or dates */
  from?: string | Date;
  to?: string | Date;
  now: Date;
  tz?: string;
}

const HOUR = 3_600_000;

function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

const num = (v: unknown): number | null => (v == null ? null : Number(v));

/** A JSON number of the field, as float8; rows whose field is not a number are not part of any series. */
function fieldValue(field: string): SQL {
  return sql`("values"->>${field})::float8`;
}
function isNumber(field: string): SQL {
  return sql`jsonb_typeof("values"->${field}) = 'number'`;
}

/** The value of the method over the item's stored records, or null when the window holds none. */
export async function acquireSql(db: Db, q: AcquireQuery): Promise<number | null> {
  const tz = q.tz ?? DEFAULT_TIME_ZONE;
  // same window and reduction as the domain's acquire(); a bad range throws TimeRangeError
  const window = methodWindow(
    q.method,
    q.now.getTime(),
    tz,
    q.range,
    q.from instanceof Date ? q.from.getTime() : q.from,
    q.to instanceof Date ? q.to.getTime() : q.to,
  );
  // "since the beginning" (latest) is no lower bound at all: Postgres cannot hold that instant
  const from = window.from <= EARLIEST_INSTANT ? null : new Date(window.from);
  const to = new Date(window.to);
  if (window.reduce === 'last') return lastInWindow(db, q.itemId, q.field, from, to);
  const stats = await statsInWindow(db, q.itemId, q.field, from, to, ROLLUP_TIME_ZONE);
  if (stats.count === 0) return null;
  switch (window.reduce) {
    case 'avg':
      return stats.sum / stats.count;
    case 'max':
      return stats.max;
    case 'min':
      return stats.min;
    default:
      return stats.sum;
  }
}

/**
 * The last numeric value with from ≤ ts < to (ties: the later insert); from null = no lower
 * bound. Latest part of the window first: raw rows of the partial hour at its end, then the
 * last whole hour that holds a value (its hour rollup keeps the last value), then raw rows of
 * the partial hour at its start. Each step is one short index read, whatever the window's size
 * and whatever the planner thinks of the numeric filter.
 */
async function lastInWindow(
  db: Db,
  itemId: number,
  field: string,
  from: Date | null,
  to: Date,
): Promise<number | null> {
  const he = new Date(Math.floor(to.getTime() / HOUR) * HOUR);
  const hs = from ? new Date(Math.ceil(from.getTime() / HOUR) * HOUR) : null;
  if (hs && hs.getTime() >= he.getTime()) return lastRaw(db, itemId, field, from, to);
  if (he.getTime() < to.getTime()) {
    const tail = await lastRaw(db, itemId, field, he, to);
    if (tail !== null) return tail;
  }
  const hour = await db.execute(sql`
    SELECT last_value AS v FROM data_rollups
    WHERE item_id = ${itemId} AND field_key = ${field} AND grain = 'h'
      AND bucket < ${he.toISOString()}::timestamptz
      ${hs ? sql`AND bucket >= ${hs.toISOString()}::timestamptz` : sql``}
    ORDER BY bucket DESC
    LIMIT 1`);
  const whole = num(rowsOf<{ v: unknown }>(hour)[0]?.v);
  if (whole !== null) return whole;
  if (from && hs && from.getTime() < hs.getTime()) return lastRaw(db, itemId, field, from, hs);
  return null;
}

/** The last numeric value among raw rows with from ≤ ts < to (ties: the later insert). */
async function lastRaw(
  db: Db,
  itemId: number,
  field: string,
  from: Date | null,
  to: Date,
): Promise<number | null> {
  // the last instant first (max() walks the (item_id, ts) index backwards and stops at the first
  // numeric row), then the latest insert at that instant: ORDER BY ts DESC, id DESC in one
  // query let the planner sort every row of the window when it misjudged the numeric filter
  const result = await db.execute(sql`
    SELECT ${fieldValue(field)} AS v FROM data_records
    WHERE item_id = ${itemId} AND ${isNumber(field)}
      AND ts = (
        SELECT max(ts) FROM data_records
        WHERE item_id = ${itemId} AND ts < ${to.toISOString()}::timestamptz
          ${from ? sql`AND ts >= ${from.toISOString()}::timestamptz` : sql``}
          AND ${isNumber(field)}
      )
    ORDER BY id DESC
    LIMIT 1`);
  return num(rowsOf<{ v: unknown }>(result)[0]?.v);
}

export interface WindowStats {
  count: number;
  sum: number;
  min: number | null;
  max: number | null;
}

/**
 * Count, sum, min and max of the field over [from, to): day rollups for whole local days,
 * hour rollups for whole hours around them, raw rows for the partial hours at both edges.
 * `tz` is the zone the day rollups were bucketed in (ROLLUP_TIME_ZONE), not the zone of the
 * window: the window may start and end anywhere.
 */
export async function statsInWindow(
  db: Db,
  itemId: number,
  field: string,
  from: Date | null,
  to: Date,
  tz: string = ROLLUP_TIME_ZONE,
): Promise<WindowStats> {
  const start = from ?? (await firstTs(db, itemId, field));
  if (!start || start.getTime() >= to.getTime()) return { count: 0, sum: 0, min: null, max: null };
  const hs = new Date(Math.ceil(start.getTime() / HOUR) * HOUR);
  const he = new Date(Math.floor(to.getTime() / HOUR) * HOUR);
  const parts: SQL[] = [];
  const raw = (a: Date, b: Date) =>
    sql`SELECT count(*)::float8 AS n, sum(${fieldValue(field)}) AS s,
               min(${fieldValue(field)}) AS lo, max(${fieldValue(field)}) AS hi
        FROM data_records
        WHERE item_id = ${itemId} AND ts >= ${a.toISOString()}::timestamptz
          AND ts < ${b.toISOString()}::timestamptz AND ${isNumber(field)}`;
  if (hs.getTime() >= he.getTime()) {
    parts.push(raw(start, to));
  } else {
    if (start.getTime() < hs.getTime()) parts.push(raw(start, hs));
    if (he.getTime() < to.getTime()) parts.push(raw(he, to));
    const hsText = hs.toISOString();
    const heText = he.toISOString();
    // whole local days inside [hs, he): from the first local midnight at or after hs to the
    // last one at or before he; used only when both fall on whole UTC hours
    parts.push(sql`
      SELECT sum(r.count)::float8 AS n, sum(r.sum) AS s, min(r.min) AS lo, max(r.max) AS hi
      FROM data_rollups r, days
      WHERE r.item_id = ${itemId} AND r.field_key = ${field} AND r.grain = 'd'
        AND days.ok AND r.bucket >= days.ds AND r.bucket < days.de`);
    parts.push(sql`
      SELECT sum(r.count)::float8, sum(r.sum), min(r.min), max(r.max)
      FROM data_rollups r, days
      WHERE r.item_id = ${itemId} AND r.field_key = ${field} AND r.grain = 'h'
        AND r.bucket >= ${hsText}::timestamptz AND r.bucket < ${heText}::timestamptz
        AND NOT (days.ok AND r.bucket >= days.ds AND r.bucket < days.de)`);
    const query = sql`
      WITH bounds AS (
        SELECT CASE WHEN date_trunc('day', ${hsText}::timestamptz, ${tz}) = ${hsText}::timestamptz
                    THEN ${hsText}::timestamptz
                    ELSE ((date_trunc('day', ${hsText}::timestamptz, ${tz}) AT TIME ZONE ${tz})
                          + interval '1 day') AT TIME ZONE ${tz} END AS ds,
               date_trunc('day', ${heText}::timestamptz, ${tz}) AS de
      ),
      days AS (
        SELECT ds, de,
               ds < de AND date_trunc('hour', ds, 'UTC') = ds AND date_trunc('hour', de, 'UTC') = de AS ok
        FROM bounds
      )
      SELECT sum(n) AS n, sum(s) AS s, min(lo) AS lo, max(hi) AS hi
      FROM (${sql.join(parts, sql` UNION ALL `)}) p`;
    return statsOf(await db.execute(query));
  }
  return statsOf(
    await db.execute(sql`SELECT sum(n) AS n, sum(s) AS s, min(lo) AS lo, max(hi) AS hi
      FROM (${sql.join(parts, sql` UNION ALL `)}) p`),
  );
}

function statsOf(result: unknown): WindowStats {
  const row = rowsOf<{ n: unknown; s: unknown; lo: unknown; hi: unknown }>(result)[0];
  const count = num(row?.n) ?? 0;
  return { count, sum: count === 0 ? 0 : (num(row?.s) ?? 0), min: num(row?.lo), max: num(row?.hi) };
}

/** The first numeric record's time, for windows without a lower bound. */
async function firstTs(db: Db, itemId: number, field: string): Promise<Date | null> {
  const result = await db.execute(sql`
    SELECT min(first_ts) AS t FROM data_rollups
    WHERE item_id = ${itemId} AND field_key = ${field} AND grain = 'd'`);
  const t = rowsOf<{ t: unknown }>(result)[0]?.t;
  return t == null ? null : new Date(t as string);
}
