import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases, TenantContext } from '../../test/route-cases';
import { makeDevice } from '../devices/test-support';
import { gatewayConfigPushes, gatewayConfigVersions } from './tables';
import { smallConfig } from './test-support';

const BASE = '/general/devicemanagement/gatewayconfig';

/** Company A's device with one saved version (a node called SECRET-A) and one push. */
async function victim({ t, a }: TenantContext) {
  const device = await makeDevice(t, a.id, { userId: a.admin.id });
  const config = smallConfig('SECRET-A');
  const [version] = await t.db
    .insert(gatewayConfigVersions)
    .values({
      companyId: a.id,
      gatewayId: device.id,
      version: 1,
      config,
      hash: 'a'.repeat(64),
      nodeCount: config.nodes.length,
      savedBy: a.admin.id,
    })
    .returning();
  const [push] = await t.db
    .insert(gatewayConfigPushes)
    .values({
      companyId: a.id,
      gatewayId: device.id,
      version: 1,
      hash: 'b'.repeat(64),
      confirmWithin: 60,
      pushedBy: a.admin.id,
      deadline: new Date(Date.now() + 60_000),
    })
    .returning();
  return { device, version: version!, push: push! };
}

async function unchanged(t: TestApp, v: Awaited<ReturnType<typeof victim>>) {
  const versions = await t.db
    .select()
    .from(gatewayConfigVersions)
    .where(eq(gatewayConfigVersions.gatewayId, v.device.id));
  expect(versions).toEqual([v.version]);
  const pushes = await t.db
    .select()
    .from(gatewayConfigPushes)
    .where(eq(gatewayConfigPushes.gatewayId, v.device.id));
  expect(pushes).toEqual([v.push]);
}

function notFound(res: { json(): unknown; body: string }) {
  expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
  expect(res.body).not.toContain('SECRET-A');
  expect(res.body).not.toContain('a'.repeat(64));
}

function getCase(path: (v: Awaited<ReturnType<typeof victim>>) => string) {
  return {
    attack: async (ctx: TenantContext) => {
      const v = await victim(ctx);
      return {
        request: { method: 'GET' as const, url: `${BASE}/${path(v)}`, headers: bearer(ctx.b.admin.token) },
        verify: async (res: { json(): unknown; body: string }) => {
          notFound(res);
          await unchanged(ctx.t, v);
        },
      };
    },
  };
}

function postCase(body: (v: Awaited<ReturnType<typeof victim>>) => Record<string, unknown>, path: string) {
  return {
    attack: async (ctx: TenantContext) => {
      const v = await victim(ctx);
      return {
        request: {
          method: 'POST' as const,
          url: `${BASE}/${path}`,
          payload: body(v),
          headers: bearer(ctx.b.admin.token),
        },
        verify: async (res: { json(): unknown; body: string }) => {
          notFound(res);
          await unchanged(ctx.t, v);
        },
      };
    },
  };
}

export const gatewayConfigRouteCases: RouteCases = {
  [`GET ${BASE}/get`]: getCase((v) => `get?id=${v.device.id}`),
  [`GET ${BASE}/lookups`]: getCase((v) => `lookups?id=${v.device.id}`),
  [`GET ${BASE}/versions`]: getCase((v) => `versions?id=${v.device.id}`),
  [`GET ${BASE}/version`]: getCase((v) => `version?id=${v.device.id}&version=1`),
  [`GET ${BASE}/pushState`]: getCase((v) => `pushState?id=${v.device.id}`),
  [`GET ${BASE}/pushes`]: getCase((v) => `pushes?id=${v.device.id}`),
  [`GET ${BASE}/push`]: getCase((v) => `push?id=${v.device.id}&pushId=${v.push.id}`),
  [`POST ${BASE}/save`]: postCase(
    (v) => ({ id: v.device.id, baseVersion: 1, config: smallConfig('B') }),
    'save',
  ),
  [`POST ${BASE}/restore`]: postCase((v) => ({ id: v.device.id, version: 1, baseVersion: 1 }), 'restore'),
  [`POST ${BASE}/check`]: postCase((v) => ({ id: v.device.id, config: smallConfig('B') }), 'check'),
  [`POST ${BASE}/push`]: postCase(
    (v) => ({ id: v.device.id, baseVersion: 1, config: smallConfig('B') }),
    'push',
  ),
};
