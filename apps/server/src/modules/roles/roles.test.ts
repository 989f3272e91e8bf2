import { COMPANY_MENU_CODES, ERROR_CODES, SYSTEM_MENU_CODES } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp } from '../../test/helper';
import { makeItem, setPermissions } from '../cabin/test-support';
import { companyMembers } from '../companies/tables';
import { createUser } from '../users/service';
import {
  getAs,
  makeMember,
  makeRole,
  membershipRow,
  postAs,
  roleIdsHeld,
  roleRow,
} from '../users/test-support';
import { memberRoles, roles } from './tables';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '1000' });
});
afterAll(() => t.close());

async function companyRoleRows(companyId: number) {
  return t.db.select().from(roles).where(eq(roles.companyId, companyId)).orderBy(roles.id);
}

interface RoleView {
  id: number;
  name: string;
  description: string | null;
  roleType: number;
  menuCodes: string[];
  builtin: boolean;
  userCount: number;
}

async function roleList(token: string): Promise<RoleView[]> {
  const res = await getAs(t, token, '/role/getRoleList');
  expect(res.json().code).toBe(0);
  return res.json().data;
}

describe('GET /role/getRoleList', () => {
  it('lists built-in roles first, each with how many active members hold it', async () => {
    const a = await makeCompany(t, 'Role list Co');
    const custom = await makeRole(t, a.id, ['sd_board'], { name: 'Board viewer' });
    await makeMember(t, a, [custom, a.ordinaryRoleId]);
    const invitee = await createUser(t.db, { phone: '13700000001', userName: 'Pending' });
    await t.db
      .insert(companyMembers)
      .values({ companyId: a.id, userId: invitee.id, status: 'invited', invitedRoleIds: [custom] });
    // a stray grant to a non-active membership does not count
    await t.db.insert(memberRoles).values({ companyId: a.id, userId: invitee.id, roleId: custom });

    expect(await roleList(a.admin.token)).toEqual([
      {
        id: a.adminRoleId,
        name: '管理员',
        description: null,
        roleType: 1,
        menuCodes: [...COMPANY_MENU_CODES],
        builtin: true,
        userCount: 1,
      },
      {
        id: a.ordinaryRoleId,
        name: '普通用户',
        description: null,
        roleType: 2,
        menuCodes: ['smart_data', 'sd_capsule', 'pc_my_order', 'pc_my_assignment'],
        builtin: true,
        userCount: 2,
      },
      {
        id: custom,
        name: 'Board viewer',
        description: null,
        roleType: 2,
        menuCodes: ['sd_board'],
        builtin: false,
        userCount: 1,
      },
    ]);
  });
});

describe('GET /role/getMenuCodes', () => {
  it('offers company codes; system codes only in the platform company', async () => {
    const a = await makeCompany(t, 'Codes Co');
    const p = await makeCompany(t, 'Platform Co', { isPlatform: true });
    const plain = (await getAs(t, a.admin.token, '/role/getMenuCodes')).json().data;
    expect(plain).toEqual([...COMPANY_MENU_CODES]);
    expect(plain).not.toContain('system_company');
    const platform = (await getAs(t, p.admin.token, '/role/getMenuCodes')).json().data;
    expect(platform).toEqual([...COMPANY_MENU_CODES, ...SYSTEM_MENU_CODES]);
  });

  it('offers a role manager only the codes they hold (what they may grant)', async () => {
    const a = await makeCompany(t, 'Codes manager Co');
    const managerRole = await makeRole(t, a.id, ['sd_board', 'um_role', 'user_management']);
    const manager = await makeMember(t, a, [managerRole]);
    const offered = (await getAs(t, manager.token, '/role/getMenuCodes')).json().data;
    expect(offered).toEqual(
      COMPANY_MENU_CODES.filter((c) => ['sd_board', 'um_role', 'user_management'].includes(c)),
    );
  });
});

