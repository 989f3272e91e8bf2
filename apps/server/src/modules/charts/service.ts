/**
 * Charts of a data item: stored under the item, read under the item's data permission (read to
 * view, read and write to change). Every query is scoped by the item, itself checked against
 * the caller's company and level first (analysis itemFor), so another company's chart id answers
 * as one that does not exist.
 */
import {
  type ChartConfig,
  checkChartConfig,
  checkName,
  DATA_PERMISSION,
  type DataPermission,
  type FieldDef,
} from '@platform/domain';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import { itemFor } from '../analysis/service';
import { type DataCaller, levelOf } from '../cabin/permissions';
import { charts } from './tables';

export interface ChartItemRef {
  id: number;
  nodeId: number;
  companyId: number;
  name: string;
  fields: FieldDef[];
}

export interface ChartRow {
  id: number;
  itemId: number;
  name: string;
  type: string;
  updatedAt: string;
}

export interface ChartView extends ChartRow {
  config: ChartConfig;
}

/** The item, refused (40400 on itemId, or 40300) unless the caller holds `level` on it. */
export function chartItem(
  db: Db,
  caller: DataCaller,
  itemId: number,
  level: DataPermission,
): Promise<ChartItemRef> {
  return itemFor(db, caller, itemId, level);
}

/** Whether the caller may change the item's charts (read and write or above). */
export async function canEdit(db: Db, caller: DataCaller, item: ChartItemRef): Promise<boolean> {
  return (await levelOf(db, caller, item.nodeId)) >= DATA_PERMISSION.write;
}

const view = (r: typeof charts.$inferSelect): ChartView => ({
  id: r.id,
  itemId: r.itemId,
  name: r.name,
  type: r.type,
  config: r.config,
  updatedAt: r.updatedAt.toISOString(),
});

export async function listCharts(db: Db, itemId: number): Promise<ChartRow[]> {
  const rows = await db.select().from(charts).where(eq(charts.itemId, itemId)).orderBy(asc(charts.id));
  return rows.map(({ config: _config, ...r }) => ({
    id: r.id,
    itemId: r.itemId,
    name: r.name,
    type: r.type,
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/** The item's chart, or 40400 on `field`. */
export async function chartOf(db: Db, itemId: number, id: number, field = 'id'): Promise<ChartView> {
  const [row] = await db
    .select()
    .from(charts)
    .where(and(eq(charts.id, id), eq(charts.itemId, itemId)));
  if (!row) throw new AppError('notFound', {}, { field });
  return view(row);
}

/** The configuration checked against the item's fields, or the broken field's error. */
export function checkedConfig(item: ChartItemRef, config: unknown): ChartConfig {
  const checked = checkChartConfig(config, item.fields);
  if (!checked.ok) {
    throw new AppError(checked.key, { field: checked.field, ...checked.params }, { field: checked.field });
  }
  return checked.config;
}

export async function saveChart(
  db: Db,
  caller: DataCaller,
  item: ChartItemRef,
  input: { id?: number; name: string; config: unknown },
): Promise<{ id: number }> {
  const name = input.name.trim();
  const broken = checkName(name);
  if (broken) throw fieldError('name', broken);
  const config = checkedConfig(item, input.config);
  if (input.id !== undefined) {
    const [row] = await db
      .update(charts)
      .set({ name, type: config.type, config, updatedAt: new Date() })
      .where(and(eq(charts.id, input.id), eq(charts.itemId, item.id)))
      .returning({ id: charts.id });
    if (!row) throw new AppError('notFound', {}, { field: 'id' });
    return row;
  }
  const [row] = await db
    .insert(charts)
    .values({
      companyId: item.companyId,
      itemId: item.id,
      name,
      type: config.type,
      config,
      createdBy: caller.userId,
    })
    .returning({ id: charts.id });
  return row!;
}

export async function deleteChart(db: Db, itemId: number, id: number): Promise<void> {
  const gone = await db
    .delete(charts)
    .where(and(eq(charts.id, id), eq(charts.itemId, itemId)))
    .returning({ id: charts.id });
  if (gone.length === 0) throw new AppError('notFound', {}, { field: 'id' });
}
