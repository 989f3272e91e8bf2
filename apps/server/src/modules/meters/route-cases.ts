import { ERROR_CODES, type FieldDef } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../test/helper';
import { type RouteCases, routeCalls } from '../../test/route-cases';
import { makeItem } from '../cabin/test-support';
import { makeRecords } from '../records/test-support';
import { meterEvents, meters, touSettings } from './tables';
import { makeMeter } from './test-support';

const FIELDS: FieldDef[] = [{ key: 'f1', name: 'energy', type: 1, decimals: 2 }];
const SECRET_READING = 98765.4321;
let counter = 0;

/** Company A's standard meter on an item with a secret reading, and a replacement in its log. */
async function victim(t: TestApp, companyId: number) {
  counter += 1;
  const item = await makeItem(t, companyId, { name: `secret item ${counter}`, kind: 13, fields: FIELDS });
  await makeRecords(t, companyId, item.itemId, [
    { ts: '2026-10-01T00:00:00Z', values: { f1: SECRET_READING } },
  ]);
  const meter = await makeMeter(t, companyId, {
    name: `SECRET meter ${counter}`,
    code: `SECRET${counter}`,
    itemId: item.itemId,
    energy: 'f1',
  });
  await t.db.insert(meterEvents).values({
    companyId,
    meterId: meter.meterId,
    kind: 'replacement',
    at: new Date('2026-10-02T00:00:00Z'),
    details: { oldFinal: SECRET_READING, newInitial: 0 },
    note: `SECRET note ${counter}`,
  });
  return { ...meter, item };
}

const { post, get, refusedWithout } = routeCalls('');
const SECRETS = [String(SECRET_READING), 'SECRET'];
const rowOf = async (t: TestApp, nodeId: number) =>
  (await t.db.select().from(meters).where(eq(meters.nodeId, nodeId)))[0];