describe('POST /role/addRole', () => {
  it('creates a role with trimmed name, codes once each, and lists it', async () => {
    const a = await makeCompany(t, 'Add role Co');
    const res = await postAs(t, a.admin.token, '/role/addRole', {
      name: '  Inventory clerk ',
      description: 'Stock in and out',
      roleType: 2,
      menuCodes: ['im_inventory', 'im_entry', 'im_inventory'],
    });
    expect(res.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const role = await roleRow(t, res.json().data.id);
    expect(role).toMatchObject({
      companyId: a.id,
      name: 'Inventory clerk',
      description: 'Stock in and out',
      roleType: 2,
      menuCodes: ['im_inventory', 'im_entry'],
      builtin: false,
    });
    expect((await roleList(a.admin.token)).map((r) => r.name)).toContain('Inventory clerk');
  });

  it('names each bad field with its message and writes nothing', async () => {
    const a = await makeCompany(t, 'Bad role Co');
    const before = await companyRoleRows(a.id);
    const good = { name: 'Clerk', roleType: 2, menuCodes: ['im_inventory'] };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: ' ' }, 'name', 'Please enter a name'],
      [{ name: 'r'.repeat(26) }, 'name', 'The length of the name cannot exceed 25 characters'],
      [{ name: '管理员' }, 'name', 'A role with this name already exists'],
      [
        { name: 'Clerk', menuCodes: ['im_inventory', 'no_such_code'] },
        'menuCodes',
        'Invalid value for menuCodes',
      ],
      [{ menuCodes: ['system_company'] }, 'menuCodes', 'Invalid value for menuCodes'],
      [{ roleType: 3 }, 'roleType', 'Invalid value for roleType'],
      [{ menuCodes: [{ code: 'im_inventory' }] }, 'menuCodes.0', 'Invalid value for menuCodes.0'],
    ];
    for (const [change, field, message] of cases) {
      const res = await postAs(t, a.admin.token, '/role/addRole', { ...good, ...change });
      expect(res.json(), JSON.stringify(change)).toMatchObject({ message, data: { field } });
    }
    const { name: _n, ...noName } = good;
    expect((await postAs(t, a.admin.token, '/role/addRole', noName)).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'name is required',
      data: { field: 'name' },
    });
    expect(await companyRoleRows(a.id)).toEqual(before);
  });

  it('treats names case-insensitively within the company only', async () => {
    const a = await makeCompany(t, 'Case Co');
    const b = await makeCompany(t, 'Case B');
    await makeRole(t, a.id, [], { name: 'Operators' });
    const dup = await postAs(t, a.admin.token, '/role/addRole', {
      name: 'OPERATORS',
      roleType: 2,
      menuCodes: [],
    });
    expect(dup.json().code).toBe(ERROR_CODES.CONFLICT);
    const elsewhere = await postAs(t, b.admin.token, '/role/addRole', {
      name: 'Operators',
      roleType: 2,
      menuCodes: [],
    });
    expect(elsewhere.json().code).toBe(0);
  });

  it('lets the platform company grant system codes', async () => {
    const p = await makeCompany(t, 'Platform add Co', { isPlatform: true });
    const res = await postAs(t, p.admin.token, '/role/addRole', {
      name: 'Maintainer',
      roleType: 2,
      menuCodes: ['system_maintenance', 'system_company'],
    });
    expect(res.json().code).toBe(0);
    expect((await roleRow(t, res.json().data.id))!.menuCodes).toEqual([
      'system_maintenance',
      'system_company',
    ]);
  });

  it('refuses codes the caller does not hold', async () => {
    const a = await makeCompany(t, 'Role manager Co');
    const managerRole = await makeRole(t, a.id, ['user_management', 'um_role', 'smart_data']);
    const manager = await makeMember(t, a, [managerRole], 'Role manager');
    const before = await companyRoleRows(a.id);
    const res = await postAs(t, manager.token, '/role/addRole', {
      name: 'Backdoor',
      roleType: 2,
      menuCodes: ['um_role', 'um_user'],
    });
    expect(res.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'You cannot grant, revoke or manage permissions you do not hold yourself',
      data: { field: 'menuCodes' },
    });
    expect(await companyRoleRows(a.id)).toEqual(before);
    const fine = await postAs(t, manager.token, '/role/addRole', {
      name: 'Data viewer',
      roleType: 2,
      menuCodes: ['smart_data'],
    });
    expect(fine.json().code).toBe(0);
  });
});

