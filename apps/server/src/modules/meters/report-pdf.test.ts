import { describe, expect, it } from 'vitest';
import { pdfPageCount, pdfText } from '../../test/pdf';
import type { MeterReport } from './meter-data';
import { reportNumber, reportPdf } from './report-pdf';

/** A parent meter's month with `n` children, some with names too long for their column. */
function reportWith(n: number): MeterReport {
  const children = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: i % 9 === 0 ? `二号车间配电柜照明回路一个很长很长很长很长的名字 ${i + 1}` : `车间 ${i + 1}`,
    code: `C${String(i + 1).padStart(4, '0')}`,
    kWh: 1000 + i,
  }));
  const childrenKWh = children.reduce((s, c) => s + c.kWh, 0);
  return {
    meter: {
      id: 1,
      name: '总进线',
      code: 'MAIN',
      type: 101,
      ct: 40,
      pt: 100,
      multiplier: 4000,
      formula: null,
    },
    year: 2026,
    month: 10,
    timeZone: 'Asia/Shanghai',
    from: '2026-09-30T16:00:00.000Z',
    to: '2026-10-31T16:00:00.000Z',
    opening: { at: '2026-09-30T16:00:00.000Z', value: 12345.67 },
    closing: { at: '2026-10-31T16:00:00.000Z', value: 12678.9 },
    kWh: 1332920,
    tou: [
      { period: 'sharp', kWh: 100000, price: 150, cents: 15000000 },
      { period: 'peak', kWh: 400000, price: 120, cents: 48000000 },
      { period: 'flat', kWh: 400000, price: 70, cents: 28000000 },
      { period: 'valley', kWh: 432920, price: 30, cents: 12987600 },
    ],
    totalCents: 103987600,
    events: [],
    balance: {
      children,
      childrenKWh,
      difference: 1332920 - childrenKWh,
      percent: Math.round(((1332920 - childrenKWh) / 1332920) * 10000) / 100,
    },
    issues: [],
  } as MeterReport;
}

describe('the monthly report PDF', () => {
  it('continues a long balance table on the next pages under its header, and numbers the pages', async () => {
    const pdf = await reportPdf(reportWith(120), 'en');
    const pages = pdfPageCount(pdf);
    expect(pages).toBeGreaterThanOrEqual(3);
    // one line per cell drawn
    const text = pdfText(pdf);
    const lines = text.split('\n');
    // the balance table starts on the first page and its header is drawn again on every page
    expect(lines.filter((l) => l === 'Child meter')).toHaveLength(pages);
    for (let n = 1; n <= pages; n++) expect(text).toContain(`Page ${n} of ${pages}`);
    expect(text).toContain(`C0120\n${reportNumber(1119)}`);
    expect(text).toContain('Child meters in all');
    // a name too long for its column is cut with an ellipsis, never wrapped into the next row
    const long = lines.find((l) => l.startsWith('二号车间'))!;
    expect(long.endsWith('…')).toBe(true);
    expect(lines[lines.indexOf(long) + 1]).toBe('C0001');
  });

  it('writes Chinese labels in Chinese and English labels in English', async () => {
    const zh = pdfText(await reportPdf(reportWith(2), 'zh'));
    expect(zh).toContain('总表与下级电表平衡');
    expect(zh).toContain('第 1 页，共 1 页');
    expect(zh).toContain('¥ 1,039,876.00');
    const en = pdfText(await reportPdf(reportWith(2), 'en'));
    expect(en).toContain('Balance against child meters');
    expect(en).not.toContain('总表与下级电表平衡');
  });
});
