/**
 * CSV and XLSX, both ways. Exports stream row batches (CSV with a UTF-8 byte-order mark so
 * Excel shows Chinese text; XLSX with real number cells so sums work). Imports recognise the
 * format by the bytes, never by the name: a zip is XLSX, anything else must be UTF-8 text.
 * Rows keep the numbers a person sees in Excel (header = row 1), so rejections can point at them.
 *
 * CSV text cells that a spreadsheet would run as a formula are written with a leading quote and
 * quoted (packages/domain csv-cells.ts), and a CSV import takes that quote off again. XLSX needs
 * neither: exceljs writes text as string cells, never as formulas.
 */
import { PassThrough, Readable } from 'node:stream';
import { type ImportCell, neutraliseCsvCell, restoreCsvCell } from '@platform/domain';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import { AppError } from '../../platform/envelope';
import { WorkLimit } from '../../platform/work-limit';
import { assertZipWithinLimits, ZipLimitError } from './zip-guard';

export type SheetFormat = 'csv' | 'xlsx';

/** One exported cell: text, or a number with the decimals to show */
export type OutCell = string | { number: number; decimals?: number };

export interface SheetRow {
  /** 1-based, as the user sees it in the file */
  row: number;
  cells: ImportCell[];
}

export class SheetFormatError extends Error {}

/** An XLSX file that would unpack to more than the reader may hold (zip-guard.ts). */
export class SheetTooLargeError extends Error {}

const BOM = '\uFEFF';

/** Text cells through the formula guard; numbers are written as they are. */
const CSV_OPTIONS = {
  cast: {
    string: (text: string) => {
      const safe = neutraliseCsvCell(text);
      return safe === text ? text : { value: safe, quoted: true };
    },
  },
};

function csvLines(rows: OutCell[][]): string {
  return stringify(
    rows.map((row) => row.map((cell) => (typeof cell === 'string' ? cell : cell.number))),
    CSV_OPTIONS,
  );
}

/** A CSV download: BOM, header, then each batch as it comes. */
export function csvStream(header: string[], batches: AsyncIterable<OutCell[][]>): Readable {
  async function* lines() {
    yield BOM + csvLines([header]);
    for await (const batch of batches) yield csvLines(batch);
  }
  return Readable.from(lines());
}

