import { ERROR_CODES } from '@platform/domain';
import { expect } from 'vitest';
import { bearer } from '../../test/helper';
import type { RouteCases, TenantContext } from '../../test/route-cases';
import { viewFixture } from './test-support';

const BASE = '/general/devicemanagement/device';

/** Company B's administrator asks for company A's device (with records): 40400 on id, nothing of A's. */
function getCase(path: (v: Awaited<ReturnType<typeof viewFixture>>) => string) {
  return {
    attack: async ({ t, a, b }: TenantContext) => {
      const v = await viewFixture(t, a.id, a.admin.id, 'SECRET-A');
      await t.app.ingest.write({
        companyId: a.id,
        userId: null,
        source: 'gateway',
        records: [{ itemId: v.meter.itemId, ts: new Date(Date.now() - 60_000), values: { f1: 231.5 } }],
      });
      return {
        request: { method: 'GET' as const, url: `${BASE}/${path(v)}`, headers: bearer(b.admin.token) },
        verify: (res: { json(): unknown; body: string }) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain('SECRET-A');
          expect(res.body).not.toContain('电表');
          expect(res.body).not.toContain('231.5');
        },
      };
    },
  };
}

export const deviceViewsRouteCases: RouteCases = {
  [`GET ${BASE}/points`]: getCase((v) => `points?id=${v.device.id}`),
  [`GET ${BASE}/flow`]: getCase((v) => `flow?id=${v.device.id}`),
  [`GET ${BASE}/series`]: getCase((v) => {
    const to = new Date();
    const from = new Date(to.getTime() - 3_600_000);
    return `series?id=${v.device.id}&points=${encodeURIComponent(JSON.stringify([`${v.meter.itemId}:f1`]))}&from=${from.toISOString()}&to=${to.toISOString()}`;
  }),
};
