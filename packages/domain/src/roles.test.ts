import { describe, expect, it } from 'vitest';
import {
  authorityOf,
  BUILTIN_ROLE_NAMES,
  beyondAuthority,
  builtinRoleLabelType,
  isAdministratorType,
} from './roles';

const manager = authorityOf([
  { roleType: 2, menuCodes: ['user_management', 'um_role', 'um_user', 'smart_data'] },
]);
const admin = authorityOf([
  { roleType: 1, menuCodes: ['user_management', 'um_role', 'um_user', 'smart_data', 'sd_capsule'] },
]);

describe('isAdministratorType', () => {
  it('knows the administrator label of each pair', () => {
    expect([1, 2, 10, 11, 20, 21].map(isAdministratorType)).toEqual([true, false, true, false, true, false]);
  });
});

describe('authorityOf', () => {
  it('is the union of the codes and whether any role is an administrator one', () => {
    const both = authorityOf([
      { roleType: 2, menuCodes: ['sd_board'] },
      { roleType: 1, menuCodes: ['um_role'] },
    ]);
    expect([...both.codes].sort()).toEqual(['sd_board', 'um_role']);
    expect(both.administrator).toBe(true);
    expect(authorityOf([])).toEqual({ codes: new Set(), administrator: false });
  });
});

describe('beyondAuthority', () => {
  it('refuses a role manager the administrator type, even with codes they hold', () => {
    expect(beyondAuthority(manager, { roleType: 1, menuCodes: ['um_role', 'um_user'] })).toBe('roleType');
    expect(beyondAuthority(manager, { roleType: 10, menuCodes: [] })).toBe('roleType');
  });

  it('refuses codes not held, whatever the type', () => {
    expect(beyondAuthority(manager, { roleType: 2, menuCodes: ['smart_data', 'sd_capsule'] })).toBe(
      'menuCodes',
    );
    expect(beyondAuthority(admin, { roleType: 2, menuCodes: ['system_company'] })).toBe('menuCodes');
  });

  it('allows what is within: own codes, ordinary type; an administrator may grant the administrator type', () => {
    expect(beyondAuthority(manager, { roleType: 2, menuCodes: ['smart_data', 'um_user'] })).toBeNull();
    expect(beyondAuthority(manager, { roleType: 2, menuCodes: [] })).toBeNull();
    expect(
      beyondAuthority(admin, { roleType: 1, menuCodes: ['um_role', 'um_user', 'sd_capsule'] }),
    ).toBeNull();
  });
});

describe('built-in role labels', () => {
  it('reads a built-in role still named as stored as its label type; any other name is its own', () => {
    expect(builtinRoleLabelType({ name: BUILTIN_ROLE_NAMES.administrator, builtin: true })).toBe(1);
    expect(builtinRoleLabelType({ name: BUILTIN_ROLE_NAMES.ordinary, builtin: true })).toBe(2);
    // a member's role names come without the flag: the stored names are read as labels
    expect(builtinRoleLabelType({ name: BUILTIN_ROLE_NAMES.ordinary })).toBe(2);
    expect(builtinRoleLabelType({ name: 'Shift lead', builtin: true })).toBeNull();
    expect(builtinRoleLabelType({ name: BUILTIN_ROLE_NAMES.administrator, builtin: false })).toBeNull();
  });
});
