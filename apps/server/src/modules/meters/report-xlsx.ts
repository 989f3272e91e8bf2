/**
 * The monthly meter report as a workbook (exceljs, as the report templates export): the meter,
 * the readings at the month's two boundaries, the energy, the time-of-use table with prices and
 * cost, and the balance against the child meters. Numbers stay numbers; instants are shown in
 * the company's time zone.
 */
import { formatInstant, type Lang, TOU_PERIOD_LABELS, type TouPeriod } from '@platform/domain';
import ExcelJS from 'exceljs';
import type { MeterReport } from './meter-data';

const WORDS = {
  zh: {
    title: '电表月报',
    meter: '电表',
    code: '编码',
    month: '月份',
    ct: 'CT 变比',
    pt: 'PT 变比',
    multiplier: '倍率',
    formula: '公式',
    opening: '月初读数',
    closing: '月末读数',
    at: '读数时间',
    energy: '电量 (kWh)',
    period: '时段',
    price: '电价 (分/kWh)',
    cost: '电费 (元)',
    total: '合计',
    balance: '分表平衡',
    child: '下级电表',
    childrenSum: '下级电表合计',
    difference: '差值 (kWh)',
    percent: '差值占比 (%)',
    issues: '提示',
  },
  en: {
    title: 'Meter monthly report',
    meter: 'Meter',
    code: 'Code',
    month: 'Month',
    ct: 'CT ratio',
    pt: 'PT ratio',
    multiplier: 'Multiplier',
    formula: 'Formula',
    opening: 'Reading at month start',
    closing: 'Reading at month end',
    at: 'Read at',
    energy: 'Energy (kWh)',
    period: 'Period',
    price: 'Price (cents/kWh)',
    cost: 'Cost (yuan)',
    total: 'Total',
    balance: 'Balance against child meters',
    child: 'Child meter',
    childrenSum: 'Child meters in all',
    difference: 'Difference (kWh)',
    percent: 'Difference (%)',
    issues: 'Notes',
  },
} as const;

export async function reportXlsx(report: MeterReport, lang: Lang): Promise<Buffer> {
  const w = WORDS[lang];
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(`${report.year}-${String(report.month).padStart(2, '0')}`);
  sheet.columns = [{ width: 26 }, { width: 20 }, { width: 20 }, { width: 20 }];
  const at = (iso: string) => formatInstant(Date.parse(iso), 'yyyy-MM-dd HH:mm:ss', report.timeZone);
  const kwh = '#,##0.000';
  const add = (values: Array<string | number | null>, format?: string) => {
    const row = sheet.addRow(values);
    if (format)
      row.eachCell((c) => {
        if (typeof c.value === 'number') c.numFmt = format;
      });
    return row;
  };
  sheet.addRow([`${w.title} · ${report.meter.name}`]).font = { bold: true, size: 14 };
  add([w.meter, report.meter.name]);
  add([w.code, report.meter.code]);
  add([w.month, `${report.year}-${String(report.month).padStart(2, '0')}`]);
  if (report.meter.formula) add([w.formula, report.meter.formula]);
  else {
    add([w.ct, report.meter.ct]);
    add([w.pt, report.meter.pt]);
    add([w.multiplier, report.meter.multiplier]);
    add([w.opening, report.opening?.value ?? null, report.opening ? at(report.opening.at) : null]);
    add([w.closing, report.closing?.value ?? null, report.closing ? at(report.closing.at) : null]);
  }
  add([w.energy, report.kWh], kwh);
  if (report.tou) {
    sheet.addRow([]);
    sheet.addRow([w.period, w.energy, w.price, w.cost]).font = { bold: true };
    for (const t of report.tou)
      add(
        [
          TOU_PERIOD_LABELS[t.period as TouPeriod][lang],
          t.kWh,
          t.price,
          t.cents === null ? null : t.cents / 100,
        ],
        kwh,
      );
    add([w.total, report.kWh, null, report.totalCents === null ? null : report.totalCents / 100], kwh);
  }
  if (report.balance) {
    sheet.addRow([]);
    sheet.addRow([w.balance]).font = { bold: true };
    sheet.addRow([w.child, w.code, w.energy]).font = { bold: true };
    for (const c of report.balance.children) add([c.name, c.code, c.kWh], kwh);
    add([w.childrenSum, null, report.balance.childrenKWh], kwh);
    add([w.difference, null, report.balance.difference], kwh);
    add([w.percent, null, report.balance.percent]);
  }
  if (report.issues.length > 0) {
    sheet.addRow([]);
    sheet.addRow([w.issues]).font = { bold: true };
    for (const i of report.issues) add([i.meter, i.reason, i.at ? at(i.at) : null, i.detail ?? null]);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