describe('POST /role/updateRole', () => {
  it('changes name, description, type and codes', async () => {
    const a = await makeCompany(t, 'Update role Co');
    const id = await makeRole(t, a.id, ['sd_board'], { name: 'Old' });
    const res = await postAs(t, a.admin.token, '/role/updateRole', {
      id,
      name: ' New ',
      description: 'Dashboards',
      roleType: 1,
      menuCodes: ['sd_board', 'sd_board_play'],
    });
    expect(res.json()).toEqual({ code: 0, message: 'Operation successful', data: null });
    expect(await roleRow(t, id)).toMatchObject({
      name: 'New',
      description: 'Dashboards',
      roleType: 1,
      menuCodes: ['sd_board', 'sd_board_play'],
    });
    // absent fields stay, an empty description clears
    await postAs(t, a.admin.token, '/role/updateRole', { id, description: '' });
    expect(await roleRow(t, id)).toMatchObject({ name: 'New', description: null, roleType: 1 });
  });

  it('keeps the built-in administrator role whole, but lets it grow and be renamed', async () => {
    const a = await makeCompany(t, 'Locked Co');
    const before = await roleRow(t, a.adminRoleId);
    const lose = await postAs(t, a.admin.token, '/role/updateRole', {
      id: a.adminRoleId,
      menuCodes: before!.menuCodes.filter((c) => c !== 'um_role'),
    });
    expect(lose.json()).toEqual({
      code: ERROR_CODES.BUSINESS,
      message: 'The built-in administrator role cannot lose permissions or its administrator type',
      data: { field: 'menuCodes' },
    });
    const demote = await postAs(t, a.admin.token, '/role/updateRole', { id: a.adminRoleId, roleType: 2 });
    expect(demote.json()).toMatchObject({ code: ERROR_CODES.BUSINESS, data: { field: 'roleType' } });
    expect(await roleRow(t, a.adminRoleId)).toEqual(before);

    const rename = await postAs(t, a.admin.token, '/role/updateRole', { id: a.adminRoleId, name: 'Owners' });
    expect(rename.json().code).toBe(0);
    // the built-in ordinary role is an ordinary role: it may lose codes
    const trim = await postAs(t, a.admin.token, '/role/updateRole', {
      id: a.ordinaryRoleId,
      menuCodes: ['smart_data'],
    });
    expect(trim.json().code).toBe(0);
    expect((await roleRow(t, a.ordinaryRoleId))!.menuCodes).toEqual(['smart_data']);
  });

  it('refuses a taken name, unknown codes and an unknown role, changing nothing', async () => {
    const a = await makeCompany(t, 'Update bad Co');
    const id = await makeRole(t, a.id, ['sd_board'], { name: 'Mine' });
    const taken = await postAs(t, a.admin.token, '/role/updateRole', { id, name: '普通用户' });
    expect(taken.json()).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'name' } });
    const same = await postAs(t, a.admin.token, '/role/updateRole', { id, name: 'MINE' });
    expect(same.json().code).toBe(0);
    const badCode = await postAs(t, a.admin.token, '/role/updateRole', { id, menuCodes: ['nope'] });
    expect(badCode.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'menuCodes' } });
    const badName = await postAs(t, a.admin.token, '/role/updateRole', { id, name: '' });
    expect(badName.json()).toMatchObject({ message: 'Please enter a name', data: { field: 'name' } });
    const unknown = await postAs(t, a.admin.token, '/role/updateRole', { id: 999_999, name: 'X' });
    expect(unknown.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
    expect(await roleRow(t, id)).toMatchObject({ name: 'MINE', menuCodes: ['sd_board'] });
  });

  it('refuses a change that leaves the company without an administrator', async () => {
    const a = await makeCompany(t, 'Admin role Co');
    // the only administrator holds a custom administrator role instead of the built-in one
    const custom = await makeRole(t, a.id, ['user_management', 'um_role', 'um_user'], {
      name: 'Custom admins',
      roleType: 1,
    });
    await t.db
      .update(memberRoles)
      .set({ roleId: custom })
      .where(and(eq(memberRoles.companyId, a.id), eq(memberRoles.userId, a.admin.id)));
    for (const change of [{ roleType: 2 }, { menuCodes: ['user_management', 'um_role'] }]) {
      const res = await postAs(t, a.admin.token, '/role/updateRole', { id: custom, ...change });
      expect(res.json(), JSON.stringify(change)).toMatchObject({
        code: ERROR_CODES.BUSINESS,
        message: 'The company must keep at least one administrator',
      });
    }
    expect(await roleRow(t, custom)).toMatchObject({
      roleType: 1,
      menuCodes: ['user_management', 'um_role', 'um_user'],
    });
  });

  it('refuses adding codes the caller does not hold', async () => {
    const a = await makeCompany(t, 'Grow Co');
    const managerRole = await makeRole(t, a.id, ['um_role', 'smart_data']);
    const manager = await makeMember(t, a, [managerRole]);
    const res = await postAs(t, manager.token, '/role/updateRole', {
      id: managerRole,
      menuCodes: ['um_role', 'smart_data', 'um_user'],
    });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'menuCodes' } });
    expect((await roleRow(t, managerRole))!.menuCodes).toEqual(['um_role', 'smart_data']);
  });
});

