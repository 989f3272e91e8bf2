import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { TestApp } from '../../test/helper';
import { type RouteCases, routeCalls } from '../../test/route-cases';
import { makeSalesData } from './route-cases';
import { salesContracts, salesContractTemplates } from './tables';

let counter = 0;

/** Company A's order with a draft contract, and A's template. */
async function makeContractData(t: TestApp, companyId: number) {
  counter += 1;
  const { order } = await makeSalesData(t, companyId);
  const [template] = await t.db
    .insert(salesContractTemplates)
    .values({ companyId, name: `secret template ${counter}`, html: '<p>secret clause</p>' })
    .returning();
  const [contract] = await t.db
    .insert(salesContracts)
    .values({
      companyId,
      number: `HT-SECRET-${counter}`,
      orderId: order.id,
      templateId: template!.id,
      templateName: template!.name,
      html: `<p>secret contract text ${counter}</p>`,
    })
    .returning();
  return { order, template: template!, contract: contract! };
}

const { post, get, refusedWithout } = routeCalls('/sales/contract');
const contractOf = async (t: TestApp, id: number) =>
  (await t.db.select().from(salesContracts).where(eq(salesContracts.id, id)))[0];
const templateOf = async (t: TestApp, id: number) =>
  (await t.db.select().from(salesContractTemplates).where(eq(salesContractTemplates.id, id)))[0];

export const salesContractRouteCases: RouteCases = {
  'GET /general/sales/contract/template/list': {
    attack: async ({ t, a, b }) => {
      const { template } = await makeContractData(t, a.id);
      return {
        request: get('/template/list', b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain(template.name);
        },
      };
    },
  },
  'GET /general/sales/contract/template/starter': {
    ownScope: "answers the built-in starting body in the caller's language; reads no company data",
  },
  'GET /general/sales/contract/template/get': {
    attack: async ({ t, a, b }) => {
      const { template } = await makeContractData(t, a.id);
      return {
        request: get(`/template/get?id=${template.id}`, b.admin.token),
        verify: refusedWithout(template.name, 'secret clause'),
      };
    },
  },
  'POST /general/sales/contract/template/save': {
    attack: async ({ t, a, b }) => {
      const { template } = await makeContractData(t, a.id);
      return {
        request: post('/template/save', b.admin.token, {
          id: template.id,
          name: 'taken over',
          html: '<p>x</p>',
        }),
        verify: async (res) => {
          refusedWithout('secret clause')(res);
          expect(await templateOf(t, template.id)).toMatchObject({
            name: template.name,
            html: template.html,
          });
        },
      };
    },
  },
  'POST /general/sales/contract/template/delete': {
    attack: async ({ t, a, b }) => {
      const { template } = await makeContractData(t, a.id);
      return {
        request: post('/template/delete', b.admin.token, { id: template.id }),
        verify: async (res) => {
          refusedWithout(template.name)(res);
          expect(await templateOf(t, template.id)).toBeDefined();
        },
      };
    },
  },
  'GET /general/sales/contract/list': {
    attack: async ({ t, a, b }) => {
      const { contract, order } = await makeContractData(t, a.id);
      return {
        request: get(`/list?orderId=${order.id}`, b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.list).toEqual([]);
          expect(res.body).not.toContain(contract.number);
        },
      };
    },
  },
  'GET /general/sales/contract/get': {
    attack: async ({ t, a, b }) => {
      const { contract } = await makeContractData(t, a.id);
      return {
        request: get(`/get?id=${contract.id}`, b.admin.token),
        verify: refusedWithout(contract.number, 'secret contract text'),
      };
    },
  },
  'POST /general/sales/contract/create': {
    attack: async ({ t, a, b }) => {
      // A's order without a contract, A's template: neither may be used by B
      const { order, template } = await makeContractData(t, a.id);
      const { order: free } = await makeSalesData(t, a.id);
      return {
        request: post('/create', b.admin.token, { orderId: free.id, templateId: template.id }),
        verify: async (res) => {
          refusedWithout(free.customer, order.customer, 'secret clause')(res);
          expect(await t.db.select().from(salesContracts).where(eq(salesContracts.orderId, free.id))).toEqual(
            [],
          );
        },
      };
    },
  },
  'POST /general/sales/contract/sign': {
    attack: async ({ t, a, b }) => {
      const { contract } = await makeContractData(t, a.id);
      return {
        request: post('/sign', b.admin.token, { id: contract.id }),
        verify: async (res) => {
          refusedWithout(contract.number)(res);
          expect(await contractOf(t, contract.id)).toMatchObject({ status: 'draft', signedOn: null });
        },
      };
    },
  },
  'POST /general/sales/contract/delete': {
    attack: async ({ t, a, b }) => {
      const { contract } = await makeContractData(t, a.id);
      return {
        request: post('/delete', b.admin.token, { id: contract.id }),
        verify: async (res) => {
          refusedWithout(contract.number)(res);
          expect(await contractOf(t, contract.id)).toBeDefined();
        },
      };
    },
  },
  'GET /general/sales/contract/document': {
    attack: async ({ t, a, b }) => {
      const { contract } = await makeContractData(t, a.id);
      return {
        request: get(`/document?id=${contract.id}`, b.admin.token),
        verify: refusedWithout(contract.number, 'secret contract text'),
      };
    },
  },
};
