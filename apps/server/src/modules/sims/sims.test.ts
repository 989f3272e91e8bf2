import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { memberRoles, roles } from '../roles/tables';
import { simCards } from './tables';
import { cardById, makeCard, makeMovedCard } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
/** the platform operator's company: its administrator holds system_sim */
let p: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Sims A');
  b = await makeCompany(t, 'Sims B');
  p = await makeCompany(t, 'Sims Platform', { isPlatform: true });
});

afterAll(async () => {
  await t.close();
});

function get(token: string, url: string) {
  return t.app.inject({ method: 'GET', url: `/general${url}`, headers: bearer(token) });
}

function post(token: string, url: string, payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url: `/general${url}`,
    payload: payload as object,
    headers: bearer(token),
  });
}

async function list(
  token: string,
  query: Record<string, string | number | boolean>,
  side = 'devicecommunication',
) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const res = await get(token, `/${side}/sim/list?${qs}`);
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as { list: Array<Record<string, unknown>>; total: number };
}

describe('the company list', () => {
  let c: TestCompany;
  const iccids: string[] = [];

  beforeAll(async () => {
    // a company of its own, so the counts are exact
    c = await makeCompany(t, 'Sims list');
    const specs = [
      { carrier: 1, state: 1, planMb: 1000, usedMb: 100, msisdn: '1064812345678', notes: 'pump house' },
      { carrier: 2, state: 2, planMb: 1000, usedMb: 900, msisdn: '13800138000', notes: '' },
      { carrier: 3, state: 5, planMb: 500, usedMb: 600, msisdn: null, notes: '' },
      { carrier: 1, state: 3, planMb: null, usedMb: 20, msisdn: null, notes: '' },
    ];
    for (const [i, spec] of specs.entries()) {
      const card = await makeCard(t, c.id, { ...spec, holderSn: i === 0 ? 'GWPUMP001' : null });
      iccids.push(card.iccid);
    }
    await makeMovedCard(t, c.id);
    // other companies' cards and the stock are never in it
    await makeCard(t, b.id);
    await makeCard(t, null);
  });

  it('shows only the company’s cards, with usage against the plan', async () => {
    const page = await list(c.admin.token, { pageSize: 100 });
    expect(page.total).toBe(5);
    const first = page.list.find((r) => r.iccid === iccids[0]);
    expect(first).toMatchObject({
      carrier: 1,
      state: 1,
      planMb: 1000,
      usedMb: 100,
      usagePercent: 10,
      msisdn: '1064812345678',
      holder: { serialNumber: 'GWPUMP001' },
      moved: null,
    });
    expect(first).not.toHaveProperty('company');
    expect(page.list.find((r) => r.iccid === iccids[3])).toMatchObject({ planMb: null, usagePercent: null });
  });

  it('searches ICCID, number and gateway, filters and sorts', async () => {
    const byIccid = await list(c.admin.token, { keyword: iccids[1]!.slice(-8) });
    expect(byIccid.list.map((r) => r.iccid)).toEqual([iccids[1]]);
    // typed as printed, in groups
    const grouped = iccids[1]!.replace(/(.{5})/g, '$1 ').trim();
    expect((await list(c.admin.token, { keyword: grouped.slice(-11) })).total).toBe(1);
    expect((await list(c.admin.token, { keyword: '138001380' })).list.map((r) => r.iccid)).toEqual([
      iccids[1],
    ]);
    expect((await list(c.admin.token, { keyword: 'gwpump' })).list.map((r) => r.iccid)).toEqual([iccids[0]]);
    // LIKE's own characters are matched as they are
    expect((await list(c.admin.token, { keyword: '%' })).total).toBe(0);
    expect((await list(c.admin.token, { carrier: 2 })).list.map((r) => r.iccid)).toEqual([iccids[1]]);
    expect((await list(c.admin.token, { state: 5 })).list.map((r) => r.iccid)).toEqual([iccids[2]]);
    expect((await list(c.admin.token, { moved: true })).total).toBe(1);
    expect((await list(c.admin.token, { moved: false })).total).toBe(4);
    const heavy = await list(c.admin.token, { usageMin: 80, sortField: 'usage', sortOrder: 'desc' });
    expect(heavy.list.map((r) => r.iccid)).toEqual([iccids[2], iccids[1]]);
    const byUsage = await list(c.admin.token, { sortField: 'usage', sortOrder: 'asc', pageSize: 100 });
    // no plan, no share: last whichever the order
    expect(byUsage.list.at(-1)?.iccid).toBe(iccids[3]);
  });

  it('pages', async () => {
    const one = await list(c.admin.token, { pageNum: 2, pageSize: 2, sortField: 'iccid' });
    const all = await list(c.admin.token, { pageSize: 100, sortField: 'iccid' });
    expect(one.total).toBe(5);
    expect(one.list.map((r) => r.iccid)).toEqual(all.list.slice(2, 4).map((r) => r.iccid));
  });

  it('refuses bad filters naming the field, and a user without cd_sim', async () => {
    for (const [query, field] of [
      ['carrier=4', 'carrier'],
      ['state=9', 'state'],
      ['usageMin=-1', 'usageMin'],
      ['sortField=company', 'sortField'],
      ['pageSize=1000', 'pageSize'],
      [`keyword=${'9'.repeat(41)}`, 'keyword'],
    ]) {
      const res = await get(c.admin.token, `/devicecommunication/sim/list?${query}`);
      expect(res.json().code, query).toBe(ERROR_CODES.VALIDATION);
      expect(res.json().data.field, query).toBe(field);
    }
    const limited = await get(c.limited.token, '/devicecommunication/sim/list');
    expect(limited.json().code).toBe(ERROR_CODES.FORBIDDEN);
  });
});

