import { describe, expect, it } from 'vitest';
import {
  cellAlign,
  checkReportTemplate,
  columnName,
  emptyReportTemplate,
  fieldReportDecimals,
  formatReportNumber,
  type ReportTemplate,
  renderGrid,
  reportBindings,
  storedReportTemplate,
} from './template';

/** A boiler-room daily report: a merged title row, labels, and three bound cells. */
const DAILY = {
  title: '锅炉房日报',
  rows: 4,
  cols: 3,
  colWidths: [160, 120],
  merges: [{ row: 0, col: 0, rowSpan: 1, colSpan: 3 }],
  cells: [
    {
      row: 3,
      col: 1,
      kind: 'bind',
      itemId: 7,
      field: 'f1',
      method: 'rangeAvg',
      range: 'yesterday',
      decimals: 1,
    },
    { row: 0, col: 0, kind: 'text', text: '锅炉房 温度' },
    { row: 1, col: 0, kind: 'text', text: '最新温度' },
    { row: 1, col: 1, kind: 'bind', itemId: 7, field: 'f1', method: 'latest', range: 'today' },
    { row: 2, col: 0, kind: 'text', text: '今日累计' },
    { row: 2, col: 1, kind: 'bind', itemId: 7, field: 'f2', method: 'totalToday', decimals: 0 },
  ],
};

function bad(input: unknown): { field: string; key: string } {
  const result = checkReportTemplate(input);
  if (result.ok) throw new Error('expected a bad template');
  return { field: result.field, key: result.key };
}

function good(input: unknown): ReportTemplate {
  const result = checkReportTemplate(input);
  if (!result.ok) throw new Error(`expected a good template, got ${result.field} ${result.key}`);
  return result.template;
}

