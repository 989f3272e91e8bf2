import { ERROR_CODES } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoEnergy } from '../../seed/demo-energy';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, setPermissions } from '../cabin/test-support';
import { dataRecords } from '../records/tables';
import { roles } from '../roles/tables';
import { energyCoalFactors, energyRecords, energySites } from './tables';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let plant: number;
let boiler: number;

type Answer = { code: number; message: string; data: ReturnType<typeof JSON.parse> };

async function callAs(
  token: string | null,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
  lang = 'en',
): Promise<Answer> {
  const res = await t.app.inject({
    method,
    url: `/general${url}`,
    payload,
    headers: { ...(token ? bearer(token) : {}), 'accept-language': lang },
  });
  return res.json();
}

const call = (method: 'GET' | 'POST', url: string, payload?: object, lang = 'en') =>
  callAs(a.admin.token, method, url, payload, lang);

const ok = (answer: Answer) => {
  expect(answer.code, answer.message).toBe(0);
  return answer.data;
};

const recordsOf = (companyId: number) =>
  t.db.select().from(energyRecords).where(eq(energyRecords.companyId, companyId));

async function upload(kind: string, csv: string, token = a.admin.token, lang = 'en'): Promise<Answer> {
  const boundary = 'energytest';
  const res = await t.app.inject({
    method: 'POST',
    url: `/general/energy/${kind}/record/import`,
    headers: {
      ...bearer(token),
      'accept-language': lang,
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="records.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
  });
  return res.json();
}

const record = (over: object = {}) => ({
  siteId: plant,
  periodType: 'month',
  periodOn: '2025-02',
  quantity: 800,
  ...over,
});

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Energy A');
  b = await makeCompany(t, 'Energy B');
  plant = ok(await call('POST', '/energy/site/save', { name: 'Main plant', type: 'plant' })).id;
  boiler = ok(
    await call('POST', '/energy/site/save', {
      name: 'Boiler house 1',
      type: 'boilerHouse',
      remark: 'two boilers',
    }),
  ).id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('sites', () => {
  it('lists, renames and refuses a second site of one name', async () => {
    const sites = ok(await call('GET', '/energy/site/list'));
    expect(sites.map((s: { name: string }) => s.name)).toEqual(['Boiler house 1', 'Main plant']);
    expect(await call('POST', '/energy/site/save', { name: ' Main plant ', type: 'workshop' })).toMatchObject(
      {
        code: ERROR_CODES.CONFLICT,
        message: 'A site named Main plant already exists',
        data: { field: 'name' },
      },
    );
    expect(await call('POST', '/energy/site/save', { name: '  ', type: 'workshop' })).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'name' },
    });
    const ws = ok(await call('POST', '/energy/site/save', { name: 'Workshop 3', type: 'workshop' })).id;
    ok(await call('POST', '/energy/site/save', { id: ws, name: 'Workshop 4', type: 'workshop' }));
    ok(await call('POST', '/energy/site/delete', { id: ws }));
    expect(await t.db.select().from(energySites).where(eq(energySites.companyId, a.id))).toHaveLength(2);
  });
});

