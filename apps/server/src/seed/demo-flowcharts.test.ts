import { BUILTIN_FAMILY_TEMPLATES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateways } from '../modules/gateways/tables';
import { bearer, buildTestApp, login, type TestApp } from '../test/helper';
import { DEMO_ADMIN_PHONE, DEMO_PASSWORD, seedDemo } from './demo';
import { DEMO_FLOWCHARTS } from './demo-flowcharts';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await buildTestApp();
  await seedDemo(t.db, { now: new Date('2026-11-20T04:30:00Z') });
  token = await login(t.app, DEMO_ADMIN_PHONE, DEMO_PASSWORD);
});
afterAll(() => t.close());

async function gatewayId(sn: string): Promise<number> {
  const [row] = await t.db.select({ id: gateways.id }).from(gateways).where(eq(gateways.serialNumber, sn));
  return row!.id;
}

describe('the demo flow charts', () => {
  it.each(Object.entries(DEMO_FLOWCHARTS))(
    '%s shows its family %s with every role on one of its points',
    async (sn, code) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/general/devicemanagement/flowchart?id=${await gatewayId(sn)}&lang=zh`,
        headers: bearer(token),
      });
      const { data } = res.json();
      const template = BUILTIN_FAMILY_TEMPLATES.find((x) => x.code === code)!;
      expect(data.chart).toMatchObject({ name: template.name.zh, unmapped: [] });
      const points = new Set(
        data.points.map((p: { itemId: number; field: string }) => `${p.itemId}:${p.field}`),
      );
      for (const role of template.roles) {
        const b = data.chart.map[role.key];
        expect(points, role.key).toContain(`${b.itemId}:${b.field}`);
        // the point the role landed on carries the role's name
        const point = data.points.find(
          (p: { itemId: number; field: string }) => p.itemId === b.itemId && p.field === b.field,
        );
        expect(point.fieldName).toBe(role.name.zh);
      }
      // every command of the family's switches is one the gateway's configuration has
      expect(Object.keys(data.chart.commands).sort()).toEqual(
        [
          ...new Set(data.templates.find((x: { code: string }) => x.code === code).commands as string[]),
        ].sort(),
      );
      for (const command of Object.values(data.chart.commands)) expect(data.commands).toContain(command);
    },
  );

  it('the boiler room gateway’s configuration has the feed pump’s commands, each a coil write with its CRC', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/general/devicemanagement/flowchart?id=${await gatewayId('SDG2024000101')}&lang=en`,
      headers: bearer(token),
    });
    const { data } = res.json();
    expect(data.chart.commands).toEqual({ pumpStart: 'pumpStart', pumpStop: 'pumpStop' });
    const sw = data.chart.body.elements.find((e: { type: string }) => e.type === 'switch');
    expect(sw.config).toMatchObject({
      label: 'Boiler feedwater',
      onCommand: 'pumpStart',
      offCommand: 'pumpStop',
    });
    expect(sw.binding).toEqual(data.chart.map.flow);
  });

  it('the switch room gateway is a PV inverter on its dashboard, mapped by a person', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/general/devicemanagement/inverter?id=${await gatewayId('SDG4024000103')}`,
      headers: bearer(token),
    });
    const { code, data } = res.json();
    expect(code).toBe(0);
    expect(data.mapped).toBe(true);
    expect(data.roles.every((r: { point: unknown }) => r.point !== null)).toBe(true);
  });
});
