import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, nextPhone } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { users } from './tables';
import { membershipRow, roleIdsHeld, userRow } from './test-support';

export const usersRouteCases: RouteCases = {
  'GET /general/user/getUser': {
    ownScope: "returns only the caller's own record and codes of their current company",
  },
  'POST /general/user/updateUser': { ownScope: "changes only the caller's own account" },
  'POST /general/user/updatePassword': { ownScope: "changes only the caller's own password" },
  'POST /general/user/acceptTerms': { ownScope: "records acceptance on the caller's own account" },
  'POST /general/cos/uploadAvatar': {
    ownScope: "replaces only the caller's own avatar, under avatars/<callerId>/",
  },
  'POST /general/cos/removeAvatar': { ownScope: "clears only the caller's own avatar" },
  'GET /general/user/getMyAssignments': {
    ownScope: "the caller's own assignments; none exist until task automation lands",
  },

  'GET /general/user/getSysUserList': {
    attack: async ({ a, b }) => ({
      request: {
        method: 'GET',
        url: '/general/user/getSysUserList',
        query: { pageSize: '100' },
        headers: bearer(b.admin.token),
      },
      verify: (res) => {
        const ids = res.json().data.list.map((u: { userId: number }) => u.userId);
        expect(ids).toContain(b.admin.id);
        expect(ids).not.toContain(a.admin.id);
        expect(ids).not.toContain(a.limited.id);
        expect(res.body).not.toContain(a.limited.phone);
      },
    }),
  },
  'GET /general/company/member/getMemberList': {
    attack: async ({ a, b }) => ({
      request: {
        method: 'GET',
        url: '/general/company/member/getMemberList',
        // a keyword both companies' users match: the filter must not widen the company scope
        query: { keyword: 'user', pageSize: '100' },
        headers: bearer(b.admin.token),
      },
      verify: (res) => {
        const ids = res.json().data.list.map((u: { userId: number }) => u.userId);
        expect(ids).toContain(b.limited.id);
        expect(ids).not.toContain(a.limited.id);
        expect(res.body).not.toContain(a.limited.phone);
      },
    }),
  },
  'POST /general/user/addSysUser': {
    attack: async ({ t, a, b }) => {
      const phone = nextPhone();
      const usersBefore = await t.db.select().from(users);
      return {
        request: {
          method: 'POST',
          url: '/general/user/addSysUser',
          payload: { phone, userName: 'intruder', roleIds: [a.adminRoleId] },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'roleIds' } });
          expect(await t.db.select().from(users).where(eq(users.phone, phone))).toEqual([]);
          expect((await t.db.select().from(users)).length).toBe(usersBefore.length);
        },
      };
    },
  },
  'POST /general/user/updateSysUser': {
    attack: async ({ t, a, b }) => {
      const before = await userRow(t, a.limited.id);
      const rolesBefore = await roleIdsHeld(t, a.id, a.limited.id);
      return {
        request: {
          method: 'POST',
          url: '/general/user/updateSysUser',
          payload: { userId: a.limited.id, userName: 'renamed', status: 0, roleIds: [b.adminRoleId] },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userId' } });
          const after = await userRow(t, a.limited.id);
          expect(after).toMatchObject({ userName: before!.userName, status: 1 });
          expect(await roleIdsHeld(t, a.id, a.limited.id)).toEqual(rolesBefore);
          expect(await roleIdsHeld(t, b.id, a.limited.id)).toEqual([]);
          expect(await membershipRow(t, b.id, a.limited.id)).toBeUndefined();
        },
      };
    },
  },
  'POST /general/user/removeSysUser': {
    attack: async ({ t, a, b }) => ({
      request: {
        method: 'POST',
        url: '/general/user/removeSysUser',
        payload: { userId: a.limited.id },
        headers: bearer(b.admin.token),
      },
      verify: async (res) => {
        expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'userId' } });
        expect((await membershipRow(t, a.id, a.limited.id))?.status).toBe('active');
        expect((await roleIdsHeld(t, a.id, a.limited.id)).length).toBeGreaterThan(0);
      },
    }),
  },
};