describe('records of coal, their tce and the comparisons', () => {
  it('records, converts with the reference factors, compares, refuses a second record of a period', async () => {
    // 1000 t of raw coal in January 2025 = 714.3 tce (0.7143 tce/t)
    const jan = ok(
      await call('POST', '/energy/coal/record/save', record({ periodOn: '2025-01', quantity: 1000 })),
    );
    const feb = ok(await call('POST', '/energy/coal/record/save', record()));
    ok(await call('POST', '/energy/coal/record/save', record({ periodOn: '2024-02-01', quantity: 700 })));
    ok(
      await call(
        'POST',
        '/energy/coal/record/save',
        record({ siteId: boiler, periodOn: '2025-02', quantity: 200.5 }),
      ),
    );

    const listed = ok(await call('GET', '/energy/coal/record/list?from=2025-01-01&to=2025-01-31'));
    expect(listed).toMatchObject({ total: 1, pageNum: 1 });
    expect(listed.list[0]).toMatchObject({
      id: jan.id,
      siteName: 'Main plant',
      periodType: 'month',
      periodOn: '2025-01-01',
      quantity: 1000,
      tce: 714.3,
      source: 'entry',
    });

    // the same site and month again: refused on the period, nothing written
    const before = (await recordsOf(a.id)).length;
    expect(await call('POST', '/energy/coal/record/save', record({ quantity: 5 }))).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'Main plant already has a record for 2025-02: change that one',
      data: { field: 'periodOn' },
    });
    // nor a day of a month recorded as a whole
    expect(
      await call('POST', '/energy/coal/record/save', record({ periodType: 'day', periodOn: '2025-02-03' })),
    ).toMatchObject({ code: ERROR_CODES.CONFLICT, data: { field: 'periodType' } });
    expect(await recordsOf(a.id)).toHaveLength(before);

    // February 2025: 800 + 200.5 = 1000.5 t = 714.65715 tce
    const sum = ok(await call('GET', '/energy/coal/summary?from=2025-02-01&to=2025-02-28'));
    expect(sum).toMatchObject({
      unit: 't',
      factor: 0.7143,
      total: { quantity: 1000.5, tce: 714.65715, count: 2 },
      // against January's 714.3 tce: +0.35715 tce, +0.05 %
      previous: { from: '2025-01-01', to: '2025-01-31', quantity: 1000, tce: 714.3 },
      // against February 2024's 700 t = 500.01 tce: +214.64715 tce, +42.928571 %
      lastYear: { from: '2024-02-01', to: '2024-02-29', quantity: 700, tce: 500.01 },
    });
    expect(sum.previous.change).toEqual({ absolute: 0.35715, percent: 0.05 });
    expect(sum.lastYear.change.absolute).toBe(214.64715);
    expect(sum.lastYear.change.percent).toBeCloseTo((214.64715 / 500.01) * 100, 5);
    expect(sum.bySite).toEqual([
      { siteId: boiler, siteName: 'Boiler house 1', quantity: 200.5, tce: 143.21715 },
      { siteId: plant, siteName: 'Main plant', quantity: 800, tce: 571.44 },
    ]);
    // one site only
    const plantOnly = ok(
      await call('GET', `/energy/coal/summary?from=2025-01-01&to=2025-02-28&siteId=${plant}`),
    );
    expect(plantOnly.total).toEqual({ quantity: 1800, tce: 1285.74, count: 2 });
    expect(plantOnly.byMonth).toEqual([
      { month: '2025-01', quantity: 1000, tce: 714.3 },
      { month: '2025-02', quantity: 800, tce: 571.44 },
    ]);

    // change and delete
    ok(
      await call(
        'POST',
        '/energy/coal/record/save',
        record({ id: feb.id, quantity: 900, remark: ' meter read ' }),
      ),
    );
    const [changed] = await t.db.select().from(energyRecords).where(eq(energyRecords.id, feb.id));
    expect(changed).toMatchObject({ quantity: 900, remark: 'meter read', periodOn: '2025-02-01' });
    // a site with records stays
    expect(await call('POST', '/energy/site/delete', { id: boiler })).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'Boiler house 1 has 1 records: delete them first',
    });
    ok(await call('POST', '/energy/coal/record/delete', { id: feb.id }));
    expect(await t.db.select().from(energyRecords).where(eq(energyRecords.id, feb.id))).toHaveLength(0);

    // sorted by quantity, smallest first
    const sorted = ok(await call('GET', '/energy/coal/record/list?sort=quantity&order=asc'));
    expect(sorted.list.map((r: { quantity: number }) => r.quantity)).toEqual([200.5, 700, 1000]);
  });

  it('converts gas and steam with their factors', async () => {
    // 100,000 m³ of natural gas = 121.43 tce (1.2143 kgce/m³)
    ok(await call('POST', '/energy/gas/record/save', record({ periodOn: '2025-03', quantity: 100_000 })));
    const gas = ok(await call('GET', '/energy/gas/record/list'));
    expect(gas.list[0]).toMatchObject({ quantity: 100_000, tce: 121.43 });
    // 100 t of steam × 2.6971 GJ/t = 269.71 GJ ÷ 29.3076 GJ/tce = 9.202732 tce, consumed or produced
    ok(
      await call('POST', '/energy/steamconsume/record/save', record({ periodOn: '2025-03', quantity: 100 })),
    );
    ok(await call('POST', '/energy/steamoutput/record/save', record({ periodOn: '2025-03', quantity: 100 })));
    expect(ok(await call('GET', '/energy/steamconsume/record/list')).list[0].tce).toBe(9.202732);
    expect(ok(await call('GET', '/energy/steamoutput/record/list')).list[0].tce).toBe(9.202732);
    // the kinds keep apart: gas is not in the coal list
    const coal = ok(await call('GET', '/energy/coal/record/list'));
    expect(coal.list.some((r: { quantity: number }) => r.quantity === 100_000)).toBe(false);
  });

  it("converts with the company's own factors, and refuses a bad one naming it", async () => {
    const defaults = ok(await call('GET', '/energy/factors'));
    expect(defaults.factors.rawCoal).toBe(0.7143);
    expect(defaults.own).toEqual({});
    for (const [body, field] of [
      [{ rawCoal: 0 }, 'rawCoal'],
      [{ naturalGas: -1 }, 'naturalGas'],
    ] as const) {
      expect(await call('POST', '/energy/factors/save', body)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field },
      });
    }
    expect(
      await t.db.select().from(energyCoalFactors).where(eq(energyCoalFactors.companyId, a.id)),
    ).toHaveLength(0);
    // a coal of 5000 kcal/kg: 5000 / 7000 = 0.7142857 → 0.5714 for a poorer coal of 4000 kcal/kg
    ok(await call('POST', '/energy/factors/save', { rawCoal: 0.5714 }));
    const jan = ok(
      await call('GET', `/energy/coal/record/list?from=2025-01-01&to=2025-01-31&siteId=${plant}`),
    );
    expect(jan.list[0].tce).toBe(571.4);
    // gas keeps its default
    expect(ok(await call('GET', '/energy/gas/record/list')).list[0].tce).toBe(121.43);
    // back to the default
    ok(await call('POST', '/energy/factors/save', { rawCoal: null }));
    expect(ok(await call('GET', '/energy/factors')).factors.rawCoal).toBe(0.7143);
  });
});

