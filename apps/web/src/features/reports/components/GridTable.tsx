import { columnName, type ReportCellStyle } from '@platform/domain';
import type { CSSProperties, ReactNode } from 'react';

export interface GridCell {
  /** under a merge, not its top-left cell: not drawn */
  covered?: boolean;
  rowSpan?: number;
  colSpan?: number;
  content: ReactNode;
  className?: string;
  title?: string;
  /** the cell's own look (bold, alignment, fill): over the class's */
  style?: CSSProperties;
}

/** A report cell's style as CSS; undefined when it has none. */
export function cellCss(style: ReportCellStyle | undefined): CSSProperties | undefined {
  if (!style) return undefined;
  return {
    ...(style.bold ? { fontWeight: 600 } : {}),
    ...(style.align ? { textAlign: style.align } : {}),
    ...(style.fill ? { background: style.fill } : {}),
  };
}

/**
 * A report grid as an HTML table: column widths in px (a column grows rather than break a
 * number), merged cells spanning, under its title centred over the grid's own width. A grid
 * wider than the page scrolls sideways. With `headers` it shows spreadsheet-style column
 * letters and row numbers (the editor and the template view).
 */
export function GridTable({
  rows,
  cols,
  colWidths,
  cellAt,
  title,
  titleTestId,
  headers,
  onCellClick,
  testId,
  cellTestId,
}: {
  rows: number;
  cols: number;
  colWidths: number[];
  cellAt: (row: number, col: number) => GridCell;
  /** the report's title, centred over the grid */
  title?: ReactNode;
  titleTestId?: string;
  headers?: boolean;
  /** extend: shift held (choose a rectangle) */
  onCellClick?: (row: number, col: number, extend: boolean) => void;
  testId?: string;
  cellTestId: string;
}) {
  const rowIndexes = Array.from({ length: rows }, (_, r) => r);
  const colIndexes = Array.from({ length: cols }, (_, c) => c);
  const widths = [...(headers ? [40] : []), ...colIndexes.map((c) => colWidths[c] ?? 120)];
  return (
    <div className="rp-sheet" data-testid={testId ? `${testId}-sheet` : undefined}>
      {title ? (
        <div className="rp-title" data-testid={titleTestId}>
          {title}
        </div>
      ) : null}
      <div className="rp-scroll">
        <table
          className={`rp-grid${onCellClick ? ' rp-grid-edit' : ''}`}
          // columns keep their set widths on a narrow screen: the grid scrolls sideways instead
          style={{ minWidth: widths.reduce((sum, w) => sum + w, 0) }}
          data-testid={testId}
        >
          <colgroup>
            {headers && <col style={{ width: 40 }} />}
            {colIndexes.map((c) => (
              <col key={c} style={{ width: colWidths[c] ?? 120 }} />
            ))}
          </colgroup>
          {headers && (
            <thead>
              <tr>
                <th className="rp-head" />
                {colIndexes.map((c) => (
                  <th key={c} className="rp-head">
                    {columnName(c)}
                  </th>
                ))}
              </tr>
            </thead>
          )}
          <tbody>
            {rowIndexes.map((r) => (
              <tr key={r}>
                {headers && <th className="rp-head">{r + 1}</th>}
                {colIndexes.map((c) => {
                  const cell = cellAt(r, c);
                  if (cell.covered) return null;
                  return (
                    <td
                      key={c}
                      rowSpan={cell.rowSpan ?? 1}
                      colSpan={cell.colSpan ?? 1}
                      className={cell.className}
                      style={cell.style}
                      title={cell.title}
                      onClick={onCellClick ? (e) => onCellClick(r, c, e.shiftKey) : undefined}
                      onKeyDown={
                        onCellClick
                          ? (e) => {
                              if (e.key !== 'Enter' && e.key !== ' ') return;
                              e.preventDefault();
                              onCellClick(r, c, e.shiftKey);
                            }
                          : undefined
                      }
                      tabIndex={onCellClick ? 0 : undefined}
                      data-testid={`${cellTestId}-${r}-${c}`}
                    >
                      {cell.content}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