export const metersRouteCases: RouteCases = {
  'GET /general/meter/list': {
    attack: async ({ t, a, b }) => {
      await victim(t, a.id);
      return {
        request: get('/meter/list', b.admin.token),
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: 0, data: [] });
          for (const s of SECRETS) expect(res.body).not.toContain(s);
        },
      };
    },
  },
  'GET /general/meter/get': {
    attack: async ({ t, a, b }) => {
      const m = await victim(t, a.id);
      return { request: get(`/meter/get?id=${m.nodeId}`, b.admin.token), verify: refusedWithout(...SECRETS) };
    },
  },
  'POST /general/meter/create': {
    attack: async ({ t, a, b }) => {
      // B binds A's data item to a meter of its own: the item is not found for B
      const m = await victim(t, a.id);
      return {
        request: post('/meter/create', b.admin.token, {
          name: 'stolen',
          type: 101,
          itemId: m.item.itemId,
          points: { energy: 'f1' },
        }),
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
          expect(await t.db.select().from(meters).where(eq(meters.companyId, b.id))).toHaveLength(0);
        },
      };
    },
  },
  'POST /general/meter/update': {
    attack: async ({ t, a, b }) => {
      const m = await victim(t, a.id);
      const before = await rowOf(t, m.nodeId);
      return {
        request: post('/meter/update', b.admin.token, {
          id: m.nodeId,
          name: 'changed',
          type: 100,
          formula: '1',
        }),
        verify: async (res) => {
          refusedWithout(...SECRETS)(res);
          expect(await rowOf(t, m.nodeId)).toEqual(before);
        },
      };
    },
  },
  'POST /general/meter/delete': {
    attack: async ({ t, a, b }) => {
      const m = await victim(t, a.id);
      return {
        request: post('/meter/delete', b.admin.token, { id: m.nodeId }),
        verify: async (res) => {
          refusedWithout(...SECRETS)(res);
          expect(await rowOf(t, m.nodeId)).toBeDefined();
        },
      };
    },
  },
  'POST /general/meter/formula/check': {
    attack: async ({ t, a, b }) => {
      // A's meter codes are unknown to B's formulas
      const m = await victim(t, a.id);
      return {
        request: post('/meter/formula/check', b.admin.token, { formula: `${m.code} + 1` }),
        verify: (res) => {
          expect(res.json()).toMatchObject({
            code: 0,
            data: { ok: false, issue: { reason: 'unknownMeter' } },
          });
        },
      };
    },
  },
  'POST /general/meter/replace': {
    attack: async ({ t, a, b }) => {
      const m = await victim(t, a.id);
      return {
        request: post('/meter/replace', b.admin.token, {
          id: m.nodeId,
          at: '2026-10-05T00:00:00Z',
          oldFinal: 99999,
          newInitial: 0,
        }),
        verify: async (res) => {
          refusedWithout(...SECRETS)(res);
          expect(
            await t.db.select().from(meterEvents).where(eq(meterEvents.meterId, m.meterId)),
          ).toHaveLength(1);
        },
      };
    },
  },
  'GET /general/meter/log': {
    attack: async ({ t, a, b }) => {
      const m = await victim(t, a.id);
      return { request: get(`/meter/log?id=${m.nodeId}`, b.admin.token), verify: refusedWithout(...SECRETS) };
    },
  },
  'GET /general/meter/energy': {
    attack: async ({ t, a, b }) => {
      const m = await victim(t, a.id);
      return {
        request: get(`/meter/energy?id=${m.nodeId}&grain=day&from=2026-10-01&to=2026-10-02`, b.admin.token),
        verify: refusedWithout(...SECRETS),
      };
    },
  },
  'GET /general/meter/report': {
    attack: async ({ t, a, b }) => {
      const m = await victim(t, a.id);
      return {
        request: get(`/meter/report?meterId=${m.nodeId}&year=2026&month=10`, b.admin.token),
        verify: refusedWithout(...SECRETS),
      };
    },
  },
  'GET /general/meter/report/export': {
    attack: async ({ t, a, b }) => {
      const m = await victim(t, a.id);
      return {
        request: get(`/meter/report/export?meterId=${m.nodeId}&year=2026&month=10`, b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          for (const s of SECRETS) expect(res.body).not.toContain(s);
        },
      };
    },
  },
  'GET /general/meter/report/pdf': {
    attack: async ({ t, a, b }) => {
      // another company's meter: "not found" as JSON, no PDF, none of its readings or names
      const m = await victim(t, a.id);
      return {
        request: get(`/meter/report/pdf?meterId=${m.nodeId}&year=2026&month=10`, b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(res.headers['content-type']).not.toContain('application/pdf');
          expect(res.body.startsWith('%PDF-')).toBe(false);
          for (const s of SECRETS) expect(res.body).not.toContain(s);
        },
      };
    },
  },
  'GET /general/meter/live': {
    attack: async ({ t, a, b }) => {
      const m = await victim(t, a.id);
      return {
        request: get(`/meter/live?id=${m.nodeId}`, b.admin.token),
        verify: refusedWithout(...SECRETS),
      };
    },
  },
  'GET /general/meter/tou': {
    attack: async ({ t, a, b }) => {
      await t.db
        .insert(touSettings)
        .values({ companyId: a.id, schedule: { valley: [{ from: 0, to: 24 }] }, prices: { valley: 4321 } })
        .onConflictDoNothing();
      return {
        request: get('/meter/tou', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain('4321');
        },
      };
    },
  },
  'POST /general/meter/tou/save': {
    attack: async ({ t, a, b }) => {
      await t.db
        .insert(touSettings)
        .values({ companyId: a.id, schedule: { valley: [{ from: 0, to: 24 }] }, prices: { valley: 4321 } })
        .onConflictDoNothing();
      return {
        // B saves its own tariff: A's stays as it was
        request: post('/meter/tou/save', b.admin.token, {
          schedule: { flat: [{ from: 0, to: 24 }] },
          prices: { flat: 1 },
        }),
        verify: async (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain('4321');
          const [own] = await t.db.select().from(touSettings).where(eq(touSettings.companyId, a.id));
          expect(own!.prices).toEqual({ valley: 4321 });
        },
      };
    },
  },
  'GET /general/system/meter/list': {
    attack: async ({ t, a, b }) => {
      // system_emeter counts only in the platform operator's company
      await victim(t, a.id);
      return {
        request: get('/system/meter/list', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
          for (const s of SECRETS) expect(res.body).not.toContain(s);
        },
      };
    },
  },
  'GET /general/system/meter/log': {
    attack: async ({ t, a, b }) => {
      await victim(t, a.id);
      return {
        request: get('/system/meter/log', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
          for (const s of SECRETS) expect(res.body).not.toContain(s);
        },
      };
    },
  },
};
