import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHART_COLORS,
  gaugeBands,
  PERCENT_COLOR_STOPS,
  percentColor,
  percentOf,
  percentStep,
  seriesColor,
} from './palette';

describe('chart palette', () => {
  it('has 14 distinct colours (spec point 9)', () => {
    expect(CHART_COLORS).toHaveLength(14);
    expect(new Set(CHART_COLORS.map((c) => c.toLowerCase())).size).toBe(14);
    for (const c of CHART_COLORS) expect(c).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('gives series their colours in order, round and round', () => {
    expect(seriesColor(0)).toBe(CHART_COLORS[0]);
    expect(seriesColor(13)).toBe(CHART_COLORS[13]);
    expect(seriesColor(14)).toBe(CHART_COLORS[0]);
    expect(seriesColor(-1)).toBe(CHART_COLORS[13]);
  });
});

describe('percentage colour scale', () => {
  it('cuts at 20/40/60/80/100 with the stop itself in its band', () => {
    const [c20, c40, c60, c80, c100] = PERCENT_COLOR_STOPS.map((s) => s.color);
    expect(PERCENT_COLOR_STOPS.map((s) => s.upTo)).toEqual([20, 40, 60, 80, 100]);
    expect(percentColor(0)).toBe(c20);
    expect(percentColor(20)).toBe(c20);
    expect(percentColor(20.01)).toBe(c40);
    expect(percentColor(40)).toBe(c40);
    expect(percentColor(59.9)).toBe(c60);
    expect(percentColor(80)).toBe(c80);
    expect(percentColor(80.5)).toBe(c100);
    expect(percentColor(100)).toBe(c100);
    expect(percentColor(-5)).toBe(c20);
    expect(percentColor(250)).toBe(c100);
    expect(percentColor(null)).toBeNull();
    expect(percentColor(Number.NaN)).toBeNull();
  });

  it('has 5 steps up to 100, rising with the value', () => {
    expect([0, 20, 21, 40, 41, 60, 61, 80, 81, 100].map((p) => percentStep(p))).toEqual([
      1, 1, 2, 2, 3, 3, 4, 4, 5, 5,
    ]);
    fc.assert(
      fc.property(
        fc.double({ min: -50, max: 150, noNaN: true }),
        fc.double({ min: -50, max: 150, noNaN: true }),
        (a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          expect(percentStep(lo)!).toBeLessThanOrEqual(percentStep(hi)!);
          expect(percentStep(lo)).toBeGreaterThanOrEqual(1);
          expect(percentStep(hi)).toBeLessThanOrEqual(5);
        },
      ),
    );
  });

  it('places a value in a range as a clamped percentage', () => {
    expect(percentOf(50, 0, 200)).toBe(25);
    expect(percentOf(-10, 0, 100)).toBe(0);
    expect(percentOf(12, 10, 14)).toBe(50);
    expect(percentOf(5, 10, 10)).toBeNull();
    expect(percentOf(null)).toBeNull();
  });

  it('gives ECharts gauge bands ending at 1', () => {
    const bands = gaugeBands();
    expect(bands.map((b) => b[0])).toEqual([0.2, 0.4, 0.6, 0.8, 1]);
    expect(bands.map((b) => b[1])).toEqual(PERCENT_COLOR_STOPS.map((s) => s.color));
  });
});
