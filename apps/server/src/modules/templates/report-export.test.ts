import type { ResolvedCell } from '@platform/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { layoutRows, rowBlocks } from './report-export';

/** a grid of `rows` × 2 with the given vertical merges in column 0 */
function grid(rows: number, merges: Array<{ row: number; rowSpan: number }>) {
  const cells: ResolvedCell[][] = Array.from({ length: rows }, () => [
    { kind: 'text', text: 'x', rowSpan: 1, colSpan: 1 },
    { kind: 'text', text: 'y', rowSpan: 1, colSpan: 1 },
  ]);
  for (const m of merges) {
    cells[m.row]![0] = { kind: 'text', text: 'merged', rowSpan: m.rowSpan, colSpan: 1 };
    for (let k = m.row + 1; k < m.row + m.rowSpan; k += 1) cells[k]![0] = { kind: 'covered' };
  }
  return { rows, grid: cells };
}

describe('report PDF rows and pages', () => {
  it('groups the rows a merged cell spans, chaining merges that overlap', () => {
    expect(rowBlocks(grid(8, [{ row: 1, rowSpan: 3 }]))).toEqual([0, 3, 3, 3, 4, 5, 6, 7]);
    // a merge in column 1 starting inside the column-0 merge extends the block
    const chained = grid(8, [{ row: 1, rowSpan: 3 }]);
    chained.grid[3]![1] = { kind: 'text', text: 'b', rowSpan: 3, colSpan: 1 };
    chained.grid[4]![1] = { kind: 'covered' };
    chained.grid[5]![1] = { kind: 'covered' };
    expect(rowBlocks(chained)).toEqual([0, 5, 5, 5, 5, 5, 6, 7]);
  });

  it('moves a merged block that would straddle a page break to the next page', () => {
    const heights = [20, 20, 20, 20, 20, 20, 20];
    const blocks = rowBlocks(grid(7, [{ row: 2, rowSpan: 3 }]));
    const { tops, pageOf } = layoutRows(heights, blocks, { firstTop: 30, pageTop: 0, pageBottom: 100 });
    // rows 0-1 fill the first page to 70; row 2 alone would fit, but rows 2-4 (60) do not
    expect(pageOf).toEqual([0, 0, 1, 1, 1, 1, 1]);
    expect(tops).toEqual([30, 50, 0, 20, 40, 60, 80]);
  });

  it('without merges, breaks at the first row that does not fit (as before)', () => {
    const { tops, pageOf } = layoutRows([20, 20, 20, 20, 20], rowBlocks(grid(5, [])), {
      firstTop: 30,
      pageTop: 0,
      pageBottom: 100,
    });
    expect(pageOf).toEqual([0, 0, 0, 1, 1]);
    expect(tops).toEqual([30, 50, 70, 0, 20]);
  });

  it('a block that fits a page but not the first page under the title starts page two', () => {
    const blocks = rowBlocks(grid(5, [{ row: 0, rowSpan: 4 }]));
    const { tops, pageOf } = layoutRows([33, 55, 36, 37, 10], blocks, {
      firstTop: 40,
      pageTop: 0,
      pageBottom: 200,
    });
    expect(pageOf).toEqual([1, 1, 1, 1, 1]);
    expect(tops).toEqual([0, 33, 88, 124, 161]);
  });

  it('a block taller than a page breaks row by row', () => {
    const { pageOf } = layoutRows([30, 30, 30, 30, 30], rowBlocks(grid(5, [{ row: 0, rowSpan: 5 }])), {
      firstTop: 10,
      pageTop: 0,
      pageBottom: 100,
    });
    expect(pageOf).toEqual([0, 0, 0, 1, 1]);
  });

  it('any grid: rows in order, every row inside its page, blocks that fit a page never split', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 10, max: 60 }), { minLength: 1, maxLength: 40 }),
        fc.array(fc.record({ row: fc.nat(39), rowSpan: fc.integer({ min: 2, max: 6 }) }), { maxLength: 6 }),
        (heights, rawMerges) => {
          const rows = heights.length;
          // non-overlapping merges inside the grid
          const taken = new Set<number>();
          const merges = rawMerges.flatMap((m) => {
            if (m.row + m.rowSpan > rows) return [];
            const span = Array.from({ length: m.rowSpan }, (_, i) => m.row + i);
            if (span.some((k) => taken.has(k))) return [];
            for (const k of span) taken.add(k);
            return [m];
          });
          const blocks = rowBlocks(grid(rows, merges));
          const page = { firstTop: 40, pageTop: 0, pageBottom: 200 };
          const { tops, pageOf } = layoutRows(heights, blocks, page);
          expect(tops).toHaveLength(rows);
          for (let r = 0; r < rows; r += 1) {
            expect(tops[r]! + heights[r]!).toBeLessThanOrEqual(page.pageBottom);
            if (r > 0) {
              expect(pageOf[r]).toBeGreaterThanOrEqual(pageOf[r - 1]!);
              if (pageOf[r] === pageOf[r - 1]) expect(tops[r]).toBe(tops[r - 1]! + heights[r - 1]!);
            }
          }
          for (const m of merges) {
            const span = heights.slice(m.row, m.row + m.rowSpan).reduce((a, b) => a + b, 0);
            if (span <= page.pageBottom - page.pageTop)
              expect(pageOf[m.row + m.rowSpan - 1]).toBe(pageOf[m.row]);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
