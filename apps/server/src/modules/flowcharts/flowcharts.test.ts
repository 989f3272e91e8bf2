/**
 * Device-family flow charts and the PV inverter dashboard through the real app: the platform's
 * templates are there, a device's template chosen and its roles mapped (refusals naming the
 * field, nothing written), the chart placed on the device and its values read, the inverter's
 * roles, efficiency and today's curve, and system maintenance's templates (create, edit, a role
 * still drawn kept, a template in use kept). Attacks: another company's device, a read-only
 * user, no dm_list, a company user on system maintenance.
 */
import { BUILTIN_FAMILY_TEMPLATES, ERROR_CODES, type FieldDef } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  makeCompany,
  type TestApp,
  type TestCompany,
  type TestUser,
} from '../../test/helper';
import { setPermissions } from '../cabin/test-support';
import { dataItems } from '../dataitems/tables';
import { screenFixture } from '../screens/test-support';
import { makeMember, makeRole } from '../users/test-support';
import { deviceFlowcharts, familyTemplates } from './tables';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let platform: TestCompany;
let viewer: TestUser;
let outsider: TestUser;
let fx: Awaited<ReturnType<typeof screenFixture>>;
let pv: Awaited<ReturnType<typeof screenFixture>>;

const call = async (token: string, method: 'GET' | 'POST', url: string, payload?: unknown, lang = 'en') =>
  (
    await t.app.inject({
      method,
      url: `/general${url}`,
      headers: { ...bearer(token), 'accept-language': lang },
      ...(payload ? { payload: payload as object } : {}),
    })
  ).json();

async function templateId(code: string): Promise<number> {
  const [row] = await t.db.select().from(familyTemplates).where(eq(familyTemplates.code, code));
  return row!.id;
}

async function rename(itemId: number, names: Record<string, [string, string]>) {
  const [item] = await t.db.select().from(dataItems).where(eq(dataItems.id, itemId));
  const fields = (item!.fields as FieldDef[]).map((f) =>
    names[f.key] ? { ...f, name: names[f.key]![0], unit: names[f.key]![1], type: 1 as const } : f,
  );
  await t.db.update(dataItems).set({ fields }).where(eq(dataItems.id, itemId));
}

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
  platform = await makeCompany(t, 'Platform operator', { isPlatform: true });
  viewer = await makeMember(t, a, [await makeRole(t, a.id, ['dm_list'])], 'viewer');
  outsider = await makeMember(t, a, [await makeRole(t, a.id, ['sd_board'])], 'outsider');
  fx = await screenFixture(t, a.id, a.admin.id, '计量网关');
  await setPermissions(t, fx.device.nodeId, [
    { scope: 'company', subjectId: null, level: 2 },
    { scope: 'user', subjectId: viewer.id, level: 1 },
  ]);
  // a second device whose points are named as an inverter's
  pv = await screenFixture(t, a.id, a.admin.id, '逆变器网关');
  await rename(pv.meter.itemId, { f1: ['交流功率', 'kW'] });
  await rename(pv.status.itemId, { f2: ['DC Power', 'kW'] });
});
afterAll(async () => {
  await t?.close();
});