describe('checkReportTemplate', () => {
  it('normalises a good template: widths filled, cells in reading order, ranges only where taken', () => {
    const t = good(DAILY);
    expect(t.colWidths).toEqual([160, 120, 120]);
    expect(t.cells.map((c) => [c.row, c.col])).toEqual([
      [0, 0],
      [1, 0],
      [1, 1],
      [2, 0],
      [2, 1],
      [3, 1],
    ]);
    // latest takes no range: the stray one is dropped
    expect(t.cells[2]).toEqual({ row: 1, col: 1, kind: 'bind', itemId: 7, field: 'f1', method: 'latest' });
    expect(t.cells[5]).toMatchObject({ method: 'rangeAvg', range: 'yesterday', decimals: 1 });
    expect(good(t)).toEqual(t); // idempotent
  });

  it('names the first bad part of the grid', () => {
    expect(bad(null)).toEqual({ field: 'template', key: 'validation' });
    expect(bad({ ...DAILY, rows: 0 })).toEqual({ field: 'rows', key: 'validation' });
    expect(bad({ ...DAILY, rows: 101 })).toEqual({ field: 'rows', key: 'validation' });
    expect(bad({ ...DAILY, cols: 31 })).toEqual({ field: 'cols', key: 'validation' });
    expect(bad({ ...DAILY, cols: undefined })).toEqual({ field: 'cols', key: 'fieldRequired' });
    expect(bad({ ...DAILY, rows: 2.5 })).toEqual({ field: 'rows', key: 'validation' });
    expect(bad({ ...DAILY, title: 'x'.repeat(101) }).field).toBe('title');
    expect(bad({ ...DAILY, colWidths: [160, 10] }).field).toBe('colWidths.1');
    expect(bad({ ...DAILY, colWidths: [1, 2, 3, 4] }).field).toBe('colWidths');
  });

  it('names the first bad cell part', () => {
    const withCell = (cell: Record<string, unknown>) => ({ ...DAILY, cells: [...DAILY.cells, cell] });
    const at = `cells.${DAILY.cells.length}`;
    expect(bad(withCell({ row: 4, col: 0, kind: 'text', text: 'x' })).field).toBe(`${at}.row`);
    expect(bad(withCell({ row: 3, col: 3, kind: 'text', text: 'x' })).field).toBe(`${at}.col`);
    expect(bad(withCell({ row: 2, col: 1, kind: 'text', text: 'dup' })).field).toBe(`${at}.col`);
    expect(bad(withCell({ row: 3, col: 0, kind: 'image' })).field).toBe(`${at}.kind`);
    expect(bad(withCell({ row: 3, col: 0, kind: 'text', text: 5 })).field).toBe(`${at}.text`);
    expect(bad(withCell({ row: 3, col: 0, kind: 'text', text: '字'.repeat(501) })).field).toBe(`${at}.text`);
    // under the merged title, only its top-left cell may hold something
    expect(bad(withCell({ row: 0, col: 2, kind: 'text', text: 'x' })).field).toBe(at);
    const bind = { row: 3, col: 0, kind: 'bind', itemId: 7, field: 'f1', method: 'latest' };
    expect(bad(withCell({ ...bind, itemId: 0 })).field).toBe(`${at}.itemId`);
    // integers to JavaScript, yet no id the database can hold
    expect(bad(withCell({ ...bind, itemId: 1e308 })).field).toBe(`${at}.itemId`);
    expect(bad(withCell({ ...bind, itemId: 2 ** 31 })).field).toBe(`${at}.itemId`);
    expect(bad(withCell({ ...bind, itemId: undefined }))).toEqual({
      field: `${at}.itemId`,
      key: 'fieldRequired',
    });
    expect(bad(withCell({ ...bind, field: '' }))).toEqual({ field: `${at}.field`, key: 'fieldRequired' });
    expect(bad(withCell({ ...bind, method: 'median' }))).toEqual({
      field: `${at}.method`,
      key: 'validation',
    });
    expect(bad(withCell({ ...bind, method: 'rangeSum' }))).toEqual({
      field: `${at}.range`,
      key: 'fieldRequired',
    });
    expect(bad(withCell({ ...bind, method: 'rangeSum', range: 'lastYear' })).field).toBe(`${at}.range`);
    expect(bad(withCell({ ...bind, method: 'rangeMax', range: 'period' }))).toEqual({
      field: `${at}.from`,
      key: 'fieldRequired',
    });
    expect(
      bad(withCell({ ...bind, method: 'rangeMax', range: 'period', from: '2026-01-02', to: '2026-01-01' })),
    ).toEqual({ field: `${at}.to`, key: 'timeRangeInvalid' });
    expect(bad(withCell({ ...bind, decimals: 7 })).field).toBe(`${at}.decimals`);
  });

  it('keeps a period binding as ISO instants', () => {
    const t = good({
      rows: 1,
      cols: 1,
      cells: [
        {
          row: 0,
          col: 0,
          kind: 'bind',
          itemId: 1,
          field: 'f1',
          method: 'rangeMin',
          range: 'period',
          from: '2026-01-01T00:00:00+08:00',
          to: '2026-02-01T00:00:00+08:00',
        },
      ],
    });
    expect(t.cells[0]).toMatchObject({ from: '2025-12-31T16:00:00.000Z', to: '2026-01-31T16:00:00.000Z' });
  });

  it('refuses overlapping, single-cell and out-of-grid merges', () => {
    const withMerge = (m: Record<string, unknown>) => ({ ...DAILY, merges: [...DAILY.merges, m] });
    expect(bad(withMerge({ row: 0, col: 2, rowSpan: 2, colSpan: 1 })).field).toBe('merges.1');
    expect(bad(withMerge({ row: 2, col: 2, rowSpan: 1, colSpan: 1 })).field).toBe('merges.1.colSpan');
    expect(bad(withMerge({ row: 2, col: 2, rowSpan: 3, colSpan: 1 })).field).toBe('merges.1.rowSpan');
    expect(bad(withMerge({ row: 2, col: 1, rowSpan: 1, colSpan: 3 })).field).toBe('merges.1.colSpan');
    // a merge over cells that hold something other than at its top-left: the input index is named
    expect(bad(withMerge({ row: 1, col: 0, rowSpan: 2, colSpan: 1 })).field).toBe('cells.4');
  });
});

