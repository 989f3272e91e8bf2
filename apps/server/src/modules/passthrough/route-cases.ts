import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases, TenantContext } from '../../test/route-cases';
import { makeDevice, operationsOf } from '../devices/test-support';
import { gateways } from '../gateways/tables';
import { passthroughSessions } from './sessions';
import { openSession } from './test-support';

/** Company A's online device with a port 1: what B's administrator aims at. */
export async function onlineVictim(t: TestApp, companyId: number, userId: number) {
  const device = await makeDevice(t, companyId, { name: 'victim device', userId });
  await t.db
    .update(gateways)
    .set({ online: true, ports: [{ port: 1, ok: true }] })
    .where(eq(gateways.id, device.id));
  return device;
}

async function nothingLogged(ctx: TenantContext, gatewayId: number) {
  expect(await operationsOf(ctx.t, ctx.a.id, gatewayId)).toEqual([]);
  expect(await operationsOf(ctx.t, ctx.b.id, gatewayId)).toEqual([]);
}

export const passthroughRouteCases: RouteCases = {
  'POST /general/devicemanagement/device/command': {
    attack: async (ctx) => {
      const v = await onlineVictim(ctx.t, ctx.a.id, ctx.a.admin.id);
      return {
        request: {
          method: 'POST',
          url: '/general/devicemanagement/device/command',
          payload: { id: v.id, command: 'reboot' },
          headers: bearer(ctx.b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain(v.sn);
          await nothingLogged(ctx, v.id);
        },
      };
    },
  },
  'GET /general/devicemanagement/passthrough/session': {
    // a WebSocket: B's administrator asks for a session on A's online device and is told it does not exist
    attack: async (ctx) => {
      const v = await onlineVictim(ctx.t, ctx.a.id, ctx.a.admin.id);
      const s = await openSession(ctx.t, ctx.b.admin.token, v.id, 1);
      const ended = await s.ended();
      expect(ended.message).toMatchObject({
        type: 'ended',
        code: ERROR_CODES.NOT_FOUND,
        data: { field: 'id' },
      });
      expect(JSON.stringify(s.heard)).not.toContain(v.sn);
      expect(JSON.stringify(s.heard)).not.toContain('victim device');
      expect(passthroughSessions(ctx.t.app).holder(v.id, 1)).toBeNull();
      await nothingLogged(ctx, v.id);
      return {
        request: {
          method: 'GET',
          url: `/general/devicemanagement/passthrough/session?id=${v.id}&port=1`,
          headers: bearer(ctx.b.admin.token),
        },
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.VALIDATION);
          expect(res.body).not.toContain(v.sn);
        },
      };
    },
  },
};
