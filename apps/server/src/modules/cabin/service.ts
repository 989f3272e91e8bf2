/**
 * The data cabin: one directory tree per company (spec points 3, 5, 6). Every query goes
 * through the caller's company, and every node is checked with the data permission resolver
 * (permissions.ts), so a node of another company or one the caller cannot read answers as
 * absent. Bulk operations check every node first and then write in one transaction.
 */
import {
  type CabinNodeType,
  COPYABLE_NODE_TYPES,
  DATA_PERMISSION,
  type DataPermission,
  type PermissionEntry,
  TEMPLATE_NODE_TYPES,
} from '@platform/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import { companyMembers } from '../companies/tables';
import { dataItemJumps, dataItems } from '../dataitems/tables';
import { devices } from '../devices/tables';
import { userGroups } from '../groups/tables';
import { meters } from '../meters/tables';
import { dataRecords, dataRollups } from '../records/tables';
import { templates } from '../templates/tables';
import { type DataCaller, levelsFor, requireLevel } from './permissions';
import { cabinNodes, cabinPermissions } from './tables';

export interface TreeRow {
  id: number;
  parentId: number | null;
  type: string;
  name: string;
  refId: number | null;
  sortOrder: number;
  level: DataPermission;
  updatedAt: string;
  kind?: number;
}

type NodeRow = typeof cabinNodes.$inferSelect;

/** Every node of the company (one query), with the kind of data items. */
async function companyNodes(db: Db, companyId: number): Promise<Array<NodeRow & { kind: number | null }>> {
  const rows = await db
    .select({ node: cabinNodes, kind: dataItems.kind })
    .from(cabinNodes)
    .leftJoin(dataItems, eq(dataItems.nodeId, cabinNodes.id))
    .where(eq(cabinNodes.companyId, companyId))
    .orderBy(cabinNodes.sortOrder, cabinNodes.id);
  return rows.map((r) => ({ ...r.node, kind: r.kind }));
}

function toTreeRow(node: NodeRow & { kind: number | null }, level: DataPermission): TreeRow {
  const row: TreeRow = {
    id: node.id,
    parentId: node.parentId,
    type: node.type,
    name: node.name,
    refId: node.refId,
    sortOrder: node.sortOrder,
    level,
    updatedAt: node.updatedAt.toISOString(),
  };
  if (node.type === 'dataItem' && node.kind != null) row.kind = node.kind;
  return row;
}

/**
 * Every node the caller can read. A readable node under a directory the caller cannot read
 * keeps its real parentId; the parent is simply absent from the list, and the UI shows such a
 * node at the top.
 */
export async function cabinTree(db: Db, caller: DataCaller): Promise<TreeRow[]> {
  const [nodes, levels] = await Promise.all([companyNodes(db, caller.companyId), levelsFor(db, caller)]);
  const rows: TreeRow[] = [];
  for (const node of nodes) {
    const level = levels.get(node.id) ?? DATA_PERMISSION.none;
    if (level > DATA_PERMISSION.none) rows.push(toTreeRow(node, level));
  }
  return rows;
}

/**
 * Readable nodes whose name contains the keyword (case-insensitive), each with `path`: the
 * names from the top down to the node itself. Directories the caller cannot read are left
 * out of the path (their names are not disclosed).
 */
export async function cabinSearch(
  db: Db,
  caller: DataCaller,
  keyword: string,
): Promise<Array<TreeRow & { path: string[] }>> {
  const needle = keyword.trim().toLowerCase();
  const [nodes, levels] = await Promise.all([companyNodes(db, caller.companyId), levelsFor(db, caller)]);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const readable = (id: number) => (levels.get(id) ?? DATA_PERMISSION.none) > DATA_PERMISSION.none;
  const out: Array<TreeRow & { path: string[] }> = [];
  for (const node of nodes) {
    if (!readable(node.id) || !node.name.toLowerCase().includes(needle)) continue;
    const path: string[] = [];
    const seen = new Set<number>();
    for (let cur: NodeRow | undefined = node; cur && !seen.has(cur.id); ) {
      seen.add(cur.id);
      if (readable(cur.id)) path.unshift(cur.name);
      cur = cur.parentId == null ? undefined : byId.get(cur.parentId);
    }
    out.push({ ...toTreeRow(node, levels.get(node.id) ?? DATA_PERMISSION.none), path });
  }
  return out;
}

