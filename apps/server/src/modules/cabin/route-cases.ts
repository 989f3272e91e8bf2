import { ERROR_CODES } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { dataItems } from '../dataitems/tables';
import { cabinNodes, cabinPermissions } from './tables';
import { makeDirectory, makeItem } from './test-support';

async function nodeRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(cabinNodes).where(eq(cabinNodes.id, id));
  return row;
}

const post = (url: string, payload: unknown, token: string) => ({
  method: 'POST' as const,
  url,
  payload: payload as Record<string, unknown>,
  headers: bearer(token),
});

export const cabinRouteCases: RouteCases = {
  'GET /general/smartdata/cabin/tree': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDirectory(t, a.id, { name: 'secret dir' });
      return {
        request: { method: 'GET', url: '/general/smartdata/cabin/tree', headers: bearer(b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.map((n: { id: number }) => n.id)).not.toContain(victim);
          expect(res.body).not.toContain('secret dir');
        },
      };
    },
  },
  'GET /general/smartdata/cabin/search': {
    attack: async ({ t, a, b }) => {
      await makeDirectory(t, a.id, { name: 'secret dir' });
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/cabin/search?keyword=${encodeURIComponent('secret')}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: 0, data: [] });
        },
      };
    },
  },
  'POST /general/smartdata/cabin/create': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDirectory(t, a.id);
      return {
        request: post(
          '/general/smartdata/cabin/create',
          { parentId: victim, type: 'directory', name: 'x' },
          b.admin.token,
        ),
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'parentId' } });
          expect(await t.db.select().from(cabinNodes).where(eq(cabinNodes.parentId, victim))).toEqual([]);
        },
      };
    },
  },
  'POST /general/smartdata/cabin/rename': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDirectory(t, a.id, { name: 'kept' });
      return {
        request: post('/general/smartdata/cabin/rename', { id: victim, name: 'taken' }, b.admin.token),
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect((await nodeRow(t, victim))!.name).toBe('kept');
        },
      };
    },
  },
  'POST /general/smartdata/cabin/move': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDirectory(t, a.id);
      const own = await makeDirectory(t, b.id);
      return {
        request: post('/general/smartdata/cabin/move', { ids: [victim], targetId: own }, b.admin.token),
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'ids' } });
          expect((await nodeRow(t, victim))!.parentId).toBeNull();
        },
      };
    },
  },
  'POST /general/smartdata/cabin/copy': {
    attack: async ({ t, a, b }) => {
      const name = `secret ${Math.random().toString(36).slice(2, 8)}`;
      const victim = await makeItem(t, a.id, { name });
      return {
        request: post(
          '/general/smartdata/cabin/copy',
          { ids: [victim.nodeId], targetId: null },
          b.admin.token,
        ),
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          const copies = await t.db
            .select()
            .from(cabinNodes)
            .where(and(eq(cabinNodes.companyId, b.id), eq(cabinNodes.name, name)));
          expect(copies).toEqual([]);
        },
      };
    },
  },
  'POST /general/smartdata/cabin/delete': {
    attack: async ({ t, a, b }) => {
      const victim = await makeItem(t, a.id);
      return {
        request: post('/general/smartdata/cabin/delete', { ids: [victim.nodeId] }, b.admin.token),
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(await nodeRow(t, victim.nodeId)).toBeDefined();
          expect(await t.db.select().from(dataItems).where(eq(dataItems.id, victim.itemId))).toHaveLength(1);
        },
      };
    },
  },
  'GET /general/smartdata/cabin/permission': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDirectory(t, a.id);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/cabin/permission?nodeId=${victim}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'nodeId' } });
        },
      };
    },
  },
  'POST /general/smartdata/cabin/permission': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDirectory(t, a.id);
      return {
        request: post(
          '/general/smartdata/cabin/permission',
          { nodeId: victim, mode: 'custom', entries: [{ scope: 'company', subjectId: null, level: 0 }] },
          b.admin.token,
        ),
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect((await nodeRow(t, victim))!.permissionMode).toBe('inherit');
          expect(
            await t.db.select().from(cabinPermissions).where(eq(cabinPermissions.nodeId, victim)),
          ).toEqual([]);
        },
      };
    },
  },
};
