import {
  DATA_PERMISSION,
  ERROR_CODES,
  energyAcrossReplacement,
  type FieldDef,
  zonedToInstant,
} from '@platform/domain';
import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { pdfPageCount, pdfText } from '../../test/pdf';
import { cabinNodes } from '../cabin/tables';
import { makeItem, setPermissions } from '../cabin/test-support';
import { makeRecords } from '../records/test-support';
import { meterEvents, meters } from './tables';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let item: { nodeId: number; itemId: number };

const TZ = 'Asia/Shanghai';
/** an ISO instant of a local wall time in the company's zone */
const local = (year: number, month: number, day: number, hour = 0) =>
  new Date(zonedToInstant({ year, month, day, hour }, TZ)).toISOString();

const FIELDS: FieldDef[] = [
  { key: 'f1', name: 'energy', unit: 'kWh', type: 1, decimals: 2 },
  { key: 'f2', name: '功率', unit: 'kW', type: 1, decimals: 2 },
  { key: 'f3', name: 'note', type: 5 },
  { key: 'f4', name: 'c1 energy', type: 1, decimals: 2 },
  { key: 'f5', name: 'c2 energy', type: 1, decimals: 2 },
];

async function callAs(token: string, method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await t.app.inject({
    method,
    url: `/general${url}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
  return res.json();
}
const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  callAs(a.admin.token, method, url, payload);
const ok = (answer: { code: number; message: string; data: ReturnType<typeof JSON.parse> }) => {
  expect(answer.code, answer.message).toBe(0);
  return answer.data;
};

const RATIOS = { ctPrimary: 200, ctSecondary: 5, ptPrimary: 10000, ptSecondary: 100 };
const standard = (over: object = {}) => ({
  name: 'Main meter',
  type: 101,
  code: 'M',
  itemId: item.itemId,
  points: { energy: 'f1', power: '功率' },
  ...RATIOS,
  registerDigits: 6,
  samplingId: 4,
  ...over,
});

async function counts() {
  const [m] = await t.db.select({ n: count() }).from(meters);
  const [n] = await t.db.select({ n: count() }).from(cabinNodes).where(eq(cabinNodes.type, 'meter'));
  return { meters: m!.n, nodes: n!.n };
}

let main: number;
let c1: number;
let c2: number;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Meters A');
  b = await makeCompany(t, 'Meters B');
  item = await makeItem(t, a.id, { name: 'meter cabinet', kind: 13, fields: FIELDS });
  // the reference month: 12345.67 at the start of October, 12678.90 at the start of November;
  // the child meters' registers on fields f4 and f5
  await makeRecords(t, a.id, item.itemId, [
    { ts: local(2026, 10, 1), values: { f1: 12345.67, f2: 310.5, f4: 100, f5: 50 } },
    { ts: local(2026, 11, 1), values: { f1: 12678.9, f2: 320.25, f4: 300, f5: 150 } },
  ]);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('standard and virtual meters', () => {
  it('creates a standard meter bound to the item’s fields with its ratios', async () => {
    const m = ok(await call('POST', '/meter/create', standard()));
    main = m.id;
    expect(m).toMatchObject({
      type: 101,
      kind: 'standard',
      name: 'Main meter',
      code: 'M',
      itemId: item.itemId,
      itemName: 'meter cabinet',
      points: { energy: 'f1', power: 'f2' },
      ct: { primary: 200, secondary: 5, ratio: 40 },
      pt: { primary: 10000, secondary: 100, ratio: 100 },
      multiplier: 4000,
      registerDigits: 6,
      samplingId: 4,
      level: DATA_PERMISSION.admin,
    });
    const [node] = await t.db.select().from(cabinNodes).where(eq(cabinNodes.id, main));
    expect(node).toMatchObject({ type: 'meter', name: 'Main meter', companyId: a.id });
    expect(node!.refId).toBe((await t.db.select().from(meters).where(eq(meters.nodeId, main)))[0]!.id);
    c1 = ok(
      await call(
        'POST',
        '/meter/create',
        standard({ name: 'Workshop 1', code: 'C1', points: { energy: 'f4' }, parentMeterId: main }),
      ),
    ).id;
    c2 = ok(
      await call(
        'POST',
        '/meter/create',
        standard({ name: 'Workshop 2', code: 'C2', points: { energy: 'c2 energy' }, parentMeterId: main }),
      ),
    ).id;
    const parent = ok(await call('GET', `/meter/get?id=${main}`));
    expect(parent.children.map((c: { code: string }) => c.code)).toEqual(['C1', 'C2']);
  });

  it('refuses each bad input naming its field, and writes nothing', async () => {
    const before = await counts();
    const cases: Array<[object, string, number]> = [
      [{ name: '' }, 'name', ERROR_CODES.VALIDATION],
      [{ name: 'x'.repeat(26) }, 'name', ERROR_CODES.VALIDATION],
      [{ code: 'M' }, 'code', ERROR_CODES.CONFLICT],
      [{ code: 'x'.repeat(26) }, 'code', ERROR_CODES.VALIDATION],
      [{ ctSecondary: 0 }, 'ctSecondary', ERROR_CODES.VALIDATION],
      [{ ptPrimary: -10 }, 'ptPrimary', ERROR_CODES.VALIDATION],
      [{ itemId: null }, 'itemId', ERROR_CODES.VALIDATION],
      [{ itemId: 2_000_000 }, 'itemId', ERROR_CODES.NOT_FOUND],
      [{ points: { power: 'f2' } }, 'points.energy', ERROR_CODES.VALIDATION],
      [{ points: { energy: 'note' } }, 'points.energy', ERROR_CODES.VALIDATION],
      [{ points: { energy: 'f1', voltageA: 'nope' } }, 'points.voltageA', ERROR_CODES.VALIDATION],
      [{ parentMeterId: 2_000_000 }, 'parentMeterId', ERROR_CODES.NOT_FOUND],
      [{ samplingId: 7 }, 'samplingId', ERROR_CODES.VALIDATION],
      [{ registerDigits: 0 }, 'registerDigits', ERROR_CODES.VALIDATION],
    ];
    for (const [over, field, code] of cases) {
      const answer = await call('POST', '/meter/create', standard({ code: 'NEW', ...over }));
      expect(answer.code, JSON.stringify(over)).toBe(code);
      expect(answer.data?.field ?? answer.data, JSON.stringify(over)).toBe(field);
    }
    const notNumeric = await call(
      'POST',
      '/meter/create',
      standard({ code: 'NEW', points: { energy: 'note' } }),
    );
    expect(notNumeric.message).toBe('points.energy: field note of the data item is not a number field');
    expect(await counts()).toEqual(before);
    // a meter never becomes its own parent
    expect(await call('POST', '/meter/update', { ...standard(), id: main, parentMeterId: c1 })).toMatchObject(
      {
        code: ERROR_CODES.VALIDATION,
        data: { field: 'parentMeterId' },
      },
    );
  });

  it('creates virtual meters from a formula and ready-made kinds; formula errors are named', async () => {
    const v = ok(
      await call('POST', '/meter/create', { name: 'Both', type: 100, code: 'V', formula: 'C1 + 2*C2' }),
    );
    expect(v).toMatchObject({ type: 100, kind: 'virtual', formula: 'C1 + 2*C2', refs: ['C1', 'C2'] });
    const loss = ok(
      await call('POST', '/meter/create', {
        name: 'Losses',
        type: 100,
        code: 'LOSS',
        preset: { kind: 'remainder', meterId: main },
      }),
    );
    expect(loss.formula).toBe('M - C1 - C2');
    const sum = ok(
      await call('POST', '/meter/create', {
        name: 'Sum',
        type: 100,
        code: 'SUM',
        preset: { kind: 'sum', meterId: main },
      }),
    );
    expect(sum.formula).toBe('C1 + C2');
    expect(
      await call('POST', '/meter/create', {
        name: 'None',
        type: 100,
        code: 'N',
        preset: { kind: 'sum', meterId: c1 },
      }),
    ).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'preset.meterId' } });

    const before = await counts();
    const unknown = await call('POST', '/meter/create', {
      name: 'Bad',
      type: 100,
      code: 'B1',
      formula: 'C1 + X9',
    });
    expect(unknown).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'formula: there is no meter X9 (position 6)',
      data: { field: 'formula', reason: 'unknownMeter', name: 'X9', at: 5 },
    });
    const syntax = await call('POST', '/meter/create', {
      name: 'Bad',
      type: 100,
      code: 'B1',
      formula: 'C1 + * 2',
    });
    expect(syntax).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'formula', reason: 'syntax' },
    });
    expect(typeof syntax.data.at).toBe('number');
    const unsupported = await call('POST', '/meter/create', {
      name: 'Bad',
      type: 100,
      code: 'B1',
      formula: 'C1.constructor',
    });
    expect(unsupported).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'formula', reason: 'unsupported' },
    });
    const self = await call('POST', '/meter/create', {
      name: 'Bad',
      type: 100,
      code: 'B1',
      formula: 'B1 + 1',
    });
    expect(self).toMatchObject({ data: { field: 'formula', reason: 'cycle', path: ['B1', 'B1'] } });
    expect(await counts()).toEqual(before);

    // a cycle through another virtual meter: V2 = V + 1, then V = V2 - C1
    ok(await call('POST', '/meter/create', { name: 'Plus one', type: 100, code: 'V2', formula: 'V + 1' }));
    const cycle = await call('POST', '/meter/update', {
      id: v.id,
      name: 'Both',
      type: 100,
      formula: 'V2 - C1',
    });
    expect(cycle).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'formula: the formula comes back to itself: V → V2 → V',
      data: { field: 'formula', reason: 'cycle', path: ['V', 'V2', 'V'] },
    });
    expect((await call('GET', `/meter/get?id=${v.id}`)).data.formula).toBe('C1 + 2*C2');

    // checked as it is typed, nothing saved
    expect(ok(await call('POST', '/meter/formula/check', { formula: 'abs(M - C1)' }))).toEqual({
      ok: true,
      refs: ['M', 'C1'],
      issue: null,
    });
    const typed = ok(await call('POST', '/meter/formula/check', { formula: 'M - Q', code: 'NEW' }));
    expect(typed).toMatchObject({
      ok: false,
      issue: {
        reason: 'unknownMeter',
        at: 4,
        name: 'Q',
        message: 'formula: there is no meter Q (position 5)',
      },
    });
    const typedCycle = ok(await call('POST', '/meter/formula/check', { formula: 'V2 * 2', id: v.id }));
    expect(typedCycle.issue).toMatchObject({ reason: 'cycle', path: ['V', 'V2', 'V'] });

    // a meter a formula names is not deleted
    expect(await call('POST', '/meter/delete', { id: c1 })).toMatchObject({ code: ERROR_CODES.CONFLICT });
    expect(await t.db.select().from(meters).where(eq(meters.nodeId, c1))).toHaveLength(1);
    // nor through the data cabin's delete
    expect(await call('POST', '/smartdata/cabin/delete', { ids: [c1] })).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: expect.stringMatching(/^Meter Workshop 1 is used by the formula of /),
    });
    expect(await t.db.select().from(meters).where(eq(meters.nodeId, c1))).toHaveLength(1);
  });

  it('the data cabin makes no bare meter node, and deletes a meter with the formulas naming it only together', async () => {
    const before = await counts();
    expect(await call('POST', '/smartdata/cabin/create', { type: 'meter', name: 'bare' })).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'type' },
    });
    expect(await counts()).toEqual(before);

    const named = ok(await call('POST', '/meter/create', standard({ name: 'Spare', code: 'T1' })));
    const user = ok(
      await call('POST', '/meter/create', { name: 'Twice spare', type: 100, code: 'TV', formula: 'T1 * 2' }),
    );
    expect(await call('POST', '/smartdata/cabin/delete', { ids: [named.id] })).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'Meter Spare is used by the formula of Twice spare: change that formula first',
    });
    expect(await counts()).toEqual({ meters: before.meters + 2, nodes: before.nodes + 2 });
    ok(await call('POST', '/smartdata/cabin/delete', { ids: [named.id, user.id] }));
    expect(await counts()).toEqual(before);
  });
});

describe('time-of-use', () => {
  it('refuses gaps, overlaps and bad ranges naming them; warns about prices', async () => {
    const gap = await call('POST', '/meter/tou/save', {
      schedule: { valley: [{ from: 0, to: 8 }], flat: [{ from: 8, to: 23 }] },
      prices: {},
    });
    expect(gap).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'schedule: no period covers 23:00 to 24:00',
      data: { field: 'schedule', reason: 'gap', from: 23, to: 24 },
    });
    const overlap = await call('POST', '/meter/tou/save', {
      schedule: { valley: [{ from: 0, to: 8 }], flat: [{ from: 7.5, to: 24 }] },
      prices: {},
    });
    expect(overlap).toMatchObject({
      message: 'schedule: 07:30 to 08:00 is in both flat and valley',
      data: { field: 'schedule', reason: 'overlap', from: 7.5, to: 8 },
    });
    const range = await call('POST', '/meter/tou/save', {
      schedule: { valley: [{ from: 0, to: 24 }], peak: [{ from: 8, to: 8 }] },
      prices: {},
    });
    expect(range).toMatchObject({ data: { field: 'schedule.peak[0]', reason: 'range' } });
    // a member without the company settings code cannot change it, but reads it
    expect(
      (await callAs(a.limited.token, 'POST', '/meter/tou/save', { schedule: {}, prices: {} })).code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    expect(ok(await callAs(a.limited.token, 'GET', '/meter/tou'))).toMatchObject({
      schedule: {},
      updatedAt: null,
    });

    const saved = ok(
      await call('POST', '/meter/tou/save', {
        schedule: {
          valley: [{ from: 23, to: 7 }],
          flat: [
            { from: 7, to: 10 },
            { from: 15, to: 18 },
            { from: 21, to: 23 },
          ],
          peak: [
            { from: 10, to: 12 },
            { from: 18, to: 21 },
          ],
          sharp: [{ from: 12, to: 15 }],
        },
        prices: { sharp: 150, peak: 90, flat: 70, valley: 40 },
      }),
    );
    expect(saved.warnings).toEqual([{ key: 'peakValleyRatio', ratio: 2.25, min: 3 }]);
    const fixed = ok(
      await call('POST', '/meter/tou/save', {
        ...saved,
        prices: { sharp: 150, peak: 120, flat: 70, valley: 30 },
      }),
    );
    expect(fixed.warnings).toEqual([]);
    expect(ok(await callAs(a.limited.token, 'GET', '/meter/tou')).prices).toEqual({
      sharp: 150,
      peak: 120,
      flat: 70,
      valley: 30,
    });
  });

  it('splits a day’s energy by period and prices it, as computed by hand', async () => {
    const day = await makeItem(t, a.id, { name: 'tou meter', kind: 13, fields: FIELDS });
    await makeRecords(t, a.id, day.itemId, [
      { ts: local(2026, 11, 2, 0), values: { f1: 1000 } },
      { ts: local(2026, 11, 2, 7), values: { f1: 1070 } },
      { ts: local(2026, 11, 2, 11), values: { f1: 1110 } },
      { ts: local(2026, 11, 2, 12), values: { f1: 1120 } },
      { ts: local(2026, 11, 2, 15), values: { f1: 1150 } },
      { ts: local(2026, 11, 3, 0), values: { f1: 1240 } },
    ]);
    const m = ok(
      await call('POST', '/meter/create', {
        name: 'TOU',
        type: 101,
        code: 'T',
        itemId: day.itemId,
        points: { energy: 'f1' },
      }),
    );
    const energy = ok(await call('GET', `/meter/energy?id=${m.id}&grain=day&from=2026-11-02&to=2026-11-03`));
    const [d2, d3] = energy.periods;
    // 00-07 valley 70; 07-11: 40 over 4 h, flat 3 h = 30, peak 1 h = 10; 11-12 peak 10; 12-15 sharp 30;
    // 15-24: 90 over 9 h, flat 15-18 30, peak 18-21 30, flat 21-23 20, valley 23-24 10
    expect(d2).toMatchObject({
      label: '2026-11-02',
      opening: { value: 1000 },
      closing: { value: 1240 },
      kWh: 240,
      tou: { sharp: 30, peak: 50, flat: 80, valley: 80 },
      cents: { sharp: 4500, peak: 6000, flat: 5600, valley: 2400 },
      totalCents: 18500,
    });
    expect(d3).toMatchObject({ label: '2026-11-03', kWh: 0, totalCents: 0 });
    expect(energy.total).toMatchObject({ kWh: 240, totalCents: 18500 });
    expect(energy.issues).toEqual([]);
  });
});

describe('the monthly report', () => {
  it('reports the reference month: 12345.67 → 12678.90 with CT 200/5 and PT 10000/100 is 1,332,920 kWh', async () => {
    const r = ok(await call('GET', `/meter/report?meterId=${main}&year=2026&month=10`));
    expect(r).toMatchObject({
      meter: { code: 'M', ct: 40, pt: 100, multiplier: 4000 },
      opening: { at: local(2026, 10, 1), value: 12345.67 },
      closing: { at: local(2026, 11, 1), value: 12678.9 },
      kWh: 1332920,
      from: local(2026, 10, 1),
      to: local(2026, 11, 1),
    });
    // spread evenly over the month by the company's hours: the periods add up to the month
    const touSum = r.tou.reduce((s: number, p: { kWh: number }) => s + p.kWh, 0);
    expect(touSum).toBeCloseTo(1332920, 2);
    expect(r.totalCents).toBe(r.tou.reduce((s: number, p: { cents: number }) => s + p.cents, 0));
    // the parent against its children: 800,000 + 400,000 kWh, 132,920 kWh (9.97 %) unaccounted
    expect(r.balance).toMatchObject({
      children: [
        { code: 'C1', kWh: 800000 },
        { code: 'C2', kWh: 400000 },
      ],
      childrenKWh: 1200000,
      difference: 132920,
      percent: 9.97,
    });
    const loss = (await t.db.select().from(meters).where(eq(meters.code, 'LOSS')))[0]!;
    const virtual = ok(await call('GET', `/meter/report?meterId=${loss.nodeId}&year=2026&month=10`));
    expect(virtual).toMatchObject({ kWh: 132920, opening: null, closing: null, balance: null });
    const both = (await t.db.select().from(meters).where(eq(meters.code, 'V')))[0]!;
    expect(ok(await call('GET', `/meter/report?meterId=${both.nodeId}&year=2026&month=10`)).kWh).toBe(
      1600000,
    );
  });

  it('downloads the report as XLSX with the same numbers', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/general/meter/report/export?meterId=${main}&year=2026&month=10`,
      headers: { ...bearer(a.admin.token), 'accept-language': 'en' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = new Map<string, unknown[]>();
    book.worksheets[0]!.eachRow((row) => {
      rows.set(String(row.getCell(1).value), [row.getCell(2).value, row.getCell(3).value]);
    });
    expect(rows.get('Energy (kWh)')).toEqual([1332920, null]);
    expect(rows.get('Reading at month start')?.[0]).toBe(12345.67);
    expect(rows.get('Child meters in all')).toEqual([null, 1200000]);
    expect(rows.get('Difference (%)')).toEqual([null, 9.97]);
  });

  it('downloads the report as a PDF with the same numbers, in Chinese and in English', async () => {
    const download = (lang: 'zh' | 'en', token = a.admin.token, id = main) =>
      t.app.inject({
        method: 'GET',
        url: `/general/meter/report/pdf?meterId=${id}&year=2026&month=10`,
        headers: { ...bearer(token), 'accept-language': lang },
      });
    const zh = await download('zh');
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['content-type']).toBe('application/pdf');
    expect(zh.headers['content-disposition']).toContain('attachment;');
    expect(zh.headers['content-disposition']).toContain(
      `filename*=UTF-8''${encodeURIComponent('Main meter-2026-10.pdf')}`,
    );
    expect(zh.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const zhText = pdfText(zh.rawPayload);
    for (const expected of [
      '电表月报 · Main meter',
      '2026-10',
      '标准电表',
      '月初读数',
      '12,345.67',
      '12,678.9',
      '2026-10-01 00:00',
      '2026-11-01 00:00',
      'CT 变比',
      '40',
      '4,000',
      '1,332,920 kWh',
      '分时电量与电费',
      '谷',
      '合计',
      'Workshop 1',
      '800,000',
      '400,000',
      '下级电表合计',
      '1,200,000',
      '132,920',
      '9.97 %',
      '第 1 页，共 1 页',
    ])
      expect(zhText).toContain(expected);
    expect(pdfPageCount(zh.rawPayload)).toBe(1);

    const en = await download('en');
    expect(en.statusCode).toBe(200);
    const enText = pdfText(en.rawPayload);
    for (const expected of [
      'Meter monthly report · Main meter',
      'standard meter',
      'Reading at month start',
      '12,345.67',
      '1,332,920 kWh',
      'valley',
      'Child meters in all',
      '9.97 %',
      'Page 1 of 1',
    ])
      expect(enText).toContain(expected);
    expect(enText).not.toContain('月初读数');

    // a virtual meter: its formula instead of readings, no balance
    const loss = (await t.db.select().from(meters).where(eq(meters.code, 'LOSS')))[0]!;
    const virtual = pdfText((await download('en', a.admin.token, loss.nodeId)).rawPayload);
    expect(virtual).toContain('virtual meter');
    expect(virtual).toContain('132,920 kWh');
    expect(virtual).not.toContain('Reading at month start');
    expect(virtual).not.toContain('Child meters in all');

    // another company's meter: 40400 as JSON, no PDF
    const other = await download('en', b.admin.token);
    expect(other.headers['content-type']).not.toContain('application/pdf');
    expect(other.json().code).toBe(ERROR_CODES.NOT_FOUND);
    expect(other.body).not.toContain('%PDF-');
    expect(other.body).not.toContain('12345');
  });

  it('counts a replacement across the month with each meter’s ratios, and logs it', async () => {
    const rep = await makeItem(t, a.id, { name: 'replaced', kind: 13, fields: FIELDS });
    await makeRecords(t, a.id, rep.itemId, [
      { ts: local(2026, 10, 1), values: { f1: 500 } },
      { ts: local(2026, 10, 10), values: { f1: 600 } },
      { ts: local(2026, 10, 20), values: { f1: 30 } },
      { ts: local(2026, 11, 1), values: { f1: 100 } },
    ]);
    const m = ok(
      await call('POST', '/meter/create', {
        name: 'Replaced',
        type: 101,
        code: 'R',
        itemId: rep.itemId,
        points: { energy: 'f1' },
      }),
    );
    const at = local(2026, 10, 15, 12);
    const replace = (over: object) =>
      call('POST', '/meter/replace', {
        id: m.id,
        at,
        oldFinal: 650,
        newInitial: 0,
        ctPrimary: 2,
        ctSecondary: 1,
        ...over,
      });
    expect(await replace({ oldFinal: 590 })).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      message: 'oldFinal: the old meter’s final reading is below its last reading 600',
      data: { field: 'oldFinal' },
    });
    expect(await replace({ newInitial: 40 })).toMatchObject({ data: { field: 'newInitial' } });
    expect(await replace({ ctSecondary: 0 })).toMatchObject({ data: { field: 'ctSecondary' } });
    expect(await t.db.select().from(meterEvents).where(eq(meterEvents.kind, 'replacement'))).toHaveLength(0);
    // the old register 500 → 650 at ×1, the new 0 → 100 at CT 2/1
    expect(ok(await replace({}))).toEqual({ kWhAround: 150 - 100 + 30 * 2, oldKWh: 50, newKWh: 60 });
    expect((await replace({})).code).toBe(ERROR_CODES.CONFLICT);
    expect(await replace({ at: local(2026, 10, 12) })).toMatchObject({ data: { field: 'at' } });
    const r = ok(await call('GET', `/meter/report?meterId=${m.id}&year=2026&month=10`));
    const expected = energyAcrossReplacement(
      [
        { at: Date.parse(local(2026, 10, 1)), value: 500 },
        { at: Date.parse(local(2026, 10, 10)), value: 600 },
        { at: Date.parse(local(2026, 10, 20)), value: 30 },
        { at: Date.parse(local(2026, 11, 1)), value: 100 },
      ],
      { at: Date.parse(at), oldFinal: 650, newInitial: 0 },
      { ct: 1, pt: 1 },
      { ct: 2, pt: 1 },
    );
    expect(expected).toMatchObject({ ok: true, kWh: 350 });
    expect(r).toMatchObject({
      kWh: 350,
      meter: { ct: 2, multiplier: 2 },
      opening: { value: 500 },
      closing: { value: 100 },
    });
    expect(r.events).toEqual([
      expect.objectContaining({
        kind: 'replacement',
        at,
        details: expect.objectContaining({ oldFinal: 650, newInitial: 0 }),
      }),
    ]);
    const log = ok(await call('GET', `/meter/log?id=${m.id}`));
    expect(log).toEqual([
      expect.objectContaining({ kind: 'replacement', at, createdBy: 'Meters A admin', meterCode: 'R' }),
    ]);
    // days either side keep their own ratios: the 1st to the 10th at ×1, the 20th to the 1st at ×2
    const days = ok(await call('GET', `/meter/energy?id=${m.id}&grain=month&from=2026-10&to=2026-11`));
    expect(days.periods.map((p: { kWh: number | null }) => p.kWh)).toEqual([350, 0]);
  });

  it('counts and logs a register rollover once; refuses a decrease it cannot explain', async () => {
    const roll = await makeItem(t, a.id, { name: 'rolling', kind: 13, fields: FIELDS });
    await makeRecords(t, a.id, roll.itemId, [
      { ts: local(2026, 11, 1), values: { f1: 9990 } },
      { ts: local(2026, 11, 1, 12), values: { f1: 9999 } },
      { ts: local(2026, 11, 2), values: { f1: 15 } },
    ]);
    const m = ok(
      await call('POST', '/meter/create', {
        name: 'Rolling',
        type: 101,
        code: 'W',
        itemId: roll.itemId,
        points: { energy: 'f1' },
        registerDigits: 4,
      }),
    );
    for (let i = 0; i < 2; i++) {
      const e = ok(await call('GET', `/meter/energy?id=${m.id}&grain=day&from=2026-11-01&to=2026-11-01`));
      expect(e.periods[0].kWh).toBe(9 + 16);
      expect(e.issues).toEqual([]);
    }
    const log = ok(await call('GET', `/meter/log?id=${m.id}`));
    expect(log).toEqual([
      expect.objectContaining({
        kind: 'rollover',
        at: local(2026, 11, 2),
        details: { previous: 9999, next: 15, capacity: 10000 },
        createdBy: 'Meters A admin',
      }),
    ]);
    // without register digits the same decrease is an issue and counts nothing
    ok(
      await call('POST', '/meter/update', {
        id: m.id,
        name: 'Rolling',
        type: 101,
        code: 'W',
        itemId: roll.itemId,
        points: { energy: 'f1' },
        registerDigits: null,
      }),
    );
    const e = ok(await call('GET', `/meter/energy?id=${m.id}&grain=day&from=2026-11-01&to=2026-11-01`));
    expect(e.periods[0].kWh).toBe(9);
    expect(e.issues).toEqual([{ meter: 'W', reason: 'decrease', at: local(2026, 11, 2) }]);
  });

  it('gives the live value of each bound point with its time', async () => {
    const live = ok(await call('GET', `/meter/live?id=${main}`));
    expect(live.points).toEqual([
      { point: 'energy', field: 'f1', value: 12678.9, at: local(2026, 11, 1) },
      { point: 'power', field: 'f2', value: 320.25, at: local(2026, 11, 1) },
    ]);
  });
});

