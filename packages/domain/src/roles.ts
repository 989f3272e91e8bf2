/**
 * Role types and the rule of every grant.
 *
 * Role labels (spec point 3) come in pairs, administrator and ordinary user: 1/2 for a
 * company's roles, 10/11 and 20/21 for the same labels in other scopes (a project's menu is
 * grouped below 20). An administrator-type role is more than its codes: in a company it gives
 * data permission 3 on every node.
 *
 * Nobody hands out more than they hold: a role someone creates, edits, deletes, grants, takes
 * away, or whose holder they change, must be within their authority — every code it carries
 * among their own codes, and an administrator type only if they hold one themselves. So a
 * role manager can neither make themselves administrator nor reach a member who holds more
 * than they do; administrators, whose built-in role carries every company code, keep full power.
 */

export const ROLE_TYPE = { administrator: 1, ordinary: 2 } as const;

/** The company's role types: 1 administrator, 2 ordinary user. */
export const COMPANY_ROLE_TYPES: readonly number[] = [ROLE_TYPE.administrator, ROLE_TYPE.ordinary];

/**
 * The names every company's two built-in roles are stored with. They are labels, not data:
 * pages show a built-in role still carrying its stored name in the reader's language.
 */
export const BUILTIN_ROLE_NAMES = { administrator: '管理员', ordinary: '普通用户' } as const;

/**
 * The role type whose label stands for this role's name, or null when the name is the role's
 * own: a built-in role (or, where only the name is known, a role) still named as stored.
 */
export function builtinRoleLabelType(role: { name: string; builtin?: boolean }): 1 | 2 | null {
  if (role.builtin === false) return null;
  if (role.name === BUILTIN_ROLE_NAMES.administrator) return ROLE_TYPE.administrator;
  if (role.name === BUILTIN_ROLE_NAMES.ordinary) return ROLE_TYPE.ordinary;
  return null;
}

/** The administrator label of each pair. */
export const ADMINISTRATOR_ROLE_TYPES: readonly number[] = [1, 10, 20];

export function isAdministratorType(roleType: number): boolean {
  return ADMINISTRATOR_ROLE_TYPES.includes(roleType);
}

/** What a person holds in one company. */
export interface Authority {
  /** the menu codes in effect for them there */
  codes: ReadonlySet<string>;
  /** whether they hold an administrator-type role there */
  administrator: boolean;
}

/** A role as far as granting goes: its type and the codes it carries (those in effect). */
export interface RoleGrant {
  roleType: number;
  menuCodes: readonly string[];
}

/** Which part of the role is beyond the authority: its type first, then its codes; null when within. */
export function beyondAuthority(authority: Authority, role: RoleGrant): 'roleType' | 'menuCodes' | null {
  if (isAdministratorType(role.roleType) && !authority.administrator) return 'roleType';
  if (role.menuCodes.some((code) => !authority.codes.has(code))) return 'menuCodes';
  return null;
}

/** The authority of someone holding exactly these roles (the codes given are those in effect). */
export function authorityOf(roles: readonly RoleGrant[]): Authority {
  return {
    codes: new Set(roles.flatMap((r) => r.menuCodes)),
    administrator: roles.some((r) => isAdministratorType(r.roleType)),
  };
}
