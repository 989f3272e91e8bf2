import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { SHEET_JOBS, SHEET_QUEUE, sheetWork } from '../records/spreadsheet';
import { multipartForm } from '../records/test-support';
import { ZIP_MAX_UNPACKED_BYTES } from '../records/zip-guard';
import { zipOf } from '../records/zip-test-support';
import { simCards } from './tables';
import { cardById, makeCard, testIccid } from './test-support';

let t: TestApp;
let a: TestCompany;
let p: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Import A');
  p = await makeCompany(t, 'Import Platform', { isPlatform: true });
});

afterAll(async () => {
  await t.close();
});

const COMPANY = '/general/devicecommunication/sim';
const SYSTEM = '/general/system/sim';

function upload(token: string, bytes: Buffer, base = COMPANY, filename = 'cards.csv') {
  const { payload, headers } = multipartForm({}, { bytes, filename });
  return t.app.inject({
    method: 'POST',
    url: `${base}/import`,
    payload,
    headers: { ...headers, ...bearer(token) },
  });
}

function download(token: string, url: string, lang = 'zh-CN') {
  return t.app.inject({ method: 'GET', url, headers: { ...bearer(token), 'accept-language': lang } });
}

async function byIccid(iccid: string) {
  const [card] = await t.db.select().from(simCards).where(eq(simCards.iccid, iccid));
  return card;
}

/** flips the last digit: the Luhn check digit no longer fits */
function wrongCheck(iccid: string): string {
  return `${iccid.slice(0, -1)}${(Number(iccid.at(-1)) + 1) % 10}`;
}