describe('bad records refused field by field, nothing written', () => {
  it('names the field', async () => {
    const before = (await recordsOf(a.id)).length;
    const otherSite = ok(
      await callAs(b.admin.token, 'POST', '/energy/site/save', { name: 'B plant', type: 'plant' }),
    ).id;
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    for (const [over, field] of [
      [{ siteId: otherSite }, 'siteId'],
      [{ siteId: 2_000_000 }, 'siteId'],
      [{ periodType: 'week' }, 'periodType'],
      [{ periodOn: '2025-02-30', periodType: 'day' }, 'periodOn'],
      [{ periodOn: 'yesterday' }, 'periodOn'],
      [{ periodOn: tomorrow, periodType: 'day' }, 'periodOn'],
      [{ periodOn: '2999-01' }, 'periodOn'],
      [{ quantity: 0 }, 'quantity'],
      [{ quantity: -3 }, 'quantity'],
      [{ quantity: 2e9 }, 'quantity'],
      [{ quantity: '12' }, 'quantity'],
      [{ remark: 'x'.repeat(201) }, 'remark'],
    ] as const) {
      const res = await call('POST', '/energy/coal/record/save', record({ periodOn: '2023-06', ...over }));
      expect(res.code, JSON.stringify(over)).not.toBe(0);
      expect(res.data?.field, JSON.stringify(over)).toBe(field);
    }
    expect(await recordsOf(a.id)).toHaveLength(before);
    expect(await call('GET', '/energy/coal/summary?from=2025-02-01&to=2025-01-01')).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'to' },
    });
  });
});

