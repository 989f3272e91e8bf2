import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../test/helper';
import { type RouteCases, routeCalls } from '../../test/route-cases';
import { inventoryCategories, inventoryUnits } from '../inventory/tables';
import { productionSchedules } from './tables';

let counter = 0;

/** Company A's plan in production, with one unit in production recorded against it. */
export async function makeProductionData(t: TestApp, companyId: number) {
  counter += 1;
  const [category] = await t.db
    .insert(inventoryCategories)
    .values({ companyId, name: `secret meter ${counter}`, kind: 'own' })
    .returning();
  const [schedule] = await t.db
    .insert(productionSchedules)
    .values({
      companyId,
      number: `SC-SECRET-${counter}`,
      categoryId: category!.id,
      quantity: 5,
      line: `secret line ${counter}`,
      startOn: '2026-11-01',
      endOn: '2026-11-30',
      status: 'inProduction',
      steps: ['secret step'],
    })
    .returning();
  const [unit] = await t.db
    .insert(inventoryUnits)
    .values({
      companyId,
      categoryId: category!.id,
      sn: `SECRET-PM-${counter}`,
      status: 'inProduction',
      scheduleId: schedule!.id,
    })
    .returning();
  return { category: category!, schedule: schedule!, unit: unit! };
}

const { post, get, refusedWithout } = routeCalls('/production');
const scheduleOf = async (t: TestApp, id: number) =>
  (await t.db.select().from(productionSchedules).where(eq(productionSchedules.id, id)))[0];

export const productionRouteCases: RouteCases = {
  'GET /general/production/schedule/list': {
    attack: async ({ t, a, b }) => {
      const { schedule } = await makeProductionData(t, a.id);
      return {
        request: get('/schedule/list', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain(schedule.number);
          expect(res.body).not.toContain(schedule.line);
        },
      };
    },
  },
  'GET /general/production/schedule/get': {
    attack: async ({ t, a, b }) => {
      const { schedule, unit } = await makeProductionData(t, a.id);
      return {
        request: get(`/schedule/get?id=${schedule.id}`, b.admin.token),
        verify: refusedWithout(schedule.number, unit.sn),
      };
    },
  },
  'POST /general/production/schedule/save': {
    attack: async ({ t, a, b }) => {
      const { schedule, category } = await makeProductionData(t, a.id);
      return {
        request: post('/schedule/save', b.admin.token, {
          id: schedule.id,
          categoryId: category.id,
          quantity: 99,
          line: 'taken over',
          startOn: '2026-11-01',
          endOn: '2026-11-30',
        }),
        verify: async (res) => {
          refusedWithout(schedule.number, category.name)(res);
          expect(await scheduleOf(t, schedule.id)).toMatchObject({ quantity: 5, line: schedule.line });
        },
      };
    },
  },
  'POST /general/production/schedule/delete': {
    attack: async ({ t, a, b }) => {
      const { category } = await makeProductionData(t, a.id);
      const [planned] = await t.db
        .insert(productionSchedules)
        .values({
          companyId: a.id,
          number: `SC-SECRET-P${counter}`,
          categoryId: category.id,
          quantity: 1,
          line: 'L',
          startOn: '2026-12-01',
          endOn: '2026-12-02',
        })
        .returning();
      return {
        request: post('/schedule/delete', b.admin.token, { id: planned!.id }),
        verify: async (res) => {
          refusedWithout(planned!.number)(res);
          expect(await scheduleOf(t, planned!.id)).toBeDefined();
        },
      };
    },
  },
  'POST /general/production/schedule/state': {
    attack: async ({ t, a, b }) => {
      const { schedule } = await makeProductionData(t, a.id);
      return {
        request: post('/schedule/state', b.admin.token, { id: schedule.id, action: 'cancel' }),
        verify: async (res) => {
          refusedWithout(schedule.number)(res);
          expect(await scheduleOf(t, schedule.id)).toMatchObject({ status: 'inProduction' });
        },
      };
    },
  },
  'POST /general/production/schedule/record': {
    attack: async ({ t, a, b }) => {
      const { schedule } = await makeProductionData(t, a.id);
      return {
        request: post('/schedule/record', b.admin.token, { id: schedule.id, sns: ['B-INTO-A-PLAN'] }),
        verify: async (res) => {
          refusedWithout(schedule.number)(res);
          expect(
            await t.db.select().from(inventoryUnits).where(eq(inventoryUnits.sn, 'B-INTO-A-PLAN')),
          ).toHaveLength(0);
        },
      };
    },
  },
  'POST /general/production/schedule/finish-units': {
    attack: async ({ t, a, b }) => {
      const { schedule, unit } = await makeProductionData(t, a.id);
      return {
        request: post('/schedule/finish-units', b.admin.token, { id: schedule.id, sns: [unit.sn] }),
        verify: async (res) => {
          refusedWithout(schedule.number)(res);
          const [row] = await t.db.select().from(inventoryUnits).where(eq(inventoryUnits.id, unit.id));
          expect(row?.status).toBe('inProduction');
        },
      };
    },
  },
  'GET /general/production/report': {
    attack: async ({ t, a, b }) => {
      const { schedule } = await makeProductionData(t, a.id);
      const made = await t.app.inject(
        post('/schedule/record', a.admin.token, {
          id: schedule.id,
          sns: [`SECRET-DONE-${counter}`],
          finished: true,
        }),
      );
      expect(made.json().code).toBe(0);
      return {
        request: get('/report?from=2000-01-01&to=2100-01-01', b.admin.token),
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: 0, data: { total: 0 } });
          expect(res.body).not.toContain(schedule.line);
        },
      };
    },
  },
  'GET /general/production/report/export': {
    attack: async ({ t, a, b }) => {
      const { schedule } = await makeProductionData(t, a.id);
      const made = await t.app.inject(
        post('/schedule/record', a.admin.token, {
          id: schedule.id,
          sns: [`SECRET-DONE-X${counter}`],
          finished: true,
        }),
      );
      expect(made.json().code).toBe(0);
      return {
        request: get('/report/export?from=2000-01-01&to=2100-01-01&format=csv', b.admin.token),
        verify: (res) => {
          expect(res.statusCode).toBe(200);
          expect(res.body).not.toContain(schedule.line);
        },
      };
    },
  },
};
