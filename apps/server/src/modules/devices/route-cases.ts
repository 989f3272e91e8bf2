import { randomBytes } from 'node:crypto';
import { ERROR_CODES } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases, TenantContext } from '../../test/route-cases';
import { cabinNodes } from '../cabin/tables';
import { gateways } from '../gateways/tables';
import { makePng, multipartFile } from '../users/test-support';
import { logOperation } from './operation-log';
import { bindRequests, devices, maintenancePlans, maintenanceRecords } from './tables';
import { makeDevice } from './test-support';

const SECRET = 'victim-secret-text';

/** Company A's device, named so its name would show in any leak. */
async function victim(ctx: TenantContext) {
  return makeDevice(ctx.t, ctx.a.id, { name: 'victim device', userId: ctx.a.admin.id });
}

async function deviceRow(t: TestApp, companyId: number, gatewayId: number) {
  const [row] = await t.db
    .select()
    .from(devices)
    .where(and(eq(devices.companyId, companyId), eq(devices.gatewayId, gatewayId)));
  return row!;
}

const post = (url: string, payload: unknown, token: string): InjectOptions => ({
  method: 'POST',
  url,
  payload: payload as Record<string, unknown>,
  headers: bearer(token),
});

const get = (url: string, token: string): InjectOptions => ({ method: 'GET', url, headers: bearer(token) });

/** 40400 naming the field, and none of the victim's text. */
function notFound(res: { json(): { code: number; data: unknown }; body: string }, sn: string, field = 'id') {
  expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field } });
  expect(res.body).not.toContain(sn);
  expect(res.body).not.toContain('victim device');
  expect(res.body).not.toContain(SECRET);
}

async function record(t: TestApp, companyId: number, gatewayId: number) {
  const [row] = await t.db
    .insert(maintenanceRecords)
    .values({ companyId, gatewayId, date: '2026-01-05', kind: 'repair', description: SECRET })
    .returning();
  return row!;
}

async function plan(t: TestApp, companyId: number, gatewayId: number) {
  const [row] = await t.db
    .insert(maintenancePlans)
    .values({ companyId, gatewayId, title: SECRET.slice(0, 20), intervalDays: 30, nextDue: '2026-02-01' })
    .returning();
  return row!;
}

