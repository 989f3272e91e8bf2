import {
  BUILTIN_ROLE_NAMES,
  COMPANY_MENU_CODES,
  DEFAULT_TIME_ZONE,
  isTimeZone,
  type MenuCode,
  SYSTEM_MENU_CODES,
} from '@platform/domain';
import { and, asc, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { memberRoles, roles } from '../roles/tables';
import { users } from '../users/tables';
import { companies, companyMembers } from './tables';

export type CompanyRow = typeof companies.$inferSelect;

/** Codes the built-in ordinary-user role starts with: data cabin and personal center. */
export const ORDINARY_ROLE_CODES: MenuCode[] = [
  'smart_data',
  'sd_capsule',
  'pc_my_order',
  'pc_my_assignment',
];

export interface CreatedCompany {
  company: CompanyRow;
  adminRoleId: number;
  ordinaryRoleId: number;
}

/**
 * A new company with its two built-in roles (administrator with every company code, plus
 * the system codes for the platform company; ordinary user), the owner as its active
 * administrator, and the owner switched to it when they had no company yet.
 */
export async function createCompany(
  db: Db,
  input: { name: string; ownerId: number; isPlatform?: boolean; serviceExpiresAt?: Date | null },
): Promise<CreatedCompany> {
  return db.transaction(async (tx) => {
    const [company] = await tx
      .insert(companies)
      .values({
        name: input.name,
        displayName: input.name,
        isPlatform: input.isPlatform ?? false,
        createdBy: input.ownerId,
        serviceExpiresAt: input.serviceExpiresAt ?? null,
      })
      .returning();
    const adminCodes = input.isPlatform
      ? [...COMPANY_MENU_CODES, ...SYSTEM_MENU_CODES]
      : [...COMPANY_MENU_CODES];
    const [admin] = await tx
      .insert(roles)
      .values({
        companyId: company!.id,
        name: BUILTIN_ROLE_NAMES.administrator,
        roleType: 1,
        menuCodes: adminCodes,
        builtin: true,
      })
      .returning({ id: roles.id });
    const [ordinary] = await tx
      .insert(roles)
      .values({
        companyId: company!.id,
        name: BUILTIN_ROLE_NAMES.ordinary,
        roleType: 2,
        menuCodes: ORDINARY_ROLE_CODES,
        builtin: true,
      })
      .returning({ id: roles.id });
    await tx
      .insert(companyMembers)
      .values({ companyId: company!.id, userId: input.ownerId, status: 'active', joinedAt: new Date() });
    await tx.insert(memberRoles).values({ companyId: company!.id, userId: input.ownerId, roleId: admin!.id });
    await tx
      .update(users)
      .set({ currentCompanyId: company!.id })
      .where(and(eq(users.id, input.ownerId), isNull(users.currentCompanyId)));
    return { company: company!, adminRoleId: admin!.id, ordinaryRoleId: ordinary!.id };
  });
}

/** Make a user an active member holding the given roles. */
export async function addActiveMember(
  db: Db,
  companyId: number,
  userId: number,
  roleIds: number[],
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(companyMembers)
      .values({ companyId, userId, status: 'active', joinedAt: new Date() })
      .onConflictDoUpdate({
        target: [companyMembers.companyId, companyMembers.userId],
        set: { status: 'active', joinedAt: new Date() },
      });
    for (const roleId of roleIds) {
      await tx.insert(memberRoles).values({ companyId, userId, roleId }).onConflictDoNothing();
    }
    await tx
      .update(users)
      .set({ currentCompanyId: companyId })
      .where(and(eq(users.id, userId), isNull(users.currentCompanyId)));
  });
}

/** The cfg JSON text as an object; a damaged value reads as empty rather than failing the page. */
export function parseCfg(cfg: string | null | undefined): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(cfg ?? '{}');
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The logo a company shows: the thumbnail in cfg.logoThumbnailUri; null lets the web use its default. */
export function logoUrlOf(cfg: string | null | undefined): string | null {
  const uri = parseCfg(cfg).logoThumbnailUri;
  return typeof uri === 'string' && uri !== '' ? uri : null;
}

/** A company that has not been deleted. */
export async function findLiveCompany(db: Db, id: number): Promise<CompanyRow | undefined> {
  const [row] = await db
    .select()
    .from(companies)
    .where(and(eq(companies.id, id), isNull(companies.deletedAt)));
  return row;
}