/** An XLSX download written as it streams: one sheet, bold header, number cells for numbers. */
export function xlsxStream(
  sheetName: string,
  header: string[],
  batches: AsyncIterable<OutCell[][]>,
): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  // sheet names may not hold []:*?/\ and are at most 31 characters
  const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'Sheet1');
  sheet.columns = header.map((h, i) => ({
    header: h,
    key: String(i),
    width: i === 0 ? 20 : Math.max(12, h.length + 4),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  (async () => {
    for await (const batch of batches) {
      for (const cells of batch) {
        const row = sheet.addRow(cells.map((c) => (typeof c === 'string' ? c : c.number)));
        cells.forEach((c, i) => {
          if (typeof c !== 'string' && c.decimals !== undefined) {
            row.getCell(i + 1).numFmt = c.decimals === 0 ? '0' : `0.${'0'.repeat(c.decimals)}`;
          }
        });
        row.commit();
      }
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

const TEMPLATE_HELP = {
  zh: {
    sheet: '填写说明',
    lines: [
      '第 1 行是表头，请勿修改：时间，然后是各字段的名称（括号中为单位）。',
      '第 2 行说明各列应填写的内容，导入时自动跳过，可保留也可删除。',
      '从第 3 行起每行一条记录；留空的单元格不写入，必填字段不能留空。',
      '时间列留空时，记录时间为导入的时间。',
    ],
  },
  en: {
    sheet: 'Instructions',
    lines: [
      'Row 1 is the header, do not change it: the time, then the name of each field (its unit in brackets).',
      'Row 2 says what each column takes; the import skips it, keep or delete it as you like.',
      'From row 3 on, one record per row; empty cells are not written, required fields cannot be empty.',
      'An empty time means the record is stamped with the time of the import.',
    ],
  },
} as const;

/**
 * An item's import template as XLSX: the header (bold, frozen), the note row (grey, wrapped),
 * text-formatted time column so Excel keeps typed times as written, and a sheet of instructions.
 */
export async function templateXlsx(
  sheetName: string,
  header: string[],
  note: string[],
  lang: 'zh' | 'en',
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'Sheet1', {
    views: [{ state: 'frozen', ySplit: 2 }],
  });
  sheet.columns = header.map((h, i) => ({
    key: String(i),
    width: Math.min(40, Math.max(i === 0 ? 20 : 14, h.length + 4, Math.ceil((note[i]?.length ?? 0) / 2))),
  }));
  sheet.addRow(header).font = { bold: true };
  const noteRow = sheet.addRow(note);
  noteRow.font = { italic: true, color: { argb: 'FF8C8C8C' } };
  noteRow.alignment = { wrapText: true, vertical: 'top' };
  sheet.getColumn(1).numFmt = '@';
  const help = workbook.addWorksheet(TEMPLATE_HELP[lang].sheet);
  help.getColumn(1).width = 100;
  for (const line of TEMPLATE_HELP[lang].lines) help.addRow([line]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function isZip(bytes: Buffer): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
  );
}

/** Excel keeps dates as wall times; exceljs hands them over as UTC instants of that wall time. */
function wallText(date: Date): string {
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(date.getUTCFullYear(), 4)}-${p(date.getUTCMonth() + 1)}-${p(date.getUTCDate())} ${p(date.getUTCHours())}:${p(date.getUTCMinutes())}:${p(date.getUTCSeconds())}`;
}

function xlsxCell(value: ExcelJS.CellValue): ImportCell {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return wallText(value);
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((r) => r.text).join('');
    if ('result' in value) return xlsxCell(value.result as ExcelJS.CellValue);
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('error' in value) return String(value.error);
  }
  return String(value);
}

async function readXlsx(bytes: Buffer): Promise<SheetRow[]> {
  try {
    assertZipWithinLimits(bytes);
  } catch (error) {
    if (!(error instanceof ZipLimitError)) throw error;
    throw error.tooLarge ? new SheetTooLargeError(error.message) : new SheetFormatError(error.message);
  }
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new SheetFormatError('not a readable XLSX workbook');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const values = row.values as ExcelJS.CellValue[];
    // row.values is 1-based: index 0 is always empty
    rows.push({ row: rowNumber, cells: values.slice(1).map((v) => xlsxCell(v)) });
  });
  return rows;
}

function readCsv(bytes: Buffer): SheetRow[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new SheetFormatError('not UTF-8 text');
  }
  if (text.includes('\u0000')) throw new SheetFormatError('binary content');
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: false });
  } catch {
    throw new SheetFormatError('not CSV');
  }
  return records.map((cells, i) => ({ row: i + 1, cells: cells.map(restoreCsvCell) }));
}

/** import files read at once (each may take a few hundred MB while its XLSX is parsed) */
export const SHEET_JOBS = 2;
/** imports waiting for a slot before new ones are answered busy */
export const SHEET_QUEUE = 8;

export const sheetWork = new WorkLimit(
  SHEET_JOBS,
  SHEET_QUEUE,
  () => new AppError('importBusy', {}, { field: 'file' }),
);

/**
 * The rows of an uploaded table, blank rows left out; SheetFormatError when it is neither
 * format, SheetTooLargeError when an XLSX would unpack beyond the limit (a ZIP bomb). A flood
 * of imports is read SHEET_JOBS at a time and answered busy beyond the line.
 */
export async function readSheet(bytes: Buffer): Promise<{ format: SheetFormat; rows: SheetRow[] }> {
  const blank = (cells: ImportCell[]) =>
    cells.every((c) => c === null || c === undefined || String(c).trim() === '');
  const format: SheetFormat = isZip(bytes) ? 'xlsx' : 'csv';
  const rows = await sheetWork.run(async () => (format === 'xlsx' ? readXlsx(bytes) : readCsv(bytes)));
  return { format, rows: rows.filter((r) => !blank(r.cells)) };
}

/** Content-Disposition of a download: an ASCII fallback plus the real name (RFC 6266 / 5987). */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
