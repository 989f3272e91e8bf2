/**
 * The monthly meter report as a PDF (pdfkit, A4 portrait, the report font so Chinese renders),
 * with the same numbers as the page and the workbook (report-xlsx.ts): the meter (name, code,
 * month, standard or virtual), the readings at the month's two boundaries with the CT and PT
 * ratios (standard meters) or the formula (virtual), the energy and cost, the time-of-use table
 * with its totals, and the balance against the child meters with their sum, the difference and
 * its share. Tables continue on the next page with their header drawn again; every page is
 * numbered ("page n of m") once the whole document is laid out. Instants are shown in the
 * company's time zone.
 */
import { formatInstant, type Lang, TOU_PERIOD_LABELS, type TouPeriod } from '@platform/domain';
import PDFDocument from 'pdfkit';
import { drawFooter, PDF_MARGIN, tableRow } from '../templates/pdf-document';
import { reportFont } from '../templates/report-export';
import type { MeterReport } from './meter-data';

const WORDS = {
  zh: {
    title: '电表月报',
    meter: '电表',
    code: '编码',
    month: '月份',
    type: '类型',
    standard: '标准电表',
    virtual: '虚拟电表',
    range: '统计区间',
    timeZone: '时区',
    readings: '月初与月末读数',
    item: '项目',
    reading: '表码读数',
    at: '读数时间',
    opening: '月初读数',
    closing: '月末读数',
    noReading: '无读数',
    ct: 'CT 变比',
    pt: 'PT 变比',
    multiplier: '倍率 (CT × PT)',
    formula: '公式',
    energy: '本月电量',
    cost: '本月电费',
    touTitle: '分时电量与电费',
    noTou: '公司还没有设置分时电价时段，电量未按尖峰平谷拆分。',
    period: '时段',
    kWh: '电量 (kWh)',
    price: '电价 (分/kWh)',
    yuan: '电费 (元)',
    total: '合计',
    balance: '总表与下级电表平衡',
    child: '下级电表',
    childrenSum: '下级电表合计',
    difference: '差值（总表 − 下级电表）',
    percent: '差值占比',
    events: '本月电表日志',
    replacement: '换表',
    rollover: '表码翻转',
    issues: '提示',
    page: (n: number, of: number) => `第 ${n} 页，共 ${of} 页`,
    made: '生成时间',
  },
  en: {
    title: 'Meter monthly report',
    meter: 'Meter',
    code: 'Code',
    month: 'Month',
    type: 'Type',
    standard: 'standard meter',
    virtual: 'virtual meter',
    range: 'Period',
    timeZone: 'Time zone',
    readings: 'Readings at the month boundaries',
    item: 'Item',
    reading: 'Register reading',
    at: 'Read at',
    opening: 'Reading at month start',
    closing: 'Reading at month end',
    noReading: 'no reading',
    ct: 'CT ratio',
    pt: 'PT ratio',
    multiplier: 'Multiplier (CT × PT)',
    formula: 'Formula',
    energy: 'Energy this month',
    cost: 'Cost this month',
    touTitle: 'Energy and cost by time-of-use period',
    noTou: 'The company has no time-of-use hours yet: the energy is not split by period.',
    period: 'Period',
    kWh: 'Energy (kWh)',
    price: 'Price (cents/kWh)',
    yuan: 'Cost (yuan)',
    total: 'Total',
    balance: 'Balance against child meters',
    child: 'Child meter',
    childrenSum: 'Child meters in all',
    difference: 'Difference (parent − children)',
    percent: 'Difference share',
    events: 'Meter log of the month',
    replacement: 'replacement',
    rollover: 'register rollover',
    issues: 'Notes',
    page: (n: number, of: number) => `Page ${n} of ${of}`,
    made: 'Made',
  },
} as const;

/** '1,332,920' / '12,345.67': grouped, up to `digits` decimals, the same in both languages. */
export function reportNumber(value: number | null | undefined, digits = 3): string {
  if (value == null || !Number.isFinite(value)) return '—';
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: digits }).format(value);
}

/** Integer cents as yuan with two decimals: '1,234.50'. */
const yuanOf = (cents: number | null | undefined) =>
  cents == null
    ? '—'
    : new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
        cents / 100,
      );