describe('POST /role/deleteRole', () => {
  it('deletes an unused role', async () => {
    const a = await makeCompany(t, 'Delete role Co');
    const id = await makeRole(t, a.id, ['sd_board']);
    const res = await postAs(t, a.admin.token, '/role/deleteRole', { id });
    expect(res.json()).toEqual({ code: 0, message: 'Delete successfully', data: null });
    expect(await roleRow(t, id)).toBeUndefined();
    expect((await roleList(a.admin.token)).map((r) => r.id)).not.toContain(id);
  });

  it('refuses built-in roles, roles in use and unknown ids', async () => {
    const a = await makeCompany(t, 'Keep role Co');
    const used = await makeRole(t, a.id, ['sd_board']);
    await makeMember(t, a, [used]);
    const builtin = await postAs(t, a.admin.token, '/role/deleteRole', { id: a.ordinaryRoleId });
    expect(builtin.json()).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'Built-in roles cannot be deleted',
    });
    const inUse = await postAs(t, a.admin.token, '/role/deleteRole', { id: used }, 'zh');
    expect(inUse.json()).toEqual({
      code: ERROR_CODES.BUSINESS,
      message: '该角色仍有用户在使用',
      data: { field: 'id' },
    });
    const unknown = await postAs(t, a.admin.token, '/role/deleteRole', { id: 999_999 });
    expect(unknown.json().code).toBe(ERROR_CODES.NOT_FOUND);
    const bad = await postAs(t, a.admin.token, '/role/deleteRole', { id: 'x' });
    expect(bad.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'id' } });
    expect(await roleRow(t, a.ordinaryRoleId)).toBeDefined();
    expect(await roleRow(t, used)).toBeDefined();
  });
});

