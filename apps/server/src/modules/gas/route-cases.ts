import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../test/helper';
import { type RouteCases, routeCalls } from '../../test/route-cases';
import { ensureComponents } from './service';
import { gasComponents, gasCylinders, gasProducts, gasReferenceMaterials, pureGases } from './tables';

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

/** Company A's reference material, named by nothing. */
export async function makeGasReference(t: TestApp, companyId: number) {
  counter += 1;
  const [reference] = await t.db
    .insert(gasReferenceMaterials)
    .values({
      companyId,
      name: `secret reference ${counter}`,
      certificateNo: `SECRET-${counter}`,
      balance: 'N2',
      components: [{ component: 'CO2', fraction: 0.1, expanded: 0.0002 }],
      expiresOn: '2030-01-01',
    })
    .returning();
  return { reference: reference! };
}

/** Company A's cylinder (passed quality control, so it can be certified) and the reference it names. */
export async function makeCylinderData(t: TestApp, companyId: number) {
  const { pure, product } = await makeGasData(t, companyId);
  const { reference } = await makeGasReference(t, companyId);
  const [cylinder] = await t.db
    .insert(gasCylinders)
    .values({
      companyId,
      serialNumber: `SECRET-CY-${counter}`,
      productId: product.id,
      productName: product.name,
      balance: 'N2',
      parents: [{ pureGasId: pure.id, name: pure.name, massG: 1000, uMassG: 0 }],
      certifiedValues: [
        { component: 'N2', fraction: 0.9, standard: 0.0001, expanded: 0.0002 },
        { component: 'CO2', fraction: 0.1, standard: 0.0001, expanded: 0.0002 },
      ],
      analyses: [{ component: 'CO2', analysed: 0.1, analysedU: 0.0002, referenceMaterialId: reference.id }],
      status: 'passed',
    })
    .returning();
  return { cylinder: cylinder!, reference, pure };
}

