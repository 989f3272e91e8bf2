import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, login, type TestApp } from '../test/helper';
import {
  DEMO_ADMIN_PHONE,
  DEMO_LIMITED_PHONE,
  DEMO_PASSWORD,
  isEmpty,
  seedDemo,
  seedFirstAdmin,
} from './demo';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function codesOf(phone: string, password: string): Promise<string[]> {
  const token = await login(t.app, phone, password);
  const res = await t.app.inject({ method: 'GET', url: '/general/user/getUser', headers: bearer(token) });
  return res.json().data.menuCode;
}

describe('demo seed', () => {
  it('creates an administrator with every code and a limited user', async () => {
    expect(await isEmpty(t.db)).toBe(true);
    const logins = await seedDemo(t.db);
    expect(logins.map((l) => l.phone)).toEqual([DEMO_ADMIN_PHONE, DEMO_LIMITED_PHONE]);
    expect(await isEmpty(t.db)).toBe(false);
    const admin = await codesOf(DEMO_ADMIN_PHONE, DEMO_PASSWORD);
    expect(admin).toContain('um_user');
    expect(admin).toContain('system_company');
    expect(admin.length).toBeGreaterThan(80);
    expect(await codesOf(DEMO_LIMITED_PHONE, DEMO_PASSWORD)).toEqual([
      'pc_my_assignment',
      'pc_my_order',
      'sd_capsule',
      'smart_data',
    ]);
  });

  it('gives the demo company SIM cards with usage to show, one of them moved, and a stock', async () => {
    const token = await login(t.app, DEMO_ADMIN_PHONE, DEMO_PASSWORD);
    const list = await t.app.inject({
      method: 'GET',
      url: '/general/devicecommunication/sim/list?pageSize=100',
      headers: bearer(token),
    });
    const cards = list.json().data.list as Array<{ id: number; moved: unknown; usedMb: number | null }>;
    expect(cards).toHaveLength(8);
    expect(cards.filter((c) => c.moved)).toHaveLength(1);
    expect(cards.every((c) => c.usedMb !== null)).toBe(true);
    const detail = await t.app.inject({
      method: 'GET',
      url: `/general/devicecommunication/sim/detail?id=${cards[0]!.id}&days=30`,
      headers: bearer(token),
    });
    // three weeks, a reading every four hours
    expect(detail.json().data.usage.length).toBeGreaterThan(100);
    const stock = await t.app.inject({
      method: 'GET',
      url: '/general/system/sim/list?stock=true',
      headers: bearer(token),
    });
    expect(stock.json().data.total).toBe(4);
  });

  it('gives the demo company an inventory whose shipped gateways show what the registry says', async () => {
    const token = await login(t.app, DEMO_ADMIN_PHONE, DEMO_PASSWORD);
    const get = async (url: string) =>
      (await t.app.inject({ method: 'GET', url: `/general/inventory${url}`, headers: bearer(token) })).json()
        .data;
    const units = (await get('/unit/list?keyword=SDG&pageSize=100')).list as Array<{
      sn: string;
      status: string;
      stockStatus: number;
    }>;
    const status = (sn: string) => units.find((u) => u.sn === sn)?.status;
    // the demo's registry: three gateways bound to the demo company, one registered only
    expect(['SDG2024000101', 'SDG2024000102', 'SDG4024000103', 'SDG2024000104'].map(status)).toEqual([
      'bound',
      'bound',
      'bound',
      'registered',
    ]);
    expect(['SDG2024000105', 'SDG2024000106', 'SDG2024000108', 'SDG2024000110'].map(status)).toEqual([
      'inExitOrder',
      'stocked',
      'finished',
      'inProduction',
    ]);
    const exits = (await get('/order/list?kind=exit')).list as Array<{ state: string; units: number }>;
    expect(exits.map((o) => [o.state, o.units])).toEqual([
      ['open', 1],
      ['confirmed', 4],
    ]);
    const stock = (await get('/stock')) as Array<{ quantity: number | null }>;
    expect(stock.some((s) => s.quantity === 500)).toBe(true);
    const plans = (
      await t.app.inject({ method: 'GET', url: '/general/production/schedule/list', headers: bearer(token) })
    ).json().data.list as Array<{ status: string; recorded: number; inProduction: number }>;
    expect(plans.map((p) => [p.status, p.recorded, p.inProduction])).toEqual([
      ['planned', 0, 0],
      ['inProduction', 3, 1],
      ['finished', 7, 0],
    ]);
    const sales = (
      await t.app.inject({ method: 'GET', url: '/general/sales/order/list', headers: bearer(token) })
    ).json().data.list as Array<{ status: string; totalCents: number }>;
    expect(sales.map((o) => [o.status, o.totalCents])).toEqual([
      ['submitted', 980_000],
      ['paid', 512_000],
    ]);
    const contracts = (
      await t.app.inject({ method: 'GET', url: '/general/sales/contract/list', headers: bearer(token) })
    ).json().data.list as Array<{ status: string; totalCents: number; templateName: string }>;
    expect(contracts.map((c) => [c.status, c.totalCents, c.templateName])).toEqual([
      ['signed', 512_000, '标准销售合同'],
    ]);
    // the paid sale was delivered by the confirmed exit order of the shipped gateways
    const paid = (sales as Array<{ id?: number; status: string }>).find((o) => o.status === 'paid')!;
    const sale = (
      await t.app.inject({
        method: 'GET',
        url: `/general/sales/order/get?id=${paid.id}`,
        headers: bearer(token),
      })
    ).json().data as { deliveries: Array<{ state: string }> };
    expect(sale.deliveries.map((d) => d.state)).toEqual(['confirmed']);
  });

  it('gives the demo company the worked example of gas blending to calculate', async () => {
    const token = await login(t.app, DEMO_ADMIN_PHONE, DEMO_PASSWORD);
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) =>
      (await t.app.inject({ method, url: `/general/gas${url}`, payload, headers: bearer(token) })).json()
        .data;
    const products = (await call('GET', '/product/list')).list as Array<{ code: string }>;
    expect(products.map((p) => p.code).sort()).toEqual(['CO-N2-50PPM', 'CO2-N2-10']);
    const example = products.find((p) => p.code === 'CO2-N2-10')!;
    const fill = await call('POST', '/calc/fill', example);
    expect(fill.totalMol).toBeCloseTo(42.275, 3);
    const pure = (await call('GET', '/pure/list')).list as Array<{ id: number; main: string }>;
    const certified = await call('POST', '/calc/certify', {
      parents: fill.components.map((c: { component: string; massG: number }) => ({
        pureGasId: pure.find((p) => p.main === c.component)!.id,
        // weighed to the centigram, as the scale shows
        massG: Math.round(c.massG * 100) / 100,
      })),
    });
    const co2 = certified.components.find((c: { component: string }) => c.component === 'CO2');
    expect(co2.fraction).toBeCloseTo(0.099998, 5);
    // a certified cylinder whose PDF downloads, and one waiting for quality control
    const cylinders = (await call('GET', '/cylinder/list')).list as Array<{
      id: number;
      serialNumber: string;
      status: string;
    }>;
    expect(cylinders.map((c) => [c.serialNumber, c.status]).sort()).toEqual([
      ['DEMO-CY-0001', 'certified'],
      ['DEMO-CY-0002', 'weighed'],
    ]);
    const certificate = await t.app.inject({
      method: 'GET',
      url: `/general/gas/cylinder/certificate?id=${cylinders.find((c) => c.status === 'certified')!.id}`,
      headers: bearer(token),
    });
    expect(certificate.headers['content-type']).toBe('application/pdf');
  });

  it('production: the first administrator takes the password given', async () => {
    await seedFirstAdmin(t.db, '13700000000', 'prod-secret-42');
    expect(await codesOf('13700000000', 'prod-secret-42')).toContain('system_user');
  });
});