describe('a role manager cannot raise anyone’s rights, their own included', () => {
  const MANAGER_CODES = ['user_management', 'um_role', 'um_user', 'smart_data', 'sd_capsule'];

  async function setting() {
    const a = await makeCompany(t, `Takeover ${Math.random().toString(36).slice(2, 8)}`);
    const managerRole = await makeRole(t, a.id, MANAGER_CODES, { name: 'Role managers' });
    const manager = await makeMember(t, a, [managerRole], 'Role manager');
    // an item whose data permission is none for everyone but administrators
    const secret = await makeItem(t, a.id, { name: 'Payroll' });
    await setPermissions(t, secret.nodeId, [{ scope: 'company', subjectId: null, level: 0 }]);
    return { a, managerRole, manager, secret };
  }

  async function readItem(token: string, itemId: number) {
    return (await getAs(t, token, '/smartdata/item/get', { itemId: String(itemId) })).json();
  }

  it('the exact attack: create a role of type 1 with codes they hold, take it, read an item hidden from them — refused at the first step', async () => {
    const { a, managerRole, manager, secret } = await setting();
    expect((await readItem(manager.token, secret.itemId)).code).toBe(ERROR_CODES.NOT_FOUND);
    const before = await companyRoleRows(a.id);

    const created = await postAs(t, manager.token, '/role/addRole', {
      name: 'Backdoor',
      roleType: 1,
      menuCodes: ['um_role', 'um_user'],
    });
    expect(created.json()).toEqual({
      code: ERROR_CODES.VALIDATION,
      message: 'You cannot grant, revoke or manage permissions you do not hold yourself',
      data: { field: 'roleType' },
    });
    expect(await companyRoleRows(a.id)).toEqual(before);
    expect(await roleIdsHeld(t, a.id, manager.id)).toEqual([managerRole]);
    expect((await readItem(manager.token, secret.itemId)).code).toBe(ERROR_CODES.NOT_FOUND);
    // the administrator still reads it
    expect((await readItem(a.admin.token, secret.itemId)).code).toBe(0);
  });

  it('cannot take an administrator-type role that already exists, even one whose codes they hold', async () => {
    const { a, managerRole, manager, secret } = await setting();
    const leads = await makeRole(t, a.id, ['smart_data'], { name: 'Shift leads', roleType: 1 });
    for (const roleIds of [
      [managerRole, leads],
      [managerRole, a.adminRoleId],
    ]) {
      const res = await postAs(t, manager.token, '/user/updateSysUser', { userId: manager.id, roleIds });
      expect(res.json(), JSON.stringify(roleIds)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field: 'roleIds' },
      });
    }
    expect(await roleIdsHeld(t, a.id, manager.id)).toEqual([managerRole]);
    expect((await readItem(manager.token, secret.itemId)).code).toBe(ERROR_CODES.NOT_FOUND);
  });

  it('cannot raise the role they hold: not to type 1, not with codes they lack', async () => {
    const { a, managerRole, manager } = await setting();
    const toAdmin = await postAs(t, manager.token, '/role/updateRole', { id: managerRole, roleType: 1 });
    expect(toAdmin.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'roleType' } });
    const moreCodes = await postAs(t, manager.token, '/role/updateRole', {
      id: managerRole,
      menuCodes: [...MANAGER_CODES, 'sys_company_info'],
    });
    expect(moreCodes.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'menuCodes' } });
    expect(await roleRow(t, managerRole)).toMatchObject({ roleType: 2, menuCodes: MANAGER_CODES });
    expect(await roleIdsHeld(t, a.id, manager.id)).toEqual([managerRole]);
  });

  it('cannot edit or delete a role above them, nor lower an administrator role to take it', async () => {
    const { a, manager } = await setting();
    const leads = await makeRole(t, a.id, ['smart_data'], { name: 'Shift leads', roleType: 1 });
    const beyondCodes = await makeRole(t, a.id, ['smart_data', 'sys_company_info'], { name: 'Settings' });
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['/role/updateRole', { id: leads, roleType: 2 }],
      ['/role/updateRole', { id: leads, name: 'Mine now' }],
      ['/role/updateRole', { id: a.adminRoleId, name: 'Former admins' }],
      ['/role/updateRole', { id: beyondCodes, menuCodes: ['smart_data'] }],
      ['/role/deleteRole', { id: leads }],
      ['/role/deleteRole', { id: beyondCodes }],
    ];
    for (const [url, body] of attempts) {
      const res = await postAs(t, manager.token, url, body);
      expect(res.json(), `${url} ${JSON.stringify(body)}`).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        message: 'You cannot grant, revoke or manage permissions you do not hold yourself',
        data: { field: 'id' },
      });
    }
    expect(await roleRow(t, leads)).toMatchObject({ name: 'Shift leads', roleType: 1 });
    expect(await roleRow(t, beyondCodes)).toMatchObject({ menuCodes: ['smart_data', 'sys_company_info'] });
    expect(await roleRow(t, a.adminRoleId)).toMatchObject({ name: '管理员' });
  });

  it('cannot remove an administrator’s role, disable or remove them, even holding every code but the type', async () => {
    const a = await makeCompany(t, 'Coup Co');
    // every company code, but an ordinary role: the administrator is still beyond reach
    const everything = await makeRole(t, a.id, [...COMPANY_MENU_CODES], { name: 'Almost admins' });
    const manager = await makeMember(t, a, [everything], 'Ambitious');
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['/user/updateSysUser', { userId: a.admin.id, roleIds: [a.ordinaryRoleId] }],
      ['/user/updateSysUser', { userId: a.admin.id, status: 0 }],
      ['/user/removeSysUser', { userId: a.admin.id }],
    ];
    for (const [url, body] of attempts) {
      const res = await postAs(t, manager.token, url, body);
      expect(res.json(), `${url} ${JSON.stringify(body)}`).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field: 'userId' },
      });
    }
    expect(await roleIdsHeld(t, a.id, a.admin.id)).toEqual([a.adminRoleId]);
    expect((await getAs(t, a.admin.token, '/user/getUser')).json().code).toBe(0);
    // nor hand the administrator role to a newcomer or an invitee
    for (const url of ['/user/addSysUser', '/company/member/inviteMember']) {
      const res = await postAs(t, manager.token, url, {
        phone: '13700009999',
        userName: 'Friend',
        roleIds: [a.adminRoleId],
      });
      expect(res.json(), url).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'roleIds' } });
    }
  });

  it('an administrator keeps full power: creates an administrator role and gives it', async () => {
    const { a, manager, secret } = await setting();
    const created = await postAs(t, a.admin.token, '/role/addRole', {
      name: 'Deputies',
      roleType: 1,
      menuCodes: ['smart_data', 'sd_capsule'],
    });
    expect(created.json().code).toBe(0);
    const granted = await postAs(t, a.admin.token, '/user/updateSysUser', {
      userId: manager.id,
      roleIds: [created.json().data.id],
    });
    expect(granted.json().code).toBe(0);
    expect((await readItem(manager.token, secret.itemId)).code).toBe(0);
  });

  it("another company's administrator cannot give your roles or change your members", async () => {
    const { a, manager } = await setting();
    const b = await makeCompany(t, 'Raider Co');
    const attempts: Array<[string, Record<string, unknown>, string]> = [
      ['/user/updateSysUser', { userId: manager.id, roleIds: [] }, 'userId'],
      ['/user/updateSysUser', { userId: manager.id, roleIds: [a.adminRoleId] }, 'roleIds'],
      ['/user/updateSysUser', { userId: a.admin.id, status: 0 }, 'userId'],
      ['/user/removeSysUser', { userId: manager.id }, 'userId'],
      ['/user/addSysUser', { phone: manager.phone, userName: 'X', roleIds: [a.adminRoleId] }, 'roleIds'],
    ];
    for (const [url, body, field] of attempts) {
      const res = await postAs(t, b.admin.token, url, body);
      expect(res.json(), `${url} ${JSON.stringify(body)}`).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field },
      });
    }
    expect((await membershipRow(t, a.id, manager.id))?.status).toBe('active');
    expect(await membershipRow(t, b.id, manager.id)).toBeUndefined();
    expect(await roleIdsHeld(t, a.id, a.admin.id)).toEqual([a.adminRoleId]);
  });
});
