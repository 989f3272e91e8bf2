import { DATA_PERMISSION, ERROR_CODES, rangeBounds, startOfDay } from '@platform/domain';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { inflatedStreams } from '../../test/pdf';
import { acquireSql } from '../analysis/acquire';
import { makeItem, SAMPLE_FIELDS, setPermissions } from '../cabin/test-support';
import { makeRecords } from '../records/test-support';
import { reportFont } from './report-export';
import { makeReport } from './report-route-cases';
import { templates } from './tables';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
/** company A's item 温度 f1 / count f2 / note f3 with records; company B's item */
let itemA: number;
let itemANode: number;
let itemB: number;

const JAN = '2026-01-01T00:00:00Z';
const FEB = '2026-02-01T00:00:00Z';

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '10000' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
  const made = await makeItem(t, a.id, { fields: SAMPLE_FIELDS, name: '锅炉房' });
  itemA = made.itemId;
  itemANode = made.nodeId;
  await makeRecords(t, a.id, itemA, [
    { ts: '2026-01-05T02:00:00Z', values: { f1: 10.5, f2: 3, f3: 'a' } },
    { ts: '2026-01-20T02:00:00Z', values: { f1: 20.25, f2: 4, f3: 'b' } },
    { ts: '2026-02-10T02:00:00Z', values: { f1: 7, f2: 5, f3: 'c' } },
  ]);
  itemB = (await makeItem(t, b.id, { fields: SAMPLE_FIELDS, name: 'beta item' })).itemId;
  await makeRecords(t, b.id, itemB, [{ ts: '2026-01-05T02:00:00Z', values: { f1: 999 } }]);
});
afterAll(() => t.close());

function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/general/smartdata/report${url}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
}

/** 锅炉房月报: merged title, a label column and three bindings over item A. */
function monthly(itemId = itemA) {
  return {
    title: '锅炉房月报',
    rows: 4,
    cols: 3,
    colWidths: [160, 120, 120],
    merges: [{ row: 0, col: 0, rowSpan: 1, colSpan: 3 }],
    cells: [
      { row: 0, col: 0, kind: 'text', text: '锅炉房 一月' },
      { row: 1, col: 0, kind: 'text', text: '一月温度合计' },
      {
        row: 1,
        col: 1,
        kind: 'bind',
        itemId,
        field: 'f1',
        method: 'rangeSum',
        range: 'period',
        from: JAN,
        to: FEB,
        decimals: 2,
      },
      { row: 2, col: 0, kind: 'text', text: '最新温度' },
      { row: 2, col: 1, kind: 'bind', itemId, field: 'f1', method: 'latest' },
      { row: 3, col: 0, kind: 'text', text: '一月最大计数' },
      {
        row: 3,
        col: 1,
        kind: 'bind',
        itemId,
        field: 'f2',
        method: 'rangeMax',
        range: 'period',
        from: JAN,
        to: FEB,
      },
    ],
  };
}

async function contentOf(templateId: number) {
  const [row] = await t.db.select().from(templates).where(eq(templates.id, templateId));
  return row!;
}