describe('a device flow chart', () => {
  it('starts with the platform templates and no chart; the roles are mapped by name', async () => {
    const opened = await call(a.admin.token, 'GET', `/devicemanagement/flowchart?id=${fx.device.id}`);
    expect(opened.code).toBe(0);
    expect(opened.data.chart).toBeNull();
    expect(opened.data.canEdit).toBe(true);
    expect(opened.data.templates.map((x: { code: string }) => x.code)).toEqual(
      BUILTIN_FAMILY_TEMPLATES.map((x) => x.code),
    );
    expect(opened.data.points.map((p: { fieldName: string }) => p.fieldName).sort()).toEqual([
      '状态',
      '电压',
    ]);
  });

  it('sets a template with a map, places it on the device in the asked language, and reads its values', async () => {
    const cabinet = await templateId('meter-cabinet');
    const set = await call(a.admin.token, 'POST', '/devicemanagement/flowchart/set', {
      id: fx.device.id,
      templateId: cabinet,
      map: { voltage: { itemId: fx.meter.itemId, field: 'f1' }, power: null },
    });
    expect(set.code).toBe(0);
    const zh = await call(viewer.token, 'GET', `/devicemanagement/flowchart?id=${fx.device.id}&lang=zh`);
    expect(zh.data.canEdit).toBe(false);
    expect(zh.data.chart).toMatchObject({ templateId: cabinet, name: '计量柜' });
    expect(zh.data.chart.unmapped).toEqual(['current', 'power', 'powerFactor', 'energy']);
    const body = zh.data.chart.body as {
      elements: Array<{ type: string; binding: unknown; config: { text?: string } }>;
    };
    // bound to the device's point, worded in Chinese; unmapped roles leave their elements unbound
    const bound = body.elements.filter((e) => e.binding !== null);
    expect(bound.length).toBeGreaterThan(0);
    for (const e of bound) expect(e.binding).toEqual({ itemId: fx.meter.itemId, field: 'f1' });
    expect(body.elements.some((e) => e.config.text === '电压 ')).toBe(true);
    const en = await call(a.admin.token, 'GET', `/devicemanagement/flowchart?id=${fx.device.id}&lang=en`);
    expect(en.data.chart.name).toBe('Meter cabinet');
    expect(
      en.data.chart.body.elements.some((e: { config: { text?: string } }) => e.config.text === 'Voltage '),
    ).toBe(true);

    const at = new Date(Date.now() - 3_000);
    await t.app.ingest.write({
      companyId: a.id,
      userId: null,
      source: 'gateway',
      records: [{ itemId: fx.meter.itemId, ts: at, values: { f1: 229.5 } }],
    });
    const values = await call(viewer.token, 'GET', `/devicemanagement/flowchart/values?id=${fx.device.id}`);
    expect(values.data.values).toEqual([
      { itemId: fx.meter.itemId, field: 'f1', value: 229.5, ts: at.toISOString() },
    ]);
  });

  it('refuses a map naming another point, a role the template lacks or an unknown template, writing nothing', async () => {
    const before = await t.db
      .select()
      .from(deviceFlowcharts)
      .where(eq(deviceFlowcharts.gatewayId, fx.device.id));
    const cabinet = await templateId('meter-cabinet');
    const stranger = await call(a.admin.token, 'POST', '/devicemanagement/flowchart/set', {
      id: fx.device.id,
      templateId: cabinet,
      map: { voltage: { itemId: fx.meter.itemId, field: 'f3' } },
    });
    expect(stranger).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'map.voltage' } });
    expect(stranger.message).toContain('not a point of this device');
    const role = await call(a.admin.token, 'POST', '/devicemanagement/flowchart/set', {
      id: fx.device.id,
      templateId: cabinet,
      map: { boost: null },
    });
    expect(role).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'map.boost' } });
    const missing = await call(a.admin.token, 'POST', '/devicemanagement/flowchart/set', {
      id: fx.device.id,
      templateId: 999_999,
      map: {},
    });
    expect(missing).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'templateId' } });
    // another device's point of the same company is not this device's
    const other = await call(a.admin.token, 'POST', '/devicemanagement/flowchart/set', {
      id: fx.device.id,
      templateId: cabinet,
      map: { voltage: { itemId: pv.meter.itemId, field: 'f1' } },
    });
    expect(other).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'map.voltage' } });
    expect(
      await t.db.select().from(deviceFlowcharts).where(eq(deviceFlowcharts.gatewayId, fx.device.id)),
    ).toEqual(before);
  });

  it('a read-only user, a user without dm_list and another company change or see nothing', async () => {
    const cabinet = await templateId('meter-cabinet');
    const payload = { id: fx.device.id, templateId: cabinet, map: {} };
    expect((await call(viewer.token, 'POST', '/devicemanagement/flowchart/set', payload)).code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await call(outsider.token, 'GET', `/devicemanagement/flowchart?id=${fx.device.id}`)).code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    const foreign = await call(b.admin.token, 'GET', `/devicemanagement/flowchart?id=${fx.device.id}`);
    expect(foreign).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
    expect(JSON.stringify(foreign)).not.toContain('电压');
    expect(
      (await call(b.admin.token, 'POST', '/devicemanagement/flowchart/clear', { id: fx.device.id })).code,
    ).toBe(ERROR_CODES.NOT_FOUND);
    const [kept] = await t.db
      .select()
      .from(deviceFlowcharts)
      .where(eq(deviceFlowcharts.gatewayId, fx.device.id));
    expect(kept).toMatchObject({ companyId: a.id, templateId: cabinet });
  });
});

