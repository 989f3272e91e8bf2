import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp, type TestCompany } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { alertDelegations } from './tables';

/** A's administrator delegates to A's limited user (through the real route). */
async function delegationInA(t: TestApp, a: TestCompany): Promise<number> {
  const existing = await t.db.select().from(alertDelegations).where(eq(alertDelegations.companyId, a.id));
  if (existing[0]) return existing[0].id;
  const res = await t.app.inject({
    method: 'POST',
    url: '/general/company/addAlertDelegator',
    payload: { delegateId: a.limited.id },
    headers: bearer(a.admin.token),
  });
  expect(res.json().code).toBe(0);
  return res.json().data.id as number;
}

async function delegationsOfCompany(t: TestApp, companyId: number) {
  return t.db.select().from(alertDelegations).where(eq(alertDelegations.companyId, companyId));
}

export const delegationsRouteCases: RouteCases = {
  'GET /general/company/getAlertDelegations': {
    attack: async ({ t, a, b }) => {
      await delegationInA(t, a);
      return {
        request: {
          method: 'GET',
          url: '/general/company/getAlertDelegations',
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: 0, data: [] });
        },
      };
    },
  },
  'GET /general/company/getAlertDelegatorList': {
    attack: async ({ t, a, b }) => {
      await delegationInA(t, a);
      return {
        request: {
          method: 'GET',
          url: '/general/company/getAlertDelegatorList',
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: 0, data: [] });
        },
      };
    },
  },
  'POST /general/company/addAlertDelegator': {
    attack: async ({ t, b, a }) => ({
      request: {
        method: 'POST',
        url: '/general/company/addAlertDelegator',
        payload: { delegateId: a.limited.id },
        headers: bearer(b.admin.token),
      },
      verify: async (res) => {
        expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'delegateId' } });
        expect(await delegationsOfCompany(t, b.id)).toEqual([]);
      },
    }),
  },
  'POST /general/company/deleteAlertDelegator': {
    attack: async ({ t, a, b }) => {
      const victim = await delegationInA(t, a);
      return {
        request: {
          method: 'POST',
          url: '/general/company/deleteAlertDelegator',
          payload: { id: victim },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect((await delegationsOfCompany(t, a.id)).map((d) => d.id)).toEqual([victim]);
        },
      };
    },
  },
};
