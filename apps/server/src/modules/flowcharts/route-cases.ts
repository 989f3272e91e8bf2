import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer } from '../../test/helper';
import type { RouteCases, TenantContext } from '../../test/route-cases';
import { deviceOperations } from '../devices/tables';
import { screenFixture } from '../screens/test-support';
import { deviceFlowcharts, familyTemplates } from './tables';

/** Company A's device with a meter-cabinet chart whose voltage reads A's meter (secret: 电压). */
async function victim({ t, a }: TenantContext) {
  const v = await screenFixture(t, a.id, a.admin.id, 'SECRET-A');
  const [cabinet] = await t.db
    .select()
    .from(familyTemplates)
    .where(eq(familyTemplates.code, 'meter-cabinet'));
  await t.db.insert(deviceFlowcharts).values({
    companyId: a.id,
    gatewayId: v.device.id,
    templateId: cabinet!.id,
    map: { voltage: { itemId: v.meter.itemId, field: 'f1' } },
    updatedBy: a.admin.id,
  });
  return { ...v, templateId: cabinet!.id };
}

/** B's administrator targets A's device by its id: 40400 on id, A's chart untouched. */
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
            ? { method, url: `/general${url}?id=${v.device.id}`, headers: bearer(b.admin.token) }
            : { method, url: `/general${url}`, headers: bearer(b.admin.token), payload: payload!(v) },
        verify: async (res: { json(): unknown; body: string }) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain('SECRET');
          expect(res.body).not.toContain('电压');
          const [chart] = await t.db
            .select()
            .from(deviceFlowcharts)
            .where(eq(deviceFlowcharts.gatewayId, v.device.id));
          expect(chart).toMatchObject({
            companyId: a.id,
            templateId: v.templateId,
            map: { voltage: { itemId: v.meter.itemId, field: 'f1' } },
          });
        },
      };
    },
  };
}

/** system maintenance: only the platform operator's company holds system_nss3dfw */
function systemOnly(method: 'GET' | 'POST', url: string, payload?: (id: number) => Record<string, unknown>) {
  return {
    attack: async (ctx: TenantContext) => {
      const v = await victim(ctx);
      const { t, b } = ctx;
      return {
        request:
          method === 'GET'
            ? { method, url: `/general${url}?id=${v.templateId}`, headers: bearer(b.admin.token) }
            : {
                method,
                url: `/general${url}`,
                headers: bearer(b.admin.token),
                payload: payload!(v.templateId),
              },
        verify: async (res: { json(): unknown; body: string }) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.FORBIDDEN });
          const [template] = await t.db
            .select()
            .from(familyTemplates)
            .where(eq(familyTemplates.id, v.templateId));
          expect(template).toMatchObject({ code: 'meter-cabinet', version: 1 });
        },
      };
    },
  };
}

/**
 * B's administrator works the feed-pump switch of A's boiler flow chart (its commands mapped onto
 * A's pumpOn and pumpOff): 40400 on id, no command sent or logged, A's chart untouched.
 */
const switchAttack = {
  attack: async ({ t, a, b }: TenantContext) => {
    const v = await screenFixture(t, a.id, a.admin.id, 'SECRET-A');
    const [boiler] = await t.db
      .select()
      .from(familyTemplates)
      .where(eq(familyTemplates.code, 'boiler-feedwater'));
    const element = boiler!.body.elements.find((e) => e.type === 'switch')!;
    const commands = { pumpStart: 'pumpOn', pumpStop: 'pumpOff' };
    await t.db.insert(deviceFlowcharts).values({
      companyId: a.id,
      gatewayId: v.device.id,
      templateId: boiler!.id,
      map: { flow: { itemId: v.status.itemId, field: 'f2' } },
      commands,
      updatedBy: a.admin.id,
    });
    return {
      request: {
        method: 'POST' as const,
        url: '/general/devicemanagement/flowchart/switch',
        headers: bearer(b.admin.token),
        payload: { id: v.device.id, elementId: element.id, state: 'on' },
      },
      verify: async (res: { json(): unknown; body: string }) => {
        expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
        expect(res.body).not.toContain('SECRET');
        expect(res.body).not.toContain('pumpOn');
        const logged = await t.db
          .select()
          .from(deviceOperations)
          .where(eq(deviceOperations.gatewayId, v.device.id));
        expect(logged.filter((r) => r.kind === 'command')).toEqual([]);
        const [chart] = await t.db
          .select()
          .from(deviceFlowcharts)
          .where(eq(deviceFlowcharts.gatewayId, v.device.id));
        expect(chart).toMatchObject({ companyId: a.id, templateId: boiler!.id, commands });
      },
    };
  },
};

export const flowchartRouteCases: RouteCases = {
  'GET /general/devicemanagement/flowchart': attack('GET', '/devicemanagement/flowchart'),
  'GET /general/devicemanagement/flowchart/values': attack('GET', '/devicemanagement/flowchart/values'),
  'POST /general/devicemanagement/flowchart/set': attack('POST', '/devicemanagement/flowchart/set', (v) => ({
    id: v.device.id,
    templateId: v.templateId,
    map: {},
  })),
  'POST /general/devicemanagement/flowchart/clear': attack(
    'POST',
    '/devicemanagement/flowchart/clear',
    (v) => ({
      id: v.device.id,
    }),
  ),
  'POST /general/devicemanagement/flowchart/switch': switchAttack,
  'GET /general/devicemanagement/inverter': attack('GET', '/devicemanagement/inverter'),
  'GET /general/system/flowchart/template/list': systemOnly('GET', '/system/flowchart/template/list'),
  'GET /general/system/flowchart/template': systemOnly('GET', '/system/flowchart/template'),
  'POST /general/system/flowchart/template/save': systemOnly(
    'POST',
    '/system/flowchart/template/save',
    (id) => ({
      id,
      code: 'meter-cabinet',
      name: { zh: '被改', en: 'Changed' },
      roles: [{ key: 'x', name: { zh: 'x', en: 'x' } }],
      body: { width: 800, height: 600, elements: [] },
    }),
  ),
  'POST /general/system/flowchart/template/delete': systemOnly(
    'POST',
    '/system/flowchart/template/delete',
    (id) => ({
      id,
    }),
  ),
};