/** A node of the caller's company the caller holds `needed` on; 40400 / 40300 otherwise. */
export async function nodeFor(
  db: Db,
  caller: DataCaller,
  nodeId: number,
  needed: DataPermission,
  field = 'id',
): Promise<NodeRow> {
  await requireLevel(db, caller, nodeId, needed, field);
  const [node] = await db
    .select()
    .from(cabinNodes)
    .where(and(eq(cabinNodes.id, nodeId), eq(cabinNodes.companyId, caller.companyId)));
  if (!node) throw new AppError('notFound', {}, { field });
  return node;
}

/** The target directory of create / move / copy: a directory with level 2 or more. */
async function targetDirectory(db: Db, caller: DataCaller, id: number, field: string): Promise<NodeRow> {
  const node = await nodeFor(db, caller, id, DATA_PERMISSION.read, field);
  if (node.type !== 'directory')
    throw fieldError(field, field === 'parentId' ? 'parentRequired' : 'selectDirectory');
  await requireLevel(db, caller, id, DATA_PERMISSION.write, field);
  return node;
}

export async function createNode(
  db: Db,
  caller: DataCaller,
  input: { parentId: number | null; type: CabinNodeType; name: string; kind: number | null },
): Promise<{ id: number; refId: number | null }> {
  if (input.parentId != null) await targetDirectory(db, caller, input.parentId, 'parentId');
  return db.transaction(async (tx) => {
    const [node] = await tx
      .insert(cabinNodes)
      .values({
        companyId: caller.companyId,
        parentId: input.parentId,
        type: input.type,
        name: input.name,
        createdBy: caller.userId,
      })
      .returning({ id: cabinNodes.id });
    if ((TEMPLATE_NODE_TYPES as readonly string[]).includes(input.type)) {
      const [template] = await tx
        .insert(templates)
        .values({ companyId: caller.companyId, nodeId: node!.id, type: input.type, updatedBy: caller.userId })
        .returning({ id: templates.id });
      await tx.update(cabinNodes).set({ refId: template!.id }).where(eq(cabinNodes.id, node!.id));
      return { id: node!.id, refId: template!.id };
    }
    if (input.type !== 'dataItem' || input.kind == null) return { id: node!.id, refId: null };
    const [item] = await tx
      .insert(dataItems)
      .values({ companyId: caller.companyId, nodeId: node!.id, name: input.name, kind: input.kind })
      .returning({ id: dataItems.id });
    await tx.update(cabinNodes).set({ refId: item!.id }).where(eq(cabinNodes.id, node!.id));
    return { id: node!.id, refId: item!.id };
  });
}

export async function renameNode(db: Db, node: NodeRow, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    const now = new Date();
    await tx.update(cabinNodes).set({ name, updatedAt: now }).where(eq(cabinNodes.id, node.id));
    if (node.type === 'dataItem') {
      await tx.update(dataItems).set({ name, updatedAt: now }).where(eq(dataItems.nodeId, node.id));
    }
    // a device is called what its node is called
    if (node.type === 'device') {
      await tx.update(devices).set({ name, updatedAt: now }).where(eq(devices.nodeId, node.id));
    }
  });
}

/** Children by parent id over the company's nodes. */
function childrenIndex(nodes: readonly NodeRow[]): Map<number | null, NodeRow[]> {
  const children = new Map<number | null, NodeRow[]>();
  for (const n of nodes) children.set(n.parentId, [...(children.get(n.parentId) ?? []), n]);
  return children;
}

