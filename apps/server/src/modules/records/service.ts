/**
 * Records of a data item: reading, editing, deleting and clearing. New records go through the
 * ingest pipeline (routes call `app.ingest.write`), edits and deletes recompute the rollup
 * buckets they touch, so acquisition methods never read stale sums.
 */
import type { DataPermission, FieldDef, RecordValues } from '@platform/domain';
import { and, asc, count, eq, gt, inArray, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { type DataCaller, requireLevel } from '../cabin/permissions';
import { dataItems } from '../dataitems/tables';
import { recomputeRollups } from '../ingest/store';
import { dataRecords, dataRollups } from './tables';

export interface RecordItem {
  id: number;
  companyId: number;
  nodeId: number;
  name: string;
  kind: number;
  fields: FieldDef[];
}

export interface RecordRow {
  id: number;
  ts: string;
  values: RecordValues;
  parentId: number | null;
  source: string;
  createdAt: string;
  createdBy: number | null;
}

/**
 * The item of the caller's company with at least `level` on its node: another company's item,
 * or one the caller cannot read, is 40400 on `itemId` as if it did not exist.
 */
export async function itemFor(
  db: Db,
  caller: DataCaller,
  itemId: number,
  level: DataPermission,
): Promise<RecordItem> {
  const [item] = await db
    .select({
      id: dataItems.id,
      companyId: dataItems.companyId,
      nodeId: dataItems.nodeId,
      name: dataItems.name,
      kind: dataItems.kind,
      fields: dataItems.fields,
    })
    .from(dataItems)
    .where(and(eq(dataItems.id, itemId), eq(dataItems.companyId, caller.companyId)));
  if (!item) throw new AppError('notFound', {}, { field: 'itemId' });
  await requireLevel(db, caller, item.nodeId, level, 'itemId');
  return item;
}

/**
 * A parent record (ChildValue): a record of an item of the caller's company that the caller can
 * read; anything else is 40400 on `parentId`.
 */
export async function requireParent(db: Db, caller: DataCaller, parentId: number): Promise<void> {
  const [parent] = await db
    .select({ nodeId: dataItems.nodeId })
    .from(dataRecords)
    .innerJoin(dataItems, eq(dataItems.id, dataRecords.itemId))
    .where(and(eq(dataRecords.id, parentId), eq(dataRecords.companyId, caller.companyId)));
  if (!parent) throw new AppError('notFound', {}, { field: 'parentId' });
  await requireLevel(db, caller, parent.nodeId, 1, 'parentId');
}

/** Only the item's current fields: values of removed fields stay stored but hidden. */
export function visibleValues(values: RecordValues, fields: FieldDef[]): RecordValues {
  const out: RecordValues = {};
  for (const f of fields) if (f.key in values) out[f.key] = values[f.key] ?? null;
  return out;
}

const ROW = {
  id: dataRecords.id,
  ts: dataRecords.ts,
  values: dataRecords.values,
  parentId: dataRecords.parentId,
  source: dataRecords.source,
  createdAt: dataRecords.createdAt,
  createdBy: dataRecords.createdBy,
};

interface RawRow {
  id: number;
  ts: Date;
  values: RecordValues;
  parentId: number | null;
  source: string;
  createdAt: Date;
  createdBy: number | null;
}

function toRow(r: RawRow, fields: FieldDef[]): RecordRow {
  return {
    id: r.id,
    ts: r.ts.toISOString(),
    values: visibleValues(r.values, fields),
    parentId: r.parentId,
    source: r.source,
    createdAt: r.createdAt.toISOString(),
    createdBy: r.createdBy,
  };
}

export async function listRecords(
  db: Db,
  item: RecordItem,
  where: SQL,
  order: SQL[],
  page: { limit: number; offset: number },
): Promise<{ list: RecordRow[]; total: number }> {
  const [rows, [totalRow]] = await Promise.all([
    db
      .select(ROW)
      .from(dataRecords)
      .where(where)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(dataRecords).where(where),
  ]);
  return { list: rows.map((r) => toRow(r, item.fields)), total: totalRow?.n ?? 0 };
}

/**
 * The query's records oldest first, in batches that continue after the last (ts, id) seen, so
 * an export of a big item neither holds it in memory nor rescans skipped rows.
 */
export async function* recordBatches(
  db: Db,
  item: RecordItem,
  where: SQL,
  batchSize = 2000,
): AsyncGenerator<RecordRow[]> {
  let after: { ts: Date; id: number } | null = null;
  for (;;) {
    const page: SQL = after
      ? (and(
          where,
          or(gt(dataRecords.ts, after.ts), and(eq(dataRecords.ts, after.ts), gt(dataRecords.id, after.id))),
        ) as SQL)
      : where;
    const rows = await db
      .select(ROW)
      .from(dataRecords)
      .where(page)
      .orderBy(asc(dataRecords.ts), asc(dataRecords.id))
      .limit(batchSize);
    if (rows.length > 0) yield rows.map((r) => toRow(r, item.fields));
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { ts: last.ts, id: last.id };
  }
}

/** One record of the item, or 40400 on `id`. */
export async function recordOf(db: Db, item: RecordItem, id: number): Promise<RawRow> {
  const [row] = await db
    .select(ROW)
    .from(dataRecords)
    .where(and(eq(dataRecords.id, id), eq(dataRecords.itemId, item.id)));
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  return row;
}

/** Replaces a record's values (already merged and checked by the caller) and its buckets' rollups. */
export async function saveValues(
  db: Db,
  item: RecordItem,
  id: number,
  ts: Date,
  values: RecordValues,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(dataRecords)
      .set({ values, updatedAt: new Date() })
      .where(and(eq(dataRecords.id, id), eq(dataRecords.itemId, item.id)));
    await recomputeRollups(tx, item.id, [ts]);
  });
}

/**
 * Deletes records of the item, all or nothing: an id that is not a record of this item is
 * 40400 on `ids` and nothing is deleted. Returns the times of the deleted records.
 */
export async function deleteRecords(db: Db, item: RecordItem, ids: number[]): Promise<Date[]> {
  return db.transaction(async (tx) => {
    const found = await tx
      .select({ id: dataRecords.id, ts: dataRecords.ts })
      .from(dataRecords)
      .where(and(eq(dataRecords.itemId, item.id), inArray(dataRecords.id, ids)))
      .for('update');
    if (found.length !== ids.length) throw new AppError('notFound', {}, { field: 'ids' });
    await tx.delete(dataRecords).where(and(eq(dataRecords.itemId, item.id), inArray(dataRecords.id, ids)));
    await recomputeRollups(
      tx,
      item.id,
      found.map((r) => r.ts),
    );
    return found.map((r) => r.ts);
  });
}

/** Every record and rollup of the item. */
export async function clearRecords(db: Db, item: RecordItem): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(dataRecords).where(eq(dataRecords.itemId, item.id));
    await tx.delete(dataRollups).where(eq(dataRollups.itemId, item.id));
  });
}