const { post, get, refusedWithout } = routeCalls('/gas');

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
  'GET /general/gas/cylinder/list': {
    attack: async ({ t, a, b }) => {
      const { cylinder } = await makeCylinderData(t, a.id);
      return {
        request: get('/cylinder/list?keyword=SECRET', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.total).toBe(0);
          expect(res.body).not.toContain(cylinder.serialNumber);
        },
      };
    },
  },
  'GET /general/gas/cylinder/get': {
    attack: async ({ t, a, b }) => {
      const { cylinder } = await makeCylinderData(t, a.id);
      return {
        request: get(`/cylinder/get?id=${cylinder.id}`, b.admin.token),
        verify: refusedWithout(cylinder.serialNumber),
      };
    },
  },
  'POST /general/gas/cylinder/save': {
    attack: async ({ t, a, b }) => {
      // B weighs A's parent gas into a cylinder of A's recipe: both are unknown to B
      const { pure, cylinder } = await makeCylinderData(t, a.id);
      return {
        request: post('/cylinder/save', b.admin.token, {
          serialNumber: 'B-CY-1',
          productId: cylinder.productId,
          parents: [{ pureGasId: pure.id, massG: 100 }],
        }),
        verify: async (res) => {
          refusedWithout(pure.name)(res);
          expect(res.json().data.field).toBe('productId');
          expect(
            await t.db.select().from(gasCylinders).where(eq(gasCylinders.serialNumber, 'B-CY-1')),
          ).toHaveLength(0);
        },
      };
    },
  },
  'POST /general/gas/cylinder/delete': {
    attack: async ({ t, a, b }) => {
      const { cylinder } = await makeCylinderData(t, a.id);
      return {
        request: post('/cylinder/delete', b.admin.token, { id: cylinder.id }),
        verify: async (res) => {
          refusedWithout(cylinder.serialNumber)(res);
          expect(await t.db.select().from(gasCylinders).where(eq(gasCylinders.id, cylinder.id))).toHaveLength(
            1,
          );
        },
      };
    },
  },
  'POST /general/gas/cylinder/analysis': {
    attack: async ({ t, a, b }) => {
      const { cylinder } = await makeCylinderData(t, a.id);
      return {
        request: post('/cylinder/analysis', b.admin.token, {
          id: cylinder.id,
          analyses: [{ component: 'CO2', analysed: 0.5, analysedU: 0.001 }],
        }),
        verify: async (res) => {
          refusedWithout(cylinder.serialNumber)(res);
          const [row] = await t.db.select().from(gasCylinders).where(eq(gasCylinders.id, cylinder.id));
          expect(row).toMatchObject({ status: 'passed', analyses: cylinder.analyses });
        },
      };
    },
  },
  'POST /general/gas/cylinder/certify': {
    attack: async ({ t, a, b }) => {
      const { cylinder } = await makeCylinderData(t, a.id);
      return {
        request: post('/cylinder/certify', b.admin.token, {
          id: cylinder.id,
          certifiedOn: '2026-11-29',
          validMonths: 12,
          pressureMPa: 10,
          tempMinC: 0,
          tempMaxC: 40,
          laboratory: 'B lab',
          referenceIds: [],
        }),
        verify: async (res) => {
          refusedWithout(cylinder.serialNumber)(res);
          const [row] = await t.db.select().from(gasCylinders).where(eq(gasCylinders.id, cylinder.id));
          expect(row).toMatchObject({ status: 'passed', certificate: null });
        },
      };
    },
  },
  'GET /general/gas/cylinder/certificate': {
    attack: async ({ t, a, b }) => {
      const { cylinder } = await makeCylinderData(t, a.id);
      await t.db
        .update(gasCylinders)
        .set({
          status: 'certified',
          certificate: {
            number: 'COA-SECRET',
            certifiedOn: '2026-11-29',
            expiresOn: '2027-11-29',
            pressureMPa: 10,
            tempMinC: 0,
            tempMaxC: 40,
            laboratory: 'A lab',
            referenceIds: [],
            issuedAt: new Date().toISOString(),
          },
        })
        .where(eq(gasCylinders.id, cylinder.id));
      return {
        request: get(`/cylinder/certificate?id=${cylinder.id}`, b.admin.token),
        verify: (res) => {
          expect(res.headers['content-type']).not.toBe('application/pdf');
          refusedWithout('COA-SECRET')(res);
        },
      };
    },
  },
  'POST /general/gas/cylinder/revoke': {
    attack: async ({ t, a, b }) => {
      const { cylinder } = await makeCylinderData(t, a.id);
      const certificate = {
        number: 'COA-KEPT',
        certifiedOn: '2026-11-29',
        expiresOn: '2027-11-29',
        pressureMPa: 10,
        tempMinC: 0,
        tempMaxC: 40,
        laboratory: 'A lab',
        referenceIds: [],
        issuedAt: new Date().toISOString(),
      };
      await t.db
        .update(gasCylinders)
        .set({ status: 'certified', certificate })
        .where(eq(gasCylinders.id, cylinder.id));
      return {
        request: post('/cylinder/revoke', b.admin.token, { id: cylinder.id, reason: 'B says so' }),
        verify: async (res) => {
          refusedWithout('COA-KEPT')(res);
          const [row] = await t.db.select().from(gasCylinders).where(eq(gasCylinders.id, cylinder.id));
          expect(row).toMatchObject({ status: 'certified', certificate, revokedCertificates: [] });
        },
      };
    },
  },
  'GET /general/gas/reference/list': {
    attack: async ({ t, a, b }) => {
      const { reference } = await makeCylinderData(t, a.id);
      return {
        request: get('/reference/list?keyword=secret', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.total).toBe(0);
          expect(res.body).not.toContain(reference.certificateNo);
        },
      };
    },
  },
  'POST /general/gas/reference/save': {
    attack: async ({ t, a, b }) => {
      const { reference } = await makeCylinderData(t, a.id);
      return {
        request: post('/reference/save', b.admin.token, {
          id: reference.id,
          name: 'taken over',
          certificateNo: 'B',
          balance: 'N2',
          components: [{ component: 'CO2', fraction: 0.2, expanded: 0.001 }],
          expiresOn: '2030-01-01',
        }),
        verify: async (res) => {
          refusedWithout(reference.certificateNo)(res);
          const [row] = await t.db
            .select()
            .from(gasReferenceMaterials)
            .where(eq(gasReferenceMaterials.id, reference.id));
          expect(row).toMatchObject({
            companyId: a.id,
            name: reference.name,
            components: reference.components,
          });
        },
      };
    },
  },
  'POST /general/gas/reference/delete': {
    attack: async ({ t, a, b }) => {
      const { reference } = await makeGasReference(t, a.id);
      return {
        request: post('/reference/delete', b.admin.token, { id: reference.id }),
        verify: async (res) => {
          refusedWithout(reference.certificateNo)(res);
          expect(
            await t.db.select().from(gasReferenceMaterials).where(eq(gasReferenceMaterials.id, reference.id)),
          ).toHaveLength(1);
        },
      };
    },
  },
};
