/**
 * The start of every printed document (certificate of analysis, delivery note): an A4 pdfkit
 * document in the report font (so Chinese renders), collected into one Buffer, and the
 * letterhead: the company's logo on the left, its name and the document's number beside it,
 * a rule beneath.
 */
import PDFDocument from 'pdfkit';
import type { Letterhead } from '../companies/letterhead';
import { reportFont } from './report-export';

export const PDF_MARGIN = 50;

export function openPdf(title: string, creator: string): { doc: PDFKit.PDFDocument; done: Promise<Buffer> } {
  const font = reportFont();
  const doc = new PDFDocument({ size: 'A4', margin: PDF_MARGIN, info: { Title: title, Creator: creator } });
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
  return { doc, done };
}

/** The letterhead at the top of the page; answers the y below its rule. */
export function drawLetterhead(doc: PDFKit.PDFDocument, company: Letterhead, numberLine: string): number {
  const margin = PDF_MARGIN;
  const width = doc.page.width - 2 * margin;
  let y = margin;
  let textX = margin;
  if (company.logo) {
    try {
      doc.image(company.logo, margin, y, { fit: [64, 64] });
      textX = margin + 76;
    } catch {
      // a logo pdfkit cannot read leaves the header without it rather than failing the file
    }
  }
  doc
    .fontSize(14)
    .fillColor('#000000')
    .text(company.name, textX, y + 8, { width: width - (textX - margin) });
  doc
    .fontSize(9)
    .fillColor('#666666')
    .text(numberLine, textX, doc.y + 4);
  y = Math.max(doc.y, margin + 64) + 16;
  doc
    .moveTo(margin, y)
    .lineTo(margin + width, y)
    .lineWidth(1)
    .strokeColor('#1f4e79')
    .stroke();
  return y + 16;
}

/** A footer line in the bottom margin, where pdfkit would otherwise start a new page. */
export function drawFooter(doc: PDFKit.PDFDocument, text: string): void {
  const margin = PDF_MARGIN;
  doc.page.margins.bottom = 0;
  doc
    .fontSize(8)
    .fillColor('#888888')
    .text(text, margin, doc.page.height - margin - 12, {
      width: doc.page.width - 2 * margin,
      align: 'center',
      lineBreak: false,
    });
}

/**
 * One row of a ruled table across the page: `cols` are the x of each column's left edge and, last,
 * the table's right edge; a header row is shaded. Answers the y below the row.
 */
export function tableRow(
  doc: PDFKit.PDFDocument,
  y: number,
  cols: readonly number[],
  cells: readonly string[],
  options: { header?: boolean; align?: ReadonlyArray<'left' | 'right' | 'center'> } = {},
): number {
  const left = cols[0]!;
  const right = cols[cols.length - 1]!;
  const h = 20;
  if (options.header) doc.rect(left, y, right - left, h).fill('#e8eef5');
  doc.fillColor('#000000').fontSize(options.header ? 9 : 10);
  cells.forEach((text, i) => {
    doc.text(text, cols[i]! + 6, y + 5, {
      width: cols[i + 1]! - cols[i]! - 12,
      align: options.align?.[i] ?? (i === 0 ? 'left' : 'right'),
      lineBreak: false,
      ellipsis: true,
    });
  });
  doc
    .moveTo(left, y + h)
    .lineTo(right, y + h)
    .lineWidth(0.5)
    .strokeColor('#bfbfbf')
    .stroke();
  return y + h;
}
