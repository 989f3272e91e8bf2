import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { dataUpdateMonitors } from './tables';

/** A monitor made straight in the table on a new item of the company (window 30, state late). */
export async function makeMonitor(
  t: TestApp,
  companyId: number,
  opts: { itemId?: number; name?: string; windowMinutes?: number; createdAt?: Date } = {},
): Promise<{ monitorId: number; itemId: number }> {
  const itemId =
    opts.itemId ?? (await makeItem(t, companyId, { fields: SAMPLE_FIELDS, name: opts.name })).itemId;
  const [row] = await t.db
    .insert(dataUpdateMonitors)
    .values({
      companyId,
      itemId,
      windowMinutes: opts.windowMinutes ?? 30,
      ...(opts.createdAt ? { createdAt: opts.createdAt, stateSince: opts.createdAt } : {}),
    })
    .returning({ id: dataUpdateMonitors.id });
  return { monitorId: row!.id, itemId };
}

async function victim(t: TestApp, companyId: number) {
  const made = await makeMonitor(t, companyId, { name: 'A boiler secret' });
  const [row] = await t.db.select().from(dataUpdateMonitors).where(eq(dataUpdateMonitors.id, made.monitorId));
  return { ...made, row: row! };
}

export const dataUpdateRouteCases: RouteCases = {
  'GET /general/cloudSurveillance/dataUpdate/list': {
    attack: async ({ t, a, b }) => {
      await victim(t, a.id);
      return {
        request: {
          method: 'GET',
          url: '/general/cloudSurveillance/dataUpdate/list',
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: 0, data: { total: 0, list: [] } });
          expect(res.body).not.toContain('A boiler secret');
        },
      };
    },
  },
  'GET /general/cloudSurveillance/dataUpdate/candidates': {
    attack: async ({ t, a, b }) => {
      await victim(t, a.id);
      return {
        request: {
          method: 'GET',
          url: '/general/cloudSurveillance/dataUpdate/candidates',
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain('A boiler secret');
        },
      };
    },
  },
  'POST /general/cloudSurveillance/dataUpdate/add': {
    attack: async ({ t, a, b }) => {
      const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
      return {
        request: {
          method: 'POST',
          url: '/general/cloudSurveillance/dataUpdate/add',
          payload: { itemIds: [itemId], windowMinutes: 30 },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemIds' } });
          expect(
            await t.db.select().from(dataUpdateMonitors).where(eq(dataUpdateMonitors.itemId, itemId)),
          ).toEqual([]);
        },
      };
    },
  },
  'POST /general/cloudSurveillance/dataUpdate/window': {
    attack: async ({ t, a, b }) => {
      const v = await victim(t, a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/cloudSurveillance/dataUpdate/window',
          payload: { id: v.monitorId, windowMinutes: 1440 },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          const [after] = await t.db
            .select()
            .from(dataUpdateMonitors)
            .where(eq(dataUpdateMonitors.id, v.monitorId));
          expect(after).toEqual(v.row);
        },
      };
    },
  },
  'POST /general/cloudSurveillance/dataUpdate/delete': {
    attack: async ({ t, a, b }) => {
      const v = await victim(t, a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/cloudSurveillance/dataUpdate/delete',
          payload: { ids: [v.monitorId] },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'ids' } });
          expect(
            await t.db.select().from(dataUpdateMonitors).where(eq(dataUpdateMonitors.id, v.monitorId)),
          ).toHaveLength(1);
        },
      };
    },
  },
};