/**
 * The company's time zone: every time shown, entered, reported or rendered for the company
 * reads in it. A company that is gone (or a stored name Intl no longer knows) reads in the
 * default zone.
 */
export async function companyTimeZone(db: Db, id: number): Promise<string> {
  const [row] = await db.select({ timeZone: companies.timeZone }).from(companies).where(eq(companies.id, id));
  return row && isTimeZone(row.timeZone) ? row.timeZone : DEFAULT_TIME_ZONE;
}

/** Whether another non-deleted company already uses the name. */
export async function isCompanyNameTaken(db: Db, name: string, exceptId?: number): Promise<boolean> {
  const [row] = await db
    .select({ id: companies.id })
    .from(companies)
    .where(
      and(
        eq(companies.name, name),
        isNull(companies.deletedAt),
        exceptId == null ? undefined : ne(companies.id, exceptId),
      ),
    )
    .limit(1);
  return row != null;
}

export interface MemberCompany {
  id: number;
  name: string;
  displayName: string;
  logoUrl: string | null;
}

/** The non-deleted companies the user is an active member of, oldest membership first. */
export async function listActiveCompanies(db: Db, userId: number): Promise<MemberCompany[]> {
  const rows = await db
    .select({
      id: companies.id,
      name: companies.name,
      displayName: companies.displayName,
      cfg: companies.cfg,
    })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(
      and(
        eq(companyMembers.userId, userId),
        eq(companyMembers.status, 'active'),
        isNull(companies.deletedAt),
      ),
    )
    .orderBy(asc(companyMembers.joinedAt), asc(companies.id));
  return rows.map(({ cfg, ...row }) => ({ ...row, logoUrl: logoUrlOf(cfg) }));
}

/** Active membership of a non-deleted company. */
export async function isActiveMember(db: Db, companyId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .innerJoin(companies, eq(companies.id, companyMembers.companyId))
    .where(
      and(
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.userId, userId),
        eq(companyMembers.status, 'active'),
        isNull(companies.deletedAt),
      ),
    );
  return row != null;
}

/** The user ids among `userIds` that are not active members of the company. */
export async function nonMembers(db: Db, companyId: number, userIds: readonly number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .where(
      and(
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.status, 'active'),
        inArray(companyMembers.userId, [...userIds]),
      ),
    );
  const members = new Set(rows.map((r) => r.userId));
  return userIds.filter((id) => !members.has(id));
}

export async function setCurrentCompany(db: Db, userId: number, companyId: number): Promise<void> {
  await db.update(users).set({ currentCompanyId: companyId }).where(eq(users.id, userId));
}

/** Whether the user holds an administrator role (roleType 1) in the company. */
export async function holdsAdminRole(db: Db, companyId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ roleId: memberRoles.roleId })
    .from(memberRoles)
    .innerJoin(roles, eq(roles.id, memberRoles.roleId))
    .where(and(eq(memberRoles.companyId, companyId), eq(memberRoles.userId, userId), eq(roles.roleType, 1)))
    .limit(1);
  return row != null;
}

export async function updateCompanyNames(
  db: Db,
  id: number,
  input: { name?: string; displayName?: string; timeZone?: string },
): Promise<void> {
  if (input.name == null && input.displayName == null && input.timeZone == null) return;
  await db.update(companies).set(input).where(eq(companies.id, id));
}

/**
 * Soft delete: the row stays (orders and history keep their company), every membership stops
 * counting, and each user whose current company it was moves to their most recently joined
 * other active company, or to none.
 */
export async function softDeleteCompany(db: Db, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(companies).set({ deletedAt: new Date() }).where(eq(companies.id, id));
    const other = tx
      .select({ companyId: companyMembers.companyId })
      .from(companyMembers)
      .innerJoin(companies, eq(companies.id, companyMembers.companyId))
      .where(
        and(
          eq(companyMembers.userId, users.id),
          eq(companyMembers.status, 'active'),
          isNull(companies.deletedAt),
          ne(companies.id, id),
        ),
      )
      .orderBy(sql`${companyMembers.joinedAt} desc nulls last`, desc(companies.id))
      .limit(1);
    await tx
      .update(users)
      .set({ currentCompanyId: sql`(${other})` })
      .where(eq(users.currentCompanyId, id));
  });
}