describe('the PV inverter dashboard', () => {
  it('finds the inverter roles by name before anyone maps them, with efficiency and today’s curve', async () => {
    const now = Date.now();
    await t.app.ingest.write({
      companyId: a.id,
      userId: null,
      source: 'gateway',
      records: [
        { itemId: pv.meter.itemId, ts: new Date(now - 4_000), values: { f1: 18.6 } },
        { itemId: pv.status.itemId, ts: new Date(now - 4_000), values: { f2: 19.2 } },
      ],
    });
    const dash = await call(viewer.token, 'GET', `/devicemanagement/inverter?id=${pv.device.id}`);
    expect(dash.code).toBe(0);
    expect(dash.data.mapped).toBe(false);
    const role = (key: string) => dash.data.roles.find((r: { key: string }) => r.key === key);
    expect(role('acPower')).toMatchObject({ value: 18.6, unit: 'kW', point: { fieldName: '交流功率' } });
    expect(role('dcPower')).toMatchObject({ value: 19.2, point: { fieldName: 'DC Power' } });
    expect(role('dailyYield')).toMatchObject({ value: null, point: null });
    // 18.6 / 19.2 = 96.875 %
    expect(dash.data.efficiency).toBe(96.88);
    expect(dash.data.today.at(-1).value).toBe(18.6);
    expect(dash.data.seriesMinutes).toBe(5);
    // today starts at the company's midnight (Asia/Shanghai by default: 16:00 UTC)
    expect(dash.data.since).toMatch(/T16:00:00\.000Z$/);
    expect(Date.parse(dash.data.since)).toBeLessThanOrEqual(now);
    expect(now - Date.parse(dash.data.since)).toBeLessThan(86_400_000);
  });

  it('is refused for a device that is no inverter, and for another company', async () => {
    // fx is a meter cabinet now
    const not = await call(a.admin.token, 'GET', `/devicemanagement/inverter?id=${fx.device.id}`);
    expect(not).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
    const foreign = await call(b.admin.token, 'GET', `/devicemanagement/inverter?id=${pv.device.id}`);
    expect(foreign).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
    expect(JSON.stringify(foreign)).not.toContain('18.6');
  });
});