describe('a card', () => {
  it('shows its usage readings and the gateways it was in, since it is the company’s', async () => {
    const card = await makeMovedCard(t, a.id);
    // a reading and a stay from before the company had the card stay hidden from it
    await t.db
      .update(simCards)
      .set({ assignedAt: new Date(Date.now() - 3 * 3_600_000) })
      .where(eq(simCards.id, card.id));
    const detail = (await get(a.admin.token, `/devicecommunication/sim/detail?id=${card.id}`)).json().data;
    expect(detail.usage.map((u: { usedMb: number }) => u.usedMb)).toEqual([512]);
    expect(detail.sightings.map((s: { serialNumber: string }) => s.serialNumber)).toEqual([
      'GWB00002',
      'GWA00001',
    ]);
    expect(detail.moved).toMatchObject({ from: 'GWA00001', to: 'GWB00002' });
    expect(detail.lastMove).toMatchObject({ from: 'GWA00001', to: 'GWB00002', acknowledgedAt: null });
    // system maintenance sees the whole history
    const whole = (await get(p.admin.token, `/system/sim/detail?id=${card.id}`)).json().data;
    expect(whole.usage.map((u: { usedMb: number }) => u.usedMb)).toEqual([400, 512]);
    expect(whole.company).toEqual({ id: a.id, name: 'Sims A' });
  });

  it('takes a new plan and notes, checked, and nothing else', async () => {
    const card = await makeCard(t, a.id);
    const ok = await post(a.admin.token, '/devicecommunication/sim/update', {
      id: card.id,
      planMb: 2048,
      notes: ' 泵房 ',
    });
    expect(ok.json().code).toBe(0);
    expect(await cardById(t, card.id)).toMatchObject({ planMb: 2048, notes: '泵房', iccid: card.iccid });
    const none = await post(a.admin.token, '/devicecommunication/sim/update', { id: card.id, planMb: null });
    expect(none.json().code).toBe(0);
    expect((await cardById(t, card.id)).planMb).toBeNull();
    for (const [body, field] of [
      [{ id: card.id, planMb: -1 }, 'planMb'],
      [{ id: card.id, planMb: 1e9 }, 'planMb'],
      [{ id: card.id, planMb: '5' }, 'planMb'],
      [{ id: card.id, notes: 'x'.repeat(201) }, 'notes'],
      [{ id: card.id, notes: 'a\u0000b' }, 'notes'],
      [{ id: 0 }, 'id'],
    ] as const) {
      const res = await post(a.admin.token, '/devicecommunication/sim/update', body);
      expect(res.json().code, JSON.stringify(body)).toBe(ERROR_CODES.VALIDATION);
      expect(res.json().data?.field ?? res.json().message, JSON.stringify(body)).toContain(field);
    }
    // keys the route does not take are passed over: the ICCID is no one's to edit
    await post(a.admin.token, '/devicecommunication/sim/update', {
      id: card.id,
      iccid: '89860070310112094320',
    });
    expect(await cardById(t, card.id)).toMatchObject({ planMb: null, notes: '泵房', iccid: card.iccid });
  });

  it('keeps the move until someone acknowledges it, then remembers who did', async () => {
    const card = await makeMovedCard(t, a.id);
    const res = await post(a.admin.token, '/devicecommunication/sim/acknowledgeMove', { id: card.id });
    expect(res.json().code).toBe(0);
    const after = await cardById(t, card.id);
    expect(after).toMatchObject({ moved: false, moveAckBy: a.admin.id, movedFrom: 'GWA00001' });
    const detail = (await get(a.admin.token, `/devicecommunication/sim/detail?id=${card.id}`)).json().data;
    expect(detail.moved).toBeNull();
    expect(detail.lastMove).toMatchObject({ from: 'GWA00001', acknowledgedBy: 'Sims A admin' });
    expect((await list(a.admin.token, { moved: true, keyword: card.iccid })).total).toBe(0);
  });
});