describe('cell styles', () => {
  const styled = (style: unknown, kind: 'text' | 'bind' = 'text') => ({
    rows: 2,
    cols: 2,
    cells: [
      kind === 'text'
        ? { row: 0, col: 0, kind, text: '', style }
        : { row: 0, col: 0, kind, itemId: 7, field: 'f1', method: 'latest', style },
    ],
  });

  it('keeps bold, alignment and a fill (lower case), drops unset and unknown keys', () => {
    const result = checkReportTemplate(
      styled({ bold: true, align: 'center', fill: '#FFE58F', italic: true, color: 'red' }),
    );
    expect(result.ok && result.template.cells[0]).toEqual({
      row: 0,
      col: 0,
      kind: 'text',
      text: '',
      style: { bold: true, align: 'center', fill: '#ffe58f' },
    });
    const plain = checkReportTemplate(styled({ bold: false }, 'bind'));
    expect(plain.ok && plain.template.cells[0]).not.toHaveProperty('style');
    const none = checkReportTemplate(styled(null));
    expect(none.ok && none.template.cells[0]).not.toHaveProperty('style');
  });

  it('names the bad style part', () => {
    expect(bad(styled('bold'))).toEqual({ field: 'cells.0.style', key: 'validation' });
    expect(bad(styled({ bold: 'yes' }))).toEqual({ field: 'cells.0.style.bold', key: 'validation' });
    expect(bad(styled({ align: 'justify' }))).toEqual({ field: 'cells.0.style.align', key: 'validation' });
    for (const fill of ['red', '#fff', '#12345g', 'url(x)', '#1234567', 5]) {
      expect(bad(styled({ fill }))).toEqual({ field: 'cells.0.style.fill', key: 'validation' });
    }
  });

  it('carries the style into the resolved grid; alignment defaults to text left, numbers right', () => {
    const template: ReportTemplate = {
      title: '',
      rows: 1,
      cols: 3,
      colWidths: [100, 100, 100],
      merges: [],
      cells: [
        { row: 0, col: 0, kind: 'text', text: 'T', style: { bold: true, fill: '#e6f4ff' } },
        {
          row: 0,
          col: 1,
          kind: 'bind',
          itemId: 7,
          field: 'f1',
          method: 'latest',
          style: { align: 'center' },
        },
        { row: 0, col: 2, kind: 'bind', itemId: 7, field: 'f2', method: 'latest' },
      ],
    };
    const [a, b, c] = renderGrid(template, { '0:1': 1.5, '0:2': 2 }).grid[0]!;
    expect(a).toMatchObject({ kind: 'text', text: 'T', style: { bold: true, fill: '#e6f4ff' } });
    expect(b).toMatchObject({ kind: 'value', text: '1.5', style: { align: 'center' } });
    expect(c).not.toHaveProperty('style');
    const drawn = (cell: typeof a) => (cell && cell.kind !== 'covered' ? cellAlign(cell) : null);
    expect([drawn(a), drawn(b), drawn(c)]).toEqual(['left', 'center', 'right']);
  });
});

