/**
 * Invitations: a company_members row with status 'invited' (or 'refused' once declined). The
 * roles to grant wait in invited_role_ids, never in member_roles, so an invited user holds no
 * codes in the company until they agree; agreeing makes the row active and grants them.
 */
import type { Authority } from '@platform/domain';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import { memberRoles, roles } from '../roles/tables';
import { grantableRoles } from '../users/members';
import { findUserByPhone } from '../users/service';
import { users } from '../users/tables';
import { setCurrentCompany } from './service';
import { companies, companyMembers } from './tables';

/**
 * Invites a registered user. The roles follow the rule of every grant (users/members.ts): roles
 * of this company only, carrying only codes the inviter holds, so a delegated manager cannot
 * invite someone into more than they have.
 */
export async function inviteMember(
  db: Db,
  input: {
    companyId: number;
    phone: string;
    roleIds: number[];
    invitedBy: number;
    inviterAuthority: Authority;
  },
): Promise<void> {
  const granted = await grantableRoles(db, input.companyId, input.roleIds, input.inviterAuthority);
  const user = await findUserByPhone(db, input.phone);
  if (!user) throw fieldError('phone', 'phoneNotRegistered');
  const roleIds = granted.map((r) => r.id).sort((x, y) => x - y);
  await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ status: companyMembers.status })
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, input.companyId), eq(companyMembers.userId, user.id)))
      .for('update');
    if (existing?.status === 'active') throw new AppError('alreadyMember', {}, { field: 'phone' });
    // a new invitation, or a renewed one after a refusal or an earlier removal
    const values = {
      status: 'invited',
      invitedBy: input.invitedBy,
      invitedRoleIds: roleIds,
      createdAt: new Date(),
      joinedAt: null,
    };
    await tx
      .insert(companyMembers)
      .values({ companyId: input.companyId, userId: user.id, ...values })
      .onConflictDoUpdate({ target: [companyMembers.companyId, companyMembers.userId], set: values });
  });
}

export interface Invitation {
  companyId: number;
  companyName: string;
  invitedBy: string | null;
  createdAt: string;
}

/** Pending invitations addressed to the user, newest first; deleted companies drop out. */
export async function listInvitations(db: Db, userId: number): Promise<Invitation[]> {
  const inviter = alias(users, 'inviter');
  const rows = await db
    .select({
      companyId: companies.id,
      companyName: companies.name,
      invitedBy: inviter.userName,
      createdAt: companyMembers.createdAt,
    })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .leftJoin(inviter, eq(inviter.id, companyMembers.invitedBy))
    .where(
      and(
        eq(companyMembers.userId, userId),
        eq(companyMembers.status, 'invited'),
        isNull(companies.deletedAt),
      ),
    )
    .orderBy(desc(companyMembers.createdAt), desc(companies.id));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
}

/** The pending invitation row, locked; invitationNotFound when there is none to act on. */
async function pendingInvitation(tx: Db, userId: number, companyId: number) {
  const [row] = await tx
    .select({ invitedRoleIds: companyMembers.invitedRoleIds })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(
      and(
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.userId, userId),
        eq(companyMembers.status, 'invited'),
        isNull(companies.deletedAt),
      ),
    )
    .for('update', { of: companyMembers });
  if (!row) throw new AppError('invitationNotFound');
  return row;
}

/**
 * Accept: the membership becomes active with exactly the invited roles (those still existing),
 * and the company becomes the user's current one when they had none.
 */
export async function acceptInvitation(
  db: Db,
  input: { userId: number; companyId: number; hasCurrentCompany: boolean },
): Promise<void> {
  await db.transaction(async (tx) => {
    const { invitedRoleIds } = await pendingInvitation(tx, input.userId, input.companyId);
    const where = and(eq(companyMembers.companyId, input.companyId), eq(companyMembers.userId, input.userId));
    await tx
      .update(companyMembers)
      .set({ status: 'active', joinedAt: new Date(), invitedRoleIds: null })
      .where(where);
    await tx
      .delete(memberRoles)
      .where(and(eq(memberRoles.companyId, input.companyId), eq(memberRoles.userId, input.userId)));
    const wanted = invitedRoleIds ?? [];
    const stillThere =
      wanted.length === 0
        ? []
        : await tx
            .select({ id: roles.id })
            .from(roles)
            .where(and(eq(roles.companyId, input.companyId), inArray(roles.id, wanted)));
    if (stillThere.length > 0) {
      await tx
        .insert(memberRoles)
        .values(stillThere.map((r) => ({ companyId: input.companyId, userId: input.userId, roleId: r.id })));
    }
    if (!input.hasCurrentCompany) await setCurrentCompany(tx, input.userId, input.companyId);
  });
}

export async function refuseInvitation(db: Db, input: { userId: number; companyId: number }): Promise<void> {
  await db.transaction(async (tx) => {
    await pendingInvitation(tx, input.userId, input.companyId);
    await tx
      .update(companyMembers)
      .set({ status: 'refused', invitedRoleIds: null })
      .where(and(eq(companyMembers.companyId, input.companyId), eq(companyMembers.userId, input.userId)));
  });
}
