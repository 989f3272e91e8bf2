/**
 * User groups of one company. Every query takes the caller's company id and reaches a group
 * only through it, so a group id from another company reads as not found. Members are counted
 * and listed only while they are active members of the company.
 */
import { and, asc, count, desc, eq, ilike } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { likePattern } from '../../platform/like';
import { companyMembers } from '../companies/tables';
import { users } from '../users/tables';
import { groupMembers, userGroups } from './tables';

export type GroupRow = typeof userGroups.$inferSelect;

export interface GroupListRow {
  id: number;
  name: string;
  description: string | null;
  memberCount: number;
  ownerId: number | null;
}

const activeInCompany = and(
  eq(companyMembers.companyId, userGroups.companyId),
  eq(companyMembers.userId, groupMembers.userId),
  eq(companyMembers.status, 'active'),
);

export async function listGroups(
  db: Db,
  companyId: number,
  query: { keyword?: string; limit: number; offset: number },
): Promise<{ list: GroupListRow[]; total: number }> {
  const keyword = query.keyword?.trim();
  const where = and(
    eq(userGroups.companyId, companyId),
    keyword ? ilike(userGroups.name, likePattern(keyword)) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(userGroups).where(where);
  const list = await db
    .select({
      id: userGroups.id,
      name: userGroups.name,
      description: userGroups.description,
      memberCount: count(companyMembers.userId),
      ownerId: userGroups.ownerId,
    })
    .from(userGroups)
    .leftJoin(groupMembers, eq(groupMembers.groupId, userGroups.id))
    .leftJoin(companyMembers, activeInCompany)
    .where(where)
    .groupBy(userGroups.id)
    .orderBy(desc(userGroups.createdAt), desc(userGroups.id))
    .limit(query.limit)
    .offset(query.offset);
  return { list, total: total?.n ?? 0 };
}

/** The group when it belongs to the company; notFound otherwise. */
export async function groupOf(db: Db, companyId: number, groupId: number): Promise<GroupRow> {
  const [row] = await db
    .select()
    .from(userGroups)
    .where(and(eq(userGroups.id, groupId), eq(userGroups.companyId, companyId)));
  if (!row) throw new AppError('notFound', {}, { field: 'groupId' });
  return row;
}

export async function listGroupMembers(
  db: Db,
  companyId: number,
  groupId: number,
): Promise<Array<{ userId: number; userName: string; phone: string }>> {
  await groupOf(db, companyId, groupId);
  return db
    .select({ userId: users.id, userName: users.userName, phone: users.phone })
    .from(groupMembers)
    .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
    .innerJoin(companyMembers, activeInCompany)
    .innerJoin(users, eq(users.id, groupMembers.userId))
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(asc(groupMembers.createdAt), asc(users.id));
}

/** Ids of everyone in a group of the company (none for a group of another company). */
export async function groupMemberIds(db: Db, companyId: number, groupId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: groupMembers.userId })
    .from(groupMembers)
    .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
    .where(and(eq(groupMembers.groupId, groupId), eq(userGroups.companyId, companyId)));
  return rows.map((r) => r.userId);
}

export async function addGroup(
  db: Db,
  input: { companyId: number; name: string; description: string | null; ownerId: number },
): Promise<number> {
  const [row] = await db
    .insert(userGroups)
    .values(input)
    .onConflictDoNothing({ target: [userGroups.companyId, userGroups.name] })
    .returning({ id: userGroups.id });
  if (!row) throw new AppError('groupNameTaken', {}, { field: 'name' });
  return row.id;
}

export async function deleteGroup(db: Db, companyId: number, groupId: number): Promise<void> {
  const deleted = await db
    .delete(userGroups)
    .where(and(eq(userGroups.id, groupId), eq(userGroups.companyId, companyId)))
    .returning({ id: userGroups.id });
  if (deleted.length === 0) throw new AppError('notFound', {}, { field: 'id' });
}

/** Adds users already checked to be active members of the group's company; repeats are no-ops. */
export async function addGroupMembers(db: Db, groupId: number, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insert(groupMembers)
    .values(userIds.map((userId) => ({ groupId, userId })))
    .onConflictDoNothing();
}

/** Removes one member of a group of the company; false when they were not in it. */
export async function removeGroupMember(
  db: Db,
  companyId: number,
  groupId: number,
  userId: number,
): Promise<boolean> {
  await groupOf(db, companyId, groupId);
  const removed = await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .returning({ userId: groupMembers.userId });
  return removed.length > 0;
}
