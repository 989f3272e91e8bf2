/**
 * Report templates of the data cabin (node type `report`, seed point 2 routes reportTemplate /
 * editTemplate / previewReport): a grid of rows × columns whose cells are either static text or
 * a binding to one numeric field of a data item through one of the twelve acquisition methods.
 * Cells may be merged (row and column spans); columns have widths in pixels.
 *
 * Pure: `checkReportTemplate` validates (and normalises) what a client sends, naming the first
 * bad part as a field path (`cells.3.method`), and `renderGrid` turns a template and the values
 * of its bindings into the resolved table that the preview, the XLSX and the PDF all draw.
 * Which items a caller may bind is the server's check (company, read level, numeric field).
 */

import {
  ACQUISITION_METHODS,
  type AcquisitionMethod,
  type FieldDef,
  RANGE_METHODS,
  TIME_RANGES,
  type TimeRange,
} from '../data/types';
import { roundTo } from '../data/values';
import type { ErrorKey } from '../errors';
import { isRowId } from '../validation';

export const REPORT_MAX_ROWS = 100;
export const REPORT_MAX_COLS = 30;
export const REPORT_TITLE_MAX = 100;
export const REPORT_TEXT_MAX = 500;
export const REPORT_MAX_DECIMALS = 6;
export const REPORT_COL_WIDTH_MIN = 40;
export const REPORT_COL_WIDTH_MAX = 600;
export const REPORT_COL_WIDTH_DEFAULT = 120;

/** A cell's value from a data item: `method` over field `field` of item `itemId`. */
export interface ReportBinding {
  itemId: number;
  /** key of a numeric field of the item ("f1") */
  field: string;
  method: AcquisitionMethod;
  /** range methods only */
  range?: TimeRange;
  /** range 'period' only: ISO instants, from < to */
  from?: string;
  to?: string;
  /** decimal places shown (0–6); absent: the number as computed, at most 6 places */
  decimals?: number;
}

/** How a cell looks; absent keys are the defaults (normal weight, text left, numbers right, no fill). */
export interface ReportCellStyle {
  bold?: true;
  align?: ReportAlign;
  /** background as #rrggbb (lower case) */
  fill?: string;
}

export const REPORT_ALIGNS = ['left', 'center', 'right'] as const;
export type ReportAlign = (typeof REPORT_ALIGNS)[number];

/** A cell: static text (possibly empty, to carry a style) or a binding; either may be styled. */
export type ReportCell = (
  | { row: number; col: number; kind: 'text'; text: string }
  | ({ row: number; col: number; kind: 'bind' } & ReportBinding)
) & { style?: ReportCellStyle };

