/**
 * A device's points over time, bucketed on the server: each bucket carries the average, the
 * minimum, the maximum and the count of the numbers stored in it, so a month of 10-second data
 * is 720 buckets and not 260 000 rows. Buckets up to 30 minutes wide are read from the records;
 * wider ones from the hourly rollups the ingest pipeline keeps (records/tables.ts), which is
 * what keeps a long range cheap on the embedded database too.
 */
import { and, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { dataRecords, dataRollups } from '../records/tables';

/** buckets a range is cut into at most */
export const MAX_BUCKETS = 720;
/** the longest range a chart may ask for */
export const MAX_RANGE_DAYS = 93;
/** points in one chart at most */
export const MAX_SERIES_POINTS = 20;

/** Bucket widths, seconds: the narrowest that cuts the range into at most MAX_BUCKETS. */
const WIDTHS_S = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 345600,
];
/** from this width on, buckets are read from the hourly rollups */
export const HOUR_S = 3600;

/**
 * The narrowest bucket width (at least minWidthS) that cuts [from, to) into at most maxBuckets;
 * the widest there is when none does. Charts of data items ask for their own bound (their
 * width in pixels) and for rollups on long ranges (minWidthS = HOUR_S).
 */
export function bucketWidthS(from: Date, to: Date, maxBuckets = MAX_BUCKETS, minWidthS = 1): number {
  const rangeS = Math.max(1, (to.getTime() - from.getTime()) / 1000);
  return WIDTHS_S.find((w) => w >= minWidthS && rangeS / w <= maxBuckets) ?? WIDTHS_S[WIDTHS_S.length - 1]!;
}

/** [bucket start ms, average, minimum, maximum, count] */
export type Bucket = [number, number, number, number, number];

interface Row {
  bucket: Date | string;
  avg: string | number;
  min: string | number;
  max: string | number;
  count: string | number;
}

const toBuckets = (rows: Row[]): Bucket[] =>
  rows.map((r) => [
    new Date(r.bucket).getTime(),
    Number(r.avg),
    Number(r.min),
    Number(r.max),
    Number(r.count),
  ]);

/** The buckets of one numeric field of an item in [from, to). */
export async function seriesOf(
  db: Db,
  companyId: number,
  itemId: number,
  fieldKey: string,
  from: Date,
  to: Date,
  widthS: number,
): Promise<Bucket[]> {
  if (!WIDTHS_S.includes(widthS)) throw new Error(`no bucket width of ${widthS} s`);
  // inline, not a parameter: GROUP BY must see the same expression as the select list, and
  // the width is one of WIDTHS_S (checked above), never text from a request
  const width = sql.raw(`interval '${widthS} seconds'`);
  if (widthS >= HOUR_S) {
    // hourly rollups: the hour containing `from` is taken whole
    const start = new Date(Math.floor(from.getTime() / (HOUR_S * 1000)) * HOUR_S * 1000);
    const bucket = sql<Date>`date_bin(${width}, ${dataRollups.bucket}, timestamptz '1970-01-01T00:00:00Z')`;
    const rows = await db
      .select({
        bucket,
        avg: sql<string>`sum(${dataRollups.sum}) / nullif(sum(${dataRollups.count}), 0)`,
        min: sql<string>`min(${dataRollups.min})`,
        max: sql<string>`max(${dataRollups.max})`,
        count: sql<string>`sum(${dataRollups.count})`,
      })
      .from(dataRollups)
      .where(
        and(
          eq(dataRollups.itemId, itemId),
          eq(dataRollups.fieldKey, fieldKey),
          eq(dataRollups.grain, 'h'),
          gte(dataRollups.bucket, start),
          lt(dataRollups.bucket, to),
        ),
      )
      .groupBy(bucket)
      .orderBy(bucket);
    return toBuckets(rows);
  }
  const value = sql`(case when jsonb_typeof(${dataRecords.values} -> ${fieldKey}::text) = 'number' then (${dataRecords.values} ->> ${fieldKey}::text)::float8 end)`;
  const bucket = sql<Date>`date_bin(${width}, ${dataRecords.ts}, timestamptz '1970-01-01T00:00:00Z')`;
  const rows = await db
    .select({
      bucket,
      avg: sql<string>`avg(${value})`,
      min: sql<string>`min(${value})`,
      max: sql<string>`max(${value})`,
      count: sql<string>`count(${value})`,
    })
    .from(dataRecords)
    .where(
      and(
        eq(dataRecords.companyId, companyId),
        eq(dataRecords.itemId, itemId),
        isNull(dataRecords.parentId),
        gte(dataRecords.ts, from),
        lt(dataRecords.ts, to),
      ),
    )
    .groupBy(bucket)
    .having(sql`count(${value}) > 0`)
    .orderBy(bucket);
  return toBuckets(rows);
}
