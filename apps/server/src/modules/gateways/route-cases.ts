import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { makeDevice, registerGateway } from '../devices/test-support';
import { gateways } from './tables';

/**
 * The registry is the platform operator's (system_gateway counts only in the operator's
 * company): an ordinary company's administrator is refused outright, sees no serial number
 * and changes nothing. registry.test.ts covers the operator's own use.
 */
export const gatewaysRouteCases: RouteCases = {
  'GET /general/system/gateway/list': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDevice(t, a.id);
      return {
        request: { method: 'GET', url: '/general/system/gateway/list', headers: bearer(b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
          expect(res.body).not.toContain(victim.sn);
        },
      };
    },
  },
  'GET /general/system/gateway/detail': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDevice(t, a.id);
      return {
        request: {
          method: 'GET',
          url: `/general/system/gateway/detail?id=${victim.id}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
          expect(res.body).not.toContain(victim.sn);
        },
      };
    },
  },
  'POST /general/system/gateway/register': {
    attack: async ({ t, b }) => {
      const sn = `ATTACK${Date.now()}`;
      return {
        request: {
          method: 'POST',
          url: '/general/system/gateway/register',
          payload: { serialNumbers: [sn], model: 'X' },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
          expect(await t.db.select().from(gateways).where(eq(gateways.serialNumber, sn))).toEqual([]);
        },
      };
    },
  },
  'POST /general/system/gateway/replaceSecret': {
    attack: async ({ t, a, b }) => {
      const victim = await makeDevice(t, a.id);
      const [before] = await t.db.select().from(gateways).where(eq(gateways.id, victim.id));
      return {
        request: {
          method: 'POST',
          url: '/general/system/gateway/replaceSecret',
          payload: { id: victim.id },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
          expect(res.body).not.toContain('gws_');
          const [after] = await t.db.select().from(gateways).where(eq(gateways.id, victim.id));
          expect(after!.secretHash).toBe(before!.secretHash);
        },
      };
    },
  },
  'POST /general/system/gateway/remove': {
    attack: async ({ t, b }) => {
      const victim = await registerGateway(t);
      return {
        request: {
          method: 'POST',
          url: '/general/system/gateway/remove',
          payload: { id: victim.id },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.FORBIDDEN);
          expect(await t.db.select().from(gateways).where(eq(gateways.id, victim.id))).toHaveLength(1);
        },
      };
    },
  },
};