export interface ReportMerge {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

export interface ReportTemplate {
  title: string;
  rows: number;
  cols: number;
  /** one width in px per column */
  colWidths: number[];
  /** the non-empty cells, at most one per position, none inside a merge but its top-left one */
  cells: ReportCell[];
  merges: ReportMerge[];
}

/** A new report: 10 × 6, no title, nothing in it. */
export function emptyReportTemplate(): ReportTemplate {
  return {
    title: '',
    rows: 10,
    cols: 6,
    colWidths: Array.from({ length: 6 }, () => REPORT_COL_WIDTH_DEFAULT),
    cells: [],
    merges: [],
  };
}

export type ReportCheck =
  | { ok: true; template: ReportTemplate }
  | { ok: false; field: string; key: ErrorKey };

class Bad extends Error {
  constructor(
    readonly field: string,
    readonly key: ErrorKey = 'validation',
  ) {
    super(field);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function intIn(value: unknown, min: number, max: number, field: string): number {
  if (value == null) throw new Bad(field, 'fieldRequired');
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new Bad(field);
  return value;
}

function isoInstant(value: unknown, field: string): string {
  if (value == null || value === '') throw new Bad(field, 'fieldRequired');
  if (typeof value !== 'string' || value.length > 40 || Number.isNaN(Date.parse(value))) throw new Bad(field);
  return new Date(value).toISOString();
}

export function cellKey(row: number, col: number): string {
  return `${row}:${col}`;
}

const FILL = /^#[0-9a-f]{6}$/i;

/** A cell's style with only known, set keys; undefined when nothing is set. */
function checkStyle(raw: unknown, at: string): ReportCellStyle | undefined {
  if (raw == null) return undefined;
  if (!isObject(raw)) throw new Bad(at);
  const style: ReportCellStyle = {};
  if (raw.bold != null) {
    if (typeof raw.bold !== 'boolean') throw new Bad(`${at}.bold`);
    if (raw.bold) style.bold = true;
  }
  if (raw.align != null) {
    if (typeof raw.align !== 'string' || !(REPORT_ALIGNS as readonly string[]).includes(raw.align))
      throw new Bad(`${at}.align`);
    style.align = raw.align as ReportAlign;
  }
  if (raw.fill != null) {
    if (typeof raw.fill !== 'string' || !FILL.test(raw.fill)) throw new Bad(`${at}.fill`);
    style.fill = raw.fill.toLowerCase();
  }
  return Object.keys(style).length > 0 ? style : undefined;
}

function checkBinding(raw: Record<string, unknown>, at: string): ReportBinding {
  if (!isRowId(raw.itemId)) {
    throw new Bad(`${at}.itemId`, raw.itemId == null ? 'fieldRequired' : 'validation');
  }
  if (raw.field == null || raw.field === '') throw new Bad(`${at}.field`, 'fieldRequired');
  if (typeof raw.field !== 'string' || raw.field.length > 20) throw new Bad(`${at}.field`);
  const method = raw.method;
  if (method == null) throw new Bad(`${at}.method`, 'fieldRequired');
  if (typeof method !== 'string' || !(ACQUISITION_METHODS as readonly string[]).includes(method)) {
    throw new Bad(`${at}.method`);
  }
  const binding: ReportBinding = {
    itemId: raw.itemId as number,
    field: raw.field,
    method: method as AcquisitionMethod,
  };
  if (RANGE_METHODS.includes(binding.method)) {
    const range = raw.range;
    if (range == null) throw new Bad(`${at}.range`, 'fieldRequired');
    if (typeof range !== 'string' || !(TIME_RANGES as readonly string[]).includes(range)) {
      throw new Bad(`${at}.range`);
    }
    binding.range = range as TimeRange;
    if (range === 'period') {
      const from = isoInstant(raw.from, `${at}.from`);
      const to = isoInstant(raw.to, `${at}.to`);
      if (Date.parse(from) >= Date.parse(to)) throw new Bad(`${at}.to`, 'timeRangeInvalid');
      binding.from = from;
      binding.to = to;
    }
  }
  if (raw.decimals != null) binding.decimals = intIn(raw.decimals, 0, REPORT_MAX_DECIMALS, `${at}.decimals`);
  return binding;
}

/**
 * Checks a template as a client sends it. Returns it normalised (only known keys, cells in
 * reading order, a range dropped from a method that takes none) or the first bad part.
 */
export function checkReportTemplate(input: unknown): ReportCheck {
  try {
    return { ok: true, template: parse(input) };
  } catch (error) {
    if (error instanceof Bad) return { ok: false, field: error.field, key: error.key };
    throw error;
  }
}

function parse(input: unknown): ReportTemplate {
  if (!isObject(input)) throw new Bad('template');
  const title = input.title ?? '';
  if (typeof title !== 'string' || [...title].length > REPORT_TITLE_MAX) throw new Bad('title');
  const rows = intIn(input.rows, 1, REPORT_MAX_ROWS, 'rows');
  const cols = intIn(input.cols, 1, REPORT_MAX_COLS, 'cols');

  const widthsIn = input.colWidths ?? [];
  if (!Array.isArray(widthsIn) || widthsIn.length > cols) throw new Bad('colWidths');
  const colWidths = Array.from({ length: cols }, (_, c) =>
    widthsIn[c] == null
      ? REPORT_COL_WIDTH_DEFAULT
      : intIn(widthsIn[c], REPORT_COL_WIDTH_MIN, REPORT_COL_WIDTH_MAX, `colWidths.${c}`),
  );

  const mergesIn = input.merges ?? [];
  if (!Array.isArray(mergesIn) || mergesIn.length > rows * cols) throw new Bad('merges');
  // which merge covers each position; the anchor is the merge's top-left cell
  const coveredBy = new Map<string, number>();
  const merges: ReportMerge[] = mergesIn.map((raw, i) => {
    const at = `merges.${i}`;
    if (!isObject(raw)) throw new Bad(at);
    const row = intIn(raw.row, 0, rows - 1, `${at}.row`);
    const col = intIn(raw.col, 0, cols - 1, `${at}.col`);
    const rowSpan = intIn(raw.rowSpan, 1, rows - row, `${at}.rowSpan`);
    const colSpan = intIn(raw.colSpan, 1, cols - col, `${at}.colSpan`);
    if (rowSpan * colSpan < 2) throw new Bad(`${at}.colSpan`);
    for (let r = row; r < row + rowSpan; r += 1) {
      for (let c = col; c < col + colSpan; c += 1) {
        if (coveredBy.has(cellKey(r, c))) throw new Bad(at); // overlaps an earlier merge
        coveredBy.set(cellKey(r, c), i);
      }
    }
    return { row, col, rowSpan, colSpan };
  });

  const cellsIn = input.cells ?? [];
  if (!Array.isArray(cellsIn) || cellsIn.length > rows * cols) throw new Bad('cells');
  const seen = new Set<string>();
  const cells: ReportCell[] = cellsIn.map((raw, i) => {
    const at = `cells.${i}`;
    if (!isObject(raw)) throw new Bad(at);
    const row = intIn(raw.row, 0, rows - 1, `${at}.row`);
    const col = intIn(raw.col, 0, cols - 1, `${at}.col`);
    const key = cellKey(row, col);
    if (seen.has(key)) throw new Bad(`${at}.col`); // a second cell at the same place
    seen.add(key);
    const merge = coveredBy.get(key);
    if (merge !== undefined && (merges[merge]!.row !== row || merges[merge]!.col !== col)) {
      throw new Bad(at); // hidden under a merge
    }
    const style = checkStyle(raw.style, `${at}.style`);
    const styled = style ? { style } : {};
    if (raw.kind === 'text') {
      if (typeof raw.text !== 'string' || [...raw.text].length > REPORT_TEXT_MAX) throw new Bad(`${at}.text`);
      return { row, col, kind: 'text', text: raw.text, ...styled };
    }
    if (raw.kind !== 'bind') throw new Bad(`${at}.kind`);
    return { row, col, kind: 'bind', ...checkBinding(raw, at), ...styled };
  });
  cells.sort((a, b) => a.row - b.row || a.col - b.col);
  merges.sort((a, b) => a.row - b.row || a.col - b.col);
  return { title, rows, cols, colWidths, cells, merges };
}

/**
 * The template stored in a templates row; `{}` (a report just created) and anything no longer
 * valid read as a new empty report rather than failing the page.
 */
export function storedReportTemplate(content: unknown): ReportTemplate {
  if (isObject(content) && Object.keys(content).length === 0) return emptyReportTemplate();
  const checked = checkReportTemplate(content);
  return checked.ok ? checked.template : emptyReportTemplate();
}

/** The bound cells of a template. */
export function reportBindings(template: ReportTemplate): Array<Extract<ReportCell, { kind: 'bind' }>> {
  return template.cells.filter((c): c is Extract<ReportCell, { kind: 'bind' }> => c.kind === 'bind');
}

/**
 * Shows a number: with fixed decimals when given (the cell's own, else its field's), else as
 * computed (≤ 6 places). Rounded half away from zero on the decimal digits, as records are.
 */
export function formatReportNumber(value: number, decimals?: number): string {
  if (!Number.isFinite(value)) return '';
  if (decimals !== undefined) {
    const rounded = roundTo(value, decimals);
    return (Object.is(rounded, -0) ? 0 : rounded).toFixed(decimals);
  }
  const rounded = Math.round(value * 1e6) / 1e6;
  return String(Object.is(rounded, -0) ? 0 : rounded);
}

/**
 * The decimals a bound value of this field shows when the cell names none: the field's own
 * (currency 2 by default); undefined for integers and decimals without places, shown as computed.
 */
export function fieldReportDecimals(field: Pick<FieldDef, 'type' | 'decimals'>): number | undefined {
  if (field.type !== 1 && field.type !== 2) return undefined;
  return field.decimals ?? (field.type === 2 ? 2 : undefined);
}

export type ResolvedCell =
  | {
      kind: 'empty' | 'text';
      text: string;
      rowSpan: number;
      colSpan: number;
      style?: ReportCellStyle;
    }
  | {
      kind: 'value';
      /** the formatted number, '' when there is none */
      text: string;
      /** null: no value (no record in the window, or the item cannot be read) */
      value: number | null;
      decimals?: number;
      rowSpan: number;
      colSpan: number;
      style?: ReportCellStyle;
    }
  | { kind: 'covered' };

/** Where a drawn cell's text goes: its style's, else numbers right and text left. */
export function cellAlign(cell: Exclude<ResolvedCell, { kind: 'covered' }>): ReportAlign {
  return cell.style?.align ?? (cell.kind === 'value' ? 'right' : 'left');
}

export interface ResolvedReport {
  title: string;
  rows: number;
  cols: number;
  colWidths: number[];
  /** rows × cols; a position under a merge other than its top-left is `covered` */
  grid: ResolvedCell[][];
}

/**
 * The table a template shows with these values (by `cellKey(row, col)` of each bound cell;
 * a missing or null value shows nothing). Preview, XLSX and PDF all draw this.
 */
export function renderGrid(
  template: ReportTemplate,
  values: ReadonlyMap<string, number | null> | Readonly<Record<string, number | null>>,
  /** by `cellKey`: the bound field's decimals (fieldReportDecimals), used when the cell names none */
  fieldDecimals: ReadonlyMap<string, number | undefined> = new Map(),
): ResolvedReport {
  const lookup = (key: string): number | null => {
    const v = values instanceof Map ? values.get(key) : (values as Record<string, number | null>)[key];
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  };
  const grid: ResolvedCell[][] = Array.from({ length: template.rows }, () =>
    Array.from(
      { length: template.cols },
      (): ResolvedCell => ({ kind: 'empty', text: '', rowSpan: 1, colSpan: 1 }),
    ),
  );
  const spans = new Map<string, ReportMerge>();
  for (const m of template.merges) {
    spans.set(cellKey(m.row, m.col), m);
    for (let r = m.row; r < m.row + m.rowSpan; r += 1) {
      for (let c = m.col; c < m.col + m.colSpan; c += 1) {
        if (r !== m.row || c !== m.col) grid[r]![c] = { kind: 'covered' };
      }
    }
    grid[m.row]![m.col] = { kind: 'empty', text: '', rowSpan: m.rowSpan, colSpan: m.colSpan };
  }
  for (const cell of template.cells) {
    const span = spans.get(cellKey(cell.row, cell.col));
    const rowSpan = span?.rowSpan ?? 1;
    const colSpan = span?.colSpan ?? 1;
    const styled = cell.style ? { style: { ...cell.style } } : {};
    if (cell.kind === 'text') {
      grid[cell.row]![cell.col] = { kind: 'text', text: cell.text, rowSpan, colSpan, ...styled };
      continue;
    }
    const value = lookup(cellKey(cell.row, cell.col));
    const decimals = cell.decimals ?? fieldDecimals.get(cellKey(cell.row, cell.col));
    grid[cell.row]![cell.col] = {
      kind: 'value',
      text: value === null ? '' : formatReportNumber(value, decimals),
      value,
      ...(decimals !== undefined ? { decimals } : {}),
      rowSpan,
      colSpan,
      ...styled,
    };
  }
  return {
    title: template.title,
    rows: template.rows,
    cols: template.cols,
    colWidths: [...template.colWidths],
    grid,
  };
}

/** Column letters as spreadsheets name them: 0 → A, 25 → Z, 26 → AA. */
export function columnName(col: number): string {
  let n = col + 1;
  let name = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    name = String.fromCharCode(65 + rest) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}