describe('report templates', () => {
  it('gets a report never saved as an empty 10 × 6 grid with the node name', async () => {
    const { nodeId } = await makeReport(t, a.id, { name: '空报表' });
    const res = await call('GET', `/get?id=${nodeId}`, a.admin.token);
    expect(res.json()).toMatchObject({
      code: 0,
      data: {
        id: nodeId,
        name: '空报表',
        level: DATA_PERMISSION.admin,
        template: { title: '', rows: 10, cols: 6, cells: [], merges: [] },
      },
    });
  });

  it('saves, gets back the normalised template and previews the values the acquisition code computes', async () => {
    const { nodeId, templateId } = await makeReport(t, a.id);
    const saved = await call('POST', '/save', a.admin.token, { id: nodeId, template: monthly() });
    expect(saved.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    expect((await contentOf(templateId)).updatedBy).toBe(a.admin.id);

    const got = (await call('GET', `/get?id=${nodeId}`, a.admin.token)).json().data;
    expect(got.template.cells).toHaveLength(7);
    expect(got.template.cells[2]).toEqual({
      row: 1,
      col: 1,
      kind: 'bind',
      itemId: itemA,
      field: 'f1',
      method: 'rangeSum',
      range: 'period',
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-02-01T00:00:00.000Z',
      decimals: 2,
    });

    const res = await call('GET', `/preview?id=${nodeId}`, a.admin.token);
    const preview = res.json().data;
    expect(preview).toMatchObject({ id: nodeId, name: '日报', title: '锅炉房月报', rows: 4, cols: 3 });
    expect(preview.grid[0]).toEqual([
      { kind: 'text', text: '锅炉房 一月', rowSpan: 1, colSpan: 3 },
      { kind: 'covered' },
      { kind: 'covered' },
    ]);
    expect(preview.grid[1][1]).toEqual({
      kind: 'value',
      text: '30.75',
      value: 30.75,
      decimals: 2,
      rowSpan: 1,
      colSpan: 1,
    });
    // no decimals of its own: 温度's two places; count is an integer field, shown as computed
    expect(preview.grid[2][1]).toMatchObject({ kind: 'value', text: '7.00', value: 7, decimals: 2 });
    expect(preview.grid[3][1]).toMatchObject({ kind: 'value', text: '4', value: 4 });
    expect(preview.grid[3][1].decimals).toBeUndefined();
    // the very same numbers as the analysis scheduler's code over the same records
    const now = new Date(preview.generatedAt);
    expect(
      await acquireSql(t.db, {
        itemId: itemA,
        field: 'f1',
        method: 'rangeSum',
        range: 'period',
        from: JAN,
        to: FEB,
        now,
      }),
    ).toBe(30.75);
    expect(await acquireSql(t.db, { itemId: itemA, field: 'f1', method: 'latest', now })).toBe(7);
  });

  it('names the bad part of a template and writes nothing', async () => {
    const { nodeId, templateId } = await makeReport(t, a.id);
    const before = await contentOf(templateId);
    const refused = async (template: unknown, field: string, key = ERROR_CODES.VALIDATION) => {
      const res = await call('POST', '/save', a.admin.token, { id: nodeId, template });
      expect(res.json()).toMatchObject({ code: key, data: { field } });
      expect(await contentOf(templateId)).toEqual(before);
      return res.json();
    };
    const m = monthly();
    const cell = (i: number, change: object) => ({
      ...m,
      cells: m.cells.map((c, j) => (j === i ? { ...c, ...change } : c)),
    });
    await refused({ ...m, rows: 101 }, 'template.rows');
    expect((await refused(cell(2, { method: 'median' }), 'template.cells.2.method')).message).toBe(
      'Invalid value for template.cells.2.method',
    );
    await refused(cell(4, { field: 'f3' }), 'template.cells.4.field'); // text, not a number
    await refused(cell(4, { field: 'f9' }), 'template.cells.4.field'); // no such field
    await refused(cell(6, { itemId: itemB }), 'template.cells.6.itemId'); // another company's item
    await refused(cell(6, { itemId: 987654 }), 'template.cells.6.itemId');
    await refused(cell(2, { range: undefined }), 'template.cells.2.range');
    await refused({ ...m, merges: [{ row: 1, col: 0, rowSpan: 2, colSpan: 1 }] }, 'template.cells.3');
    await refused('grid', 'template');
  });

  it("shows an average with its field's decimals, not as computed", async () => {
    const template = {
      ...monthly(),
      rows: 1,
      cols: 2,
      colWidths: [160, 120],
      merges: [],
      cells: [
        { row: 0, col: 0, kind: 'text', text: '一月平均温度' },
        {
          row: 0,
          col: 1,
          kind: 'bind',
          itemId: itemA,
          field: 'f1',
          method: 'rangeAvg',
          range: 'period',
          from: JAN,
          to: FEB,
        },
      ],
    };
    const { nodeId } = await makeReport(t, a.id, { name: '均值', template });
    const preview = (await call('GET', `/preview?id=${nodeId}`, a.admin.token)).json().data;
    // (10.5 + 20.25) / 2 = 15.375, 温度 has 2 decimals
    expect(preview.grid[0][1]).toMatchObject({ kind: 'value', text: '15.38', value: 15.375, decimals: 2 });
  });

  it('exports the filled report as XLSX: numbers as numbers with their decimals, merges kept', async () => {
    const { nodeId } = await makeReport(t, a.id, { name: '月报', template: monthly() });
    const res = await call('GET', `/export?id=${nodeId}&format=xlsx`, a.admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('月报'));
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('月报');
    expect(sheet.getCell('A1').value).toBe('锅炉房月报'); // title row
    expect(sheet.getCell('A2').value).toBe('锅炉房 一月');
    expect(sheet.getCell('C2').isMerged).toBe(true);
    expect(sheet.getCell('A3').value).toBe('一月温度合计');
    expect(sheet.getCell('B3').value).toBe(30.75);
    expect(sheet.getCell('B3').numFmt).toBe('0.00');
    expect(sheet.getCell('B4').value).toBe(7);
    expect(sheet.getCell('B4').numFmt).toBe('0.00'); // the field's decimals
    expect(sheet.getCell('B5').value).toBe(4);
    expect(sheet.getColumn(1).width).toBeGreaterThan(sheet.getColumn(2).width!);
  });

  it('carries cell styles to the preview, the XLSX and the PDF', async () => {
    const m = monthly();
    const template = {
      ...m,
      cells: [
        ...m.cells.map((c) =>
          c.row === 0 && c.col === 0 ? { ...c, style: { bold: true, align: 'center', fill: '#FFE58F' } } : c,
        ),
        // an empty cell that only carries a fill
        { row: 3, col: 2, kind: 'text', text: '', style: { fill: '#d9f7be' } },
      ].map((c) => (c.row === 1 && c.col === 1 ? { ...c, style: { align: 'center' } } : c)),
    };
    const { nodeId } = await makeReport(t, a.id, { name: '样式', template });
    const preview = (await call('GET', `/preview?id=${nodeId}`, a.admin.token)).json().data;
    expect(preview.grid[0][0]).toMatchObject({ style: { bold: true, align: 'center', fill: '#ffe58f' } });
    expect(preview.grid[1][1]).toMatchObject({ kind: 'value', style: { align: 'center' } });

    const book = new ExcelJS.Workbook();
    await book.xlsx.load(
      (await call('GET', `/export?id=${nodeId}&format=xlsx`, a.admin.token)).rawPayload as never,
    );
    const sheet = book.worksheets[0]!;
    const head = sheet.getCell('A2'); // under the title row
    expect(head.font?.bold).toBe(true);
    expect(head.alignment?.horizontal).toBe('center');
    expect(head.fill).toMatchObject({ type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFE58F' } });
    expect(sheet.getCell('B3').alignment?.horizontal).toBe('center');
    expect(sheet.getCell('B4').alignment?.horizontal).toBe('right'); // a number without a style
    expect(sheet.getCell('A3').font?.bold).toBeFalsy();
    expect(sheet.getCell('C5').fill).toMatchObject({ fgColor: { argb: 'FFD9F7BE' } });

    const pdf = inflatedStreams(
      (await call('GET', `/export?id=${nodeId}&format=pdf`, a.admin.token)).rawPayload,
    );
    // the fills as RGB fill colours (pdfkit writes each part / 255 as JavaScript prints it), bold
    // as fill+stroke text
    const rgb = (r: number, g: number, b: number) => `${[r, g, b].map((v) => v / 255).join(' ')} scn`;
    expect(pdf).toContain(rgb(255, 229, 143));
    expect(pdf).toContain(rgb(217, 247, 190));
    expect(pdf).toMatch(/\b2 Tr\b/);
  });

  it('exports PDF with an embedded CJK font that maps the Chinese text', async () => {
    expect(reportFont().cjk).toBe(true);
    const { nodeId } = await makeReport(t, a.id, { name: '月报', template: monthly() });
    const res = await call('GET', `/export?id=${nodeId}&format=pdf`, a.admin.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = inflatedStreams(pdf);
    // the subset font's ToUnicode map carries the characters drawn: 锅 (U+9505) 炉 (U+7089) 报 (U+62A5)
    expect(pdf.toString('latin1')).toMatch(/NotoSansHans/);
    for (const code of ['9505', '7089', '62a5', '6708']) expect(text.toLowerCase()).toContain(`<${code}>`);
  });

  it('lays a 100 × 30 grid out on landscape pages, columns scaled to the page', async () => {
    const cells = Array.from({ length: 100 }, (_, r) => ({
      row: r,
      col: 0,
      kind: 'text',
      text: `第${r + 1}行 温度`,
    }));
    const template = {
      title: '大报表',
      rows: 100,
      cols: 30,
      colWidths: Array(30).fill(200),
      cells,
      merges: [],
    };
    const { nodeId } = await makeReport(t, a.id, { name: '大报表', template });
    const res = await call('GET', `/export?id=${nodeId}&format=pdf`, a.admin.token);
    expect(res.statusCode).toBe(200);
    const raw = res.rawPayload.toString('latin1');
    const pages = raw.match(/\/Type \/Page\b/g) ?? [];
    expect(pages.length).toBeGreaterThan(2);
    // landscape A4: 841.89 wide
    expect(raw).toMatch(/\/MediaBox \[0 0 841\.89 595\.28\]/);
    const text = inflatedStreams(res.rawPayload).toLowerCase();
    expect(text).toContain('<7b2c>'); // 第
  });

  it('needs read level to see and export, write level to save', async () => {
    const { nodeId, templateId } = await makeReport(t, a.id, { template: monthly() });
    // limited user: read only on the report
    await setPermissions(t, nodeId, [
      { scope: 'user', subjectId: a.limited.id, level: DATA_PERMISSION.read },
    ]);
    expect((await call('GET', `/get?id=${nodeId}`, a.limited.token)).json()).toMatchObject({
      code: 0,
      data: { level: DATA_PERMISSION.read },
    });
    expect((await call('GET', `/preview?id=${nodeId}`, a.limited.token)).json().data.grid[2][1].value).toBe(
      7,
    );
    expect((await call('GET', `/export?id=${nodeId}&format=xlsx`, a.limited.token)).statusCode).toBe(200);
    const before = await contentOf(templateId);
    expect(
      (await call('POST', '/save', a.limited.token, { id: nodeId, template: { rows: 1, cols: 1 } })).json()
        .code,
    ).toBe(ERROR_CODES.FORBIDDEN);
    expect(await contentOf(templateId)).toEqual(before);

    // no permission: as if it did not exist
    await setPermissions(t, nodeId, [
      { scope: 'user', subjectId: a.limited.id, level: DATA_PERMISSION.none },
    ]);
    for (const url of [`/get?id=${nodeId}`, `/preview?id=${nodeId}`, `/export?id=${nodeId}&format=pdf`]) {
      expect((await call('GET', url, a.limited.token)).json()).toMatchObject({
        code: ERROR_CODES.NOT_FOUND,
        data: { field: 'id' },
      });
    }

    // write level saves
    await setPermissions(t, nodeId, [
      { scope: 'user', subjectId: a.limited.id, level: DATA_PERMISSION.write },
    ]);
    const ok = await call('POST', '/save', a.limited.token, { id: nodeId, template: { rows: 2, cols: 2 } });
    expect(ok.json().code).toBe(0);
    expect((await contentOf(templateId)).content).toMatchObject({ rows: 2, cols: 2, cells: [] });
  });

  it('shows no value for an item the viewer cannot read, and refuses binding it', async () => {
    const { nodeId } = await makeReport(t, a.id, { template: monthly() });
    await setPermissions(t, itemANode, [
      { scope: 'user', subjectId: a.limited.id, level: DATA_PERMISSION.none },
    ]);
    try {
      const res = await call('GET', `/preview?id=${nodeId}`, a.limited.token);
      const grid = res.json().data.grid;
      expect(grid[1][0]).toMatchObject({ kind: 'text', text: '一月温度合计' });
      for (const r of [1, 2, 3]) expect(grid[r][1]).toMatchObject({ kind: 'value', text: '', value: null });
      expect(res.body).not.toContain('30.75');
      const saved = await call('POST', '/save', a.limited.token, { id: nodeId, template: monthly() });
      expect(saved.json()).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field: 'template.cells.2.itemId' },
      });
    } finally {
      await setPermissions(t, itemANode, []);
      await t.db.execute(
        `UPDATE cabin_nodes SET permission_mode = 'inherit' WHERE id = ${itemANode}` as never,
      );
    }
  });

  it("never resolves another company's item, even when a template names one", async () => {
    // written straight into the table, as if the item had moved companies after saving
    const { nodeId } = await makeReport(t, a.id, { template: monthly(itemB) });
    const res = await call('GET', `/preview?id=${nodeId}`, a.admin.token);
    expect(res.json().code).toBe(0);
    expect(res.json().data.grid[2][1]).toMatchObject({ value: null, text: '' });
    expect(res.body).not.toContain('999');
    // and company B cannot open company A's report
    expect((await call('GET', `/preview?id=${nodeId}`, b.admin.token)).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
  });

  it('answers 40400 for a node that is not a report', async () => {
    const res = await call('GET', `/get?id=${itemANode}`, a.admin.token);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
  });
  it("counts the days of a report in the company's time zone", async () => {
    // the same two records in a Berlin company and a Shanghai company: one just after Berlin's
    // yesterday began, one just before Berlin's today began
    const now = Date.now();
    const berlinToday = startOfDay(now, 'Europe/Berlin');
    const berlinYesterday = startOfDay(berlinToday - 1, 'Europe/Berlin');
    const rows = [
      { ts: new Date(berlinYesterday + 60_000).toISOString(), values: { f1: 1 } },
      { ts: new Date(berlinToday - 60_000).toISOString(), values: { f1: 2 } },
    ];
    const yesterdaySum = async (company: TestCompany) => {
      const { itemId } = await makeItem(t, company.id, { fields: SAMPLE_FIELDS });
      await makeRecords(t, company.id, itemId, rows);
      const template = {
        title: 'zoned',
        rows: 1,
        cols: 1,
        colWidths: [120],
        merges: [],
        cells: [{ row: 0, col: 0, kind: 'bind', itemId, field: 'f1', method: 'totalYesterday' }],
      };
      const { nodeId } = await makeReport(t, company.id, { template: template as never });
      const preview = (await call('GET', `/preview?id=${nodeId}`, company.admin.token)).json().data;
      return { value: preview.grid[0][0].value as number | null, timeZone: preview.timeZone as string };
    };
    const berlin = await makeCompany(t, 'Zoned Berlin');
    const zoned = await t.app.inject({
      method: 'POST',
      url: '/general/company/updateCompany',
      payload: { timeZone: 'Europe/Berlin' },
      headers: bearer(berlin.admin.token),
    });
    expect(zoned.json().code).toBe(0);
    const shanghai = await makeCompany(t, 'Zoned Shanghai');
    // both records are in Berlin's yesterday; no Shanghai day holds both (they are 23 h 58 min
    // apart and Shanghai's days start 7 or 6 hours off Berlin's)
    expect(await yesterdaySum(berlin)).toEqual({ value: 3, timeZone: 'Europe/Berlin' });
    const window = rangeBounds('yesterday', now, 'Asia/Shanghai');
    const inShanghai = rows.filter((r) => Date.parse(r.ts) >= window.from && Date.parse(r.ts) < window.to);
    const expected = inShanghai.reduce((sum, r) => sum + r.values.f1, 0);
    expect(inShanghai.length).toBe(1);
    expect(await yesterdaySum(shanghai)).toEqual({ value: expected, timeZone: 'Asia/Shanghai' });
  });
});