describe('import from CSV', () => {
  it('writes the good rows and reports each bad one with row, column and reason', async () => {
    const [g1, g2, g3, g4, g5, g6] = Array.from({ length: 6 }, () => testIccid());
    const csv = [
      'ICCID,运营商,状态,套餐(MB),号码,备注',
      `${g1},中国移动,正常,1024,1064812345678,泵房`,
      `${wrongCheck(g2!)},,,,,`,
      `${g2},联通,,,,`,
      `${g3},,停机中,,,`,
      `${g4},,,-5,,`,
      `${g5},,,,12345,`,
      `${g1},,,,,`,
      '8.98601E+19,,,,,',
      `"${g6!.replace(/(.{5})/g, '$1 ').trim()}",CMCC,4,2048MB,+86 138 0013 8000,"=HYPERLINK(""http://x"")"`,
    ].join('\r\n');
    const res = await upload(a.admin.token, Buffer.from(csv));
    const body = res.json();
    expect(body.code, res.body).toBe(0);
    expect(body.data).toMatchObject({ total: 9, inserted: 2, updated: 0 });
    expect(body.data.rejected).toEqual([
      { row: 3, column: 'iccid', message: 'ICCID 校验位不符，请核对卡号' },
      { row: 4, column: 'carrier', message: '该 ICCID 属于中国移动' },
      { row: 5, column: 'state', message: expect.stringContaining('状态无法识别') },
      { row: 6, column: 'planMb', message: '套餐须为 0 至 10000000 之间的 MB 数' },
      { row: 7, column: 'msisdn', message: expect.stringContaining('11 位') },
      { row: 8, column: 'iccid', message: '该 ICCID 已在第 2 行出现' },
      { row: 9, column: 'iccid', message: expect.stringContaining('表格软件已将其舍入') },
    ]);
    expect(await byIccid(g1!)).toMatchObject({
      companyId: a.id,
      carrier: 1,
      state: 1,
      planMb: 1024,
      msisdn: '1064812345678',
      notes: '泵房',
      assignedAt: expect.any(Date),
    });
    // state 4 is the list's second "none"; the formula stays text
    expect(await byIccid(g6!)).toMatchObject({
      carrier: 1,
      state: 0,
      planMb: 2048,
      msisdn: '13800138000',
      notes: '=HYPERLINK("http://x")',
    });
    for (const iccid of [g2, g3, g4, g5]) expect(await byIccid(iccid!)).toBeUndefined();
  });

  it('answers in English with the reasons in English', async () => {
    const csv = `iccid,plan\n${testIccid()},lots\n`;
    const { payload, headers } = multipartForm({}, { bytes: Buffer.from(csv) });
    const res = await t.app.inject({
      method: 'POST',
      url: `${COMPANY}/import`,
      payload,
      headers: { ...headers, ...bearer(a.admin.token), 'accept-language': 'en' },
    });
    expect(res.json().data.rejected).toEqual([
      { row: 2, column: 'planMb', message: 'The plan is a number of MB from 0 to 10000000' },
    ]);
  });

  it('updates the cells a row fills on the company’s own cards, and writes nothing of a bad row', async () => {
    const card = await makeCard(t, a.id, { notes: 'before', planMb: 100, msisdn: '13800138000' });
    const csv = `ICCID,备注,套餐(MB)\n${card.iccid},after,\n${card.iccid.toLowerCase()},never,-1\n`;
    const res = await upload(a.admin.token, Buffer.from(csv));
    expect(res.json().data).toMatchObject({ total: 2, inserted: 0, updated: 1 });
    expect(res.json().data.rejected).toEqual([{ row: 3, column: 'planMb', message: expect.any(String) }]);
    expect(await cardById(t, card.id)).toMatchObject({ notes: 'after', planMb: 100, msisdn: '13800138000' });
  });

  it('does not let a company take a card of the stock or of another company by its number', async () => {
    const stock = await makeCard(t, null, { notes: 'stock' });
    const other = await makeCompany(t, 'Import other');
    const theirs = await makeCard(t, other.id, { notes: 'theirs' });
    const csv = `ICCID,备注\n${stock.iccid},mine\n${theirs.iccid},mine\n`;
    const res = await upload(a.admin.token, Buffer.from(csv));
    expect(res.json().data).toMatchObject({ inserted: 0, updated: 0 });
    expect(res.json().data.rejected.map((r: { row: number; column: string }) => [r.row, r.column])).toEqual([
      [2, 'iccid'],
      [3, 'iccid'],
    ]);
    expect(await cardById(t, stock.id)).toMatchObject({ companyId: null, notes: 'stock' });
    expect(await cardById(t, theirs.id)).toMatchObject({ companyId: other.id, notes: 'theirs' });
  });

  it('puts system maintenance’s import into the stock and updates cards wherever they are', async () => {
    const ofA = await makeCard(t, a.id, { notes: 'a' });
    const fresh = testIccid();
    const res = await upload(
      p.admin.token,
      Buffer.from(`ICCID,备注\n${fresh},new\n${ofA.iccid},fixed\n`),
      SYSTEM,
    );
    expect(res.json().data).toMatchObject({ inserted: 1, updated: 1, rejected: [] });
    expect(await byIccid(fresh)).toMatchObject({
      companyId: null,
      assignedAt: null,
      notes: 'new',
      carrier: 1,
    });
    expect(await cardById(t, ofA.id)).toMatchObject({ companyId: a.id, notes: 'fixed' });
  });

  it('refuses a file whose columns it does not know, naming the column, and writes nothing', async () => {
    const iccid = testIccid();
    for (const [csv, key] of [
      [`ICCID,颜色\n${iccid},red\n`, 'simUnknownColumn'],
      [`备注\nx\n`, 'simImportNoIccid'],
      [`ICCID,iccid\n${iccid},${iccid}\n`, 'importDuplicateColumn'],
    ] as const) {
      const res = await upload(a.admin.token, Buffer.from(csv));
      expect(res.json().code, csv).toBe(ERROR_CODES.VALIDATION);
      expect(res.json().data.field).toBe('file');
      expect(res.json().message).toBe(
        {
          simUnknownColumn: '列“颜色”不是 ICCID、运营商、状态、套餐(MB)、号码、备注之一',
          simImportNoIccid: '第一行须为列名，且包含 ICCID 列',
          importDuplicateColumn: '列“iccid”重复出现',
        }[key],
      );
    }
    expect(await byIccid(iccid)).toBeUndefined();
  });
});

