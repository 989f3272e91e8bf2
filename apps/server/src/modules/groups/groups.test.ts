import { ERROR_CODES } from '@platform/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  makeCompany,
  nextPhone,
  type TestApp,
  type TestCompany,
} from '../../test/helper';
import { levelOf } from '../cabin/permissions';
import { makeItem, setPermissions } from '../cabin/test-support';
import { addActiveMember } from '../companies/service';
import { companyMembers } from '../companies/tables';
import { createUser } from '../users/service';
import { makeMember, makeRole } from '../users/test-support';
import { makeGroup, memberIdsOf } from './route-cases';
import { parseUserIds } from './routes';
import { addGroupMembers } from './service';
import { groupMembers, userGroups } from './tables';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '10000' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
});
afterAll(() => t.close());

function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/general/company/group${url}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
}

function addUsers(token: string, groupId: number, userIds: string) {
  return call('POST', `/addUserToGroup?groupId=${groupId}&userIds=${encodeURIComponent(userIds)}`, token);
}

async function groupCount(companyId: number) {
  const [row] = await t.db.select({ n: count() }).from(userGroups).where(eq(userGroups.companyId, companyId));
  return row!.n;
}

/** An extra active member of a company (no roles needed for groups). */
async function member(company: TestCompany, userName: string) {
  const user = await createUser(t.db, { phone: nextPhone(), userName });
  await addActiveMember(t.db, company.id, user.id, []);
  return user;
}

describe('GET /company/group/getGroupList', () => {
  it('pages the groups with their active member counts, filtered by keyword', async () => {
    const c = await makeCompany(t, 'Listing');
    const leaver = await member(c, 'leaver');
    const ops = await makeGroup(t, c.id, [c.admin.id, c.limited.id, leaver.id]);
    await t.db
      .update(userGroups)
      .set({ name: 'Ops 100%', ownerId: c.admin.id })
      .where(eq(userGroups.id, ops));
    await t.db.update(companyMembers).set({ status: 'refused' }).where(eq(companyMembers.userId, leaver.id));
    const dev = await makeGroup(t, c.id);
    await t.db
      .update(userGroups)
      .set({ name: 'Developers', description: 'code' })
      .where(eq(userGroups.id, dev));
    await makeGroup(t, a.id, [a.admin.id]);

    const all = await call('GET', '/getGroupList?pageNum=1&pageSize=10', c.admin.token);
    expect(all.json().data).toEqual({
      list: [
        { id: dev, name: 'Developers', description: 'code', memberCount: 0, ownerId: null },
        { id: ops, name: 'Ops 100%', description: null, memberCount: 2, ownerId: c.admin.id },
      ],
      total: 2,
      pageNum: 1,
      pageSize: 10,
    });

    const second = await call('GET', '/getGroupList?pageNum=2&pageSize=1', c.admin.token);
    expect(second.json().data).toMatchObject({ total: 2, list: [{ id: ops }] });
    const byKeyword = await call('GET', '/getGroupList?keyword=OPS', c.admin.token);
    expect(byKeyword.json().data.list.map((g: { id: number }) => g.id)).toEqual([ops]);
    // a percent sign is searched for, not a wildcard
    const percent = await call('GET', `/getGroupList?keyword=${encodeURIComponent('%')}`, c.admin.token);
    expect(percent.json().data.list.map((g: { id: number }) => g.id)).toEqual([ops]);
  });

  it('names a bad page size', async () => {
    const res = await call('GET', '/getGroupList?pageSize=500', a.admin.token);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'pageSize' } });
  });
});

describe('GET /company/group/getGroupMembers', () => {
  it('lists the active members of the group', async () => {
    const gone = await member(a, 'gone');
    const group = await makeGroup(t, a.id, [a.limited.id, gone.id]);
    await t.db.update(companyMembers).set({ status: 'refused' }).where(eq(companyMembers.userId, gone.id));
    const res = await call('GET', `/getGroupMembers?groupId=${group}`, a.admin.token);
    expect(res.json()).toEqual({
      code: 0,
      message: 'success',
      data: [{ userId: a.limited.id, userName: 'Acme user', phone: a.limited.phone }],
    });
  });

  it('reports an unknown or missing group by field', async () => {
    const unknown = await call('GET', '/getGroupMembers?groupId=999999', a.admin.token);
    expect(unknown.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'groupId' } });
    const missing = await call('GET', '/getGroupMembers', a.admin.token);
    expect(missing.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'groupId' } });
  });
});

