import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer } from '../../test/helper';
import type { RouteCases, TenantContext } from '../../test/route-cases';
import { configScreenLeases, configScreens } from './tables';
import { screenBody, screenFixture } from './test-support';

const BASE = '/general/devicemanagement/screen';

/** Company A's device with a saved screen and a lease held by A's administrator. */
async function victim({ t, a }: TenantContext) {
  const v = await screenFixture(t, a.id, a.admin.id, 'SECRET-A');
  await t.db.insert(configScreens).values({
    companyId: a.id,
    gatewayId: v.device.id,
    body: screenBody(v.meter.itemId, v.status.itemId) as never,
    elementCount: 4,
    updatedBy: a.admin.id,
  });
  await t.db.insert(configScreenLeases).values({
    companyId: a.id,
    gatewayId: v.device.id,
    leaseId: 'a'.repeat(32),
    userId: a.admin.id,
    expiresAt: new Date(Date.now() + 60_000),
  });
  return v;
}

/** B's administrator targets A's device by its id: 40400 on id, A's screen and lease untouched. */
function attack(
  method: 'GET' | 'POST',
  url: string,
  payload?: (v: Awaited<ReturnType<typeof victim>>) => Record<string, unknown>,
) {
  return {
    attack: async (ctx: TenantContext) => {
      const v = await victim(ctx);
      const { t, a, b } = ctx;
      return {
        request:
          method === 'GET'
            ? { method, url: `${BASE}${url}?id=${v.device.id}`, headers: bearer(b.admin.token) }
            : { method, url: `${BASE}${url}`, headers: bearer(b.admin.token), payload: payload!(v) },
        verify: async (res: { json(): unknown; body: string }) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain('SECRET');
          expect(res.body).not.toContain('电压');
          const [screen] = await t.db
            .select()
            .from(configScreens)
            .where(eq(configScreens.gatewayId, v.device.id));
          expect(screen).toMatchObject({ companyId: a.id, version: 1 });
          const [lease] = await t.db
            .select()
            .from(configScreenLeases)
            .where(eq(configScreenLeases.gatewayId, v.device.id));
          expect(lease).toMatchObject({ companyId: a.id, userId: a.admin.id, leaseId: 'a'.repeat(32) });
        },
      };
    },
  };
}

export const screensRouteCases: RouteCases = {
  [`GET ${BASE}`]: attack('GET', ''),
  [`GET ${BASE}/values`]: attack('GET', '/values'),
  [`POST ${BASE}/lease`]: attack('POST', '/lease', (v) => ({ id: v.device.id })),
  [`POST ${BASE}/lease/release`]: attack('POST', '/lease/release', (v) => ({
    id: v.device.id,
    leaseId: 'a'.repeat(32),
  })),
  [`POST ${BASE}/save`]: attack('POST', '/save', (v) => ({
    id: v.device.id,
    leaseId: 'a'.repeat(32),
    body: { elements: [] },
  })),
  [`POST ${BASE}/delete`]: attack('POST', '/delete', (v) => ({ id: v.device.id })),
  [`POST ${BASE}/switch`]: attack('POST', '/switch', (v) => ({
    id: v.device.id,
    elementId: 'sw1',
    state: 'on',
  })),
};