/** The node and all below it, parents before children. */
function subtree(
  rootId: number,
  children: Map<number | null, NodeRow[]>,
  byId: Map<number, NodeRow>,
): NodeRow[] {
  const out: NodeRow[] = [];
  const root = byId.get(rootId);
  if (!root) return out;
  const queue = [root];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const n = queue.shift()!;
    if (seen.has(n.id)) continue;
    seen.add(n.id);
    out.push(n);
    queue.push(...(children.get(n.id) ?? []));
  }
  return out;
}

/** The ids without those lying below another of them (their ancestor carries them along). */
function topmost(ids: readonly number[], byId: Map<number, NodeRow>): number[] {
  const set = new Set(ids);
  return ids.filter((id) => {
    const seen = new Set<number>();
    for (let p = byId.get(id)?.parentId; p != null && !seen.has(p); p = byId.get(p)?.parentId) {
      seen.add(p);
      if (set.has(p)) return false;
    }
    return true;
  });
}

/** Checks every node of a bulk request (40400 unreadable, 40300 below `needed`). */
async function requireAll(
  db: Db,
  caller: DataCaller,
  ids: readonly number[],
  needed: DataPermission,
): Promise<Map<number, DataPermission>> {
  const levels = await levelsFor(db, caller);
  for (const id of ids) {
    if ((levels.get(id) ?? DATA_PERMISSION.none) === DATA_PERMISSION.none) {
      throw new AppError('notFound', {}, { field: 'ids' });
    }
  }
  for (const id of ids) if ((levels.get(id) ?? 0) < needed) throw new AppError('forbidden');
  return levels;
}

/** Refuses a target directory that is one of the nodes or lies below one of them. */
function refuseTargetInside(targetId: number, ids: readonly number[], byId: Map<number, NodeRow>): void {
  const moved = new Set(ids);
  const seen = new Set<number>();
  for (
    let cur: number | null | undefined = targetId;
    cur != null && !seen.has(cur);
    cur = byId.get(cur)?.parentId
  ) {
    seen.add(cur);
    if (moved.has(cur)) throw fieldError('targetId');
  }
}

export async function moveNodes(
  db: Db,
  caller: DataCaller,
  ids: number[],
  targetId: number | null,
): Promise<void> {
  await requireAll(db, caller, ids, DATA_PERMISSION.admin);
  const nodes = await companyNodes(db, caller.companyId);
  const byId = new Map<number, NodeRow>(nodes.map((n) => [n.id, n]));
  if (targetId != null) {
    await targetDirectory(db, caller, targetId, 'targetId');
    refuseTargetInside(targetId, ids, byId);
  }
  await db.transaction(async (tx) => {
    await tx
      .update(cabinNodes)
      .set({ parentId: targetId, updatedAt: new Date() })
      .where(and(inArray(cabinNodes.id, ids), eq(cabinNodes.companyId, caller.companyId)));
  });
}

