/**
 * A standard meter's register readings, read from its data item's records: one numeric field
 * (the cumulative energy, or any bound point), top-level records only. Values that are not JSON
 * numbers (a blank, a text) are no reading and skipped. Reads go straight to data_records by
 * (item_id, ts), the index the records module keeps for this.
 */
import { and, asc, desc, eq, gt, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { dataRecords } from '../records/tables';

export interface Reading {
  /** ms since the epoch */
  at: number;
  value: number;
}

const fieldValue = (key: string) => sql<number>`(${dataRecords.values} ->> ${key})::float8`;
const isNumber = (key: string): SQL => sql`jsonb_typeof(${dataRecords.values} -> ${key}) = 'number'`;

function base(companyId: number, itemId: number, key: string): SQL[] {
  return [
    eq(dataRecords.companyId, companyId),
    eq(dataRecords.itemId, itemId),
    isNull(dataRecords.parentId),
    isNumber(key),
  ];
}

/** The last reading at or before an instant, or null when there is none. */
export async function readingAtOrBefore(
  db: Db,
  companyId: number,
  itemId: number,
  key: string,
  at: number,
): Promise<Reading | null> {
  const [row] = await db
    .select({ ts: dataRecords.ts, value: fieldValue(key) })
    .from(dataRecords)
    .where(and(...base(companyId, itemId, key), lte(dataRecords.ts, new Date(at))))
    .orderBy(desc(dataRecords.ts), desc(dataRecords.id))
    .limit(1);
  return row ? { at: row.ts.getTime(), value: Number(row.value) } : null;
}

/** The readings after `from` up to and including `to`, oldest first. */
export async function readingsBetween(
  db: Db,
  companyId: number,
  itemId: number,
  key: string,
  from: number,
  to: number,
): Promise<Reading[]> {
  const rows = await db
    .select({ ts: dataRecords.ts, value: fieldValue(key) })
    .from(dataRecords)
    .where(
      and(
        ...base(companyId, itemId, key),
        gt(dataRecords.ts, new Date(from)),
        lte(dataRecords.ts, new Date(to)),
      ),
    )
    .orderBy(asc(dataRecords.ts), asc(dataRecords.id));
  return rows.map((r) => ({ at: r.ts.getTime(), value: Number(r.value) }));
}

/** The newest reading of a field, or null. */
export async function latestReading(
  db: Db,
  companyId: number,
  itemId: number,
  key: string,
): Promise<Reading | null> {
  const [row] = await db
    .select({ ts: dataRecords.ts, value: fieldValue(key) })
    .from(dataRecords)
    .where(and(...base(companyId, itemId, key)))
    .orderBy(desc(dataRecords.ts), desc(dataRecords.id))
    .limit(1);
  return row ? { at: row.ts.getTime(), value: Number(row.value) } : null;
}
