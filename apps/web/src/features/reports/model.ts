/**
 * Edits of a report template in the editor, each returning a new template: put or clear a
 * cell, resize the grid, merge a rectangle, split a merge, set a column width. The server
 * checks the result again (checkReportTemplate of packages/domain) on save.
 */
import {
  REPORT_COL_WIDTH_DEFAULT,
  REPORT_MAX_COLS,
  REPORT_MAX_ROWS,
  type ReportAlign,
  type ReportCell,
  type ReportCellStyle,
  type ReportMerge,
  type ReportTemplate,
} from '@platform/domain';

/** What a cell holds without its position: text or a binding, with its style if it has one. */
export type CellContent = (
  | { kind: 'text'; text: string }
  | Omit<Extract<ReportCell, { kind: 'bind' }>, 'row' | 'col' | 'style'>
) & { style?: ReportCellStyle };

export interface Area {
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
}

export function cellAt(t: ReportTemplate, row: number, col: number): ReportCell | undefined {
  return t.cells.find((c) => c.row === row && c.col === col);
}

export function mergeAt(t: ReportTemplate, row: number, col: number): ReportMerge | undefined {
  return t.merges.find(
    (m) => row >= m.row && row < m.row + m.rowSpan && col >= m.col && col < m.col + m.colSpan,
  );
}

/** The top-left position of whatever holds (row, col): the merge's anchor or the cell itself. */
export function anchorOf(t: ReportTemplate, row: number, col: number): { row: number; col: number } {
  const m = mergeAt(t, row, col);
  return m ? { row: m.row, col: m.col } : { row, col };
}

export function putCell(
  t: ReportTemplate,
  row: number,
  col: number,
  content: CellContent | null,
): ReportTemplate {
  const rest = t.cells.filter((c) => c.row !== row || c.col !== col);
  if (!content) return { ...t, cells: rest };
  const { style, ...held } = content;
  const kept = style && Object.keys(style).length > 0 ? { style } : {};
  return { ...t, cells: [...rest, { ...held, ...kept, row, col } as ReportCell] };
}

/** a change of a cell's style; undefined or false clears that part */
export type StyleChange = { bold?: boolean; align?: ReportAlign | undefined; fill?: string | undefined };

/**
 * Sets part of a cell's style (undefined clears that part). An empty cell becomes an empty text
 * cell, so a fill can colour a cell without content.
 */
export function styleCell(t: ReportTemplate, row: number, col: number, change: StyleChange): ReportTemplate {
  const current = cellAt(t, row, col);
  const style: Record<string, unknown> = { ...current?.style };
  for (const [key, value] of Object.entries(change)) {
    if (value === undefined || value === false) delete style[key];
    else style[key] = value;
  }
  const base: CellContent = current
    ? (({ row: _r, col: _c, ...rest }) => rest)(current)
    : { kind: 'text', text: '' };
  return putCell(t, row, col, { ...base, style: style as ReportCellStyle });
}

export function resize(t: ReportTemplate, rows: number, cols: number): ReportTemplate {
  const r = Math.min(Math.max(1, Math.floor(rows)), REPORT_MAX_ROWS);
  const c = Math.min(Math.max(1, Math.floor(cols)), REPORT_MAX_COLS);
  return {
    ...t,
    rows: r,
    cols: c,
    colWidths: Array.from({ length: c }, (_, i) => t.colWidths[i] ?? REPORT_COL_WIDTH_DEFAULT),
    cells: t.cells.filter((cell) => cell.row < r && cell.col < c),
    merges: t.merges.filter((m) => m.row + m.rowSpan <= r && m.col + m.colSpan <= c),
  };
}

/** The rectangle spanning two positions, grown until no merge sticks out of it. */
export function areaOf(
  t: ReportTemplate,
  a: { row: number; col: number },
  b: { row: number; col: number },
): Area {
  let top = Math.min(a.row, b.row);
  let left = Math.min(a.col, b.col);
  let bottom = Math.max(a.row, b.row);
  let right = Math.max(a.col, b.col);
  for (let changed = true; changed; ) {
    changed = false;
    for (const m of t.merges) {
      const inside =
        m.row <= bottom && m.row + m.rowSpan - 1 >= top && m.col <= right && m.col + m.colSpan - 1 >= left;
      if (!inside) continue;
      const [t2, l2, b2, r2] = [
        Math.min(top, m.row),
        Math.min(left, m.col),
        Math.max(bottom, m.row + m.rowSpan - 1),
        Math.max(right, m.col + m.colSpan - 1),
      ];
      if (t2 !== top || l2 !== left || b2 !== bottom || r2 !== right) {
        [top, left, bottom, right] = [t2, l2, b2, r2];
        changed = true;
      }
    }
  }
  return { row: top, col: left, rowSpan: bottom - top + 1, colSpan: right - left + 1 };
}

export function inArea(area: Area, row: number, col: number): boolean {
  return row >= area.row && row < area.row + area.rowSpan && col >= area.col && col < area.col + area.colSpan;
}

/** Merges the area: merges inside it are replaced, the content of its top-left cell is kept, others are cleared. */
export function mergeArea(t: ReportTemplate, area: Area): ReportTemplate {
  if (area.rowSpan * area.colSpan < 2) return t;
  return {
    ...t,
    merges: [...t.merges.filter((m) => !inArea(area, m.row, m.col)), { ...area }],
    cells: t.cells.filter((c) => !inArea(area, c.row, c.col) || (c.row === area.row && c.col === area.col)),
  };
}

export function unmerge(t: ReportTemplate, row: number, col: number): ReportTemplate {
  const m = mergeAt(t, row, col);
  return m ? { ...t, merges: t.merges.filter((x) => x !== m) } : t;
}

export function setColWidth(t: ReportTemplate, col: number, width: number): ReportTemplate {
  return { ...t, colWidths: t.colWidths.map((w, i) => (i === col ? width : w)) };
}