describe('list, rename and system maintenance', () => {
  it('lists, renames through update (the cabin node follows) and shows every company’s meters to the platform', async () => {
    const listed = ok(await call('GET', '/meter/list'));
    expect(listed.map((m: { code: string }) => m.code)).toEqual(
      expect.arrayContaining(['C1', 'C2', 'LOSS', 'M', 'R', 'SUM', 'T', 'V', 'V2', 'W']),
    );
    ok(await call('POST', '/meter/update', { ...standard(), id: main, name: 'Main incomer' }));
    const [node] = await t.db.select().from(cabinNodes).where(eq(cabinNodes.id, main));
    expect(node!.name).toBe('Main incomer');
    // the code is kept while formulas name it
    expect(await call('POST', '/meter/update', { ...standard(), id: main, code: 'MAIN' })).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      data: { field: 'code' },
    });
    expect((await callAs(a.admin.token, 'GET', '/system/meter/list')).code).toBe(ERROR_CODES.FORBIDDEN);
    const platform = await makeCompany(t, 'Platform operator', { isPlatform: true });
    const all = ok(
      await callAs(platform.admin.token, 'GET', `/system/meter/list?companyId=${a.id}&pageSize=100`),
    );
    expect(all.map((m: { code: string }) => m.code)).toContain('M');
    const log = ok(await callAs(platform.admin.token, 'GET', `/system/meter/log?companyId=${a.id}`));
    expect(log.map((e: { kind: string }) => e.kind).sort()).toEqual(['replacement', 'rollover']);
  });
});

