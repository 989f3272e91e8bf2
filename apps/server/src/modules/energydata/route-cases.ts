import { ENERGY_DATA_KIND_INFO, ENERGY_DATA_KINDS, type EnergyDataKind } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../test/helper';
import { type RouteCases, routeCalls } from '../../test/route-cases';
import { makeItem } from '../cabin/test-support';
import { dataRecords } from '../records/tables';
import { energyCoalFactors, energyRecords, energySites } from './tables';

let counter = 0;

/** Company A's site with one record of the kind (quantity 777.125, a figure nobody else has). */
export async function makeEnergyData(t: TestApp, companyId: number, kind: EnergyDataKind = 'coal') {
  counter += 1;
  const [site] = await t.db
    .insert(energySites)
    .values({ companyId, name: `secret boiler house ${counter}`, type: 'boilerHouse', remark: 'secret' })
    .returning();
  const [record] = await t.db
    .insert(energyRecords)
    .values({
      companyId,
      siteId: site!.id,
      kind,
      periodType: 'month',
      periodOn: '2025-01-01',
      quantity: 777.125,
      remark: `secret remark ${counter}`,
    })
    .returning();
  return { site: site!, record: record! };
}

/** Company A's item with a cumulative field read on two days of January 2025 (a fill would write). */
export async function makeMeterItem(t: TestApp, companyId: number) {
  counter += 1;
  const name = `secret meter ${counter}`;
  const { itemId } = await makeItem(t, companyId, {
    name,
    fields: [{ key: 'f1', name: 'secret total', unit: 'm³', type: 1 }],
  });
  await t.db.insert(dataRecords).values(
    [
      ['2025-01-01T00:00:00Z', 100],
      ['2025-01-02T00:00:00Z', 150.5],
      ['2025-01-03T00:00:00Z', 210.25],
    ].map(([ts, v]) => ({ companyId, itemId, ts: new Date(ts as string), values: { f1: v as number } })),
  );
  return { itemId, name };
}

const { post, get, refusedWithout } = routeCalls('/energy');
const recordOf = async (t: TestApp, id: number) =>
  (await t.db.select().from(energyRecords).where(eq(energyRecords.id, id)))[0];
const siteOf = async (t: TestApp, id: number) =>
  (await t.db.select().from(energySites).where(eq(energySites.id, id)))[0];

function kindCases(kind: EnergyDataKind): RouteCases {
  const p = `/${ENERGY_DATA_KIND_INFO[kind].path}`;
  const key = (method: string, url: string) => `${method} /general/energy${p}${url}`;
  return {
    [key('GET', '/record/list')]: {
      attack: async ({ t, a, b }) => {
        const { site, record } = await makeEnergyData(t, a.id, kind);
        return {
          // B names A's site: it finds nothing
          request: get(`${p}/record/list?siteId=${site.id}`, b.admin.token),
          verify: (res) => {
            expect(res.json().code).toBe(0);
            expect(res.json().data.total).toBe(0);
            expect(res.body).not.toContain(site.name);
            expect(res.body).not.toContain(record.remark);
          },
        };
      },
    },
    [key('GET', '/summary')]: {
      attack: async ({ t, a, b }) => {
        const { site } = await makeEnergyData(t, a.id, kind);
        return {
          request: get(`${p}/summary?from=2025-01-01&to=2025-01-31&siteId=${site.id}`, b.admin.token),
          verify: (res) => {
            expect(res.json().code).toBe(0);
            expect(res.json().data.total).toMatchObject({ quantity: 0, count: 0 });
            expect(res.body).not.toContain(site.name);
            expect(res.body).not.toContain('777.125');
          },
        };
      },
    },
    [key('POST', '/record/save')]: {
      attack: async ({ t, a, b }) => {
        const { site, record } = await makeEnergyData(t, a.id, kind);
        return {
          request: post(`${p}/record/save`, b.admin.token, {
            id: record.id,
            siteId: site.id,
            periodType: 'month',
            periodOn: '2025-01',
            quantity: 1,
          }),
          verify: async (res) => {
            refusedWithout(site.name, record.remark)(res);
            expect(await recordOf(t, record.id)).toMatchObject({ quantity: 777.125 });
          },
        };
      },
    },
    [key('POST', '/record/delete')]: {
      attack: async ({ t, a, b }) => {
        const { record } = await makeEnergyData(t, a.id, kind);
        return {
          request: post(`${p}/record/delete`, b.admin.token, { id: record.id }),
          verify: async (res) => {
            refusedWithout(record.remark)(res);
            expect(await recordOf(t, record.id)).toBeDefined();
          },
        };
      },
    },
    [key('POST', '/record/import')]: {
      attack: async ({ t, a, b }) => {
        const { site } = await makeEnergyData(t, a.id, kind);
        const boundary = 'energyattack';
        const csv = `site,period type,period,quantity\n${site.name},month,2025-02,5\n`;
        return {
          // A's site named in B's file: no such site of B's
          request: {
            method: 'POST' as const,
            url: `/general/energy${p}/record/import`,
            headers: {
              authorization: `Bearer ${b.admin.token}`,
              'content-type': `multipart/form-data; boundary=${boundary}`,
            },
            payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="r.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
          },
          verify: async (res) => {
            expect(res.json().code).not.toBe(0);
            const rows = await t.db.select().from(energyRecords).where(eq(energyRecords.siteId, site.id));
            expect(rows).toHaveLength(1);
          },
        };
      },
    },
    [key('POST', '/record/fill')]: {
      attack: async ({ t, a, b }) => {
        const item = await makeMeterItem(t, a.id);
        const [bSite] = await t.db
          .insert(energySites)
          .values({ companyId: b.id, name: `B site ${counter}`, type: 'plant' })
          .returning();
        return {
          // B fills its own site from A's item: no such item of B's, nothing written, nothing told
          request: post(`${p}/record/fill`, b.admin.token, {
            siteId: bSite!.id,
            itemId: item.itemId,
            field: 'f1',
            mode: 'counter',
            from: '2025-01-01',
            to: '2025-01-03',
          }),
          verify: async (res) => {
            refusedWithout(item.name, 'secret total', '50.5')(res);
            expect(res.json().data?.field).toBe('itemId');
            const rows = await t.db.select().from(energyRecords).where(eq(energyRecords.siteId, bSite!.id));
            expect(rows).toHaveLength(0);
          },
        };
      },
    },
    [key('GET', '/record/template')]: {
      ownScope: 'the same empty template for every caller: no company data in it',
    },
    [key('GET', '/record/export')]: {
      attack: async ({ t, a, b }) => {
        const { site, record } = await makeEnergyData(t, a.id, kind);
        return {
          request: get(`${p}/record/export?format=csv&siteId=${site.id}`, b.admin.token),
          verify: (res) => {
            expect(res.statusCode).toBe(200);
            expect(res.body).not.toContain(site.name);
            expect(res.body).not.toContain(record.remark);
            expect(res.body).not.toContain('777.125');
          },
        };
      },
    },
  };
}

