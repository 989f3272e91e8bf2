/**
 * User management inside one company (um_user). A company manages its memberships and the
 * roles its members hold; the account itself (name, enabled flag) belongs to the person, so a
 * company may change it only when it is the account's sole active company. A manager touches
 * only members and roles within their own authority: codes they hold, and the administrator
 * type only if they hold it (see roles/service.ts).
 */
import type { Authority } from '@platform/domain';
import { and, asc, count, desc, eq, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { likePattern } from '../../platform/like';
import { revokeAllTokens } from '../../platform/tokens';
import { companies, companyMembers } from '../companies/tables';
import { alertDelegations } from '../delegations/tables';
import { groupMembers, userGroups } from '../groups/tables';
import {
  assertWithin,
  companyRoles,
  grantsOf,
  isPlatformCompany,
  keepingAnAdministrator,
  type RoleRow,
} from '../roles/service';
import { memberRoles, roles } from '../roles/tables';
import { users } from './tables';

function keywordFilter(keyword: string | undefined, name: SQL | typeof users.userName = users.userName) {
  const text = keyword?.trim();
  if (!text) return undefined;
  const pattern = likePattern(text);
  return or(ilike(name, pattern), ilike(users.phone, pattern));
}

/**
 * The name the company sees: an active member's own, an invited person's as the inviter gave
 * it (else the phone), so nothing of an account is shown, nor found by searching, before its
 * owner agrees.
 */
const shownName = sql`case when ${companyMembers.status} = 'active' then ${users.userName}
  else coalesce(${companyMembers.invitedName}, ${users.phone}) end`;

export interface SysUserView {
  userId: number;
  /** an invited person's: the name the inviter gave (else the phone), not the account's */
  userName: string;
  phone: string;
  /** the account: 1 enabled, 0 disabled; always 1 for an invited person (theirs, not shown) */
  status: number;
  /** the membership: active, or invited and not yet agreed */
  memberStatus: string;
  roleIds: number[];
  roleNames: string[];
  joinedAt: string | null;
}

interface PageQuery {
  keyword?: string;
  limit: number;
  offset: number;
}

/**
 * Active and invited members of the company; invited ones show the roles they will get, and
 * the name the inviter gave them: an invited person's account is not the company's to see.
 */
export async function listSysUsers(
  db: Db,
  companyId: number,
  query: PageQuery,
): Promise<{ list: SysUserView[]; total: number }> {
  const where = and(
    eq(companyMembers.companyId, companyId),
    inArray(companyMembers.status, ['active', 'invited']),
    keywordFilter(query.keyword, shownName),
  );
  const [rows, [totalRow], companyRoleRows] = await Promise.all([
    db
      .select({
        userId: users.id,
        userName: users.userName,
        phone: users.phone,
        status: users.status,
        memberStatus: companyMembers.status,
        invitedRoleIds: companyMembers.invitedRoleIds,
        invitedName: companyMembers.invitedName,
        joinedAt: companyMembers.joinedAt,
      })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(where)
      .orderBy(asc(companyMembers.createdAt), asc(users.id))
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ n: count() })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(where),
    db.select({ id: roles.id, name: roles.name }).from(roles).where(eq(roles.companyId, companyId)),
  ]);
  const roleName = new Map(companyRoleRows.map((r) => [r.id, r.name]));
  const held = new Map<number, number[]>();
  const activeIds = rows.filter((r) => r.memberStatus === 'active').map((r) => r.userId);
  if (activeIds.length > 0) {
    const holdings = await db
      .select({ userId: memberRoles.userId, roleId: memberRoles.roleId })
      .from(memberRoles)
      .where(and(eq(memberRoles.companyId, companyId), inArray(memberRoles.userId, activeIds)))
      .orderBy(asc(memberRoles.roleId));
    for (const h of holdings) held.set(h.userId, [...(held.get(h.userId) ?? []), h.roleId]);
  }
  const list = rows.map((r) => {
    const active = r.memberStatus === 'active';
    const wanted = active ? (held.get(r.userId) ?? []) : (r.invitedRoleIds ?? []);
    const roleIds = wanted.filter((id) => roleName.has(id));
    return {
      userId: r.userId,
      userName: active ? r.userName : (r.invitedName ?? r.phone),
      phone: r.phone,
      status: active ? r.status : 1,
      memberStatus: r.memberStatus,
      roleIds,
      roleNames: roleIds.map((id) => roleName.get(id)!),
      joinedAt: r.joinedAt?.toISOString() ?? null,
    };
  });
  return { list, total: Number(totalRow?.n ?? 0) };
}