describe('system maintenance: the templates', () => {
  it('is the platform operator’s only', async () => {
    expect((await call(a.admin.token, 'GET', '/system/flowchart/template/list')).code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect(
      (
        await call(a.admin.token, 'POST', '/system/flowchart/template/delete', {
          id: await templateId('gas-blending-skid'),
        })
      ).code,
    ).toBe(ERROR_CODES.FORBIDDEN);
  });

  it('lists the templates with their use, creates one, keeps a role still drawn, refuses a taken code and deletes what no device uses', async () => {
    const list = await call(platform.admin.token, 'GET', '/system/flowchart/template/list');
    const cabinet = list.data.find((x: { code: string }) => x.code === 'meter-cabinet');
    expect(cabinet).toMatchObject({ devices: 1, builtin: true });

    const one = await call(
      platform.admin.token,
      'GET',
      `/system/flowchart/template?id=${cabinet.id}&lang=en`,
    );
    expect(one.data.points[0]).toMatchObject({ itemId: 1, field: 'f1', fieldName: 'Voltage', unit: 'V' });

    const roles = [{ key: 'level', name: { zh: '液位', en: 'Level' }, unit: 'm' }];
    const body = {
      width: 800,
      height: 600,
      elements: [
        {
          id: 't1',
          type: 'tank',
          x: 10,
          y: 10,
          w: 100,
          h: 200,
          binding: { itemId: 1, field: 'f1' },
          config: { min: 0, max: 5 },
        },
      ],
    };
    const created = await call(platform.admin.token, 'POST', '/system/flowchart/template/save', {
      code: 'water-tower',
      name: { zh: '水塔', en: 'Water tower' },
      roles,
      body,
    });
    expect(created.code).toBe(0);
    const id = created.data.id;
    // the drawing binds role 2, which is not there
    const stray = await call(platform.admin.token, 'POST', '/system/flowchart/template/save', {
      id,
      code: 'water-tower',
      name: { zh: '水塔', en: 'Water tower' },
      roles,
      body: { ...body, elements: [{ ...body.elements[0], binding: { itemId: 2, field: 'f1' } }] },
    });
    expect(stray).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'body.elements[0].binding' },
    });
    const taken = await call(platform.admin.token, 'POST', '/system/flowchart/template/save', {
      id,
      code: 'meter-cabinet',
      name: { zh: '水塔', en: 'Water tower' },
      roles,
      body,
    });
    expect(taken).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'code' } });
    const badRoles = await call(platform.admin.token, 'POST', '/system/flowchart/template/save', {
      id,
      code: 'water-tower',
      name: { zh: '水塔', en: 'Water tower' },
      roles: [{ key: 'Level', name: { zh: '液位', en: 'Level' } }],
      body,
    });
    expect(badRoles).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'roles[0].key' } });
    const [row] = await t.db.select().from(familyTemplates).where(eq(familyTemplates.id, id));
    expect(row).toMatchObject({ version: 1, code: 'water-tower' });

    const inUse = await call(platform.admin.token, 'POST', '/system/flowchart/template/delete', {
      id: cabinet.id,
    });
    expect(inUse).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'id' } });
    expect(inUse.message).toContain('1 device');
    expect((await call(platform.admin.token, 'POST', '/system/flowchart/template/delete', { id })).code).toBe(
      0,
    );
    expect(await t.db.select().from(familyTemplates).where(eq(familyTemplates.id, id))).toEqual([]);
  });

  it('a role taken out of a template leaves the devices’ maps', async () => {
    const cabinet = await templateId('meter-cabinet');
    const one = await call(platform.admin.token, 'GET', `/system/flowchart/template?id=${cabinet}`);
    // drop the last role (energy) and every element bound to it
    const energy = one.data.roles.length;
    const body = {
      ...one.data.body,
      elements: one.data.body.elements.filter(
        (e: { binding: { itemId: number } | null }) => e.binding?.itemId !== energy,
      ),
    };
    await t.db
      .update(deviceFlowcharts)
      .set({ map: { voltage: { itemId: fx.meter.itemId, field: 'f1' }, energy: null } })
      .where(eq(deviceFlowcharts.gatewayId, fx.device.id));
    const saved = await call(platform.admin.token, 'POST', '/system/flowchart/template/save', {
      id: cabinet,
      code: one.data.code,
      name: one.data.name,
      roles: one.data.roles.slice(0, -1),
      body,
    });
    expect(saved).toMatchObject({ code: 0, data: { version: 2 } });
    const [chart] = await t.db
      .select()
      .from(deviceFlowcharts)
      .where(eq(deviceFlowcharts.gatewayId, fx.device.id));
    expect(chart!.map).toEqual({ voltage: { itemId: fx.meter.itemId, field: 'f1' } });
  });

  it('a save naming an older version is refused and the newer drawing stays', async () => {
    const boiler = await templateId('boiler-feedwater');
    const opened = await call(platform.admin.token, 'GET', `/system/flowchart/template?id=${boiler}`);
    const input = (name: string) => ({
      id: boiler,
      version: opened.data.version,
      code: opened.data.code,
      name: { ...opened.data.name, en: name },
      roles: opened.data.roles,
      body: opened.data.body,
    });
    // two people opened version n; the first saves
    const first = await call(platform.admin.token, 'POST', '/system/flowchart/template/save', input('First'));
    expect(first).toMatchObject({ code: 0, data: { version: opened.data.version + 1 } });
    const second = await call(
      platform.admin.token,
      'POST',
      '/system/flowchart/template/save',
      input('Second'),
    );
    expect(second.code).toBe(40900);
    expect(second.data).toEqual({ field: 'version' });
    expect(second.message).toContain(`version ${opened.data.version + 1}`);
    const now = await call(platform.admin.token, 'GET', `/system/flowchart/template?id=${boiler}`);
    expect(now.data).toMatchObject({ version: opened.data.version + 1, name: { en: 'First' } });
    // the version the first one got back saves again
    const again = await call(platform.admin.token, 'POST', '/system/flowchart/template/save', {
      ...input('Third'),
      version: first.data.version,
    });
    expect(again).toMatchObject({ code: 0, data: { version: opened.data.version + 2 } });
  });
});