export const energyDataRouteCases: RouteCases = {
  ...Object.assign({}, ...ENERGY_DATA_KINDS.map(kindCases)),
  'GET /general/energy/site/list': {
    attack: async ({ t, a, b }) => {
      const { site } = await makeEnergyData(t, a.id);
      return {
        request: get('/site/list', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain(site.name);
        },
      };
    },
  },
  'POST /general/energy/site/save': {
    attack: async ({ t, a, b }) => {
      const { site } = await makeEnergyData(t, a.id);
      return {
        request: post('/site/save', b.admin.token, { id: site.id, name: 'taken over', type: 'plant' }),
        verify: async (res) => {
          refusedWithout(site.name)(res);
          expect(await siteOf(t, site.id)).toMatchObject({ name: site.name, type: 'boilerHouse' });
        },
      };
    },
  },
  'POST /general/energy/site/delete': {
    attack: async ({ t, a, b }) => {
      counter += 1;
      const [site] = await t.db
        .insert(energySites)
        .values({ companyId: a.id, name: `secret empty site ${counter}`, type: 'workshop' })
        .returning();
      return {
        request: post('/site/delete', b.admin.token, { id: site!.id }),
        verify: async (res) => {
          refusedWithout(site!.name)(res);
          expect(await siteOf(t, site!.id)).toBeDefined();
        },
      };
    },
  },
  'GET /general/energy/item/list': {
    attack: async ({ t, a, b }) => {
      const item = await makeMeterItem(t, a.id);
      return {
        request: get('/item/list', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain(item.name);
          expect(res.body).not.toContain('secret total');
        },
      };
    },
  },
  'GET /general/energy/factors': {
    attack: async ({ t, a, b }) => {
      await t.db
        .insert(energyCoalFactors)
        .values({ companyId: a.id, factors: { rawCoal: 0.612345 } })
        .onConflictDoUpdate({ target: energyCoalFactors.companyId, set: { factors: { rawCoal: 0.612345 } } });
      return {
        request: get('/factors', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain('0.612345');
        },
      };
    },
  },
  'POST /general/energy/factors/save': {
    attack: async ({ t, a, b }) => {
      await t.db
        .insert(energyCoalFactors)
        .values({ companyId: a.id, factors: { rawCoal: 0.612345 } })
        .onConflictDoUpdate({ target: energyCoalFactors.companyId, set: { factors: { rawCoal: 0.612345 } } });
      return {
        // B sets its own factors: A's stay as they were
        request: post('/factors/save', b.admin.token, { rawCoal: 0.5 }),
        verify: async (res) => {
          expect(res.body).not.toContain('0.612345');
          const [row] = await t.db
            .select()
            .from(energyCoalFactors)
            .where(eq(energyCoalFactors.companyId, a.id));
          expect(row?.factors).toEqual({ rawCoal: 0.612345 });
        },
      };
    },
  },
};