const BLUE = '#1f4e79';
const ROW = 20;

export async function reportPdf(report: MeterReport, lang: Lang, now = Date.now()): Promise<Buffer> {
  const w = WORDS[lang];
  const margin = PDF_MARGIN;
  const month = `${report.year}-${String(report.month).padStart(2, '0')}`;
  const font = reportFont();
  const doc = new PDFDocument({
    size: 'A4',
    margin,
    bufferPages: true,
    info: { Title: `${w.title} ${report.meter.name} ${month}`, Creator: 'smartdata meters' },
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

  const width = doc.page.width - 2 * margin;
  // the footer (page numbers) sits in the bottom margin; rows stop above it
  const bottom = () => doc.page.height - margin - 8;
  const minute = (ms: number) => formatInstant(ms, 'yyyy-MM-dd HH:mm:ss', report.timeZone).slice(0, 16);
  const at = (iso: string) => minute(Date.parse(iso));
  let y = margin;
  const newPage = () => {
    doc.addPage();
    y = margin;
  };
  const room = (h: number) => {
    if (y + h > bottom()) newPage();
  };

  // title and the meter
  doc.fontSize(18).fillColor(BLUE).text(`${w.title} · ${report.meter.name}`, margin, y, { width });
  y = doc.y + 4;
  doc
    .fontSize(9)
    .fillColor('#666666')
    .text(`${w.made}: ${minute(now)}`, margin, y, { width });
  y = doc.y + 6;
  doc
    .moveTo(margin, y)
    .lineTo(margin + width, y)
    .lineWidth(1)
    .strokeColor(BLUE)
    .stroke();
  y += 10;
  const isVirtual = report.meter.formula !== null || report.meter.type === 100;
  const field = (label: string, value: string) => {
    room(16);
    doc.fontSize(10).fillColor('#666666').text(`${label}:`, margin, y, { width: 120, lineBreak: false });
    doc.fillColor('#000000').text(value, margin + 125, y, { width: width - 125 });
    y = Math.max(doc.y, y + 14) + 3;
  };
  field(w.meter, report.meter.name);
  field(w.code, report.meter.code);
  field(w.month, month);
  field(w.type, isVirtual ? w.virtual : w.standard);
  field(w.range, `${at(report.from)} — ${at(report.to)} (${report.timeZone})`);
  if (isVirtual) field(w.formula, report.meter.formula ?? '—');
  y += 6;

  const heading = (text: string) => {
    // a heading is never left alone at the foot of a page: it keeps two rows below it
    room(22 + 3 * ROW);
    doc.fontSize(12).fillColor(BLUE).text(text, margin, y, { width });
    y = doc.y + 6;
  };

  /**
   * A table whose rows continue on the next page with the header again. `cols` are the
   * columns' left edges and, last, the right edge; `shaded` rows (totals) are tinted.
   */
  const table = (
    cols: number[],
    header: string[],
    rows: Array<{ cells: string[]; shaded?: boolean }>,
    align?: Array<'left' | 'right' | 'center'>,
  ) => {
    const options = align ? { align } : {};
    // each cell on one line: a longer text is cut with an ellipsis (pdfkit would wrap Chinese
    // text into the next row even without line breaks)
    const fitted = (cells: string[], size: number) => {
      doc.fontSize(size);
      return cells.map((text, i) => {
        const room = cols[i + 1]! - cols[i]! - 12;
        if (doc.widthOfString(text) <= room) return text;
        let cut = text;
        while (cut.length > 1 && doc.widthOfString(`${cut}…`) > room) cut = cut.slice(0, -1);
        return `${cut}…`;
      });
    };
    const drawHeader = () => {
      y = tableRow(doc, y, cols, fitted(header, 9), { header: true, ...options });
    };
    room(2 * ROW);
    drawHeader();
    for (const row of rows) {
      if (y + ROW > bottom()) {
        newPage();
        drawHeader();
      }
      // tinted inside the rules, so the rule above stays visible
      if (row.shaded) doc.rect(cols[0]!, y + 0.5, cols[cols.length - 1]! - cols[0]!, ROW - 1).fill('#f3f6f9');
      y = tableRow(doc, y, cols, fitted(row.cells, 10), options);
    }
    y += 14;
  };

  // the readings at the month's boundaries and the ratios
  if (!isVirtual) {
    heading(w.readings);
    const reading = (x: MeterReport['opening']) =>
      x ? [reportNumber(x.value, 4), at(x.at)] : [w.noReading, '—'];
    table(
      [margin, margin + 190, margin + 340, margin + width],
      [w.item, w.reading, w.at],
      [
        { cells: [w.opening, ...reading(report.opening)] },
        { cells: [w.closing, ...reading(report.closing)] },
        { cells: [w.ct, reportNumber(report.meter.ct, 4), ''] },
        { cells: [w.pt, reportNumber(report.meter.pt, 4), ''] },
        { cells: [w.multiplier, reportNumber(report.meter.multiplier, 4), ''] },
      ],
    );
  }

  // the energy and its cost, large
  room(50);
  doc.rect(margin, y, width, 44).fill('#e8eef5');
  doc
    .fillColor('#333333')
    .fontSize(10)
    .text(w.energy, margin + 12, y + 8, { width: width / 2 - 24, lineBreak: false });
  doc.text(w.cost, margin + width / 2 + 12, y + 8, { width: width / 2 - 24, lineBreak: false });
  doc
    .fillColor('#000000')
    .fontSize(14)
    .text(`${reportNumber(report.kWh)} kWh`, margin + 12, y + 23, {
      width: width / 2 - 24,
      lineBreak: false,
    });
  doc.text(
    report.totalCents == null ? '—' : `¥ ${yuanOf(report.totalCents)}`,
    margin + width / 2 + 12,
    y + 23,
    { width: width / 2 - 24, lineBreak: false },
  );
  y += 44 + 16;

  // time-of-use periods with their totals
  heading(w.touTitle);
  if (report.tou) {
    table(
      [margin, margin + 120, margin + 260, margin + 380, margin + width],
      [w.period, w.kWh, w.price, w.yuan],
      [
        ...report.tou.map((t) => ({
          cells: [
            TOU_PERIOD_LABELS[t.period as TouPeriod]?.[lang] ?? t.period,
            reportNumber(t.kWh),
            reportNumber(t.price, 2),
            yuanOf(t.cents),
          ],
        })),
        { cells: [w.total, reportNumber(report.kWh), '', yuanOf(report.totalCents)], shaded: true },
      ],
    );
  } else {
    doc.fontSize(10).fillColor('#666666').text(w.noTou, margin, y, { width });
    y = doc.y + 14;
  }

  // the balance against the child meters
  if (report.balance) {
    const b = report.balance;
    heading(w.balance);
    table(
      [margin, margin + 230, margin + 350, margin + width],
      [w.child, w.code, w.kWh],
      [
        ...b.children.map((c) => ({ cells: [c.name, c.code, reportNumber(c.kWh)] })),
        { cells: [w.childrenSum, '', reportNumber(b.childrenKWh)], shaded: true },
        { cells: [w.difference, '', reportNumber(b.difference)], shaded: true },
        { cells: [w.percent, '', b.percent == null ? '—' : `${reportNumber(b.percent, 2)} %`], shaded: true },
      ],
      ['left', 'left', 'right'],
    );
  }

  // the month's meter log and the notes of the computation
  const list = (title: string, lines: string[]) => {
    if (lines.length === 0) return;
    heading(title);
    doc.fontSize(9).fillColor('#000000');
    for (const line of lines) {
      room(14);
      doc.text(`• ${line}`, margin, y, { width });
      y = doc.y + 3;
    }
    y += 10;
  };
  list(
    w.events,
    report.events.map((e) => `${at(e.at)} ${e.kind === 'replacement' ? w.replacement : w.rollover}`),
  );
  list(
    w.issues,
    report.issues.map((i) =>
      [i.meter, i.reason, i.at ? at(i.at) : null, i.detail ?? null].filter((x) => x !== null).join(' · '),
    ),
  );

  // page numbers, now that the number of pages is known
  const pages = doc.bufferedPageRange();
  for (let i = 0; i < pages.count; i++) {
    doc.switchToPage(pages.start + i);
    drawFooter(doc, `${report.meter.name} · ${month} · ${w.page(i + 1, pages.count)}`);
  }
  doc.end();
  return done;
}
