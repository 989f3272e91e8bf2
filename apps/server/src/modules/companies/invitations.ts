/**
 * Invitations: a company_members row with status 'invited' (or 'refused' once declined). The
 * roles to grant wait in invited_role_ids, never in member_roles, so an invited user holds no
 * codes in the company until they agree; agreeing makes the row active and grants them.
 */
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import type { RoleRow } from '../roles/service';
import { memberRoles, roles } from '../roles/tables';
import { defaultUserName } from '../users/service';
import { users } from '../users/tables';
import { setCurrentCompany } from './service';
import { companies, companyMembers } from './tables';

/**
 * Invites a person by phone: the only way into a company is their consent. The answer is the
 * same whether or not the phone has an account, and nothing of an existing account (its name,
 * its status, its other companies) is read back: a phone without one gets an unclaimed account
 * (no password, a default name; see users/tables.ts) that holds the invitation until its owner
 * registers or logs in with an SMS code and agrees. The roles follow the rule of every grant
 * (already checked by grantableRoles); `name` is the inviter's label for the person, shown to
 * the company while the invitation is pending. Only an active member is refused
 * (alreadyMember: the company knows its members); a pending, refused or withdrawn invitation
 * is renewed.
 */
export async function inviteByPhone(
  db: Db,
  input: { companyId: number; phone: string; name: string | null; roles: RoleRow[]; invitedBy: number },
): Promise<void> {
  const roleIds = input.roles.map((r) => r.id).sort((x, y) => x - y);
  await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(users)
      .values({ phone: input.phone, userName: defaultUserName(input.phone), unclaimed: true })
      .onConflictDoNothing({ target: users.phone })
      .returning({ id: users.id });
    const userId =
      created?.id ??
      (await tx.select({ id: users.id }).from(users).where(eq(users.phone, input.phone)))[0]!.id;
    const [existing] = await tx
      .select({ status: companyMembers.status })
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, input.companyId), eq(companyMembers.userId, userId)))
      .for('update');
    if (existing?.status === 'active') throw new AppError('alreadyMember', {}, { field: 'phone' });
    const values = {
      status: 'invited',
      invitedBy: input.invitedBy,
      invitedRoleIds: roleIds,
      invitedName: input.name,
      createdAt: new Date(),
      joinedAt: null,
    };
    await tx
      .insert(companyMembers)
      .values({ companyId: input.companyId, userId, ...values })
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
      .set({ status: 'active', joinedAt: new Date(), invitedRoleIds: null, invitedName: null })
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
      .set({ status: 'refused', invitedRoleIds: null, invitedName: null })
      .where(and(eq(companyMembers.companyId, input.companyId), eq(companyMembers.userId, input.userId)));
  });
}
