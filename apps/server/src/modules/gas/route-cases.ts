import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { ensureComponents } from './service';
import { gasComponents, gasProducts, pureGases } from './tables';

let counter = 0;

/** Company A's gas data, made straight in the database: a custom component, a pure gas, a product. */
export async function makeGasData(t: TestApp, companyId: number) {
  counter += 1;
  await ensureComponents(t.db, companyId, 'en');
  const [component] = await t.db
    .insert(gasComponents)
    .values({ companyId, formula: `Xe${counter}`, name: `secret component ${counter}`, molarMass: 131.29 })
    .returning();
  const [pure] = await t.db
    .insert(pureGases)
    .values({
      companyId,
      name: `secret N2 ${counter}`,
      main: 'N2',
      impurities: [{ component: 'O2', umolPerMol: 10 }],
      supplier: 'secret supplier',
    })
    .returning();
  const [product] = await t.db
    .insert(gasProducts)
    .values({
      companyId,
      name: `secret mixture ${counter}`,
      balance: 'N2',
      components: [{ component: 'CO2', fraction: 0.1 }],
      volumeL: 10,
      pressureMPa: 10,
      temperatureC: 20,
      z: 1,
    })
    .returning();
  return { component: component!, pure: pure!, product: product! };
}

const post = (url: string, token: string, payload: object) => ({
  method: 'POST' as const,
  url: `/general/gas${url}`,
  headers: bearer(token),
  payload,
});
const get = (url: string, token: string) => ({
  method: 'GET' as const,
  url: `/general/gas${url}`,
  headers: bearer(token),
});

/** B's answer is "not found" or a refusal, never A's data. */
const refusedWithout = (secret: string) => (res: { json(): { code: number }; body: string }) => {
  expect(res.json().code).not.toBe(0);
  expect(res.body).not.toContain(secret);
};

export const gasRouteCases: RouteCases = {
  'GET /general/gas/component/list': {
    attack: async ({ t, a, b }) => {
      const { component } = await makeGasData(t, a.id);
      return {
        request: get('/component/list', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain(component.name);
          expect(res.json().data.map((c: { id: number }) => c.id)).not.toContain(component.id);
        },
      };
    },
  },
  'POST /general/gas/component/save': {
    attack: async ({ t, a, b }) => {
      const { component } = await makeGasData(t, a.id);
      return {
        request: post('/component/save', b.admin.token, {
          id: component.id,
          formula: 'Kr',
          name: 'taken over',
          molarMass: 1,
        }),
        verify: async (res) => {
          refusedWithout(component.name)(res);
          const [row] = await t.db.select().from(gasComponents).where(eq(gasComponents.id, component.id));
          expect(row).toMatchObject({ companyId: a.id, formula: component.formula, molarMass: 131.29 });
        },
      };
    },
  },
  'POST /general/gas/component/delete': {
    attack: async ({ t, a, b }) => {
      const { component } = await makeGasData(t, a.id);
      return {
        request: post('/component/delete', b.admin.token, { id: component.id }),
        verify: async (res) => {
          refusedWithout(component.name)(res);
          expect(
            await t.db.select().from(gasComponents).where(eq(gasComponents.id, component.id)),
          ).toHaveLength(1);
        },
      };
    },
  },
  'GET /general/gas/pure/list': {
    attack: async ({ t, a, b }) => {
      const { pure } = await makeGasData(t, a.id);
      return {
        request: get('/pure/list?keyword=secret', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.total).toBe(0);
          expect(res.body).not.toContain(pure.name);
        },
      };
    },
  },
  'POST /general/gas/pure/save': {
    attack: async ({ t, a, b }) => {
      const { pure } = await makeGasData(t, a.id);
      return {
        request: post('/pure/save', b.admin.token, {
          id: pure.id,
          name: 'taken over',
          main: 'N2',
          impurities: [],
        }),
        verify: async (res) => {
          refusedWithout(pure.name)(res);
          const [row] = await t.db.select().from(pureGases).where(eq(pureGases.id, pure.id));
          expect(row).toMatchObject({ companyId: a.id, name: pure.name, impurities: pure.impurities });
        },
      };
    },
  },
  'POST /general/gas/pure/delete': {
    attack: async ({ t, a, b }) => {
      const { pure } = await makeGasData(t, a.id);
      return {
        request: post('/pure/delete', b.admin.token, { id: pure.id }),
        verify: async (res) => {
          refusedWithout(pure.name)(res);
          expect(await t.db.select().from(pureGases).where(eq(pureGases.id, pure.id))).toHaveLength(1);
        },
      };
    },
  },
  'GET /general/gas/product/list': {
    attack: async ({ t, a, b }) => {
      const { product } = await makeGasData(t, a.id);
      return {
        request: get('/product/list?keyword=secret', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.total).toBe(0);
          expect(res.body).not.toContain(product.name);
        },
      };
    },
  },
  'GET /general/gas/product/get': {
    attack: async ({ t, a, b }) => {
      const { product } = await makeGasData(t, a.id);
      return {
        request: get(`/product/get?id=${product.id}`, b.admin.token),
        verify: refusedWithout(product.name),
      };
    },
  },
  'POST /general/gas/product/save': {
    attack: async ({ t, a, b }) => {
      const { product } = await makeGasData(t, a.id);
      return {
        request: post('/product/save', b.admin.token, {
          id: product.id,
          name: 'taken over',
          balance: 'N2',
          components: [{ component: 'O2', fraction: 0.5 }],
          volumeL: 1,
          pressureMPa: 1,
          temperatureC: 1,
          z: 1,
        }),
        verify: async (res) => {
          refusedWithout(product.name)(res);
          const [row] = await t.db.select().from(gasProducts).where(eq(gasProducts.id, product.id));
          expect(row).toMatchObject({ companyId: a.id, name: product.name, components: product.components });
        },
      };
    },
  },
  'POST /general/gas/product/delete': {
    attack: async ({ t, a, b }) => {
      const { product } = await makeGasData(t, a.id);
      return {
        request: post('/product/delete', b.admin.token, { id: product.id }),
        verify: async (res) => {
          refusedWithout(product.name)(res);
          expect(
            await t.db
              .select()
              .from(gasProducts)
              .where(and(eq(gasProducts.id, product.id), eq(gasProducts.companyId, a.id))),
          ).toHaveLength(1);
        },
      };
    },
  },
  'POST /general/gas/calc/fill': {
    attack: async ({ t, a, b }) => {
      // A's own component is unknown to B's calculation: its molar mass never leaks into B's
      const { component } = await makeGasData(t, a.id);
      return {
        request: post('/calc/fill', b.admin.token, {
          balance: 'N2',
          components: [{ component: component.formula, fraction: 0.1 }],
          volumeL: 10,
          pressureMPa: 10,
          temperatureC: 20,
          z: 1,
        }),
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: 40000, data: { field: 'components[0].component' } });
          expect(res.body).not.toContain('131.29');
        },
      };
    },
  },
  'POST /general/gas/calc/certify': {
    attack: async ({ t, a, b }) => {
      const { pure } = await makeGasData(t, a.id);
      return {
        request: post('/calc/certify', b.admin.token, { parents: [{ pureGasId: pure.id, massG: 100 }] }),
        verify: (res) => {
          expect(res.json()).toMatchObject({ data: { field: 'parents[0].pureGasId' } });
          expect(res.json().code).not.toBe(0);
          expect(res.body).not.toContain('O2');
        },
      };
    },
  },
};
