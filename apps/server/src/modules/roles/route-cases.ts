import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { makeRole, roleRow } from '../users/test-support';
import { roles } from './tables';

export const rolesRouteCases: RouteCases = {
  'GET /general/role/getRoleList': {
    attack: async ({ t, a, b }) => {
      const secret = await makeRole(t, a.id, ['smart_data'], { name: 'A secret role' });
      return {
        request: { method: 'GET', url: '/general/role/getRoleList', headers: bearer(b.admin.token) },
        verify: (res) => {
          const ids = res.json().data.map((r: { id: number }) => r.id);
          expect(ids).toEqual(expect.arrayContaining([b.adminRoleId, b.ordinaryRoleId]));
          expect(ids).not.toContain(secret);
          expect(ids).not.toContain(a.adminRoleId);
          expect(res.body).not.toContain('A secret role');
        },
      };
    },
  },
  'GET /general/role/getMenuCodes': {
    ownScope: "derived from the caller's own company (platform or not); carries no company data",
  },
  'POST /general/role/addRole': {
    attack: async ({ t, a, b }) => {
      await makeRole(t, a.id, ['smart_data'], { name: 'Shared name' });
      const aRolesBefore = await t.db.select().from(roles).where(eq(roles.companyId, a.id));
      return {
        // the name is taken in A only: B may use it, and the new role lands in B
        request: {
          method: 'POST',
          url: '/general/role/addRole',
          payload: { name: 'Shared name', roleType: 2, menuCodes: ['sd_board'] },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(0);
          const created = await roleRow(t, res.json().data.id);
          expect(created!.companyId).toBe(b.id);
          expect(await t.db.select().from(roles).where(eq(roles.companyId, a.id))).toEqual(aRolesBefore);
        },
      };
    },
  },
  'POST /general/role/updateRole': {
    attack: async ({ t, a, b }) => {
      const target = await makeRole(t, a.id, ['smart_data'], { name: 'A ops' });
      return {
        request: {
          method: 'POST',
          url: '/general/role/updateRole',
          payload: { id: target, name: 'hijacked', menuCodes: ['um_user', 'um_role'] },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(await roleRow(t, target)).toMatchObject({ name: 'A ops', menuCodes: ['smart_data'] });
        },
      };
    },
  },
  'POST /general/role/deleteRole': {
    attack: async ({ t, a, b }) => {
      const target = await makeRole(t, a.id, ['smart_data'], { name: 'A unused' });
      return {
        request: {
          method: 'POST',
          url: '/general/role/deleteRole',
          payload: { id: target },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(await roleRow(t, target)).toBeDefined();
        },
      };
    },
  },
};
