/**
 * A resolved report (packages/domain renderGrid) as a file: XLSX through exceljs (numbers stay
 * numbers with the cell's decimals as number format, merges kept, column widths carried over)
 * and PDF through pdfkit with a CJK font so Chinese names render.
 *
 * The PDF font: Noto Sans Hans (SIL OFL) as shipped inside the npm package @embedpdf/fonts-sc,
 * a dependency of this workspace, so nothing is downloaded at install or run time. Should the
 * file be missing, a system Noto Sans CJK is tried, and only then the built-in Helvetica, which
 * cannot draw Chinese (`reportFont().cjk` says which one is used).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { cellAlign, columnName, type ResolvedCell, type ResolvedReport } from '@platform/domain';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';

const XLSX_CELL_PX = 7;

/** The workbook bytes: the title merged across the first row (when there is one), then the grid. */
export async function reportXlsx(report: ResolvedReport, sheetName: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'Sheet1');
  sheet.columns = report.colWidths.map((w) => ({ width: Math.max(4, Math.round(w / XLSX_CELL_PX)) }));
  const offset = report.title ? 1 : 0;
  if (report.title) {
    const title = sheet.getCell(1, 1);
    title.value = report.title;
    title.font = { bold: true, size: 14 };
    title.alignment = { horizontal: 'center', vertical: 'middle' };
    if (report.cols > 1) sheet.mergeCells(1, 1, 1, report.cols);
  }
  const border = { style: 'thin' as const, color: { argb: 'FFBFBFBF' } };
  report.grid.forEach((row, r) => {
    row.forEach((cell, c) => {
      const target = sheet.getCell(r + 1 + offset, c + 1);
      target.border = { top: border, left: border, bottom: border, right: border };
      if (cell.kind === 'covered') return;
      if (cell.kind === 'value') {
        if (cell.value !== null) {
          target.value = cell.value;
          if (cell.decimals !== undefined) {
            target.numFmt = cell.decimals === 0 ? '0' : `0.${'0'.repeat(cell.decimals)}`;
          }
        }
      } else if (cell.text) {
        target.value = cell.text;
      }
      target.alignment = { horizontal: cellAlign(cell), vertical: 'middle', wrapText: cell.kind !== 'value' };
      if (cell.style?.bold) target.font = { bold: true };
      if (cell.style?.fill) {
        target.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: argbOf(cell.style.fill) } };
      }
      if (cell.rowSpan > 1 || cell.colSpan > 1) {
        const top = r + 1 + offset;
        sheet.mergeCells(
          `${columnName(c)}${top}:${columnName(c + cell.colSpan - 1)}${top + cell.rowSpan - 1}`,
        );
      }
    });
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** '#rrggbb' as exceljs wants it: 'FFRRGGBB' (opaque) */
function argbOf(fill: string): string {
  return `FF${fill.slice(1).toUpperCase()}`;
}

export interface ReportFont {
  /** what pdfkit is given: a font file's bytes or a built-in font's name */
  source: Buffer | string;
  /** a TrueType collection's member */
  family?: string;
  cjk: boolean;
}

let cachedFont: ReportFont | null = null;