export interface MemberView {
  userId: number;
  userName: string;
  phone: string;
  headImgUrl: string | null;
}

/** Active members of the company, for pickers (groups, delegations). */
export async function listMembers(
  db: Db,
  companyId: number,
  query: PageQuery,
): Promise<{ list: MemberView[]; total: number }> {
  const where = and(
    eq(companyMembers.companyId, companyId),
    eq(companyMembers.status, 'active'),
    keywordFilter(query.keyword),
  );
  const [list, [totalRow]] = await Promise.all([
    db
      .select({
        userId: users.id,
        userName: users.userName,
        phone: users.phone,
        headImgUrl: users.headImgUrl,
      })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(where)
      .orderBy(asc(users.userName), asc(users.id))
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ n: count() })
      .from(companyMembers)
      .innerJoin(users, eq(users.id, companyMembers.userId))
      .where(where),
  ]);
  return { list, total: Number(totalRow?.n ?? 0) };
}

/**
 * The roles asked for, checked: each must be a role of the company (else roleIds), and within
 * the caller's authority, by its codes and its type (else grantNotHeld on roleIds).
 */
export async function grantableRoles(
  db: Db,
  companyId: number,
  roleIds: readonly number[],
  authority: Authority,
): Promise<RoleRow[]> {
  const rows = await companyRoles(db, companyId, roleIds);
  assertWithin(authority, grantsOf(rows, await isPlatformCompany(db, companyId)), 'roleIds');
  return rows;
}

async function rolesHeld(tx: Db, companyId: number, userId: number): Promise<RoleRow[]> {
  const rows = await tx
    .select({ role: roles })
    .from(memberRoles)
    .innerJoin(roles, eq(roles.id, memberRoles.roleId))
    .where(and(eq(memberRoles.companyId, companyId), eq(memberRoles.userId, userId)));
  return rows.map((r) => r.role);
}

/** The roles a member holds, or for an invited one the roles they are to get (those that exist). */
async function rolesOfMembership(
  tx: Db,
  companyId: number,
  userId: number,
  membership: { status: string; invitedRoleIds: number[] | null },
): Promise<RoleRow[]> {
  if (membership.status === 'active') return rolesHeld(tx, companyId, userId);
  const wanted = membership.invitedRoleIds ?? [];
  if (wanted.length === 0) return [];
  return tx
    .select()
    .from(roles)
    .where(and(eq(roles.companyId, companyId), inArray(roles.id, wanted)));
}

/** The membership row (active or invited), locked; notMember when there is none. */
async function membershipOf(tx: Db, companyId: number, userId: number) {
  const [row] = await tx
    .select({ status: companyMembers.status, invitedRoleIds: companyMembers.invitedRoleIds })
    .from(companyMembers)
    .where(
      and(
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.userId, userId),
        inArray(companyMembers.status, ['active', 'invited']),
      ),
    )
    .for('update');
  if (!row) throw new AppError('notMember', {}, { field: 'userId' });
  return row;
}

/** Whether the user is an active member of a live company other than this one. */
async function belongsElsewhere(tx: Db, companyId: number, userId: number): Promise<boolean> {
  const [row] = await tx
    .select({ companyId: companyMembers.companyId })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(
      and(
        eq(companyMembers.userId, userId),
        eq(companyMembers.status, 'active'),
        ne(companyMembers.companyId, companyId),
        isNull(companies.deletedAt),
      ),
    )
    .limit(1);
  return row != null;
}

export interface UpdateSysUserInput {
  companyId: number;
  callerId: number;
  authority: Authority;
  userId: number;
  userName?: string;
  status?: number;
  /** already checked by grantableRoles */
  roles?: RoleRow[];
}