describe('hostile files', () => {
  it('refuses a file over 10 MB before reading it', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 10, 0x41);
    const res = await upload(a.admin.token, big);
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    expect(res.json().message).toContain('10M');
  });

  it('refuses more than 20,000 rows, and binary or non-UTF-8 text', async () => {
    const lines = [
      'ICCID',
      ...Array.from({ length: 20_001 }, (_, i) => `8986000000000${String(i).padStart(7, '0')}`),
    ];
    const many = await upload(a.admin.token, Buffer.from(lines.join('\n')));
    expect(many.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    for (const bytes of [
      Buffer.from(`ICCID,备注\n${testIccid()},a\u0000b\n`),
      Buffer.from([0x49, 0x43, 0x43, 0x49, 0x44, 0x0a, 0xc4, 0xe3]),
      Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100, 1)]),
    ]) {
      const res = await upload(a.admin.token, bytes);
      expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    }
  });

  it('refuses a ZIP bomb dressed as XLSX without unpacking it into memory, here and in the records import', async () => {
    const bomb = zipOf([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      // declares 100 bytes, unpacks to 80 MB: the declared size is not believed
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(80 * 1024 * 1024, 0x20), declaredSize: 100 },
    ]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const before = process.memoryUsage().rss;
    const res = await upload(a.admin.token, bomb, COMPANY, 'cards.xlsx');
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    expect(res.json().message).toContain(`${ZIP_MAX_UNPACKED_BYTES / 1024 / 1024} MB`);
    // the guard stops at the limit: far from the gigabytes a reader would take
    expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const { payload, headers } = multipartForm({ itemId }, { bytes: bomb, filename: 'data.xlsx' });
    const records = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/record/import',
      payload,
      headers: { ...headers, ...bearer(a.admin.token) },
    });
    expect(records.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
  });

  it('refuses an XLSX whose cell holds NUL, writing nothing', async () => {
    const iccid = testIccid();
    const sheet = (notes: string) =>
      xlsxOf([
        ['ICCID', 'Notes'],
        [iccid, notes],
      ]);
    // the hand-made workbook is read at all: a plain one imports
    const plain = await upload(a.admin.token, sheet('plain'), COMPANY, 'cards.xlsx');
    expect(plain.json().data).toMatchObject({ inserted: 1, rejected: [] });
    const res = await upload(a.admin.token, sheet('a&#0;b'), COMPANY, 'cards.xlsx');
    expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'file' } });
    expect(await byIccid(iccid)).toMatchObject({ notes: 'plain' });
  });

  it('reads a flood of imports two at a time, answering the rest busy, never failing', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('cards');
    sheet.addRow(['ICCID', 'Notes']);
    for (let i = 0; i < 300; i++) sheet.addRow([testIccid(), `flood ${i}`]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const answers = await Promise.all(
      Array.from({ length: SHEET_JOBS + SHEET_QUEUE + 6 }, () =>
        upload(a.admin.token, bytes, COMPANY, 'f.xlsx'),
      ),
    );
    const codes = answers.map((r) => r.json().code);
    expect(codes.every((c) => c === 0 || c === ERROR_CODES.RATE_LIMITED)).toBe(true);
    expect(codes.filter((c) => c === 0).length).toBeGreaterThanOrEqual(SHEET_JOBS);
    expect(sheetWork.stats).toMatchObject({ active: 0, queued: 0 });
    expect(sheetWork.stats.peak).toBeLessThanOrEqual(SHEET_JOBS);
  });

  it('rejects cells of the wrong kind in XLSX: numbers for ICCIDs, booleans, dates', async () => {
    const [g1, g2, g3, g4] = [testIccid(), testIccid(), testIccid(), testIccid()];
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('cards');
    sheet.addRow(['ICCID', 'Carrier', 'State', 'Plan (MB)', 'MSISDN', 'Notes']);
    sheet.addRow([Number(g1), null, null, null, null, null]);
    sheet.addRow([g2, null, null, true, null, null]);
    sheet.addRow([g3, null, new Date('2026-01-01'), null, null, null]);
    sheet.addRow([g4, 1, 1, 512, 13800138000, { formula: 'HYPERLINK("http://x","click")', result: 'click' }]);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    const res = await upload(a.admin.token, bytes, COMPANY, 'cards.xlsx');
    const data = res.json().data;
    expect(data.rejected.map((r: { row: number; column: string }) => [r.row, r.column])).toEqual([
      [2, 'iccid'],
      [3, 'planMb'],
      [4, 'state'],
    ]);
    expect(data.rejected[0].message).toContain('表格软件已将其舍入');
    // a formula cell is read as the text it shows; nothing runs it
    expect(data.inserted).toBe(1);
    expect(await byIccid(g4!)).toMatchObject({
      planMb: 512,
      msisdn: '13800138000',
      notes: 'click',
      state: 1,
    });
  });
});