export async function copyNodes(
  db: Db,
  caller: DataCaller,
  ids: number[],
  targetId: number | null,
): Promise<number[]> {
  const levels = await requireAll(db, caller, ids, DATA_PERMISSION.admin);
  const nodes = await companyNodes(db, caller.companyId);
  const byId = new Map<number, NodeRow>(nodes.map((n) => [n.id, n]));
  for (const id of ids) {
    if (!COPYABLE_NODE_TYPES.includes(byId.get(id)!.type as CabinNodeType)) {
      throw fieldError('ids', 'copyOnlyDirAndItem');
    }
  }
  if (targetId != null) {
    await targetDirectory(db, caller, targetId, 'targetId');
    refuseTargetInside(targetId, ids, byId);
  }
  const children = childrenIndex(nodes);
  // what is copied: copyable nodes the caller can read, below copyable readable parents
  const roots = topmost(ids, byId);
  const copied: NodeRow[][] = roots.map((root) =>
    subtree(root, children, byId).filter((n) => {
      for (let cur: NodeRow | undefined = n; cur; cur = byId.get(cur.parentId ?? -1)) {
        if (!COPYABLE_NODE_TYPES.includes(cur.type as CabinNodeType)) return false;
        if ((levels.get(cur.id) ?? 0) === DATA_PERMISSION.none) return false;
        if (cur.id === root) return true;
      }
      return true;
    }),
  );
  const allNodeIds = copied.flat().map((n) => n.id);
  const items = await db.select().from(dataItems).where(inArray(dataItems.nodeId, allNodeIds));
  const itemByNode = new Map(items.map((i) => [i.nodeId, i]));
  const itemIds = items.map((i) => i.id);
  const jumps =
    itemIds.length === 0
      ? []
      : await db.select().from(dataItemJumps).where(inArray(dataItemJumps.itemId, itemIds));

  return db.transaction(async (tx) => {
    const newNodeId = new Map<number, number>();
    const newItemId = new Map<number, number>();
    const now = new Date();
    for (const tree of copied) {
      for (const n of tree) {
        const parentId = n.id === tree[0]!.id ? targetId : newNodeId.get(n.parentId!)!;
        const [node] = await tx
          .insert(cabinNodes)
          .values({
            companyId: caller.companyId,
            parentId,
            type: n.type,
            name: n.name,
            sortOrder: n.sortOrder,
            permissionMode: 'inherit',
            createdBy: caller.userId,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: cabinNodes.id });
        newNodeId.set(n.id, node!.id);
        const item = itemByNode.get(n.id);
        if (!item) continue;
        const [copy] = await tx
          .insert(dataItems)
          .values({
            companyId: caller.companyId,
            nodeId: node!.id,
            name: item.name,
            kind: item.kind,
            fields: item.fields,
            nextFieldNo: item.nextFieldNo,
            sources: item.sources,
            form: item.form,
            titleField: item.titleField,
            publicCollect: item.publicCollect,
            description: item.description,
          })
          .returning({ id: dataItems.id });
        newItemId.set(item.id, copy!.id);
        await tx.update(cabinNodes).set({ refId: copy!.id }).where(eq(cabinNodes.id, node!.id));
      }
    }
    const jumpRows = jumps.map((j) => ({
      itemId: newItemId.get(j.itemId)!,
      priority: j.priority,
      name: j.name,
      conditions: j.conditions,
      targetItemId: newItemId.get(j.targetItemId) ?? j.targetItemId,
      mapping: j.mapping,
      enabled: j.enabled,
    }));
    if (jumpRows.length > 0) await tx.insert(dataItemJumps).values(jumpRows);
    return roots.map((id) => newNodeId.get(id)!);
  });
}

/** Deletes the nodes with everything below them; data items lose their records and rollups. */
export async function deleteNodes(db: Db, caller: DataCaller, ids: number[]): Promise<void> {
  await requireAll(db, caller, ids, DATA_PERMISSION.admin);
  const nodes = await companyNodes(db, caller.companyId);
  const byId = new Map<number, NodeRow>(nodes.map((n) => [n.id, n]));
  const children = childrenIndex(nodes);
  const doomed = [...new Set(ids.flatMap((id) => subtree(id, children, byId).map((n) => n.id)))];
  // a bound device leaves the cabin by being unbound (its gateway is told), not by a delete
  if (doomed.some((id) => byId.get(id)?.type === 'device')) throw new AppError('cabinHoldsDevices');
  // a meter named by a virtual meter's formula that stays would leave that formula naming nothing
  if (doomed.some((id) => byId.get(id)?.type === 'meter')) {
    const gone = new Set(doomed);
    const all = await db
      .select({ nodeId: meters.nodeId, code: meters.code, refs: meters.refs })
      .from(meters)
      .where(eq(meters.companyId, caller.companyId))
      .orderBy(meters.id);
    const goneCodes = new Set(all.filter((m) => gone.has(m.nodeId)).map((m) => m.code));
    for (const user of all) {
      if (gone.has(user.nodeId)) continue;
      const named = user.refs.find((code) => goneCodes.has(code));
      if (named !== undefined) {
        const name = all.find((m) => m.code === named && gone.has(m.nodeId));
        throw new AppError('meterInUse', {
          name: (name && byId.get(name.nodeId)?.name) ?? named,
          user: byId.get(user.nodeId)?.name ?? user.code,
        });
      }
    }
  }
  await db.transaction(async (tx) => {
    const items = await tx
      .select({ id: dataItems.id })
      .from(dataItems)
      .where(and(inArray(dataItems.nodeId, doomed), eq(dataItems.companyId, caller.companyId)));
    const itemIds = items.map((i) => i.id);
    if (itemIds.length > 0) {
      await tx.delete(dataRecords).where(inArray(dataRecords.itemId, itemIds));
      await tx.delete(dataRollups).where(inArray(dataRollups.itemId, itemIds));
      // jumps (both ways), analysis jobs and item group entries go with the items (foreign keys)
      await tx.delete(dataItems).where(inArray(dataItems.id, itemIds));
    }
    await tx
      .delete(cabinNodes)
      .where(and(inArray(cabinNodes.id, doomed), eq(cabinNodes.companyId, caller.companyId)));
  });
}