describe('POST /company/group/addGroup', () => {
  it('creates a group owned by the caller', async () => {
    const res = await call('POST', '/addGroup', a.admin.token, {
      name: ' Night shift ',
      description: 'after 22:00',
    });
    expect(res.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const [row] = await t.db.select().from(userGroups).where(eq(userGroups.id, res.json().data.id));
    expect(row).toMatchObject({
      companyId: a.id,
      name: 'Night shift',
      description: 'after 22:00',
      ownerId: a.admin.id,
    });
  });

  it.each([
    [{ name: '' }, 'name', 'Please enter a name'],
    [{ name: 'g'.repeat(26) }, 'name', 'The length of the name cannot exceed 25 characters'],
    [{ name: 'Fine', description: 'd'.repeat(201) }, 'description', 'Invalid value for description'],
    [{}, 'name', 'name is required'],
  ])('refuses %j by field, writing nothing', async (payload, field, message) => {
    const before = await groupCount(a.id);
    const res = await call('POST', '/addGroup', a.admin.token, payload);
    expect(res.json()).toEqual({ code: ERROR_CODES.VALIDATION, message, data: { field } });
    expect(await groupCount(a.id)).toBe(before);
  });

  it('refuses a name the company already uses', async () => {
    await call('POST', '/addGroup', a.admin.token, { name: 'Twice' });
    const before = await groupCount(a.id);
    const res = await call('POST', '/addGroup', a.admin.token, { name: 'Twice' });
    expect(res.json()).toEqual({
      code: ERROR_CODES.CONFLICT,
      message: 'A group with this name already exists',
      data: { field: 'name' },
    });
    expect(await groupCount(a.id)).toBe(before);
  });
});

describe('POST /company/group/deleteGroup', () => {
  it('deletes the group and its memberships', async () => {
    const group = await makeGroup(t, a.id, [a.limited.id]);
    const res = await call('POST', '/deleteGroup', a.admin.token, { id: group });
    expect(res.json()).toEqual({ code: 0, message: 'Delete successfully', data: null });
    expect(await t.db.select().from(userGroups).where(eq(userGroups.id, group))).toEqual([]);
    expect(await t.db.select().from(groupMembers).where(eq(groupMembers.groupId, group))).toEqual([]);
    const again = await call('POST', '/deleteGroup', a.admin.token, { id: group });
    expect(again.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
  });
});

describe('POST /company/group/addUserToGroup', () => {
  it('adds active members given as JSON array text in the query string', async () => {
    const group = await makeGroup(t, a.id);
    const res = await addUsers(a.admin.token, group, `[${a.limited.id},${a.admin.id}]`);
    expect(res.json()).toEqual({ code: 0, message: 'Operation successful', data: null });
    expect(await memberIdsOf(t, group)).toEqual([a.admin.id, a.limited.id].sort((x, y) => x - y));
    // adding someone already in the group is harmless
    expect((await addUsers(a.admin.token, group, `[${a.limited.id}]`)).json().code).toBe(0);
    expect(await memberIdsOf(t, group)).toHaveLength(2);
  });

  it.each([['abc'], ['5'], ['[]'], ['[1.5]'], ['["5"]'], ['[0]'], ['{"id":5}'], ['[null]']])(
    'refuses userIds=%s by field, adding nobody',
    async (userIds) => {
      const group = await makeGroup(t, a.id);
      const res = await addUsers(a.admin.token, group, userIds);
      expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userIds' } });
      expect(await memberIdsOf(t, group)).toEqual([]);
    },
  );

  it('refuses the whole list when one user is not an active member', async () => {
    const group = await makeGroup(t, a.id);
    const invited = await createUser(t.db, { phone: nextPhone(), userName: 'invited' });
    await t.db.insert(companyMembers).values({ companyId: a.id, userId: invited.id, status: 'invited' });
    for (const outsider of [b.limited.id, invited.id, 999999]) {
      const res = await addUsers(a.admin.token, group, `[${a.limited.id},${outsider}]`);
      expect(res.json()).toEqual({
        code: ERROR_CODES.VALIDATION,
        message: 'This user is not a member of the company',
        data: { field: 'userIds' },
      });
    }
    expect(await memberIdsOf(t, group)).toEqual([]);
  });

  it("cannot reach another company's group", async () => {
    const victim = await makeGroup(t, a.id);
    const res = await addUsers(b.admin.token, victim, `[${b.limited.id}]`);
    expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect(await memberIdsOf(t, victim)).toEqual([]);
  });

  it('names a missing groupId or userIds', async () => {
    const noGroup = await call('POST', `/addUserToGroup?userIds=[${a.limited.id}]`, a.admin.token);
    expect(noGroup.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'groupId' } });
    const group = await makeGroup(t, a.id);
    const noUsers = await call('POST', `/addUserToGroup?groupId=${group}`, a.admin.token);
    expect(noUsers.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userIds' } });
  });

  it('parses only arrays of positive integer ids, without repeats', () => {
    expect(parseUserIds('[3,3,4]')).toEqual([3, 4]);
    expect(() => parseUserIds(`[${Array.from({ length: 201 }, (_, i) => i + 1).join(',')}]`)).toThrow();
    expect(() => parseUserIds('[2147483648]')).toThrow();
  });
});

describe('POST /company/group/removeUserFromGroup', () => {
  it('removes the member, and reports one who is not in the group', async () => {
    const group = await makeGroup(t, a.id, [a.limited.id, a.admin.id]);
    const res = await call('POST', '/removeUserFromGroup', a.admin.token, {
      groupId: group,
      userId: a.limited.id,
    });
    expect(res.json()).toEqual({ code: 0, message: 'Operation successful', data: null });
    expect(await memberIdsOf(t, group)).toEqual([a.admin.id]);
    const again = await call('POST', '/removeUserFromGroup', a.admin.token, {
      groupId: group,
      userId: a.limited.id,
    });
    expect(again.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'userId' } });
    const missing = await call('POST', '/removeUserFromGroup', a.admin.token, { groupId: group });
    expect(missing.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userId' } });
    expect(await memberIdsOf(t, group)).toEqual([a.admin.id]);
  });
});

