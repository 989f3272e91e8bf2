import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { groupMembers, userGroups } from './tables';

let groupCounter = 0;

/** A group made straight in the database, with the given members. */
export async function makeGroup(t: TestApp, companyId: number, memberIds: number[] = []): Promise<number> {
  groupCounter += 1;
  const [group] = await t.db
    .insert(userGroups)
    .values({ companyId, name: `group ${groupCounter}` })
    .returning({ id: userGroups.id });
  if (memberIds.length > 0) {
    await t.db.insert(groupMembers).values(memberIds.map((userId) => ({ groupId: group!.id, userId })));
  }
  return group!.id;
}

export async function memberIdsOf(t: TestApp, groupId: number): Promise<number[]> {
  const rows = await t.db.select().from(groupMembers).where(eq(groupMembers.groupId, groupId));
  return rows.map((r) => r.userId).sort((x, y) => x - y);
}

export const groupsRouteCases: RouteCases = {
  'GET /general/company/group/getGroupList': {
    attack: async ({ t, a, b }) => {
      const victim = await makeGroup(t, a.id, [a.limited.id]);
      return {
        request: {
          method: 'GET',
          url: '/general/company/group/getGroupList',
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.list.map((g: { id: number }) => g.id)).not.toContain(victim);
        },
      };
    },
  },
  'GET /general/company/group/getGroupMembers': {
    attack: async ({ t, a, b }) => {
      const victim = await makeGroup(t, a.id, [a.limited.id]);
      return {
        request: {
          method: 'GET',
          url: `/general/company/group/getGroupMembers?groupId=${victim}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'groupId' } });
          expect(res.body).not.toContain(a.limited.phone);
        },
      };
    },
  },
  'POST /general/company/group/addGroup': {
    attack: async ({ t, a, b }) => {
      const [victim] = await t.db
        .insert(userGroups)
        .values({ companyId: a.id, name: 'Same name' })
        .returning();
      return {
        request: {
          method: 'POST',
          url: '/general/company/group/addGroup',
          payload: { name: 'Same name' },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          // names are unique per company: A's group neither blocks B nor changes
          expect(res.json().code).toBe(0);
          const [created] = await t.db.select().from(userGroups).where(eq(userGroups.id, res.json().data.id));
          expect(created!.companyId).toBe(b.id);
          const [still] = await t.db.select().from(userGroups).where(eq(userGroups.id, victim!.id));
          expect(still).toEqual(victim);
        },
      };
    },
  },
  'POST /general/company/group/deleteGroup': {
    attack: async ({ t, a, b }) => {
      const victim = await makeGroup(t, a.id, [a.limited.id]);
      return {
        request: {
          method: 'POST',
          url: '/general/company/group/deleteGroup',
          payload: { id: victim },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(await t.db.select().from(userGroups).where(eq(userGroups.id, victim))).toHaveLength(1);
          expect(await memberIdsOf(t, victim)).toEqual([a.limited.id]);
        },
      };
    },
  },
  'POST /general/company/group/addUserToGroup': {
    attack: async ({ t, a, b }) => {
      const own = await makeGroup(t, b.id);
      return {
        request: {
          method: 'POST',
          url: `/general/company/group/addUserToGroup?groupId=${own}&userIds=${encodeURIComponent(JSON.stringify([a.limited.id]))}`,
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userIds' } });
          expect(await memberIdsOf(t, own)).toEqual([]);
        },
      };
    },
  },
  'POST /general/company/group/removeUserFromGroup': {
    attack: async ({ t, a, b }) => {
      const victim = await makeGroup(t, a.id, [a.limited.id]);
      return {
        request: {
          method: 'POST',
          url: '/general/company/group/removeUserFromGroup',
          payload: { groupId: victim, userId: a.limited.id },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(await memberIdsOf(t, victim)).toEqual([a.limited.id]);
        },
      };
    },
  },
  'POST /general/company/group/quitUserGroup': {
    attack: async ({ t, a, b }) => {
      const victim = await makeGroup(t, a.id, [a.limited.id, a.admin.id]);
      return {
        request: {
          method: 'POST',
          url: `/general/company/group/quitUserGroup?groupId=${victim}`,
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(await memberIdsOf(t, victim)).toEqual([a.admin.id, a.limited.id].sort((x, y) => x - y));
        },
      };
    },
  },
};