describe('permissions and other companies', () => {
  it('keeps company A’s meters from company B', async () => {
    const before = await t.db.select().from(meters).where(eq(meters.nodeId, main));
    const asB = (method: 'GET' | 'POST', url: string, payload?: object) =>
      callAs(b.admin.token, method, url, payload);
    for (const answer of [
      await asB('GET', `/meter/get?id=${main}`),
      await asB('POST', '/meter/update', { ...standard(), id: main, name: 'stolen' }),
      await asB('POST', '/meter/delete', { id: main }),
      await asB('GET', `/meter/report?meterId=${main}&year=2026&month=10`),
      await asB('GET', `/meter/energy?id=${main}&grain=day&from=2026-10-01&to=2026-10-02`),
      await asB('GET', `/meter/live?id=${main}`),
      await asB('POST', '/meter/replace', { id: main, at: local(2026, 10, 5), oldFinal: 1, newInitial: 0 }),
    ]) {
      expect(answer.code).toBe(ERROR_CODES.NOT_FOUND);
      expect(JSON.stringify(answer)).not.toContain('12345');
    }
    // binding A's data item to B's own meter: an item of another company is not found
    const bind = await asB('POST', '/meter/create', standard({ code: 'B-OWN' }));
    expect(bind).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    // B's formula cannot name A's meters
    expect(await asB('POST', '/meter/formula/check', { formula: 'M + C1' })).toMatchObject({
      data: { ok: false, issue: { reason: 'unknownMeter', name: 'M' } },
    });
    expect(ok(await asB('GET', '/meter/list'))).toEqual([]);
    expect(await t.db.select().from(meters).where(eq(meters.companyId, b.id))).toHaveLength(0);
    expect(await t.db.select().from(meters).where(eq(meters.nodeId, main))).toEqual(before);
  });

  it('follows the meter node’s data permission', async () => {
    const asLimited = (method: 'GET' | 'POST', url: string, payload?: object) =>
      callAs(a.limited.token, method, url, payload);
    // read only: reads, cannot change
    await setPermissions(t, c2, [{ scope: 'user', subjectId: a.limited.id, level: DATA_PERMISSION.read }]);
    expect(ok(await asLimited('GET', `/meter/get?id=${c2}`)).level).toBe(DATA_PERMISSION.read);
    expect(
      (
        await asLimited('POST', '/meter/update', {
          ...standard({ code: 'C2', points: { energy: 'f5' } }),
          id: c2,
        })
      ).code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    expect((await asLimited('POST', '/meter/delete', { id: c2 })).code).toBe(ERROR_CODES.FORBIDDEN);
    // no permission: as if absent, and a report that needs it is refused
    await setPermissions(t, c2, [{ scope: 'company', subjectId: null, level: DATA_PERMISSION.none }]);
    expect((await asLimited('GET', `/meter/get?id=${c2}`)).code).toBe(ERROR_CODES.NOT_FOUND);
    expect((await asLimited('GET', `/meter/report?meterId=${c2}&year=2026&month=10`)).code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    expect(ok(await asLimited('GET', '/meter/list')).map((m: { code: string }) => m.code)).not.toContain(
      'C2',
    );
    // the parent's report balances against C2 too: refused rather than short
    expect((await asLimited('GET', `/meter/report?meterId=${main}&year=2026&month=10`)).code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    // and so is its PDF
    expect((await asLimited('GET', `/meter/report/pdf?meterId=${main}&year=2026&month=10`)).code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    // the administrator still reads it
    expect(ok(await call('GET', `/meter/get?id=${c2}`)).code).toBe('C2');
  });

  it('refuses a caller without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/general/meter/get?id=${main}` });
    expect(res.json().code).toBe(ERROR_CODES.TOKEN_INVALID);
  });
});
