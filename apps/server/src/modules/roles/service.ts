/**
 * Roles of a company and the two rules that keep role management safe:
 *
 * - Nobody hands out more than they hold (packages/domain roles.ts): a role the caller creates,
 *   edits, deletes, grants or takes away, and every role held by a member they change, must be
 *   within the caller's authority: its codes among the caller's codes, and the administrator
 *   type only for a caller who holds it. A role manager therefore cannot make themselves (or
 *   anyone) administrator, nor touch an administrator; administrators, whose built-in role
 *   carries every company code, keep full power.
 * - A company keeps an administrator: at least one active, enabled member holding a role of
 *   roleType 1 that carries both um_role and um_user. Every change that could end that takes
 *   the company row lock first, so two administrators demoting each other cannot both win.
 */
import {
  type Authority,
  authorityOf,
  beyondAuthority,
  COMPANY_MENU_CODES,
  type MenuCode,
  type RoleGrant,
  SYSTEM_MENU_CODES,
} from '@platform/domain';
import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import { companies, companyMembers } from '../companies/tables';
import { users } from '../users/tables';
import { memberRoles, roles } from './tables';

export type RoleRow = typeof roles.$inferSelect;

/** Codes that make a roleType-1 role an administrator role. */
export const ADMIN_CODES: readonly MenuCode[] = ['um_role', 'um_user'];

/** The codes a company may grant: system codes only in the platform operator's company. */
export function grantableCodes(isPlatform: boolean): MenuCode[] {
  return isPlatform ? [...COMPANY_MENU_CODES, ...SYSTEM_MENU_CODES] : [...COMPANY_MENU_CODES];
}

/** The codes of a role that take effect in its company (see menuCodesOf in platform/auth). */
export function effectiveCodes(codes: readonly string[], isPlatform: boolean): string[] {
  const grantable = new Set<string>(grantableCodes(isPlatform));
  return codes.filter((code) => grantable.has(code));
}

export async function isPlatformCompany(db: Db, companyId: number): Promise<boolean> {
  const [row] = await db
    .select({ isPlatform: companies.isPlatform })
    .from(companies)
    .where(eq(companies.id, companyId));
  return row?.isPlatform ?? false;
}

/** Serialises membership and role changes of one company for the rest of the transaction. */
export async function lockCompany(tx: Db, companyId: number): Promise<void> {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId)).for('update');
}

async function hasAdministrator(tx: Db, companyId: number): Promise<boolean> {
  const [row] = await tx
    .select({ userId: memberRoles.userId })
    .from(memberRoles)
    .innerJoin(roles, eq(roles.id, memberRoles.roleId))
    .innerJoin(
      companyMembers,
      and(eq(companyMembers.companyId, memberRoles.companyId), eq(companyMembers.userId, memberRoles.userId)),
    )
    .innerJoin(users, eq(users.id, memberRoles.userId))
    .where(
      and(
        eq(memberRoles.companyId, companyId),
        eq(companyMembers.status, 'active'),
        eq(users.status, 1),
        eq(roles.roleType, 1),
        sql`${roles.menuCodes} @> ${JSON.stringify(ADMIN_CODES)}::jsonb`,
      ),
    )
    .limit(1);
  return row != null;
}

/**
 * Runs a change inside a transaction holding the company lock, and undoes it when it leaves the
 * company without an administrator (a company that had none is not blocked by this rule).
 */
export async function keepingAnAdministrator<T>(
  db: Db,
  companyId: number,
  change: (tx: Db) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await lockCompany(tx, companyId);
    const before = await hasAdministrator(tx, companyId);
    const result = await change(tx);
    if (before && !(await hasAdministrator(tx, companyId))) throw new AppError('lastAdmin');
    return result;
  });
}

/** A role as a grant: its type and the codes it carries that take effect in its company. */
export function grantOf(role: Pick<RoleRow, 'roleType' | 'menuCodes'>, isPlatform: boolean): RoleGrant {
  return { roleType: role.roleType, menuCodes: effectiveCodes(role.menuCodes, isPlatform) };
}

/** What the user holds in the company: the roles of their active membership there. */
export async function authorityIn(db: Db, companyId: number, userId: number): Promise<Authority> {
  const [isPlatform, rows] = await Promise.all([
    isPlatformCompany(db, companyId),
    db
      .select({ roleType: roles.roleType, menuCodes: roles.menuCodes })
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
        ),
      ),
  ]);
  return authorityOf(rows.map((r) => grantOf(r, isPlatform)));
}

/**
 * Throws grantNotHeld when one of the roles is beyond the authority: on `field`, or, without
 * one, on the part beyond (roleType or menuCodes).
 */
export function assertWithin(authority: Authority, grants: readonly RoleGrant[], field?: string): void {
  for (const grant of grants) {
    const beyond = beyondAuthority(authority, grant);
    if (beyond) throw fieldError(field ?? beyond, 'grantNotHeld');
  }
}

/** Roles of the company among `ids`; any id that is not one of them is a bad roleIds. */
export async function companyRoles(db: Db, companyId: number, ids: readonly number[]): Promise<RoleRow[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await db
    .select()
    .from(roles)
    .where(and(eq(roles.companyId, companyId), inArray(roles.id, unique)));
  if (rows.length !== unique.length) throw fieldError('roleIds');
  return rows;
}

