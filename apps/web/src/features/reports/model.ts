/**
 * Edits of a report template in the editor, each returning a new template: put or clear a
 * cell, resize the grid, merge a rectangle, split a merge, set a column width. The server
 * checks the result again (checkReportTemplate of packages/domain) on save.
 */
import {
  REPORT_COL_WIDTH_DEFAULT,
  REPORT_MAX_COLS,
  REPORT_MAX_ROWS,
  type ReportCell,
  type ReportMerge,
  type ReportTemplate,
} from '@platform/domain';

export type CellContent =
  | { kind: 'text'; text: string }
  | Omit<Extract<ReportCell, { kind: 'bind' }>, 'row' | 'col'>;

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
  return { ...t, cells: [...rest, { ...content, row, col } as ReportCell] };
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
