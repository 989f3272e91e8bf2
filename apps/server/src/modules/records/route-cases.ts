import { randomBytes } from 'node:crypto';
import { ERROR_CODES, type FieldDef } from '@platform/domain';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases, TenantContext } from '../../test/route-cases';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { makeRecords, multipartForm, recordsOf } from './test-support';

/** Company A's item with one record, as the victim of each case. */
async function victim(t: TestApp, companyId: number, fields: FieldDef[] = SAMPLE_FIELDS) {
  const { itemId } = await makeItem(t, companyId, { fields, name: 'victim' });
  const [recordId] = await makeRecords(t, companyId, itemId, [{ values: { f1: 21.5, f2: 3, f3: 'secret' } }]);
  return { itemId, recordId: recordId!, before: await recordsOf(t, itemId) };
}

/** A's item is untouched and B got the not-found answer on itemId. */
function untouched(ctx: TenantContext, itemId: number, before: unknown) {
  return async (res: { json(): { code: number; data: unknown }; body: string }) => {
    expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    expect(res.body).not.toContain('secret');
    expect(await recordsOf(ctx.t, itemId)).toEqual(before);
  };
}

export const recordsRouteCases: RouteCases = {
  // record pictures and files: a token opens nothing, only a signed link given to a reader does
  'GET /general/files/records/*': {
    attack: async (ctx) => {
      const { itemId } = await victim(ctx.t, ctx.a.id);
      const key = `records/${ctx.a.id}/${itemId}/${randomBytes(16).toString('hex')}.txt`;
      await ctx.t.app.storage.put('private', key, Buffer.from('secret'), 'text/plain');
      return {
        request: { method: 'GET', url: `/general/files/${key}`, headers: bearer(ctx.b.admin.token) },
        verify: (res) => {
          expect(res.statusCode).toBe(404);
          expect(res.body).not.toContain('secret');
        },
      };
    },
  },
  'GET /general/smartdata/record/list': {
    attack: async (ctx) => {
      const { itemId, before } = await victim(ctx.t, ctx.a.id);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/record/list?itemId=${itemId}`,
          headers: bearer(ctx.b.admin.token),
        },
        verify: untouched(ctx, itemId, before),
      };
    },
  },
  'POST /general/smartdata/record/delete': {
    attack: async (ctx) => {
      const { itemId, recordId, before } = await victim(ctx.t, ctx.a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/record/delete',
          payload: { itemId, ids: [recordId] },
          headers: bearer(ctx.b.admin.token),
        },
        verify: untouched(ctx, itemId, before),
      };
    },
  },
  'POST /general/smartdata/record/clear': {
    attack: async (ctx) => {
      const { itemId, before } = await victim(ctx.t, ctx.a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/record/clear',
          payload: { itemId, confirmName: 'victim' },
          headers: bearer(ctx.b.admin.token),
        },
        verify: untouched(ctx, itemId, before),
      };
    },
  },
  'POST /general/smartdata/record/add': {
    attack: async (ctx) => {
      const { itemId, before } = await victim(ctx.t, ctx.a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/record/add',
          payload: { itemId, values: { f1: 1, f2: 2, f3: 'planted' } },
          headers: bearer(ctx.b.admin.token),
        },
        verify: untouched(ctx, itemId, before),
      };
    },
  },
  'POST /general/smartdata/record/update': {
    attack: async (ctx) => {
      const { itemId, recordId, before } = await victim(ctx.t, ctx.a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/record/update',
          payload: { itemId, id: recordId, values: { f3: 'changed' } },
          headers: bearer(ctx.b.admin.token),
        },
        verify: untouched(ctx, itemId, before),
      };
    },
  },
  'GET /general/smartdata/record/export': {
    attack: async (ctx) => {
      const { itemId, before } = await victim(ctx.t, ctx.a.id);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/record/export?itemId=${itemId}&format=csv`,
          headers: bearer(ctx.b.admin.token),
        },
        verify: untouched(ctx, itemId, before),
      };
    },
  },
  'GET /general/smartdata/record/template': {
    attack: async (ctx) => {
      const { itemId, before } = await victim(ctx.t, ctx.a.id);
      const notFound = untouched(ctx, itemId, before);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/record/template?itemId=${itemId}&format=csv`,
          headers: bearer(ctx.b.admin.token),
        },
        verify: async (res) => {
          await notFound(res);
          // not even the field names
          expect(res.body).not.toContain('温度');
        },
      };
    },
  },
  'POST /general/smartdata/record/import': {
    attack: async (ctx) => {
      const { itemId, before } = await victim(ctx.t, ctx.a.id);
      const form = multipartForm(
        { itemId },
        { bytes: Buffer.from('time,f1\n2026-01-02 00:00:00,5\n'), filename: 'rows.csv' },
      );
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/record/import',
          payload: form.payload,
          headers: { ...bearer(ctx.b.admin.token), ...form.headers },
        },
        verify: untouched(ctx, itemId, before),
      };
    },
  },
  'POST /general/smartdata/record/upload': {
    attack: async (ctx) => {
      const { itemId, before } = await victim(ctx.t, ctx.a.id);
      const form = multipartForm(
        { itemId, field: 'f3' },
        { bytes: Buffer.from('planted file'), filename: 'note.txt' },
      );
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/record/upload',
          payload: form.payload,
          headers: { ...bearer(ctx.b.admin.token), ...form.headers },
        },
        verify: untouched(ctx, itemId, before),
      };
    },
  },
  'GET /general/smartdata/live': {
    // a WebSocket: B's administrator subscribes to A's item over a real upgrade and is refused;
    // the plain request this case returns (no upgrade) is answered without any of A's data
    attack: async (ctx) => {
      const { itemId } = await victim(ctx.t, ctx.a.id);
      const socket = await ctx.t.app.injectWS(`/general/smartdata/live?token=${ctx.b.admin.token}`);
      const answer = await new Promise<unknown>((resolve) => {
        socket.once('message', (data) => resolve(JSON.parse(String(data))));
        socket.send(JSON.stringify({ subscribe: [itemId] }));
      });
      socket.terminate();
      expect(answer).toEqual({ type: 'subscribed', itemIds: [], refused: [itemId] });
      return {
        request: { method: 'GET', url: '/general/smartdata/live', headers: bearer(ctx.b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.VALIDATION);
          expect(res.body).not.toContain('secret');
        },
      };
    },
  },
};
