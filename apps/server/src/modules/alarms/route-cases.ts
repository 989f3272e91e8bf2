import { ERROR_CODES } from '@platform/domain';
import { expect } from 'vitest';
import { bearer } from '../../test/helper';
import type { RouteCases, TenantContext } from '../../test/route-cases';
import { alarmsOf, ruleFixture, ruleRow, submit } from './test-support';

const RULE = '/general/cloudSurveillance/rule';
const LOG = '/general/cloudSurveillance/alarm';

/** Company A's rule that has fired once (an open alarm of value 95.5). */
async function victim({ t, a }: TenantContext) {
  const fixture = await ruleFixture(t, a.id, a.admin.id);
  await submit(t, a.id, fixture.itemId, [95.5]);
  const [alarm] = await alarmsOf(t, fixture.ruleId);
  return { ...fixture, alarmId: alarm!.id, rule: await ruleRow(t, fixture.ruleId), alarm: alarm! };
}

/** B's administrator aimed at A's rule or alarm: 40400 on `field`, nothing of A's shown, A's rows as they were. */
function refused(ctx: TenantContext, v: Awaited<ReturnType<typeof victim>>, field = 'id') {
  return async (res: { json(): { code: number; data: unknown }; body: string }) => {
    expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field } });
    expect(res.body).not.toContain('SECRET-RULE');
    expect(res.body).not.toContain('95.5');
    expect(await ruleRow(ctx.t, v.ruleId)).toEqual(v.rule);
    expect(await alarmsOf(ctx.t, v.ruleId)).toEqual([v.alarm]);
  };
}

/** B's administrator lists: none of A's rules or alarms. */
function listCase(url: string) {
  return {
    attack: async (ctx: TenantContext) => {
      await victim(ctx);
      return {
        request: { method: 'GET' as const, url, headers: bearer(ctx.b.admin.token) },
        verify: (res: { json(): { code: number; data: unknown }; body: string; statusCode: number }) => {
          expect(res.statusCode).toBe(200);
          expect(res.body).not.toContain('SECRET-RULE');
          expect(res.body).not.toContain('95.5');
        },
      };
    },
  };
}

function ruleBody(itemId: number) {
  return {
    name: 'B takes over',
    itemId,
    fieldKey: 'f1',
    condition: 'below',
    levels: [{ level: 1, threshold: 0 }],
    durationS: 0,
    recipients: { userIds: [], groupIds: [] },
    channels: ['app'],
  };
}

export const alarmsRouteCases: RouteCases = {
  [`GET ${RULE}/list`]: listCase(`${RULE}/list`),
  [`GET ${RULE}/get`]: {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: { method: 'GET', url: `${RULE}/get?id=${v.ruleId}`, headers: bearer(ctx.b.admin.token) },
        verify: refused(ctx, v),
      };
    },
  },
  [`POST ${RULE}/add`]: {
    // a rule on A's item: the item is not B's, 40400 on itemId, no rule made
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: {
          method: 'POST',
          url: `${RULE}/add`,
          headers: bearer(ctx.b.admin.token),
          payload: ruleBody(v.itemId),
        },
        verify: refused(ctx, v, 'itemId'),
      };
    },
  },
  [`POST ${RULE}/update`]: {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: {
          method: 'POST',
          url: `${RULE}/update`,
          headers: bearer(ctx.b.admin.token),
          payload: { id: v.ruleId, ...ruleBody(v.itemId) },
        },
        verify: refused(ctx, v),
      };
    },
  },
  [`POST ${RULE}/enable`]: {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: {
          method: 'POST',
          url: `${RULE}/enable`,
          headers: bearer(ctx.b.admin.token),
          payload: { id: v.ruleId, enabled: false },
        },
        verify: refused(ctx, v),
      };
    },
  },
  [`POST ${RULE}/delete`]: {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: {
          method: 'POST',
          url: `${RULE}/delete`,
          headers: bearer(ctx.b.admin.token),
          payload: { id: v.ruleId },
        },
        verify: refused(ctx, v),
      };
    },
  },
  [`GET ${LOG}/list`]: listCase(`${LOG}/list?status=open`),
  [`GET ${LOG}/counts`]: {
    attack: async (ctx) => {
      await victim(ctx);
      return {
        request: { method: 'GET', url: `${LOG}/counts`, headers: bearer(ctx.b.admin.token) },
        verify: (res) => {
          // B has no alarms of its own: A's open level-2 alarm is not counted
          expect(res.json()).toMatchObject({ code: 0, data: { '1': 0, '2': 0, '3': 0 } });
        },
      };
    },
  },
  [`GET ${LOG}/export`]: listCase(`${LOG}/export?format=csv`),
  [`POST ${LOG}/acknowledge`]: {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: {
          method: 'POST',
          url: `${LOG}/acknowledge`,
          headers: bearer(ctx.b.admin.token),
          payload: { id: v.alarmId, comment: 'mine now' },
        },
        verify: refused(ctx, v),
      };
    },
  },
  [`POST ${LOG}/clear`]: {
    attack: async (ctx) => {
      const v = await victim(ctx);
      return {
        request: {
          method: 'POST',
          url: `${LOG}/clear`,
          headers: bearer(ctx.b.admin.token),
          payload: { id: v.alarmId },
        },
        verify: refused(ctx, v),
      };
    },
  },
  [`GET ${LOG}/live`]: {
    // a WebSocket: B's administrator connected while A's rule fires again hears nothing of it
    attack: async (ctx) => {
      const v = await victim(ctx);
      const socket = await ctx.t.app.injectWS(`${LOG}/live?token=${ctx.b.admin.token}`);
      const heard: string[] = [];
      socket.on('message', (data) => heard.push(String(data)));
      socket.send('ping');
      await new Promise<void>((resolve) => {
        const wait = () => (heard.length > 0 ? resolve() : setTimeout(wait, 10));
        wait();
      });
      await submit(ctx.t, ctx.a.id, v.itemId, [120]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.terminate();
      expect(heard.map((h) => JSON.parse(h).type)).toEqual(['ready']);
      return {
        request: { method: 'GET', url: `${LOG}/live`, headers: bearer(ctx.b.admin.token) },
        verify: (res) => {
          expect(res.json().code).toBe(ERROR_CODES.VALIDATION);
          expect(res.body).not.toContain('SECRET-RULE');
        },
      };
    },
  },
};
