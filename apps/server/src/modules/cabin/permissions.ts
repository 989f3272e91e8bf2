/**
 * Data permissions of cabin nodes (spec point 6; rules in docs/api-data-engine.md):
 * company administrators 3 everywhere; a node's creator at least 3 on it; otherwise the
 * nearest node at or above with permissionMode 'custom' decides (own entry, else the best of
 * the user's groups, else the company-wide entry, else 0); no custom node on the way up: 2.
 */
import { DATA_PERMISSION, type DataPermission } from '@platform/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { companyMembers } from '../companies/tables';
import { groupMembers, userGroups } from '../groups/tables';
import { memberRoles, roles } from '../roles/tables';
import { cabinNodes, cabinPermissions } from './tables';

export interface DataCaller {
  companyId: number;
  userId: number;
}

/** The company default when no custom node is on the way up */
export const DEFAULT_LEVEL: DataPermission = DATA_PERMISSION.write;

interface Subject {
  admin: boolean;
  groupIds: Set<number>;
}

async function subjectOf(db: Db, caller: DataCaller): Promise<Subject> {
  const q = statementsOf(db);
  const params = { companyId: caller.companyId, userId: caller.userId };
  const [adminRows, groupRows] = await Promise.all([q.admin.execute(params), q.groups.execute(params)]);
  return { admin: adminRows.length > 0, groupIds: new Set(groupRows.map((r) => r.groupId)) };
}

/**
 * The three queries every permission check runs (every submission too), built once per
 * database and prepared: drizzle skips rebuilding the SQL, PostgreSQL skips parsing it.
 */
function prepareStatements(db: Db) {
  const companyId = sql.placeholder('companyId');
  const userId = sql.placeholder('userId');
  return {
    admin: db
      .select({ roleType: roles.roleType })
      .from(memberRoles)
      .innerJoin(roles, eq(roles.id, memberRoles.roleId))
      .innerJoin(
        companyMembers,
        and(
          eq(companyMembers.companyId, memberRoles.companyId),
          eq(companyMembers.userId, memberRoles.userId),
        ),
      )
      .where(
        and(
          eq(memberRoles.companyId, companyId),
          eq(memberRoles.userId, userId),
          eq(companyMembers.status, 'active'),
          eq(roles.roleType, 1),
        ),
      )
      .limit(1)
      .prepare('permissions_admin'),
    groups: db
      .select({ groupId: groupMembers.groupId })
      .from(groupMembers)
      .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
      .where(and(eq(groupMembers.userId, userId), eq(userGroups.companyId, companyId)))
      .prepare('permissions_groups'),
    nodes: db
      .select({
        id: cabinNodes.id,
        parentId: cabinNodes.parentId,
        permissionMode: cabinNodes.permissionMode,
        createdBy: cabinNodes.createdBy,
      })
      .from(cabinNodes)
      .where(eq(cabinNodes.companyId, companyId))
      .prepare('permissions_nodes'),
  };
}
const statements = new WeakMap<Db, ReturnType<typeof prepareStatements>>();
function statementsOf(db: Db): ReturnType<typeof prepareStatements> {
  let found = statements.get(db);
  if (!found) {
    found = prepareStatements(db);
    statements.set(db, found);
  }
  return found;
}

interface NodeRow {
  id: number;
  parentId: number | null;
  permissionMode: string;
  createdBy: number | null;
}

type EntryRow = { nodeId: number; scope: string; subjectId: number | null; level: number };

function levelFromEntries(entries: EntryRow[], caller: DataCaller, subject: Subject): DataPermission {
  const own = entries.find((e) => e.scope === 'user' && e.subjectId === caller.userId);
  if (own) return own.level as DataPermission;
  const groups = entries.filter(
    (e) => e.scope === 'group' && e.subjectId != null && subject.groupIds.has(e.subjectId),
  );
  if (groups.length > 0) return Math.max(...groups.map((g) => g.level)) as DataPermission;
  const company = entries.find((e) => e.scope === 'company');
  return (company?.level ?? DATA_PERMISSION.none) as DataPermission;
}

/** up to this many nodes asked for, only they and their ancestors are read, not the whole tree */
const ANCESTOR_READ_LIMIT = 200;

/** The nodes and every node above them, in the company (a deep tree costs its depth, not its size). */
async function ancestorsOf(db: Db, companyId: number, nodeIds: number[]): Promise<NodeRow[]> {
  if (nodeIds.length === 0) return [];
  const result = await db.execute(sql`
    WITH RECURSIVE up AS (
      SELECT id, parent_id, permission_mode, created_by FROM cabin_nodes
      WHERE company_id = ${companyId}
        AND id IN (SELECT (jsonb_array_elements_text(${JSON.stringify(nodeIds)}::jsonb))::int)
      UNION
      SELECT n.id, n.parent_id, n.permission_mode, n.created_by
      FROM cabin_nodes n JOIN up ON n.id = up.parent_id
      WHERE n.company_id = ${companyId}
    )
    SELECT id, parent_id, permission_mode, created_by FROM up
  `);
  const rows = (result as unknown as { rows: Array<Record<string, unknown>> }).rows;
  return rows.map((r) => ({
    id: Number(r.id),
    parentId: r.parent_id == null ? null : Number(r.parent_id),
    permissionMode: String(r.permission_mode),
    createdBy: r.created_by == null ? null : Number(r.created_by),
  }));
}

/**
 * Levels for many nodes of the caller's company in two queries (the nodes, and the entries of
 * the custom ones): for a listing the whole tree, for a few nodes only they and their
 * ancestors. Nodes of other companies, or that do
 * not exist, are absent from the map.
 */