function packagedFontPath(): string | null {
  try {
    const require = createRequire(import.meta.url);
    // the package exports only its index, which lives in dist/ beside fonts/
    const main = require.resolve('@embedpdf/fonts-sc');
    const file = path.join(path.dirname(main), '..', 'fonts', 'NotoSansHans-Regular.otf');
    return existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

const SYSTEM_CJK = [
  { file: '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc', family: 'NotoSansCJKsc-Regular' },
];

/** The font of report PDFs, read once. */
export function reportFont(): ReportFont {
  if (cachedFont) return cachedFont;
  const packaged = packagedFontPath();
  if (packaged) {
    cachedFont = { source: readFileSync(packaged), cjk: true };
    return cachedFont;
  }
  const system = SYSTEM_CJK.find((f) => existsSync(f.file));
  cachedFont = system
    ? { source: readFileSync(system.file), family: system.family, cjk: true }
    : { source: 'Helvetica', cjk: false };
  return cachedFont;
}

const PT_PER_PX = 0.75;
const PAD = 4;
const MIN_ROW = 18;

/**
 * The PDF bytes: A4, landscape when the grid is wider than a portrait page, columns scaled down
 * to the page width when wider still; rows grow with wrapped text and break across pages.
 */
export async function reportPdf(
  report: ResolvedReport,
  meta: { generatedAt: string; title: string },
): Promise<Buffer> {
  const font = reportFont();
  const naturalWidth = report.colWidths.reduce((a, b) => a + b, 0) * PT_PER_PX;
  const margin = 36;
  const portraitWidth = 595.28 - 2 * margin;
  const layout = naturalWidth > portraitWidth ? 'landscape' : 'portrait';
  const doc = new PDFDocument({
    size: 'A4',
    layout,
    margin,
    bufferPages: true,
    info: { Title: meta.title, Creator: 'smartdata report' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  if (typeof font.source === 'string') doc.font(font.source);
  else {
    doc.registerFont('report', font.source, font.family);
    doc.font('report');
  }

  const usable = doc.page.width - 2 * margin;
  const scale = naturalWidth > usable ? usable / naturalWidth : 1;
  const widths = report.colWidths.map((w) => w * PT_PER_PX * scale);
  const xs = [margin];
  for (const w of widths) xs.push(xs[xs.length - 1]! + w);
  const bottom = doc.page.height - margin;
  const fontSize = 10;

  let y = margin;
  if (report.title) {
    doc.fontSize(16).text(report.title, margin, y, { width: usable, align: 'center' });
    y = doc.y + 4;
  }
  doc.fontSize(8).fillColor('#888888').text(meta.generatedAt, margin, y, { width: usable, align: 'right' });
  y = doc.y + 4;
  doc.fillColor('#000000').fontSize(fontSize);

  // row heights: text wraps within its (merged) width; a cell spanning rows whose text needs
  // more than those rows grows the last of them
  const textHeight = (cell: Exclude<ResolvedCell, { kind: 'covered' }>, c: number) => {
    const w = xs[c + cell.colSpan]! - xs[c]! - 2 * PAD;
    return doc.heightOfString(cell.text, { width: Math.max(w, 1) }) + 2 * PAD;
  };
  const heights = report.grid.map((row) => {
    let h = MIN_ROW;
    row.forEach((cell, c) => {
      if (cell.kind !== 'covered' && cell.rowSpan === 1 && cell.text) h = Math.max(h, textHeight(cell, c));
    });
    return h;
  });
  report.grid.forEach((row, r) => {
    row.forEach((cell, c) => {
      if (cell.kind === 'covered' || cell.rowSpan === 1 || !cell.text) return;
      const last = Math.min(r + cell.rowSpan, report.rows) - 1;
      let spanned = 0;
      for (let k = r; k <= last; k += 1) spanned += heights[k]!;
      const need = textHeight(cell, c);
      if (need > spanned) heights[last]! += need - spanned;
    });
  });

  const { tops, pageOf } = layoutRows(heights, rowBlocks(report), {
    firstTop: y,
    pageTop: margin,
    pageBottom: bottom,
  });
  for (let p = 1; p <= (pageOf[pageOf.length - 1] ?? 0); p += 1) doc.addPage();
  doc.lineWidth(0.5).strokeColor('#999999');
  const drawRow = (r: number) => {
    report.grid[r]!.forEach((cell, c) => {
      if (cell.kind === 'covered') return;
      const x = xs[c]!;
      const w = xs[c + cell.colSpan]! - x;
      let h = 0;
      for (let k = r; k < r + cell.rowSpan && k < report.rows; k += 1) {
        if (pageOf[k] !== pageOf[r]) break;
        h += heights[k]!;
      }
      const top = tops[r]!;
      if (cell.style?.fill) doc.rect(x, top, w, h).fill(cell.style.fill).fillColor('#000000');
      doc.rect(x, top, w, h).stroke();
      if (!cell.text) return;
      const used = doc.heightOfString(cell.text, { width: w - 2 * PAD });
      const bold = cell.style?.bold === true;
      // the CJK font has one weight: bold is the glyphs drawn with a thin outline as well
      if (bold) doc.save().lineWidth(0.35).strokeColor('#000000');
      doc.text(cell.text, x + PAD, top + Math.max(PAD, (h - used) / 2), {
        width: w - 2 * PAD,
        height: h - PAD,
        align: cellAlign(cell),
        ellipsis: true,
        ...(bold ? { fill: true, stroke: true } : {}),
      });
      if (bold) doc.restore();
    });
  };
  // every page exists now (bufferPages keeps them open): draw each row on its own
  const start = doc.bufferedPageRange().start;
  for (let r = 0; r < report.rows; r += 1) {
    doc.switchToPage(start + pageOf[r]!);
    drawRow(r);
  }
  doc.end();
  return done;
}

/**
 * Rows that must stay on one page: each row starts a block of its own unless a cell spanning
 * rows above reaches it. Answers, per row, the last row of its block (blocks chain: a merge
 * starting inside another extends it).
 */
export function rowBlocks(report: Pick<ResolvedReport, 'rows' | 'grid'>): number[] {
  const reach = report.grid.map((row, r) =>
    row.reduce((end, cell) => (cell.kind === 'covered' ? end : Math.max(end, r + cell.rowSpan - 1)), r),
  );
  const blockEnd: number[] = new Array(report.rows);
  let r = 0;
  while (r < report.rows) {
    let end = Math.min(reach[r]!, report.rows - 1);
    for (let k = r + 1; k <= end; k += 1) end = Math.min(Math.max(end, reach[k]!), report.rows - 1);
    for (let k = r; k <= end; k += 1) blockEnd[k] = end;
    r = end + 1;
  }
  return blockEnd;
}

/**
 * Where each row goes: its top and its page (0-based). A block of rows (rowBlocks) that does not
 * fit on the rest of a page starts a new one, so a merged cell is never cut in two, unless the
 * block is taller than a whole page: then its rows break one by one like any others.
 */
export function layoutRows(
  heights: readonly number[],
  blockEnd: readonly number[],
  page: { firstTop: number; pageTop: number; pageBottom: number },
): { tops: number[]; pageOf: number[] } {
  const tops: number[] = [];
  const pageOf: number[] = [];
  const room = page.pageBottom - page.pageTop;
  let y = page.firstTop;
  let current = 0;
  let r = 0;
  const newPage = () => {
    current += 1;
    y = page.pageTop;
  };
  while (r < heights.length) {
    const end = blockEnd[r] ?? r;
    let block = 0;
    for (let k = r; k <= end; k += 1) block += heights[k]!;
    if (block <= room) {
      // fits on a page of its own: start one when the rest of this page is too short
      if (y + block > page.pageBottom && y > page.pageTop) newPage();
      for (let k = r; k <= end; k += 1) {
        tops.push(y);
        pageOf.push(current);
        y += heights[k]!;
      }
    } else {
      for (let k = r; k <= end; k += 1) {
        if (y + heights[k]! > page.pageBottom && y > page.pageTop) newPage();
        tops.push(y);
        pageOf.push(current);
        y += heights[k]!;
      }
    }
    r = end + 1;
  }
  return { tops, pageOf };
}
