import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateways } from '../modules/gateways/tables';
import { bearer, buildTestApp, login, type TestApp } from '../test/helper';
import { DEMO_ADMIN_PHONE, DEMO_PASSWORD, seedDemo } from './demo';
import { DEMO_SCREEN_SN } from './demo-screens';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await buildTestApp();
  await seedDemo(t.db, { now: new Date('2026-11-20T04:30:00Z') });
  token = await login(t.app, DEMO_ADMIN_PHONE, DEMO_PASSWORD);
});
afterAll(() => t.close());

interface Opened {
  screen: {
    version: number;
    body: { elements: Array<{ type: string; binding: { itemId: number; field: string } | null }> };
  } | null;
  points: Array<{ itemId: number; field: string }>;
}

describe('the demo configuration screen', () => {
  it('shows the boiler room gateway’s feedwater line, every element bound to a point of that gateway', async () => {
    const [gateway] = await t.db
      .select({ id: gateways.id })
      .from(gateways)
      .where(eq(gateways.serialNumber, DEMO_SCREEN_SN));
    const res = await t.app.inject({
      method: 'GET',
      url: `/general/devicemanagement/screen?id=${gateway!.id}`,
      headers: bearer(token),
    });
    const opened = res.json().data as Opened;
    expect(res.json().code).toBe(0);
    expect(opened.screen?.version).toBe(1);
    const elements = opened.screen!.body.elements;
    expect(new Set(elements.map((e) => e.type))).toEqual(
      new Set(['text', 'tank', 'line', 'pump', 'gauge', 'light']),
    );
    const points = new Set(opened.points.map((p) => `${p.itemId}:${p.field}`));
    const bound = elements.flatMap((e) => (e.binding ? [`${e.binding.itemId}:${e.binding.field}`] : []));
    expect(bound.length).toBeGreaterThanOrEqual(8);
    for (const binding of bound) expect(points, binding).toContain(binding);
  });
});