describe('POST /company/group/quitUserGroup', () => {
  it('lets a member without group rights leave a group', async () => {
    const group = await makeGroup(t, a.id, [a.limited.id, a.admin.id]);
    const res = await call('POST', `/quitUserGroup?groupId=${group}`, a.limited.token);
    expect(res.json()).toEqual({ code: 0, message: 'Operation successful', data: null });
    expect(await memberIdsOf(t, group)).toEqual([a.admin.id]);
    const again = await call('POST', `/quitUserGroup?groupId=${group}`, a.limited.token);
    expect(again.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'groupId' } });
    expect(await memberIdsOf(t, group)).toEqual([a.admin.id]);
  });

  it("leaves only groups of the caller's current company", async () => {
    // b.limited is also in a group of A but is working in B
    const group = await makeGroup(t, a.id, [b.limited.id]);
    const res = await call('POST', `/quitUserGroup?groupId=${group}`, b.limited.token);
    expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect(await memberIdsOf(t, group)).toEqual([b.limited.id]);
  });
});

describe('a group manager cannot raise data permissions through a group (finding 6)', () => {
  /** A member holding only the group-management code, and an item where the company reads only. */
  async function setting() {
    const manager = await makeMember(t, a, [await makeRole(t, a.id, ['um_user_group'])], 'manager');
    const item = await makeItem(t, a.id);
    const group = await makeGroup(t, a.id);
    return { manager, item, group };
  }
  const levelOn = async (userId: number, nodeId: number) =>
    levelOf(t.db, { companyId: a.id, userId }, nodeId);

  it('a manager cannot add themselves to a group that may write where they may only read', async () => {
    const { manager, item, group } = await setting();
    await setPermissions(t, item.nodeId, [
      { scope: 'company', subjectId: null, level: 1 },
      { scope: 'group', subjectId: group, level: 3 },
    ]);
    const res = await addUsers(manager.token, group, `[${manager.id}]`);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userIds' } });
    expect(res.json().message).toContain('beyond those you hold yourself');
    expect(await memberIdsOf(t, group)).toEqual([]);
    expect(await levelOn(manager.id, item.nodeId)).toBe(1);
  });

  it('nor hand that group to someone else, while a group within their own rights is fine', async () => {
    const { manager, item, group } = await setting();
    const other = await member(a, 'other');
    const stronger = await makeGroup(t, a.id);
    await setPermissions(t, item.nodeId, [
      { scope: 'company', subjectId: null, level: 1 },
      { scope: 'group', subjectId: group, level: 2 },
      { scope: 'group', subjectId: stronger, level: 3 },
      { scope: 'user', subjectId: manager.id, level: 2 },
    ]);
    const refused = await addUsers(manager.token, stronger, `[${other.id}]`);
    expect(refused.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userIds' } });
    expect(await memberIdsOf(t, stronger)).toEqual([]);
    expect(await levelOn(other.id, item.nodeId)).toBe(1);
    // up to the manager's own level is theirs to give
    expect((await addUsers(manager.token, group, `[${other.id}]`)).json().code).toBe(0);
    expect(await levelOn(other.id, item.nodeId)).toBe(2);
  });

  it('a member cannot escape a restricting group by leaving it, nor a manager by removing them', async () => {
    const { manager, item, group } = await setting();
    const restricted = await makeMember(t, a, [a.ordinaryRoleId], 'restricted');
    await addGroupMembers(t.db, group, [restricted.id, manager.id]);
    // the company may write; the group's members may not even read
    await setPermissions(t, item.nodeId, [
      { scope: 'company', subjectId: null, level: 2 },
      { scope: 'group', subjectId: group, level: 0 },
    ]);
    const quit = await call('POST', `/quitUserGroup?groupId=${group}`, restricted.token);
    expect(quit.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'groupId' } });
    const removed = await call('POST', '/removeUserFromGroup', manager.token, {
      groupId: group,
      userId: restricted.id,
    });
    expect(removed.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userId' } });
    expect(await memberIdsOf(t, group)).toEqual([restricted.id, manager.id].sort((x, y) => x - y));
    expect(await levelOn(restricted.id, item.nodeId)).toBe(0);
    const deleted = await call('POST', '/deleteGroup', manager.token, { id: group });
    expect(deleted.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'id' } });
    expect(await memberIdsOf(t, group)).toHaveLength(2);
    // an administrator may lift the restriction
    const lifted = await call('POST', '/removeUserFromGroup', a.admin.token, {
      groupId: group,
      userId: restricted.id,
    });
    expect(lifted.json().code).toBe(0);
    expect(await levelOn(restricted.id, item.nodeId)).toBe(2);
  });
});
