/**
 * Data items (spec points 3, 5): definitions (fields, sources, form, title field), jump
 * associations and item groups. An item is reached only through the caller's company and its
 * cabin node's data permission: unreadable answers 40400, too low a level 40300.
 */
import {
  DATA_PERMISSION,
  type DataPermission,
  type DataSource,
  type FieldDef,
  type FormElement,
  type JumpCondition,
  type JumpMapping,
} from '@platform/domain';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { type DataCaller, levelsFor, requireLevel } from '../cabin/permissions';
import { dataItemJumps, dataItems, itemGroupMembers, itemGroups } from './tables';

export type ItemRow = typeof dataItems.$inferSelect;

export interface ItemView {
  id: number;
  nodeId: number;
  name: string;
  kind: number;
  fields: FieldDef[];
  sources: DataSource[];
  form: FormElement[];
  titleField: string | null;
  publicCollect: boolean;
  description: string | null;
  level: DataPermission;
}

/**
 * The item of the caller's company when the caller holds `needed` on its node; 40400 naming
 * `field` when it is absent, of another company or unreadable, 40300 when the level is too low.
 */
export async function itemFor(
  db: Db,
  caller: DataCaller,
  itemId: number,
  needed: DataPermission,
  field = 'itemId',
): Promise<{ item: ItemRow; level: DataPermission }> {
  const [item] = await db
    .select()
    .from(dataItems)
    .where(and(eq(dataItems.id, itemId), eq(dataItems.companyId, caller.companyId)));
  if (!item) throw new AppError('notFound', {}, { field });
  const level = await requireLevel(db, caller, item.nodeId, needed, field);
  return { item, level };
}

export function itemView(item: ItemRow, level: DataPermission): ItemView {
  return {
    id: item.id,
    nodeId: item.nodeId,
    name: item.name,
    kind: item.kind,
    fields: item.fields,
    sources: item.sources,
    form: item.form,
    titleField: item.titleField,
    publicCollect: item.publicCollect,
    description: item.description,
    level,
  };
}

export async function updateItem(
  db: Db,
  itemId: number,
  patch: Partial<
    Pick<
      ItemRow,
      'fields' | 'nextFieldNo' | 'sources' | 'titleField' | 'publicCollect' | 'description' | 'form'
    >
  >,
): Promise<ItemRow> {
  const [row] = await db
    .update(dataItems)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(dataItems.id, itemId))
    .returning();
  return row!;
}

export interface JumpView {
  id: number;
  priority: number;
  name: string;
  conditions: JumpCondition[];
  targetItemId: number;
  targetName: string;
  mapping: JumpMapping[];
  enabled: boolean;
}

export async function listJumps(db: Db, itemId: number): Promise<JumpView[]> {
  return db
    .select({
      id: dataItemJumps.id,
      priority: dataItemJumps.priority,
      name: dataItemJumps.name,
      conditions: dataItemJumps.conditions,
      targetItemId: dataItemJumps.targetItemId,
      targetName: dataItems.name,
      mapping: dataItemJumps.mapping,
      enabled: dataItemJumps.enabled,
    })
    .from(dataItemJumps)
    .innerJoin(dataItems, eq(dataItems.id, dataItemJumps.targetItemId))
    .where(eq(dataItemJumps.itemId, itemId))
    .orderBy(desc(dataItemJumps.priority), asc(dataItemJumps.id));
}

export interface JumpInput {
  priority: number;
  name: string;
  conditions: JumpCondition[];
  targetItemId: number;
  mapping: JumpMapping[];
  enabled: boolean;
}

export async function saveJump(
  db: Db,
  itemId: number,
  id: number | undefined,
  input: JumpInput,
): Promise<number> {
  if (id === undefined) {
    const [row] = await db
      .insert(dataItemJumps)
      .values({ itemId, ...input })
      .returning({ id: dataItemJumps.id });
    return row!.id;
  }
  const [row] = await db
    .update(dataItemJumps)
    .set(input)
    .where(and(eq(dataItemJumps.id, id), eq(dataItemJumps.itemId, itemId)))
    .returning({ id: dataItemJumps.id });
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  return row.id;
}

export async function deleteJump(db: Db, itemId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(dataItemJumps)
    .where(and(eq(dataItemJumps.id, id), eq(dataItemJumps.itemId, itemId)))
    .returning({ id: dataItemJumps.id });
  if (deleted.length === 0) throw new AppError('notFound', {}, { field: 'id' });
}

// ---- item groups ----