export async function permissionsOf(
  db: Db,
  node: NodeRow,
): Promise<{ mode: 'inherit' | 'custom'; entries: PermissionEntry[] }> {
  const mode = node.permissionMode === 'custom' ? 'custom' : 'inherit';
  if (mode === 'inherit') return { mode, entries: [] };
  const rows = await db
    .select({
      scope: cabinPermissions.scope,
      subjectId: cabinPermissions.subjectId,
      level: cabinPermissions.level,
    })
    .from(cabinPermissions)
    .where(eq(cabinPermissions.nodeId, node.id))
    .orderBy(cabinPermissions.id);
  return { mode, entries: rows as PermissionEntry[] };
}

/** Checks each entry's subject against the company; throws naming `entries[i].…`. */
export async function checkEntries(
  db: Db,
  companyId: number,
  entries: readonly PermissionEntry[],
): Promise<void> {
  const seen = new Set<string>();
  const groupIds = entries.filter((e) => e.scope === 'group' && e.subjectId != null).map((e) => e.subjectId!);
  const userIds = entries.filter((e) => e.scope === 'user' && e.subjectId != null).map((e) => e.subjectId!);
  const [groups, members] = await Promise.all([
    groupIds.length === 0
      ? []
      : db
          .select({ id: userGroups.id })
          .from(userGroups)
          .where(and(eq(userGroups.companyId, companyId), inArray(userGroups.id, groupIds))),
    userIds.length === 0
      ? []
      : db
          .select({ id: companyMembers.userId })
          .from(companyMembers)
          .where(
            and(
              eq(companyMembers.companyId, companyId),
              eq(companyMembers.status, 'active'),
              inArray(companyMembers.userId, userIds),
            ),
          ),
  ]);
  const knownGroups = new Set(groups.map((g) => g.id));
  const knownUsers = new Set(members.map((m) => m.id));
  for (const [i, e] of entries.entries()) {
    const subjectField = `entries[${i}].subjectId`;
    if (e.scope === 'company') {
      if (e.subjectId != null) throw fieldError(subjectField);
    } else if (e.subjectId == null) {
      throw fieldError(subjectField, 'fieldRequired');
    } else if (e.scope === 'group' && !knownGroups.has(e.subjectId)) {
      throw fieldError(subjectField);
    } else if (e.scope === 'user' && !knownUsers.has(e.subjectId)) {
      throw fieldError(subjectField, 'notMember');
    }
    const key = `${e.scope}:${e.subjectId ?? ''}`;
    if (seen.has(key)) throw fieldError(subjectField);
    seen.add(key);
  }
}

export async function setPermissions(
  db: Db,
  nodeId: number,
  mode: 'inherit' | 'custom',
  entries: readonly PermissionEntry[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(cabinPermissions).where(eq(cabinPermissions.nodeId, nodeId));
    await tx
      .update(cabinNodes)
      .set({ permissionMode: mode, updatedAt: new Date() })
      .where(eq(cabinNodes.id, nodeId));
    if (mode === 'custom' && entries.length > 0) {
      await tx
        .insert(cabinPermissions)
        .values(
          entries.map((e) => ({ nodeId, scope: e.scope, subjectId: e.subjectId ?? null, level: e.level })),
        );
    }
  });
}