describe('template and export', () => {
  it('offers a template whose filled-in copy imports, its note row skipped', async () => {
    const res = await download(a.admin.token, `${COMPANY}/template?format=xlsx`);
    expect(res.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual([
      'ICCID',
      '运营商',
      '状态',
      '套餐(MB)',
      '号码',
      '备注',
    ]);
    const iccid = testIccid();
    sheet.addRow([iccid, '中国移动', '测试期', 300, '1440123456789', '新卡']);
    const filled = Buffer.from(await workbook.xlsx.writeBuffer());
    const imported = await upload(a.admin.token, filled, COMPANY, 'template.xlsx');
    expect(imported.json().data).toMatchObject({ total: 1, inserted: 1, rejected: [] });
    expect(await byIccid(iccid)).toMatchObject({ state: 5, planMb: 300, msisdn: '1440123456789' });
    const csv = await download(a.admin.token, `${COMPANY}/template?format=csv`, 'en');
    expect(csv.body.split('\n')[0]).toBe('\uFEFFICCID,Carrier,State,Plan (MB),MSISDN,Notes');
  });

  it('exports what the list shows, ICCIDs as text, formulas neutralised, and imports its own export', async () => {
    const c = await makeCompany(t, 'Export C');
    const one = await makeCard(t, c.id, { notes: '=cmd|calc', holderSn: 'GW0001', moved: true });
    const two = await makeCard(t, c.id, {
      iccid: '89860318240212345678',
      carrier: 3,
      state: 2,
      planMb: null,
      usedMb: 7.5,
      notes: 'plain',
    });
    const res = await download(c.admin.token, `${COMPANY}/export?format=csv`);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\n');
    expect(lines[0]).toBe('ICCID,运营商,状态,套餐(MB),号码,备注,已用(MB),用量(%),用量截至,所在网关,已移动');
    expect(lines).toHaveLength(3);
    expect(res.body).toContain(`${one.iccid},中国移动,正常,1024,,"'=cmd|calc",512,50,`);
    expect(res.body).toContain(`${two.iccid},中国电信,停机,,,plain,7.5,,`);
    const filtered = await download(c.admin.token, `${COMPANY}/export?format=csv&carrier=3`);
    expect(filtered.body).not.toContain(one.iccid);
    const xlsx = await download(c.admin.token, `${COMPANY}/export?format=xlsx`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const cell = workbook.worksheets[0]!.getRow(2).getCell(1);
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    const back = await upload(c.admin.token, res.rawPayload);
    expect(back.json().data).toMatchObject({ total: 2, inserted: 0, updated: 2, rejected: [] });
    expect(await cardById(t, one.id)).toMatchObject({ notes: '=cmd|calc', planMb: 1024 });
  });
});

/** A minimal XLSX written by hand: one sheet of inline text cells, XML escapes left as given. */
function xlsxOf(rows: string[][]): Buffer {
  const col = (i: number) => String.fromCharCode(65 + i);
  const sheetRows = rows
    .map(
      (cells, r) =>
        `<row r="${r + 1}">${cells
          .map((c, i) => `<c r="${col(i)}${r + 1}" t="inlineStr"><is><t>${c}</t></is></c>`)
          .join('')}</row>`,
    )
    .join('');
  const file = (name: string, text: string) => ({ name, data: Buffer.from(text) });
  return zipOf([
    file(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ),
    file(
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    ),
    file(
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="cards" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    file(
      'xl/_rels/workbook.xml.rels',
      '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    file(
      'xl/worksheets/sheet1.xml',
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`,
    ),
  ]);
}