export async function listItemGroups(
  db: Db,
  companyId: number,
  page: { limit: number; offset: number },
): Promise<{
  list: Array<{ id: number; name: string; itemCount: number; createdAt: string }>;
  total: number;
}> {
  const where = eq(itemGroups.companyId, companyId);
  const [total] = await db.select({ n: count() }).from(itemGroups).where(where);
  const rows = await db
    .select({
      id: itemGroups.id,
      name: itemGroups.name,
      itemCount: count(itemGroupMembers.itemId),
      createdAt: itemGroups.createdAt,
    })
    .from(itemGroups)
    .leftJoin(itemGroupMembers, eq(itemGroupMembers.groupId, itemGroups.id))
    .where(where)
    .groupBy(itemGroups.id)
    .orderBy(desc(itemGroups.createdAt), desc(itemGroups.id))
    .limit(page.limit)
    .offset(page.offset);
  return { list: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })), total: total?.n ?? 0 };
}

async function itemGroupOf(db: Db, companyId: number, id: number, field: string) {
  const [row] = await db
    .select()
    .from(itemGroups)
    .where(and(eq(itemGroups.id, id), eq(itemGroups.companyId, companyId)));
  if (!row) throw new AppError('notFound', {}, { field });
  return row;
}

/** Readable items among the ids, in the given order; the others are absent. */
async function readableItems(
  db: Db,
  caller: DataCaller,
  itemIds: readonly number[],
): Promise<Array<{ itemId: number; name: string; kind: number; nodeId: number }>> {
  if (itemIds.length === 0) return [];
  const rows = await db
    .select({ itemId: dataItems.id, name: dataItems.name, kind: dataItems.kind, nodeId: dataItems.nodeId })
    .from(dataItems)
    .where(and(eq(dataItems.companyId, caller.companyId), inArray(dataItems.id, [...itemIds])));
  const levels = await levelsFor(
    db,
    caller,
    rows.map((r) => r.nodeId),
  );
  const byId = new Map(rows.map((r) => [r.itemId, r]));
  return itemIds
    .map((id) => byId.get(id))
    .filter(
      (r): r is NonNullable<typeof r> => r != null && (levels.get(r.nodeId) ?? 0) > DATA_PERMISSION.none,
    );
}

export async function saveItemGroup(
  db: Db,
  caller: DataCaller,
  input: { id?: number; name: string; itemIds: number[] },
): Promise<number> {
  const itemIds = [...new Set(input.itemIds)];
  const readable = await readableItems(db, caller, itemIds);
  if (readable.length !== itemIds.length)
    throw new AppError('validation', { field: 'itemIds' }, { field: 'itemIds' });
  if (input.id !== undefined) await itemGroupOf(db, caller.companyId, input.id, 'id');
  return db.transaction(async (tx) => {
    let id = input.id;
    if (id === undefined) {
      const [row] = await tx
        .insert(itemGroups)
        .values({ companyId: caller.companyId, name: input.name })
        .returning({ id: itemGroups.id });
      id = row!.id;
    } else {
      await tx.update(itemGroups).set({ name: input.name }).where(eq(itemGroups.id, id));
      await tx.delete(itemGroupMembers).where(eq(itemGroupMembers.groupId, id));
    }
    const groupId = id;
    if (itemIds.length > 0) {
      await tx
        .insert(itemGroupMembers)
        .values(itemIds.map((itemId, sortOrder) => ({ groupId, itemId, sortOrder })));
    }
    return groupId;
  });
}

export async function deleteItemGroup(db: Db, companyId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(itemGroups)
    .where(and(eq(itemGroups.id, id), eq(itemGroups.companyId, companyId)))
    .returning({ id: itemGroups.id });
  if (deleted.length === 0) throw new AppError('notFound', {}, { field: 'id' });
}

export async function getItemGroup(
  db: Db,
  caller: DataCaller,
  groupId: number,
): Promise<{
  id: number;
  name: string;
  items: Array<{ itemId: number; name: string; kind: number; nodeId: number }>;
}> {
  const group = await itemGroupOf(db, caller.companyId, groupId, 'groupId');
  const members = await db
    .select({ itemId: itemGroupMembers.itemId })
    .from(itemGroupMembers)
    .where(eq(itemGroupMembers.groupId, group.id))
    .orderBy(asc(itemGroupMembers.sortOrder), asc(itemGroupMembers.itemId));
  const items = await readableItems(
    db,
    caller,
    members.map((m) => m.itemId),
  );
  return { id: group.id, name: group.name, items };
}