/** The roles as grants, with the codes that take effect in their company. */
export function grantsOf(rows: readonly RoleRow[], isPlatform: boolean): RoleGrant[] {
  return rows.map((r) => grantOf(r, isPlatform));
}

export interface RoleView {
  id: number;
  name: string;
  description: string | null;
  roleType: number;
  menuCodes: string[];
  builtin: boolean;
  userCount: number;
}

/** The company's roles, built-in first, with how many active members hold each. */
export async function listRoles(db: Db, companyId: number): Promise<RoleView[]> {
  const holders = db
    .select({ roleId: memberRoles.roleId, n: count().as('n') })
    .from(memberRoles)
    .innerJoin(
      companyMembers,
      and(eq(companyMembers.companyId, memberRoles.companyId), eq(companyMembers.userId, memberRoles.userId)),
    )
    .where(and(eq(memberRoles.companyId, companyId), eq(companyMembers.status, 'active')))
    .groupBy(memberRoles.roleId)
    .as('holders');
  const rows = await db
    .select({
      id: roles.id,
      name: roles.name,
      description: roles.description,
      roleType: roles.roleType,
      menuCodes: roles.menuCodes,
      builtin: roles.builtin,
      userCount: holders.n,
    })
    .from(roles)
    .leftJoin(holders, eq(holders.roleId, roles.id))
    .where(eq(roles.companyId, companyId))
    .orderBy(sql`${roles.builtin} desc`, asc(roles.id));
  return rows.map((r) => ({ ...r, userCount: Number(r.userCount ?? 0) }));
}

async function assertNameFree(tx: Db, companyId: number, name: string, exceptId?: number): Promise<void> {
  const [row] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        eq(roles.companyId, companyId),
        sql`lower(${roles.name}) = lower(${name})`,
        exceptId == null ? undefined : ne(roles.id, exceptId),
      ),
    )
    .limit(1);
  if (row) throw new AppError('roleNameTaken', {}, { field: 'name' });
}

export interface RoleInput {
  name: string;
  description: string | null;
  roleType: number;
  menuCodes: string[];
}

/** Creates a role within the caller's authority (its type and codes: grantNotHeld on that field). */
export async function addRole(
  db: Db,
  companyId: number,
  input: RoleInput,
  authority: Authority,
): Promise<number> {
  assertWithin(authority, [grantOf(input, await isPlatformCompany(db, companyId))]);
  return db.transaction(async (tx) => {
    await lockCompany(tx, companyId);
    await assertNameFree(tx, companyId, input.name);
    const [row] = await tx
      .insert(roles)
      .values({ companyId, ...input, builtin: false })
      .returning({ id: roles.id });
    return row!.id;
  });
}

async function roleOfCompany(tx: Db, companyId: number, id: number): Promise<RoleRow> {
  const [row] = await tx
    .select()
    .from(roles)
    .where(and(eq(roles.id, id), eq(roles.companyId, companyId)));
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  return row;
}

/**
 * Changes a role. The role must be within the caller's authority as it is (else grantNotHeld on
 * id: a manager cannot reach a role above them) and as it becomes (else on roleType or
 * menuCodes), so nobody raises a role, their own included, beyond what they hold. The built-in
 * administrator role keeps roleType 1 and every code it has, so a company can always be managed.
 */
export async function updateRole(
  db: Db,
  companyId: number,
  id: number,
  change: Partial<RoleInput>,
  authority: Authority,
): Promise<void> {
  const isPlatform = await isPlatformCompany(db, companyId);
  await keepingAnAdministrator(db, companyId, async (tx) => {
    const role = await roleOfCompany(tx, companyId, id);
    assertWithin(authority, [grantOf(role, isPlatform)], 'id');
    if (role.builtin && role.roleType === 1) {
      const keepsCodes =
        change.menuCodes == null || role.menuCodes.every((c) => change.menuCodes!.includes(c));
      const keepsType = change.roleType == null || change.roleType === 1;
      if (!keepsCodes) throw new AppError('adminRoleLocked', {}, { field: 'menuCodes' });
      if (!keepsType) throw new AppError('adminRoleLocked', {}, { field: 'roleType' });
    }
    assertWithin(authority, [
      grantOf(
        { roleType: change.roleType ?? role.roleType, menuCodes: change.menuCodes ?? role.menuCodes },
        isPlatform,
      ),
    ]);
    if (change.name != null) await assertNameFree(tx, companyId, change.name, id);
    const set = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
    if (Object.keys(set).length > 0) await tx.update(roles).set(set).where(eq(roles.id, id));
  });
}

export async function deleteRole(db: Db, companyId: number, id: number, authority: Authority): Promise<void> {
  const isPlatform = await isPlatformCompany(db, companyId);
  await db.transaction(async (tx) => {
    await lockCompany(tx, companyId);
    const role = await roleOfCompany(tx, companyId, id);
    assertWithin(authority, [grantOf(role, isPlatform)], 'id');
    if (role.builtin) throw new AppError('builtinRoleUndeletable', {}, { field: 'id' });
    const [held] = await tx.select({ n: count() }).from(memberRoles).where(eq(memberRoles.roleId, id));
    if (Number(held?.n ?? 0) > 0) throw new AppError('roleInUse', {}, { field: 'id' });
    // pending invitations that name the role simply do not grant it (see acceptInvitation)
    await tx.delete(roles).where(eq(roles.id, id));
  });
}
