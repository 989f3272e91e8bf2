import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { dataRecords } from '../records/tables';
import { createKey } from './keys';
import { submissionKeys } from './tables';

export const ingestRouteCases: RouteCases = {
  'GET /general/smartdata/key/endpoints': {
    ownScope: "the platform's own submission addresses, the same for every company; no company data",
  },
  'GET /general/smartdata/key/list': {
    attack: async ({ t, a, b }) => {
      const victim = await createKey(t.db, {
        companyId: a.id,
        userId: a.admin.id,
        name: 'A key',
        kind: 'user',
      });
      return {
        request: { method: 'GET', url: '/general/smartdata/key/list', headers: bearer(b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.map((k: { id: number }) => k.id)).not.toContain(victim.id);
          expect(res.body).not.toContain(victim.key.slice(0, 12));
        },
      };
    },
  },
  'POST /general/smartdata/key/create': {
    ownScope:
      "creates a key for the caller in the caller's current company; nothing of another company is named",
  },
  'POST /general/smartdata/key/revoke': {
    attack: async ({ t, a, b }) => {
      const victim = await createKey(t.db, {
        companyId: a.id,
        userId: a.admin.id,
        name: 'A key',
        kind: 'user',
      });
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/key/revoke',
          payload: { id: victim.id },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          const [row] = await t.db.select().from(submissionKeys).where(eq(submissionKeys.id, victim.id));
          expect(row!.revokedAt).toBeNull();
        },
      };
    },
  },
  'POST /general/smartdata/submit': {
    attack: async ({ t, a, b }) => {
      const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
      // company B's administrator holds level 3 everywhere in B: the key is as strong as keys get
      const own = await createKey(t.db, { companyId: b.id, userId: b.admin.id, name: 'B key', kind: 'user' });
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/submit',
          payload: { itemId, 温度: 1, f2: 2 },
          headers: { authorization: own.key },
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({
            code: ERROR_CODES.NOT_FOUND,
            data: { itemId, field: 'itemId' },
          });
          expect(await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId))).toEqual([]);
        },
      };
    },
  },
};
