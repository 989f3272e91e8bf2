/**
 * Business document numbers: the kind's letters, a calendar day and the document's id, at least
 * five digits (RK-20261127-00042). Inventory entry and exit orders (RK, CK) and sales orders (SO)
 * take the day they are made on in the company's time zone; production plans (SC) take their
 * start day, gas certificates (COA) the day certified.
 */
import { formatInstant } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { PgColumn, PgInsertValue, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { companyTimeZone } from '../modules/companies/service';
import type { Db } from './db';

/** `PREFIX-yyyyMMdd-00042` of a day 'yyyy-MM-dd' and an id. */
export function docNumber(prefix: string, day: string, id: number): string {
  return `${prefix}-${day.replaceAll('-', '')}-${String(id).padStart(5, '0')}`;
}

/** The company's calendar day at an instant (now by default), 'yyyy-MM-dd' in its time zone. */
export async function companyDay(db: Db, companyId: number, at: number = Date.now()): Promise<string> {
  return formatInstant(at, 'yyyy-MM-dd', await companyTimeZone(db, companyId));
}

/** A table whose rows are named by a unique number made of their serial id. */
type NumberedTable = PgTable & { id: PgColumn; number: PgColumn };

/**
 * Inserts a row and numbers it by its id (`docNumber(prefix, day, id)`): inserted under a
 * placeholder unique to this insert, then renamed, in the caller's transaction.
 */
export async function insertNumbered<T extends NumberedTable>(
  db: Db,
  table: T,
  prefix: string,
  day: string,
  values: Omit<T['$inferInsert'], 'number'>,
): Promise<{ id: number; number: string }> {
  const placeholder = `${prefix}-${day.replaceAll('-', '')}-${crypto.randomUUID().slice(0, 8)}`;
  const [row] = await db
    .insert(table)
    .values({ ...values, number: placeholder } as PgInsertValue<T>)
    .returning({ id: table.id });
  const id = (row as { id: number }).id;
  const number = docNumber(prefix, day, id);
  await db
    .update(table)
    .set({ number } as PgUpdateSetSource<T>)
    .where(eq(table.id, id));
  return { id, number };
}