describe('system maintenance', () => {
  it('lists every company’s cards and the stock, with the company', async () => {
    const stock = await makeCard(t, null, { notes: 'in stock' });
    const ofB = await makeCard(t, b.id);
    const all = await list(p.admin.token, { pageSize: 100 }, 'system');
    expect(all.list.find((r) => r.id === stock.id)).toMatchObject({ company: null });
    expect(all.list.find((r) => r.id === ofB.id)).toMatchObject({ company: { id: b.id, name: 'Sims B' } });
    const onlyStock = await list(p.admin.token, { stock: true, pageSize: 100 }, 'system');
    expect(onlyStock.list.every((r) => r.company === null)).toBe(true);
    expect(
      (await list(p.admin.token, { companyId: b.id, pageSize: 100 }, 'system')).list.map((r) => r.id),
    ).toContain(ofB.id);
    const sorted = await list(
      p.admin.token,
      { sortField: 'company', sortOrder: 'asc', pageSize: 100 },
      'system',
    );
    const names = sorted.list.map((r) => (r.company as { name: string } | null)?.name ?? null);
    const named = names.filter((n) => n !== null) as string[];
    expect(named).toEqual([...named].sort());
    // the stock (no company) comes last
    expect(names.slice(names.indexOf(null as never)).every((n) => n === null)).toBe(true);
  });

  it('assigns cards from the stock to a company, all or none', async () => {
    const one = await makeCard(t, null);
    const two = await makeCard(t, null);
    const missing = await post(p.admin.token, '/system/sim/assign', {
      ids: [one.id, 999_999],
      companyId: b.id,
    });
    expect(missing.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'ids' } });
    expect((await cardById(t, one.id)).companyId).toBeNull();
    const gone = await post(p.admin.token, '/system/sim/assign', { ids: [one.id], companyId: 999_999 });
    expect(gone.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'companyId' } });
    const res = await post(p.admin.token, '/system/sim/assign', {
      ids: [one.id, two.id, one.id],
      companyId: b.id,
    });
    expect(res.json()).toMatchObject({ code: 0, data: { changed: 2 } });
    expect(await cardById(t, one.id)).toMatchObject({ companyId: b.id, assignedAt: expect.any(Date) });
    expect((await list(b.admin.token, { keyword: one.iccid })).total).toBe(1);
    const back = await post(p.admin.token, '/system/sim/assign', { ids: [two.id], companyId: null });
    expect(back.json().data.changed).toBe(1);
    expect(await cardById(t, two.id)).toMatchObject({ companyId: null, assignedAt: null });
    const tooMany = await post(p.admin.token, '/system/sim/assign', {
      ids: Array.from({ length: 501 }, (_, i) => i + 1),
      companyId: b.id,
    });
    expect(tooMany.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'ids' } });
  });

  it('offers the companies to assign to', async () => {
    const res = (await get(p.admin.token, '/system/sim/companies?keyword=sims%20b')).json();
    expect(res.data).toEqual([{ id: b.id, name: 'Sims B' }]);
  });

  it('is closed to a company administrator, whatever the role lists', async () => {
    // b's administrator role names system_sim: it counts only in the platform's company
    const [role] = await t.db.select().from(roles).where(eq(roles.id, b.adminRoleId));
    await t.db
      .update(roles)
      .set({ menuCodes: [...role!.menuCodes, 'system_sim'] })
      .where(eq(roles.id, b.adminRoleId));
    expect((await get(b.admin.token, '/system/sim/list')).json().code).toBe(ERROR_CODES.FORBIDDEN);
    // and a platform member without the code is refused too
    const [ordinary] = await t.db.select().from(memberRoles).where(eq(memberRoles.userId, p.limited.id));
    expect(ordinary).toBeDefined();
    expect((await get(p.limited.token, '/system/sim/list')).json().code).toBe(ERROR_CODES.FORBIDDEN);
  });
});
