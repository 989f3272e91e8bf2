import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayStartInstant } from '../data/time';
import { dayQuantities, type FieldReading, isFillFactor } from './energy-fill';

const TZ = 'Asia/Shanghai';
const at = (iso: string) => Date.parse(iso);
/** midnights of Shanghai from 1 to 4 March 2025: 28 Feb 16:00 UTC … 3 Mar 16:00 UTC */
const bounds = ['2025-03-01', '2025-03-02', '2025-03-03', '2025-03-04'].map((d) =>
  dayStartInstant(d, TZ).getTime(),
);

describe('day quantities of a field', () => {
  it('takes the Shanghai day boundaries at 16:00 UTC', () => {
    expect(new Date(bounds[0]!).toISOString()).toBe('2025-02-28T16:00:00.000Z');
    expect(new Date(bounds[3]!).toISOString()).toBe('2025-03-03T16:00:00.000Z');
  });

  it('counter: end reading minus start reading, a reset counted as a new start, a silent day empty', () => {
    const readings: FieldReading[] = [
      // 28 Feb 23:00 Shanghai: the start of 1 March
      { at: at('2025-02-28T15:00:00Z'), value: 1000 },
      // 1 March 08:00 and 20:00 Shanghai (20:00 is 12:00 UTC)
      { at: at('2025-03-01T00:00:00Z'), value: 1040 },
      { at: at('2025-03-01T12:00:00Z'), value: 1100.5 },
      // 2 March: the meter is replaced at 10:00 Shanghai, 1180 → 0 → 35
      { at: at('2025-03-01T18:00:00Z'), value: 1180 },
      { at: at('2025-03-02T02:00:00Z'), value: 0 },
      { at: at('2025-03-02T10:00:00Z'), value: 35 },
      // 3 March: no reading at all
      // 3 March 16:00 UTC is midnight of 4 March: it ends the 3rd… after the last bound here
    ];
    // 1 March: 1100.5 − 1000 = 100.5; 2 March: (1180 − 1100.5) + (35 − 0) = 114.5; 3 March: none
    expect(dayQuantities(readings, bounds, 'counter')).toEqual([100.5, 114.5, null]);
    // out of order in, the same out
    expect(dayQuantities([...readings].reverse(), bounds, 'counter')).toEqual([100.5, 114.5, null]);
  });

  it('counter: a reading at midnight ends the day before and starts the next; no earlier reading starts at the first', () => {
    const readings: FieldReading[] = [
      // the meter's first reading, 1 March 06:00 Shanghai: nothing known before it
      { at: at('2025-02-28T22:00:00Z'), value: 500 },
      { at: at('2025-03-01T08:00:00Z'), value: 520 },
      // exactly midnight of 2 March in Shanghai
      { at: bounds[1]!, value: 530 },
      { at: at('2025-03-02T08:00:00Z'), value: 545.25 },
      // 3 March: a reading that did not move
      { at: at('2025-03-03T08:00:00Z'), value: 545.25 },
    ];
    expect(dayQuantities(readings, bounds, 'counter')).toEqual([30, 15.25, 0]);
  });

  it('sum: the readings of the day added up, [midnight, midnight)', () => {
    const readings: FieldReading[] = [
      { at: at('2025-02-28T15:59:59Z'), value: 999 }, // 28 February in Shanghai: not counted
      { at: bounds[0]!, value: 1.1 }, // midnight of 1 March: its own
      { at: at('2025-03-01T04:00:00Z'), value: 2.2 },
      { at: at('2025-03-01T15:59:59Z'), value: 3.3 },
      { at: bounds[1]!, value: 4 }, // midnight of 2 March
      { at: at('2025-03-02T12:00:00Z'), value: Number.NaN }, // not a number: left out
    ];
    expect(dayQuantities(readings, bounds, 'sum')).toEqual([6.6, 4, null]);
  });

  it('no readings: every day empty', () => {
    expect(dayQuantities([], bounds, 'counter')).toEqual([null, null, null]);
    expect(dayQuantities([], bounds, 'sum')).toEqual([null, null, null]);
  });

  it('a counter that only increases: the days add up to last − first', () => {
    const day = 86_400_000;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.array(
          fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1e4, noNaN: true })),
          {
            minLength: 1,
            maxLength: 60,
          },
        ),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        (days, steps, first) => {
          const start = dayStartInstant('2025-03-01', TZ).getTime();
          const b = Array.from({ length: days + 1 }, (_, i) => start + i * day);
          // readings anywhere in (start, end], each at or above the one before
          const times = steps
            .map(([f]) => start + 1 + Math.floor(f * (days * day - 1)))
            .sort((x, y) => x - y);
          let value = first;
          const readings = times.map((t, i) => {
            value += steps[i]![1];
            return { at: t, value };
          });
          const quantities = dayQuantities(readings, b, 'counter');
          const total = quantities.reduce<number>((s, q) => s + (q ?? 0), 0);
          const expected = readings[readings.length - 1]!.value - readings[0]!.value;
          expect(total).toBeCloseTo(expected, 3);
          // a day is empty exactly when no reading falls in it
          quantities.forEach((q, i) => {
            const any = readings.some((r) => r.at > b[i]! && r.at <= b[i + 1]!);
            expect(q === null).toBe(!any);
          });
        },
      ),
    );
  });

  it('takes a positive finite unit factor only', () => {
    expect(isFillFactor(0.001)).toBe(true);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '1', null])
      expect(isFillFactor(bad)).toBe(false);
  });
});
