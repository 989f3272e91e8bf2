import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, login, makeCompany, type TestApp } from '../test/helper';
import { DEMO_ADMIN_PHONE, DEMO_PASSWORD, seedDemo } from './demo';

let t: TestApp;
let token: string;
const NOW = new Date('2026-11-20T04:30:00Z');

beforeAll(async () => {
  t = await buildTestApp();
  await seedDemo(t.db, { now: NOW });
  token = await login(t.app, DEMO_ADMIN_PHONE, DEMO_PASSWORD);
});
afterAll(() => t.close());

async function call<T>(url: string, as = token): Promise<{ code: number; data: T }> {
  const res = await t.app.inject({ method: 'GET', url: `/general${url}`, headers: bearer(as) });
  return res.json();
}

interface MeterRow {
  id: number;
  code: string;
  type: number;
  formula: string | null;
  parentMeterId: number | null;
  multiplier: number;
}

describe('demo meters', () => {
  it('gives the demo company a parent meter, two children, a remainder and a tariff, with energy to show', async () => {
    const list = (await call<MeterRow[]>('/meter/list')).data;
    const by = new Map(list.map((m) => [m.code, m]));
    expect([...by.keys()].sort()).toEqual(['AIR', 'LIGHT', 'MAIN', 'OTHER']);
    const main = by.get('MAIN')!;
    expect(main.multiplier).toBe(6);
    expect(by.get('LIGHT')!.parentMeterId).toBe(main.id);
    expect(by.get('AIR')!.parentMeterId).toBe(main.id);
    expect(by.get('OTHER')).toMatchObject({ type: 100, formula: 'MAIN - AIR - LIGHT' });

    const tou = (await call<{ prices: Record<string, number>; warnings: unknown[] }>('/meter/tou')).data;
    expect(tou.prices).toEqual({ sharp: 142, peak: 118, flat: 70, valley: 29 });
    expect(tou.warnings).toEqual([]);

    // last month is whole: every day has energy, split by time of use and priced
    const report = await call<{
      kWh: number;
      totalCents: number;
      tou: Array<{ kWh: number }>;
      balance: { children: unknown[]; childrenKWh: number; difference: number; percent: number };
      issues: unknown[];
    }>(`/meter/report?meterId=${main.id}&year=2026&month=10`);
    expect(report.code).toBe(0);
    expect(report.data.kWh).toBeGreaterThan(0);
    expect(report.data.issues).toEqual([]);
    expect(report.data.totalCents).toBeGreaterThan(0);
    expect(report.data.tou.reduce((s, p) => s + p.kWh, 0)).toBeCloseTo(report.data.kWh, 1);
    expect(report.data.balance.children).toHaveLength(2);
    expect(report.data.balance.difference).toBeCloseTo(report.data.kWh - report.data.balance.childrenKWh, 2);
    // the children take most of the incomer's energy, as on a real switchboard
    expect(report.data.balance.percent).toBeGreaterThan(0);
    expect(report.data.balance.percent).toBeLessThan(60);

    const other = await call<{ total: { kWh: number } }>(
      `/meter/energy?id=${by.get('OTHER')!.id}&grain=month&from=2026-10&to=2026-10`,
    );
    expect(other.data.total.kWh).toBeCloseTo(report.data.balance.difference, 2);

    const live = await call<{ points: Array<{ point: string; value: number | null }> }>(
      `/meter/live?id=${main.id}`,
    );
    expect(live.data.points.find((p) => p.point === 'energy')?.value).toBeGreaterThan(0);
  });

  it('shows nothing of them to another company', async () => {
    const other = await makeCompany(t, 'Other Co');
    const main = (await call<MeterRow[]>('/meter/list')).data.find((m) => m.code === 'MAIN')!;
    expect((await call<MeterRow[]>('/meter/list', other.admin.token)).data).toEqual([]);
    expect((await call(`/meter/get?id=${main.id}`, other.admin.token)).code).toBe(40400);
    expect((await call(`/meter/report?meterId=${main.id}&year=2026&month=10`, other.admin.token)).code).toBe(
      40400,
    );
  });
});
