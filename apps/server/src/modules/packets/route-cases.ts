import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { frameStats, serialPackages } from './tables';
import { floatValue, makeIotItem, makePackage, makeParser, packageRow, parserRow } from './test-support';

const post = (url: string, payload: unknown, token: string) => ({
  method: 'POST' as const,
  url,
  payload: payload as Record<string, unknown>,
  headers: bearer(token),
});

const PACKET = {
  frame: '01 03 00 00 00 02',
  appendCrc: true,
  valueType: 'byte',
  encoding: 'HEX',
  samplingId: 1,
};

export const packetsRouteCases: RouteCases = {
  'GET /general/devicecommunication/dataPackage/list': {
    attack: async ({ t, a, b }) => {
      await makePackage(t, a.id, { name: 'secret packet' });
      return {
        request: {
          method: 'GET',
          url: '/general/devicecommunication/dataPackage/list',
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain('secret packet');
        },
      };
    },
  },
  'GET /general/devicecommunication/dataPackage/get': {
    attack: async ({ t, a, b }) => {
      const id = await makePackage(t, a.id, { name: 'secret packet 2' });
      return {
        request: {
          method: 'GET',
          url: `/general/devicecommunication/dataPackage/get?id=${id}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain('secret packet');
        },
      };
    },
  },
  'POST /general/devicecommunication/dataPackage/add': {
    attack: async ({ t, a, b }) => {
      // names are per company: B's packet of A's name is B's own, and A's stays as it was
      const id = await makePackage(t, a.id, { name: 'shared name', frame: '02 07' });
      return {
        request: post(
          '/general/devicecommunication/dataPackage/add',
          { name: 'shared name', ...PACKET },
          b.admin.token,
        ),
        verify: async (res) => {
          expect(res.json().code).toBe(0);
          const made = await t.db
            .select()
            .from(serialPackages)
            .where(eq(serialPackages.id, res.json().data.id));
          expect(made[0]!.companyId).toBe(b.id);
          expect((await packageRow(t, id))!.frame).toBe('02 07');
        },
      };
    },
  },
  'POST /general/devicecommunication/dataPackage/update': {
    attack: async ({ t, a, b }) => {
      const id = await makePackage(t, a.id, { name: 'victim', frame: '02 07' });
      return {
        request: post(
          '/general/devicecommunication/dataPackage/update',
          { id, name: 'taken', ...PACKET },
          b.admin.token,
        ),
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(await packageRow(t, id)).toMatchObject({ name: 'victim', frame: '02 07' });
        },
      };
    },
  },
  'POST /general/devicecommunication/dataPackage/delete': {
    attack: async ({ t, a, b }) => {
      const id = await makePackage(t, a.id);
      return {
        request: post('/general/devicecommunication/dataPackage/delete', { id }, b.admin.token),
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(await packageRow(t, id)).toBeDefined();
        },
      };
    },
  },
  'GET /general/devicecommunication/parsing/list': {
    attack: async ({ t, a, b }) => {
      await makePackage(t, a.id, { name: 'secret parsed' });
      return {
        request: {
          method: 'GET',
          url: '/general/devicecommunication/parsing/list',
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain('secret parsed');
        },
      };
    },
  },
  'GET /general/devicecommunication/parsing/get': {
    attack: async ({ t, a, b }) => {
      const item = await makeIotItem(t, a.id, 'secret meter');
      const id = await makePackage(t, a.id, { name: 'secret packet 3' });
      await makeParser(t, a.id, id, [floatValue(item.itemId, { name: 'secret value' })], a.admin.id);
      return {
        request: {
          method: 'GET',
          url: `/general/devicecommunication/parsing/get?dataPkgId=${id}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'dataPkgId' } });
          expect(res.body).not.toMatch(/secret/);
        },
      };
    },
  },
  'POST /general/devicecommunication/parsing/save': {
    attack: async ({ t, a, b }) => {
      // B's own packet with a value bound to A's item
      const victim = await makeIotItem(t, a.id);
      const own = await makePackage(t, b.id);
      return {
        request: post(
          '/general/devicecommunication/parsing/save',
          { dataPkgId: own, values: [floatValue(victim.itemId)] },
          b.admin.token,
        ),
        verify: async (res) => {
          expect(res.json()).toMatchObject({
            code: ERROR_CODES.NOT_FOUND,
            data: { field: 'values[0].itemId' },
          });
          expect(await parserRow(t, own)).toBeUndefined();
        },
      };
    },
  },
  'GET /general/devicecommunication/parsing/items': {
    attack: async ({ t, a, b }) => {
      await makeIotItem(t, a.id, 'secret iot');
      return {
        request: {
          method: 'GET',
          url: '/general/devicecommunication/parsing/items',
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.body).not.toContain('secret iot');
        },
      };
    },
  },
  'GET /general/devicecommunication/frameStats': {
    attack: async ({ t, a, b }) => {
      await t.db.insert(frameStats).values({ companyId: a.id, sn: 'SECRETSN01', port: 1, stored: 5 });
      return {
        request: {
          method: 'GET',
          url: '/general/devicecommunication/frameStats?sn=SECRETSN01',
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: 0, data: [] });
        },
      };
    },
  },
};