export async function levelsFor(
  db: Db,
  caller: DataCaller,
  nodeIds?: number[],
  /** the levels as they would be if the caller's groups were these (from the ones they are in) */
  groupsIf?: (groupIds: ReadonlySet<number>) => Set<number>,
): Promise<Map<number, DataPermission>> {
  const [actual, nodes] = await Promise.all([
    subjectOf(db, caller),
    nodeIds && nodeIds.length <= ANCESTOR_READ_LIMIT
      ? ancestorsOf(db, caller.companyId, nodeIds)
      : statementsOf(db).nodes.execute({ companyId: caller.companyId }),
  ]);
  const subject = groupsIf ? { ...actual, groupIds: groupsIf(actual.groupIds) } : actual;
  const byId = new Map<number, NodeRow>(nodes.map((n) => [n.id, n]));
  const customIds = nodes.filter((n) => n.permissionMode === 'custom').map((n) => n.id);
  const entries: EntryRow[] =
    customIds.length === 0 || subject.admin
      ? []
      : await db
          .select({
            nodeId: cabinPermissions.nodeId,
            scope: cabinPermissions.scope,
            subjectId: cabinPermissions.subjectId,
            level: cabinPermissions.level,
          })
          .from(cabinPermissions)
          .where(inArray(cabinPermissions.nodeId, customIds));
  const entriesByNode = new Map<number, EntryRow[]>();
  for (const e of entries) {
    const list = entriesByNode.get(e.nodeId);
    if (list) list.push(e);
    else entriesByNode.set(e.nodeId, [e]);
  }

  const inherited = new Map<number, DataPermission>();
  const levelOfNode = (id: number): DataPermission => {
    const known = inherited.get(id);
    if (known !== undefined) return known;
    // walk up iteratively to the nearest decided node, then fill the path
    const path: NodeRow[] = [];
    let current = byId.get(id);
    let decided: DataPermission = DEFAULT_LEVEL;
    while (current) {
      const cached = inherited.get(current.id);
      if (cached !== undefined) {
        decided = cached;
        break;
      }
      path.push(current);
      if (current.permissionMode === 'custom') {
        decided = levelFromEntries(entriesByNode.get(current.id) ?? [], caller, subject);
        inherited.set(current.id, decided);
        path.pop();
        break;
      }
      current = current.parentId == null ? undefined : byId.get(current.parentId);
      if (path.length > byId.size) break; // a cycle cannot happen (moves refuse it); stay safe
    }
    for (const node of path) inherited.set(node.id, decided);
    return inherited.get(id) ?? decided;
  };

  const result = new Map<number, DataPermission>();
  for (const id of nodeIds ?? nodes.map((n) => n.id)) {
    const node = byId.get(id);
    if (!node) continue;
    if (subject.admin) {
      result.set(id, DATA_PERMISSION.admin);
      continue;
    }
    const level = levelOfNode(id);
    result.set(id, node.createdBy === caller.userId ? DATA_PERMISSION.admin : level);
  }
  return result;
}

/** The caller's level on one node; 0 when the node is not in the caller's company. */
export async function levelOf(db: Db, caller: DataCaller, nodeId: number): Promise<DataPermission> {
  return (await levelsFor(db, caller, [nodeId])).get(nodeId) ?? DATA_PERMISSION.none;
}

/**
 * Refuses unless the caller holds `needed` on the node: a node the caller cannot read (or of
 * another company) is 40400 as if absent; a readable one with too low a level is 40300.
 */
export async function requireLevel(
  db: Db,
  caller: DataCaller,
  nodeId: number,
  needed: DataPermission,
  field = 'id',
): Promise<DataPermission> {
  const level = await levelOf(db, caller, nodeId);
  if (level === DATA_PERMISSION.none) throw new AppError('notFound', {}, { field });
  if (level < needed) throw new AppError('forbidden');
  return level;
}

/**
 * A change of a group's members may raise someone's level on a node only as far as the
 * actor's own level there: nobody hands out through a group, or gets by joining or leaving
 * one, data permissions they do not hold (a group can also restrict: its entry wins over the
 * company-wide one, so leaving it can raise). Administrators hold everything.
 */
export async function assertMembershipWithin(
  db: Db,
  actor: DataCaller,
  change: { groupId: number; userIds: readonly number[]; join: boolean },
  field: string,
): Promise<void> {
  const rows = await db
    .selectDistinct({ nodeId: cabinPermissions.nodeId })
    .from(cabinPermissions)
    .innerJoin(cabinNodes, eq(cabinNodes.id, cabinPermissions.nodeId))
    .where(
      and(
        eq(cabinPermissions.scope, 'group'),
        eq(cabinPermissions.subjectId, change.groupId),
        eq(cabinNodes.companyId, actor.companyId),
        eq(cabinNodes.permissionMode, 'custom'),
      ),
    );
  if (rows.length === 0) return;
  const nodeIds = rows.map((r) => r.nodeId);
  const own = await levelsFor(db, actor, nodeIds);
  if (nodeIds.every((id) => own.get(id) === DATA_PERMISSION.admin)) return;
  const moved = (groups: ReadonlySet<number>) => {
    const next = new Set(groups);
    if (change.join) next.add(change.groupId);
    else next.delete(change.groupId);
    return next;
  };
  for (const userId of change.userIds) {
    const target = { companyId: actor.companyId, userId };
    const [before, after] = await Promise.all([
      levelsFor(db, target, nodeIds),
      levelsFor(db, target, nodeIds, moved),
    ]);
    for (const id of nodeIds) {
      const next = after.get(id) ?? DATA_PERMISSION.none;
      if (next > (before.get(id) ?? DATA_PERMISSION.none) && next > (own.get(id) ?? DATA_PERMISSION.none)) {
        throw new AppError('membershipRaisesRights', {}, { field });
      }
    }
  }
}
