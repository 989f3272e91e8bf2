import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { dataItemJumps, dataItems, itemGroupMembers, itemGroups } from './tables';

async function itemRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(dataItems).where(eq(dataItems.id, id));
  return row!;
}

async function makeJump(t: TestApp, itemId: number, targetItemId: number): Promise<number> {
  const [row] = await t.db
    .insert(dataItemJumps)
    .values({ itemId, targetItemId, name: 'secret jump', conditions: [{ field: 'f2', op: 'gt', value: 1 }] })
    .returning({ id: dataItemJumps.id });
  return row!.id;
}

async function makeItemGroup(t: TestApp, companyId: number, itemIds: number[]): Promise<number> {
  const [row] = await t.db.insert(itemGroups).values({ companyId, name: 'secret group' }).returning();
  if (itemIds.length > 0) {
    await t.db.insert(itemGroupMembers).values(itemIds.map((itemId) => ({ groupId: row!.id, itemId })));
  }
  return row!.id;
}

const post = (url: string, payload: unknown, token: string) => ({
  method: 'POST' as const,
  url,
  payload: payload as Record<string, unknown>,
  headers: bearer(token),
});

export const dataItemsRouteCases: RouteCases = {
  'GET /general/smartdata/item/get': {
    attack: async ({ t, a, b }) => {
      const victim = await makeItem(t, a.id, { name: 'secret item', fields: SAMPLE_FIELDS });
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/item/get?itemId=${victim.itemId}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
          expect(res.body).not.toContain('secret item');
        },
      };
    },
  },
  'POST /general/smartdata/item/update': {
    attack: async ({ t, a, b }) => {
      const victim = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
      return {
        request: post('/general/smartdata/item/update', { itemId: victim.itemId, fields: [] }, b.admin.token),
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect((await itemRow(t, victim.itemId)).fields).toEqual(SAMPLE_FIELDS);
        },
      };
    },
  },
  'POST /general/smartdata/item/updateForm': {
    attack: async ({ t, a, b }) => {
      const victim = await makeItem(t, a.id, { kind: 11, fields: SAMPLE_FIELDS });
      return {
        request: post(
          '/general/smartdata/item/updateForm',
          {
            itemId: victim.itemId,
            form: [{ id: 'e1', type: 'input', label: 'x', field: 'f3', required: false }],
          },
          b.admin.token,
        ),
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect((await itemRow(t, victim.itemId)).form).toEqual([]);
        },
      };
    },
  },
  'GET /general/smartdata/item/jumps': {
    attack: async ({ t, a, b }) => {
      const source = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
      const target = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
      await makeJump(t, source.itemId, target.itemId);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/item/jumps?itemId=${source.itemId}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(res.body).not.toContain('secret jump');
        },
      };
    },
  },
  'POST /general/smartdata/item/saveJump': {
    attack: async ({ t, a, b }) => {
      // B's own item jumping into A's item
      const own = await makeItem(t, b.id, { fields: SAMPLE_FIELDS });
      const victim = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
      return {
        request: post(
          '/general/smartdata/item/saveJump',
          {
            itemId: own.itemId,
            priority: 1,
            name: 'j',
            conditions: [{ field: 'f2', op: 'gt', value: 1 }],
            targetItemId: victim.itemId,
            mapping: [{ to: 'f2', from: 'f2' }],
            enabled: true,
          },
          b.admin.token,
        ),
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'targetItemId' } });
          expect(await t.db.select().from(dataItemJumps).where(eq(dataItemJumps.itemId, own.itemId))).toEqual(
            [],
          );
        },
      };
    },
  },
  'POST /general/smartdata/item/deleteJump': {
    attack: async ({ t, a, b }) => {
      const source = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
      const target = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
      const jump = await makeJump(t, source.itemId, target.itemId);
      return {
        request: post(
          '/general/smartdata/item/deleteJump',
          { itemId: source.itemId, id: jump },
          b.admin.token,
        ),
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(await t.db.select().from(dataItemJumps).where(eq(dataItemJumps.id, jump))).toHaveLength(1);
        },
      };
    },
  },
  'GET /general/smartdata/itemgroup/list': {
    attack: async ({ t, a, b }) => {
      const victim = await makeItemGroup(t, a.id, []);
      return {
        request: { method: 'GET', url: '/general/smartdata/itemgroup/list', headers: bearer(b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.list.map((g: { id: number }) => g.id)).not.toContain(victim);
        },
      };
    },
  },
  'POST /general/smartdata/itemgroup/save': {
    attack: async ({ t, a, b }) => {
      const victimItem = await makeItem(t, a.id);
      const victimGroup = await makeItemGroup(t, a.id, [victimItem.itemId]);
      return {
        request: post(
          '/general/smartdata/itemgroup/save',
          { id: victimGroup, name: 'mine', itemIds: [] },
          b.admin.token,
        ),
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          const [group] = await t.db.select().from(itemGroups).where(eq(itemGroups.id, victimGroup));
          expect(group!.name).toBe('secret group');
          expect(
            await t.db.select().from(itemGroupMembers).where(eq(itemGroupMembers.groupId, victimGroup)),
          ).toHaveLength(1);
        },
      };
    },
  },
  'POST /general/smartdata/itemgroup/delete': {
    attack: async ({ t, a, b }) => {
      const victim = await makeItemGroup(t, a.id, []);
      return {
        request: post('/general/smartdata/itemgroup/delete', { id: victim }, b.admin.token),
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(await t.db.select().from(itemGroups).where(eq(itemGroups.id, victim))).toHaveLength(1);
        },
      };
    },
  },
  'GET /general/smartdata/itemgroup/get': {
    attack: async ({ t, a, b }) => {
      const victimItem = await makeItem(t, a.id, { name: 'secret item' });
      const victim = await makeItemGroup(t, a.id, [victimItem.itemId]);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/itemgroup/get?groupId=${victim}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'groupId' } });
          expect(res.body).not.toContain('secret');
        },
      };
    },
  },
};
