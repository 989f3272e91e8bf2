import { LTTB } from 'downsample';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lttb, minMaxPerColumn } from './downsample';

type P = [number, number];

/** sorted, distinct x; finite y */
const series = (min = 0, max = 400) =>
  fc
    .array(fc.tuple(fc.integer({ min: 1, max: 1000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })), {
      minLength: min,
      maxLength: max,
    })
    .map((steps) => {
      let x = 1_700_000_000_000;
      return steps.map(([dx, y]): P => {
        x += dx;
        return [x, y];
      });
    });

describe('lttb', () => {
  it('keeps the whole series when it fits', () => {
    const s: P[] = [
      [0, 1],
      [1, 5],
      [2, 3],
    ];
    expect(lttb(s, 3)).toEqual(s);
    expect(lttb(s, 10)).toEqual(s);
  });

  it('picks the peak of each bucket (hand-worked vector)', () => {
    // 8 points to 4: inner points 1..6 cut into 2 buckets of 3: [1,2,3] and [4,5,6]
    const s: P[] = [
      [0, 0],
      [1, 1],
      [2, 9],
      [3, 1],
      [4, 0],
      [5, -7],
      [6, 0],
      [7, 0],
    ];
    // bucket 1: triangle with (0,0) and the average of bucket 2 (5,-7/3): (2,9) is farthest
    // bucket 2: triangle with (2,9) and the last point (7,0): (5,-7) is farthest
    expect(lttb(s, 4)).toEqual([
      [0, 0],
      [2, 9],
      [5, -7],
      [7, 0],
    ]);
  });

  it('never answers more than the bound, keeps the first and last point, keeps the order', () => {
    fc.assert(
      fc.property(series(0, 500), fc.integer({ min: 0, max: 600 }), (s, max) => {
        const out = lttb(s, max);
        expect(out.length).toBeLessThanOrEqual(max);
        expect(out.length).toBe(Math.min(s.length, max));
        if (s.length > 0 && max >= 2) {
          expect(out[0]).toBe(s[0]);
          expect(out[out.length - 1]).toBe(s[s.length - 1]);
        }
        for (let i = 1; i < out.length; i++) expect(out[i]![0]).toBeGreaterThan(out[i - 1]![0]);
      }),
    );
  });

  it('chooses the very points the downsample package chooses', () => {
    fc.assert(
      fc.property(series(3, 400), fc.integer({ min: 3, max: 200 }), (s, max) => {
        expect(lttb(s, max)).toEqual(LTTB(s, max));
      }),
    );
  });

  it('keeps a single spike in a long flat series', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 5000 }),
        fc.integer({ min: 3, max: 99 }),
        fc.double({ min: 1, max: 1e6, noNaN: true }),
        fc.boolean(),
        (n, max, height, down) => {
          const spikeAt = Math.floor(n / 3);
          const s: P[] = Array.from({ length: n }, (_, i) => [
            i * 60_000,
            i === spikeAt ? (down ? -height : height) : 0,
          ]);
          expect(lttb(s, max)).toContainEqual(s[spikeAt]);
        },
      ),
    );
  });
});

describe('minMaxPerColumn', () => {
  it('keeps the lowest and highest point of each column in x order (hand-worked vector)', () => {
    // 10 points to 6: first, last, and 2 columns over x 0..9: [1..4] and [5..8]
    const s: P[] = [
      [0, 5],
      [1, 3],
      [2, 8],
      [3, 1],
      [4, 4],
      [5, 2],
      [6, 2],
      [7, 9],
      [8, 0],
      [9, 5],
    ];
    expect(minMaxPerColumn(s, 6)).toEqual([
      [0, 5],
      [2, 8],
      [3, 1],
      [7, 9],
      [8, 0],
      [9, 5],
    ]);
  });

  it('never answers more than the bound, keeps first, last and every column extreme', () => {
    fc.assert(
      fc.property(series(0, 500), fc.integer({ min: 0, max: 600 }), (s, max) => {
        const out = minMaxPerColumn(s, max);
        expect(out.length).toBeLessThanOrEqual(max);
        if (s.length <= max) {
          expect(out).toEqual(s);
          return;
        }
        if (max >= 2) {
          expect(out[0]).toBe(s[0]);
          expect(out[out.length - 1]).toBe(s[s.length - 1]);
        }
        for (let i = 1; i < out.length; i++) expect(out[i]![0]).toBeGreaterThanOrEqual(out[i - 1]![0]);
        if (max >= 4) {
          // the series' own extremes are always among the kept points
          const ys = out.map((p) => p[1]);
          expect(Math.max(...ys)).toBe(Math.max(...s.map((p) => p[1])));
          expect(Math.min(...ys)).toBe(Math.min(...s.map((p) => p[1])));
        }
      }),
    );
  });
});