describe('import from a CSV file', () => {
  it('names every bad line and writes nothing, then imports a good file', async () => {
    const before = (await recordsOf(a.id)).length;
    const bad = [
      'Site,Period type,Period,Quantity,Remark',
      'Main plant,day,2023-05-01,12.5,',
      'Nowhere,day,2023-05-02,3,',
      'Main plant,week,2023-05-03,3,',
      'Main plant,day,2023-05-04,-1,',
      'Main plant,day,2023-05-01,4,',
      'Main plant,month,2025-01,4,',
    ].join('\n');
    const refused = await upload('coal', bad);
    expect(refused).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    expect(refused.message).toMatch(
      /^5 lines of the file are wrong, nothing was imported; the first: line 3/,
    );
    expect(refused.data.rejected.map((r: { row: number; field: string }) => [r.row, r.field])).toEqual([
      [3, 'site'],
      [4, 'periodType'],
      [5, 'quantity'],
      [6, 'periodOn'],
      [7, 'periodOn'],
    ]);
    expect(await recordsOf(a.id)).toHaveLength(before);

    const good = [
      '站点,周期,期间,数量,备注',
      'Main plant,日,2023-05-01,"1,250.5",抄表',
      'Boiler house 1,月,2023-05,30,',
    ].join('\n');
    expect(ok(await upload('gas', good, a.admin.token, 'zh'))).toEqual({ imported: 2 });
    const rows = await t.db
      .select()
      .from(energyRecords)
      .where(and(eq(energyRecords.companyId, a.id), eq(energyRecords.source, 'import')));
    expect(rows.map((r) => [r.kind, r.periodType, r.periodOn, r.quantity, r.remark]).sort()).toEqual([
      ['gas', 'day', '2023-05-01', 1250.5, '抄表'],
      ['gas', 'month', '2023-05-01', 30, ''],
    ]);
    // no header of the kind: the columns are named
    expect(await upload('gas', 'a,b\n1,2')).toMatchObject({ data: { field: 'file' } });
  });
});