export const devicesRouteCases: RouteCases = {
  'GET /general/devicemanagement/device/list': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: get('/general/devicemanagement/device/list', ctx.b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(0);
          expect(res.json().data.list.map((d: { id: number }) => d.id)).not.toContain(v.id);
          expect(res.body).not.toContain(v.sn);
        },
      };
    },
  },
  'GET /general/devicemanagement/device/detail': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: get(`/general/devicemanagement/device/detail?id=${v.id}`, ctx.b.admin.token),
        verify: (res) => notFound(res, v.sn),
      };
    },
  },
  'POST /general/devicemanagement/device/update': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: post(
          '/general/devicemanagement/device/update',
          { id: v.id, name: 'taken', address: 'x', picture: 'pump' },
          ctx.b.admin.token,
        ),
        verify: async (res) => {
          notFound(res, v.sn);
          const row = await deviceRow(ctx.t, ctx.a.id, v.id);
          expect(row.name).toBe('victim device');
          expect(row.picture).toBeNull();
        },
      };
    },
  },
  'POST /general/devicemanagement/device/uploadPicture': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      const { payload, headers } = multipartFile(await makePng(20, 20));
      return {
        request: {
          method: 'POST',
          url: `/general/devicemanagement/device/uploadPicture?id=${v.id}`,
          payload,
          headers: { ...headers, ...bearer(ctx.b.admin.token) },
        },
        verify: async (res) => {
          notFound(res, v.sn);
          expect((await deviceRow(ctx.t, ctx.a.id, v.id)).picture).toBeNull();
        },
      };
    },
  },
  'POST /general/devicemanagement/device/bind': {
    // the attacker knows the serial number (it is printed on the box) and has a directory of its own
    attack: async (ctx) => {
      const v = await victim(ctx);
      const [dir] = await ctx.t.db
        .insert(cabinNodes)
        .values({ companyId: ctx.b.id, type: 'directory', name: 'mine' })
        .returning({ id: cabinNodes.id });
      return {
        request: post(
          '/general/devicemanagement/device/bind',
          { serialNumber: v.sn.toLowerCase(), name: 'stolen', parentId: dir!.id },
          ctx.b.admin.token,
        ),
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.BUSINESS, data: null });
          expect(res.json().message).toBe('该网关已被其他公司绑定');
          const requests = await ctx.t.db
            .select()
            .from(bindRequests)
            .where(eq(bindRequests.companyId, ctx.b.id));
          expect(requests).toEqual([]);
          const [g] = await ctx.t.db.select().from(gateways).where(eq(gateways.id, v.id));
          expect(g!.companyId).toBe(ctx.a.id);
        },
      };
    },
  },
  'GET /general/devicemanagement/device/bindStatus': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      const id = randomBytes(16).toString('hex');
      await ctx.t.db.insert(bindRequests).values({
        id,
        gatewayId: v.id,
        companyId: ctx.a.id,
        name: 'pending',
        expiresAt: new Date(Date.now() + 60_000),
      });
      return {
        request: get(`/general/devicemanagement/device/bindStatus?requestId=${id}`, ctx.b.admin.token),
        verify: (res) => notFound(res, v.sn, 'requestId'),
      };
    },
  },
  'POST /general/devicemanagement/device/bindCancel': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      const id = randomBytes(16).toString('hex');
      await ctx.t.db.insert(bindRequests).values({
        id,
        gatewayId: v.id,
        companyId: ctx.a.id,
        name: 'pending',
        expiresAt: new Date(Date.now() + 60_000),
      });
      return {
        request: post('/general/devicemanagement/device/bindCancel', { requestId: id }, ctx.b.admin.token),
        verify: async (res) => {
          notFound(res, v.sn, 'requestId');
          const [row] = await ctx.t.db.select().from(bindRequests).where(eq(bindRequests.id, id));
          expect(row!.status).toBe('waiting');
        },
      };
    },
  },
  'POST /general/devicemanagement/device/unbind': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: post('/general/devicemanagement/device/unbind', { id: v.id }, ctx.b.admin.token),
        verify: async (res) => {
          notFound(res, v.sn);
          const [g] = await ctx.t.db.select().from(gateways).where(eq(gateways.id, v.id));
          expect(g!.companyId).toBe(ctx.a.id);
          expect((await deviceRow(ctx.t, ctx.a.id, v.id)).nodeId).toBe(v.nodeId);
        },
      };
    },
  },
  'GET /general/devicemanagement/device/log': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      await logOperation(ctx.t.db, {
        companyId: ctx.a.id,
        gatewayId: v.id,
        kind: 'command',
        actor: 'system',
        detail: SECRET,
      });
      return {
        request: get(`/general/devicemanagement/device/log?id=${v.id}`, ctx.b.admin.token),
        verify: (res) => notFound(res, v.sn),
      };
    },
  },
  'GET /general/devicemanagement/device/live': {
    // a WebSocket: B's administrator listens while A's device changes, and hears nothing of it
    attack: async (ctx) => {
      const v = await victim(ctx);
      const heard: string[] = [];
      const socket = await ctx.t.app.injectWS(
        `/general/devicemanagement/device/live?token=${ctx.b.admin.token}`,
      );
      socket.on('message', (data) => heard.push(String(data)));
      const pong = () =>
        new Promise<void>((resolve) => {
          const before = heard.filter((m) => m.includes('pong')).length;
          socket.send(JSON.stringify({ type: 'ping' }));
          const check = setInterval(() => {
            if (heard.filter((m) => m.includes('pong')).length > before) {
              clearInterval(check);
              resolve();
            }
          }, 10);
        });
      await pong();
      ctx.t.app.live.publishDevice({
        type: 'device',
        companyId: ctx.a.id,
        gatewayId: v.id,
        state: {
          id: v.id,
          online: true,
          status: 'running',
          onlineAt: null,
          offlineAt: null,
          lastSeenAt: null,
          firmware: SECRET,
          ports: [],
        },
      });
      ctx.t.app.live.publishDevice({
        type: 'bind',
        companyId: ctx.a.id,
        gatewayId: v.id,
        requestId: 'r',
        userId: ctx.b.admin.id,
        state: 'bound',
        deviceId: v.id,
      });
      await pong();
      socket.terminate();
      expect(heard.filter((m) => !m.includes('"ready"') && !m.includes('"pong"'))).toEqual([]);
      expect(heard.filter((m) => m.includes('"pong"'))).toHaveLength(2);
      return {
        request: get('/general/devicemanagement/device/live', ctx.b.admin.token),
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.VALIDATION);
          expect(res.body).not.toContain(v.sn);
        },
      };
    },
  },
  'GET /general/devicemanagement/permission/list': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: get('/general/devicemanagement/permission/list', ctx.b.admin.token),
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: 0, data: { total: 0 } });
          expect(res.body).not.toContain(v.sn);
        },
      };
    },
  },
  'POST /general/devicemanagement/permission/set': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: post(
          '/general/devicemanagement/permission/set',
          { id: v.id, mode: 'custom', entries: [{ scope: 'company', level: 0 }] },
          ctx.b.admin.token,
        ),
        verify: async (res) => {
          notFound(res, v.sn);
          const [node] = await ctx.t.db.select().from(cabinNodes).where(eq(cabinNodes.id, v.nodeId));
          expect(node!.permissionMode).toBe('inherit');
        },
      };
    },
  },
  'GET /general/devicemanagement/maintenance/devices': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: get('/general/devicemanagement/maintenance/devices', ctx.b.admin.token),
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: 0, data: [] });
          expect(res.body).not.toContain(v.sn);
        },
      };
    },
  },
  'GET /general/devicemanagement/maintenance/records': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      await record(ctx.t, ctx.a.id, v.id);
      return {
        request: get(`/general/devicemanagement/maintenance/records?deviceId=${v.id}`, ctx.b.admin.token),
        verify: (res) => notFound(res, v.sn, 'deviceId'),
      };
    },
  },
  'POST /general/devicemanagement/maintenance/records/create': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: post(
          '/general/devicemanagement/maintenance/records/create',
          { deviceId: v.id, date: '2026-01-01', kind: 'repair', description: 'x' },
          ctx.b.admin.token,
        ),
        verify: async (res) => {
          notFound(res, v.sn, 'deviceId');
          expect(
            await ctx.t.db.select().from(maintenanceRecords).where(eq(maintenanceRecords.gatewayId, v.id)),
          ).toEqual([]);
        },
      };
    },
  },
  'POST /general/devicemanagement/maintenance/records/update': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      const r = await record(ctx.t, ctx.a.id, v.id);
      return {
        request: post(
          '/general/devicemanagement/maintenance/records/update',
          { id: r.id, description: 'changed' },
          ctx.b.admin.token,
        ),
        verify: async (res) => {
          notFound(res, v.sn);
          const [after] = await ctx.t.db
            .select()
            .from(maintenanceRecords)
            .where(eq(maintenanceRecords.id, r.id));
          expect(after!.description).toBe(SECRET);
        },
      };
    },
  },
  'POST /general/devicemanagement/maintenance/records/delete': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      const r = await record(ctx.t, ctx.a.id, v.id);
      return {
        request: post(
          '/general/devicemanagement/maintenance/records/delete',
          { id: r.id },
          ctx.b.admin.token,
        ),
        verify: async (res) => {
          notFound(res, v.sn);
          expect(
            await ctx.t.db.select().from(maintenanceRecords).where(eq(maintenanceRecords.id, r.id)),
          ).toHaveLength(1);
        },
      };
    },
  },
  'GET /general/devicemanagement/maintenance/plans': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      await plan(ctx.t, ctx.a.id, v.id);
      return {
        request: get('/general/devicemanagement/maintenance/plans', ctx.b.admin.token),
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: 0, data: { total: 0 } });
          expect(res.body).not.toContain(SECRET.slice(0, 20));
        },
      };
    },
  },
  'POST /general/devicemanagement/maintenance/plans/create': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: post(
          '/general/devicemanagement/maintenance/plans/create',
          { deviceId: v.id, title: 'x', intervalDays: 7, nextDue: '2026-03-01' },
          ctx.b.admin.token,
        ),
        verify: async (res) => {
          notFound(res, v.sn, 'deviceId');
          expect(
            await ctx.t.db.select().from(maintenancePlans).where(eq(maintenancePlans.gatewayId, v.id)),
          ).toEqual([]);
        },
      };
    },
  },
  'POST /general/devicemanagement/maintenance/plans/update': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      const p = await plan(ctx.t, ctx.a.id, v.id);
      return {
        request: post(
          '/general/devicemanagement/maintenance/plans/update',
          { id: p.id, intervalDays: 1 },
          ctx.b.admin.token,
        ),
        verify: async (res) => {
          notFound(res, v.sn);
          const [after] = await ctx.t.db.select().from(maintenancePlans).where(eq(maintenancePlans.id, p.id));
          expect(after!.intervalDays).toBe(30);
        },
      };
    },
  },
  'POST /general/devicemanagement/maintenance/plans/delete': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      const p = await plan(ctx.t, ctx.a.id, v.id);
      return {
        request: post('/general/devicemanagement/maintenance/plans/delete', { id: p.id }, ctx.b.admin.token),
        verify: async (res) => {
          notFound(res, v.sn);
          expect(
            await ctx.t.db.select().from(maintenancePlans).where(eq(maintenancePlans.id, p.id)),
          ).toHaveLength(1);
        },
      };
    },
  },
  'POST /general/devicemanagement/maintenance/plans/done': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      const p = await plan(ctx.t, ctx.a.id, v.id);
      return {
        request: post('/general/devicemanagement/maintenance/plans/done', { id: p.id }, ctx.b.admin.token),
        verify: async (res) => {
          notFound(res, v.sn);
          const [after] = await ctx.t.db.select().from(maintenancePlans).where(eq(maintenancePlans.id, p.id));
          expect(after!.nextDue).toBe('2026-02-01');
          expect(
            await ctx.t.db.select().from(maintenanceRecords).where(eq(maintenanceRecords.planId, p.id)),
          ).toEqual([]);
        },
      };
    },
  },
  // device pictures: a token opens nothing, only a signed link given to a reader does
  'GET /general/files/devices/*': {
    attack: async (ctx) => {
      const v = await victim(ctx);
      const key = `devices/${ctx.a.id}/${v.id}/${randomBytes(12).toString('hex')}.png`;
      await ctx.t.app.storage.put('private', key, Buffer.from(SECRET), 'image/png');
      return {
        request: get(`/general/files/${key}`, ctx.b.admin.token),
        verify: (res) => {
          expect(res.statusCode).toBe(404);
          expect(res.body).not.toContain(SECRET);
        },
      };
    },
  },
};