export async function updateSysUser(db: Db, input: UpdateSysUserInput): Promise<void> {
  const { companyId, userId } = input;
  const isPlatform = await isPlatformCompany(db, companyId);
  await keepingAnAdministrator(db, companyId, async (tx) => {
    const membership = await membershipOf(tx, companyId, userId);
    const held = await rolesOfMembership(tx, companyId, userId, membership);
    // a manager cannot act on someone who holds (or is to get) more than they do: so neither
    // an administrator's roles nor their account are within a role manager's reach
    assertWithin(input.authority, grantsOf(held, isPlatform), 'userId');

    const [account] = await tx
      .select({ userName: users.userName, status: users.status })
      .from(users)
      .where(eq(users.id, userId));
    const accountChange: { userName?: string; status?: number } = {};
    if (input.userName != null && input.userName !== account!.userName)
      accountChange.userName = input.userName;
    if (input.status != null && input.status !== account!.status) accountChange.status = input.status;
    if (Object.keys(accountChange).length > 0) {
      if (accountChange.status === 0 && userId === input.callerId) {
        throw new AppError('disableSelf', {}, { field: 'status' });
      }
      if (membership.status !== 'active' || (await belongsElsewhere(tx, companyId, userId))) {
        throw new AppError('accountNotManaged', {}, { field: 'userId' });
      }
      await tx
        .update(users)
        .set({ ...accountChange, updatedAt: new Date() })
        .where(eq(users.id, userId));
      // every session ends with the disabling, in the same transaction: enabling the account
      // again does not revive them, the person logs in anew
      if (accountChange.status === 0) await revokeAllTokens(tx, userId);
    }

    if (input.roles) {
      const wanted = new Set(input.roles.map((r) => r.id));
      if (membership.status === 'invited') {
        await tx
          .update(companyMembers)
          .set({ invitedRoleIds: [...wanted] })
          .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
      } else {
        // roles taken away are within the caller's authority: the member's roles all are (above)
        await tx
          .delete(memberRoles)
          .where(and(eq(memberRoles.companyId, companyId), eq(memberRoles.userId, userId)));
        if (wanted.size > 0) {
          await tx.insert(memberRoles).values([...wanted].map((roleId) => ({ companyId, userId, roleId })));
        }
      }
    }
  });
}

/**
 * Ends a membership (or withdraws an invitation): the account stays, but the person loses the
 * company's roles, its groups and its alert delegations, and moves to another company.
 */
export async function removeSysUser(
  db: Db,
  input: { companyId: number; userId: number; authority: Authority },
): Promise<void> {
  const { companyId, userId } = input;
  const isPlatform = await isPlatformCompany(db, companyId);
  await keepingAnAdministrator(db, companyId, async (tx) => {
    const membership = await membershipOf(tx, companyId, userId);
    const held = await rolesOfMembership(tx, companyId, userId, membership);
    assertWithin(input.authority, grantsOf(held, isPlatform), 'userId');
    await tx
      .delete(memberRoles)
      .where(and(eq(memberRoles.companyId, companyId), eq(memberRoles.userId, userId)));
    const companyGroups = tx
      .select({ id: userGroups.id })
      .from(userGroups)
      .where(eq(userGroups.companyId, companyId));
    await tx
      .delete(groupMembers)
      .where(and(eq(groupMembers.userId, userId), inArray(groupMembers.groupId, companyGroups)));
    await tx
      .delete(alertDelegations)
      .where(
        and(
          eq(alertDelegations.companyId, companyId),
          or(eq(alertDelegations.delegatorId, userId), eq(alertDelegations.delegateId, userId)),
        ),
      );
    await tx
      .delete(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
    const next = tx
      .select({ companyId: companyMembers.companyId })
      .from(companyMembers)
      .innerJoin(companies, eq(companies.id, companyMembers.companyId))
      .where(
        and(
          eq(companyMembers.userId, userId),
          eq(companyMembers.status, 'active'),
          isNull(companies.deletedAt),
        ),
      )
      .orderBy(sql`${companyMembers.joinedAt} desc nulls last`, desc(companies.id))
      .limit(1);
    await tx
      .update(users)
      .set({ currentCompanyId: sql`(${next})` })
      .where(and(eq(users.id, userId), eq(users.currentCompanyId, companyId)));
  });
}