describe('renderGrid', () => {
  it('resolves text, values with their decimals, missing values and merges', () => {
    const t = good(DAILY);
    const out = renderGrid(
      t,
      new Map([
        ['1:1', 23.456],
        ['2:1', 1234.5],
        ['3:1', null],
      ]),
    );
    expect(out.title).toBe('锅炉房日报');
    expect(out.grid).toHaveLength(4);
    expect(out.grid[0]).toEqual([
      { kind: 'text', text: '锅炉房 温度', rowSpan: 1, colSpan: 3 },
      { kind: 'covered' },
      { kind: 'covered' },
    ]);
    expect(out.grid[1]![1]).toEqual({ kind: 'value', text: '23.456', value: 23.456, rowSpan: 1, colSpan: 1 });
    expect(out.grid[2]![1]).toMatchObject({ kind: 'value', text: '1235', value: 1234.5, decimals: 0 });
    expect(out.grid[3]![1]).toMatchObject({ kind: 'value', text: '', value: null });
    expect(out.grid[3]![0]).toEqual({ kind: 'empty', text: '', rowSpan: 1, colSpan: 1 });
    expect(out.grid[3]![2]).toEqual({ kind: 'empty', text: '', rowSpan: 1, colSpan: 1 });
  });

  it('accepts a plain record of values and ignores values of cells that are not bound', () => {
    const t = good(DAILY);
    const out = renderGrid(t, { '1:1': 5, '1:0': 99, '2:1': Number.NaN });
    expect(out.grid[1]![0]).toMatchObject({ kind: 'text', text: '最新温度' });
    expect(out.grid[1]![1]).toMatchObject({ text: '5', value: 5 });
    expect(out.grid[2]![1]).toMatchObject({ text: '', value: null });
  });

  it("shows a value with its field's decimals when the cell names none; the cell's own win", () => {
    const t = good(DAILY);
    const out = renderGrid(
      t,
      new Map([
        ['1:1', 1.004721],
        ['2:1', 1234.5],
      ]),
      new Map([
        ['1:1', 3],
        ['2:1', 3],
      ]),
    );
    expect(out.grid[1]![1]).toMatchObject({ kind: 'value', text: '1.005', value: 1.004721, decimals: 3 });
    // cell (2,1) names 0 decimals itself
    expect(out.grid[2]![1]).toMatchObject({ text: '1235', decimals: 0 });
  });

  it('keeps an empty merged anchor spanning', () => {
    const t = good({ rows: 2, cols: 2, merges: [{ row: 0, col: 0, rowSpan: 2, colSpan: 2 }] });
    const out = renderGrid(t, {});
    expect(out.grid[0]![0]).toEqual({ kind: 'empty', text: '', rowSpan: 2, colSpan: 2 });
    expect(out.grid[1]![1]).toEqual({ kind: 'covered' });
  });
});

describe('helpers', () => {
  it('formats numbers', () => {
    expect(formatReportNumber(1 / 3)).toBe('0.333333');
    expect(formatReportNumber(2.5, 0)).toBe('3');
    expect(formatReportNumber(-0.0000001)).toBe('0');
    expect(formatReportNumber(12, 2)).toBe('12.00');
    // half away from zero on the decimal digits, not on the binary double (1.0045 is 1.00449999…)
    expect(formatReportNumber(1.0045, 3)).toBe('1.005');
    expect(formatReportNumber(-0.0001, 2)).toBe('0.00');
  });

  it("takes a field's decimals for decimal and currency fields only", () => {
    expect(fieldReportDecimals({ type: 1, decimals: 3 })).toBe(3);
    expect(fieldReportDecimals({ type: 1 })).toBeUndefined();
    expect(fieldReportDecimals({ type: 2 })).toBe(2);
    expect(fieldReportDecimals({ type: 10 })).toBeUndefined();
  });

  it('reads stored content: {} and broken content are a new empty report', () => {
    expect(storedReportTemplate({})).toEqual(emptyReportTemplate());
    expect(storedReportTemplate({ rows: 'x' })).toEqual(emptyReportTemplate());
    expect(storedReportTemplate(good(DAILY))).toEqual(good(DAILY));
    expect(reportBindings(good(DAILY)).map((c) => `${c.row}:${c.col}`)).toEqual(['1:1', '2:1', '3:1']);
  });

  it('names columns like a spreadsheet', () => {
    expect([0, 25, 26, 29].map(columnName)).toEqual(['A', 'Z', 'AA', 'AD']);
  });
});