describe('export', () => {
  it('writes the records with their tce and the totals', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/general/energy/gas/record/export?format=csv&lang=en&from=2025-03-01&to=2025-03-31`,
      headers: bearer(a.admin.token),
    });
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.replace('\uFEFF', '').split(/\r?\n/).filter(Boolean)).toEqual([
      'Site,Period type,Period,Quantity,Unit,Coal equivalent (tce),Source,Remark',
      'Main plant,month,2025-03,100000,m³,121.43,entry,',
      'Total,,,100000,m³,121.43,,',
    ]);
    const xlsx = await t.app.inject({
      method: 'GET',
      url: '/general/energy/gas/record/export?format=xlsx',
      headers: bearer(a.admin.token),
    });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('records filled from a data item', () => {
  let skid: number;
  let meter: { itemId: number; nodeId: number };
  const reading = (itemId: number, ts: string, values: Record<string, number | string>) => ({
    companyId: a.id,
    itemId,
    ts: new Date(ts),
    values,
  });
  const fill = (page: string, body: object, token = a.admin.token, lang = 'en') =>
    callAs(token, 'POST', `/energy/${page}/record/fill`, body, lang);
  const dayRecords = async (kind: string) =>
    (
      await t.db
        .select()
        .from(energyRecords)
        .where(and(eq(energyRecords.siteId, skid), eq(energyRecords.kind, kind)))
    )
      .map((r) => [r.periodType, r.periodOn, r.quantity, r.source])
      .sort((x, y) => String(x[1]).localeCompare(String(y[1])));

  beforeAll(async () => {
    skid = ok(await call('POST', '/energy/site/save', { name: 'Gas skid', type: 'boilerHouse' })).id;
    meter = await makeItem(t, a.id, {
      name: 'Boiler gas meter',
      fields: [
        { key: 'f1', name: 'Total volume', unit: 'm³', type: 1 },
        { key: 'f2', name: 'Coal fed', unit: 'kg', type: 10 },
        { key: 'f3', name: 'Note', type: 5 },
      ],
    });
    // the company's days are Shanghai's: midnight is 16:00 UTC the day before
    await t.db.insert(dataRecords).values([
      // 31 December: 09:00 and 23:00
      reading(meter.itemId, '2023-12-31T01:00:00Z', { f1: 900 }),
      reading(meter.itemId, '2023-12-31T15:00:00Z', { f1: 1000 }),
      // 1 January: 10:00 and 22:00: 1250.5 − 1000 = 250.5 m³
      reading(meter.itemId, '2024-01-01T02:00:00Z', { f1: 1100, f3: 'read by hand' }),
      reading(meter.itemId, '2024-01-01T14:00:00Z', { f1: 1250.5 }),
      // 2 January: 09:00 1300, the meter replaced at 11:00 (0), 18:00 40: 49.5 + 40 = 89.5 m³
      reading(meter.itemId, '2024-01-02T01:00:00Z', { f1: 1300 }),
      reading(meter.itemId, '2024-01-02T03:00:00Z', { f1: 0 }),
      reading(meter.itemId, '2024-01-02T10:00:00Z', { f1: 40 }),
      // 3 January: nothing; 4 January 13:00: 70 − 40 = 30 m³
      reading(meter.itemId, '2024-01-04T05:00:00Z', { f1: 70 }),
      // coal fed per shift (kg): 1 January 00:00 and 16:00, 2 January 23:59:59
      reading(meter.itemId, '2023-12-31T16:00:00Z', { f2: 200 }),
      reading(meter.itemId, '2024-01-01T08:00:00Z', { f2: 300 }),
      reading(meter.itemId, '2024-01-02T15:59:59Z', { f2: 1000 }),
    ]);
  });

  it('counts a cumulative counter day by day across a reset', async () => {
    const answer = ok(
      await fill('gas', {
        siteId: skid,
        itemId: meter.itemId,
        field: 'f1',
        mode: 'counter',
        from: '2024-01-01',
        to: '2024-01-04',
      }),
    );
    expect(answer).toEqual({ written: 3, replaced: 0, skipped: [], empty: 1 });
    expect(await dayRecords('gas')).toEqual([
      ['day', '2024-01-01', 250.5, 'item'],
      ['day', '2024-01-02', 89.5, 'item'],
      ['day', '2024-01-04', 30, 'item'],
    ]);
    const listed = ok(
      await call('GET', `/energy/gas/record/list?siteId=${skid}&sort=periodOn&order=asc`, undefined, 'zh'),
    );
    expect(listed.list[0]).toMatchObject({
      source: 'item',
      remark: 'Data item Boiler gas meter · Total volume',
      // 250.5 m³ × 1.2143 kgce/m³
      tce: 0.304182,
    });
  });

  it('sums per-period values, converted by the unit factor (kg → t)', async () => {
    const answer = ok(
      await fill(
        'coal',
        {
          siteId: skid,
          itemId: meter.itemId,
          field: 'f2',
          mode: 'sum',
          from: '2024-01-01',
          to: '2024-01-03',
          factor: 0.001,
        },
        a.admin.token,
        'zh',
      ),
    );
    expect(answer).toEqual({ written: 2, replaced: 0, skipped: [], empty: 1 });
    expect(await dayRecords('coal')).toEqual([
      ['day', '2024-01-01', 0.5, 'item'],
      ['day', '2024-01-02', 1, 'item'],
    ]);
    const [row] = await t.db
      .select()
      .from(energyRecords)
      .where(and(eq(energyRecords.siteId, skid), eq(energyRecords.kind, 'coal')));
    expect(row?.remark).toBe('数据项 Boiler gas meter · Coal fed');
  });

  it('keeps days recorded by hand or as a month, and replaces its own on a second fill', async () => {
    // 2 January by hand, December as a whole month
    ok(
      await call(
        'POST',
        '/energy/gas/record/save',
        record({ siteId: skid, periodType: 'day', periodOn: '2023-12-30', quantity: 5 }),
      ),
    );
    await t.db
      .delete(energyRecords)
      .where(
        and(
          eq(energyRecords.siteId, skid),
          eq(energyRecords.kind, 'gas'),
          eq(energyRecords.periodOn, '2024-01-02'),
        ),
      );
    ok(
      await call(
        'POST',
        '/energy/gas/record/save',
        record({ siteId: skid, periodType: 'day', periodOn: '2024-01-02', quantity: 77 }),
      ),
    );
    // December's month record beside a day record of it is refused by save: write it straight
    await t.db.insert(energyRecords).values({
      companyId: a.id,
      siteId: skid,
      kind: 'gas',
      periodType: 'month',
      periodOn: '2023-12-01',
      quantity: 3000,
    });
    // 4 January read again at 16:00: 95 − 40 = 55 m³
    await t.db.insert(dataRecords).values(reading(meter.itemId, '2024-01-04T08:00:00Z', { f1: 95 }));
    const answer = ok(
      await fill('gas', {
        siteId: skid,
        itemId: meter.itemId,
        field: 'f1',
        mode: 'counter',
        from: '2023-12-31',
        to: '2024-01-04',
        factor: 1,
      }),
    );
    expect(answer).toEqual({
      written: 0,
      replaced: 2,
      skipped: [
        { periodOn: '2023-12-31', reason: 'month' },
        { periodOn: '2024-01-02', reason: 'entry' },
      ],
      empty: 1,
    });
    expect(await dayRecords('gas')).toEqual([
      ['month', '2023-12-01', 3000, 'entry'],
      ['day', '2023-12-30', 5, 'entry'],
      ['day', '2024-01-01', 250.5, 'item'],
      ['day', '2024-01-02', 77, 'entry'],
      ['day', '2024-01-04', 55, 'item'],
    ]);
  });

  it('refuses, naming the field, and writes nothing', async () => {
    const before = await recordsOf(a.id);
    const other = await makeItem(t, b.id, {
      name: 'B meter',
      fields: [{ key: 'f1', name: 'Total', type: 1 }],
    });
    const bSite = ok(
      await callAs(b.admin.token, 'POST', '/energy/site/save', { name: 'B skid', type: 'plant' }),
    ).id;
    const body = {
      siteId: skid,
      itemId: meter.itemId,
      field: 'f1',
      mode: 'counter',
      from: '2024-01-01',
      to: '2024-01-04',
    };
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    for (const [over, field, code] of [
      [{ siteId: bSite }, 'siteId', ERROR_CODES.NOT_FOUND],
      [{ itemId: other.itemId }, 'itemId', ERROR_CODES.NOT_FOUND],
      [{ itemId: 2_000_000 }, 'itemId', ERROR_CODES.NOT_FOUND],
      [{ field: 'f3' }, 'field', ERROR_CODES.VALIDATION],
      [{ field: 'f9' }, 'field', ERROR_CODES.VALIDATION],
      [{ factor: 0 }, 'factor', ERROR_CODES.VALIDATION],
      [{ factor: -0.001 }, 'factor', ERROR_CODES.VALIDATION],
      [{ from: '2024-02-30' }, 'from', ERROR_CODES.VALIDATION],
      [{ to: tomorrow }, 'to', ERROR_CODES.VALIDATION],
      [{ from: '2024-01-05' }, 'to', ERROR_CODES.VALIDATION],
      [{ from: '2022-12-31', to: '2024-01-01' }, 'to', ERROR_CODES.VALIDATION],
    ] as const) {
      const res = await fill('gas', { ...body, ...over });
      expect(res.code, JSON.stringify(over)).toBe(code);
      expect(res.data?.field, JSON.stringify(over)).toBe(field);
      expect(JSON.stringify(res)).not.toContain('B meter');
    }
    expect((await fill('gas', { ...body, field: 'f3' })).message).toBe(
      'field: field Note of the data item is not a number field',
    );
    expect((await fill('gas', { ...body, mode: 'average' })).code).toBe(ERROR_CODES.VALIDATION);
    // 366 days are taken (2024 is a leap year)
    ok(await fill('gas', { ...body, from: '2023-01-01', to: '2024-01-01' }));
    expect(await recordsOf(a.id)).toHaveLength(before.length);
    expect(await recordsOf(b.id)).toHaveLength(0);
  });

  it('offers and fills only the items the caller may read', async () => {
    await t.db
      .update(roles)
      .set({ menuCodes: ['energy_data_plat', 'edp_gas'] })
      .where(eq(roles.id, a.ordinaryRoleId));
    const hidden = await makeItem(t, a.id, {
      name: 'Hidden meter',
      fields: [{ key: 'f1', name: 'Total', type: 1 }],
    });
    await t.db.insert(dataRecords).values(reading(hidden.itemId, '2024-01-01T02:00:00Z', { f1: 5 }));
    await setPermissions(t, hidden.nodeId, [{ scope: 'company', subjectId: null, level: 0 }]);
    const offered = ok(await callAs(a.limited.token, 'GET', '/energy/item/list'));
    expect(offered.map((i: { name: string }) => i.name)).toContain('Boiler gas meter');
    expect(offered.map((i: { name: string }) => i.name)).not.toContain('Hidden meter');
    expect(offered.find((i: { name: string }) => i.name === 'Boiler gas meter').fields).toEqual([
      { key: 'f1', name: 'Total volume', unit: 'm³' },
      { key: 'f2', name: 'Coal fed', unit: 'kg' },
    ]);
    // the administrator reads everything
    expect(ok(await call('GET', '/energy/item/list')).map((i: { name: string }) => i.name)).toContain(
      'Hidden meter',
    );
    const before = await recordsOf(a.id);
    const res = await fill(
      'gas',
      {
        siteId: skid,
        itemId: hidden.itemId,
        field: 'f1',
        mode: 'counter',
        from: '2024-01-01',
        to: '2024-01-01',
      },
      a.limited.token,
    );
    expect(res).toMatchObject({ code: ERROR_CODES.FORBIDDEN, data: { field: 'itemId' } });
    // the page's code is needed as well: coal is not among them
    expect(
      (
        await fill(
          'coal',
          {
            siteId: skid,
            itemId: meter.itemId,
            field: 'f2',
            mode: 'sum',
            from: '2024-01-01',
            to: '2024-01-01',
          },
          a.limited.token,
        )
      ).code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    expect(await recordsOf(a.id)).toHaveLength(before.length);
  });
});

describe('permissions and companies', () => {
  it('keeps each page to its code: coal only reads and writes coal', async () => {
    await t.db
      .update(roles)
      .set({ menuCodes: ['energy_data_plat', 'edp_coal'] })
      .where(eq(roles.id, a.ordinaryRoleId));
    const as = (method: 'GET' | 'POST', url: string, payload?: object) =>
      callAs(a.limited.token, method, url, payload);
    expect(ok(await as('GET', '/energy/coal/record/list')).total).toBeGreaterThan(0);
    ok(await as('GET', '/energy/site/list'));
    const before = (await recordsOf(a.id)).length;
    const gasRecord = (await recordsOf(a.id)).find((r) => r.kind === 'gas')!;
    for (const [method, url, payload] of [
      ['GET', '/energy/gas/record/list', undefined],
      ['GET', '/energy/gas/summary?from=2025-01-01&to=2025-12-31', undefined],
      ['GET', '/energy/steamoutput/record/export?format=csv', undefined],
      ['POST', '/energy/gas/record/save', record({ periodOn: '2022-01' })],
      ['POST', '/energy/gas/record/delete', { id: gasRecord.id }],
      ['POST', '/energy/steamconsume/record/save', record({ periodOn: '2022-01' })],
    ] as const) {
      expect((await as(method, url, payload)).code, url).toBe(ERROR_CODES.FORBIDDEN);
    }
    // a gas record's id through the coal page: not found, not deleted
    expect(await as('POST', '/energy/coal/record/delete', { id: gasRecord.id })).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
    });
    expect(await recordsOf(a.id)).toHaveLength(before);
    // without any energy code: nothing at all
    await t.db
      .update(roles)
      .set({ menuCodes: ['smart_data'] })
      .where(eq(roles.id, a.ordinaryRoleId));
    expect((await as('GET', '/energy/site/list')).code).toBe(ERROR_CODES.FORBIDDEN);
    expect((await as('GET', '/energy/coal/record/list')).code).toBe(ERROR_CODES.FORBIDDEN);
  });

  it('answers no token with a login error', async () => {
    for (const url of ['/energy/coal/record/list', '/energy/site/list', '/energy/factors']) {
      expect((await callAs(null, 'GET', url)).code).toBe(ERROR_CODES.TOKEN_INVALID);
    }
    expect((await callAs(null, 'POST', '/energy/coal/record/save', record())).code).toBe(
      ERROR_CODES.TOKEN_INVALID,
    );
  });

  it("never shows or changes another company's records and sites", async () => {
    const [aRecord] = (await recordsOf(a.id)).filter((r) => r.kind === 'coal');
    const snapshot = await recordsOf(a.id);
    const sitesBefore = await t.db.select().from(energySites).where(eq(energySites.companyId, a.id));
    const bCall = (method: 'GET' | 'POST', url: string, payload?: object) =>
      callAs(b.admin.token, method, url, payload);
    // reads: nothing of A's
    for (const url of [
      '/energy/coal/record/list',
      `/energy/coal/record/list?siteId=${plant}`,
      '/energy/site/list',
      `/energy/coal/summary?from=2020-01-01&to=2025-12-31&siteId=${plant}`,
    ]) {
      const answer = await bCall('GET', url);
      expect(answer.code, url).toBe(0);
      expect(JSON.stringify(answer), url).not.toContain('Main plant');
      expect(JSON.stringify(answer), url).not.toContain('Boiler house 1');
    }
    // writes by A's ids: not found
    for (const [url, payload] of [
      ['/energy/coal/record/save', record({ id: aRecord!.id, quantity: 1 })],
      ['/energy/coal/record/save', record({ periodOn: '2022-02' })],
      ['/energy/coal/record/delete', { id: aRecord!.id }],
      ['/energy/site/save', { id: plant, name: 'Taken', type: 'plant' }],
      ['/energy/site/delete', { id: plant }],
    ] as const) {
      const answer = await bCall('POST', url, payload);
      expect(answer.code, url).toBe(ERROR_CODES.NOT_FOUND);
      expect(JSON.stringify(answer), url).not.toContain('Main plant');
    }
    expect(await recordsOf(a.id)).toEqual(snapshot);
    expect(await t.db.select().from(energySites).where(eq(energySites.companyId, a.id))).toEqual(sitesBefore);
    expect(await recordsOf(b.id)).toHaveLength(0);
  });
});

describe('the demo company', () => {
  it('has two years of monthly records to show on every page', async () => {
    const c = await makeCompany(t, 'Energy demo');
    await seedDemoEnergy(t.db, {
      companyId: c.id,
      adminId: c.admin.id,
      lang: 'en',
      now: new Date('2026-03-15T00:00:00Z'),
    });
    for (const kind of ['coal', 'gas', 'steamconsume', 'steamoutput']) {
      const sum = ok(
        await callAs(c.admin.token, 'GET', `/energy/${kind}/summary?from=2025-03-01&to=2026-02-28`),
      );
      expect(sum.byMonth, kind).toHaveLength(12);
      expect(sum.total.tce, kind).toBeGreaterThan(0);
      // this year a few percent under last
      expect(sum.lastYear.change.percent, kind).toBeLessThan(0);
    }
  });
});
