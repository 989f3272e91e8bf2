import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acquire, combine, methodWindow, type SeriesPoint } from './acquisition';
import { addDays, rangeBounds, startOfDay, TimeRangeError } from './time';
import { ACQUISITION_METHODS, type AcquisitionMethod, TIME_RANGES, type TimeRange } from './types';

const Z = (iso: string) => Date.parse(iso);
const tz = 'Asia/Shanghai';
const now = Z('2025-03-15T04:30:00Z'); // 12:30 on 15 March, Shanghai
// local times in comments
const SERIES: SeriesPoint[] = [
  { ts: Z('2025-01-20T02:00:00Z'), value: 1 }, // 20 Jan (month before)
  { ts: Z('2025-01-31T15:59:59Z'), value: 2 }, // 31 Jan 23:59:59 (last of month before)
  { ts: Z('2025-01-31T16:00:00Z'), value: 3 }, // 1 Feb 00:00 (last month)
  { ts: Z('2025-02-28T10:00:00Z'), value: 4 }, // 28 Feb 18:00 (last of last month)
  { ts: Z('2025-03-13T01:00:00Z'), value: 5 }, // 13 Mar (day before)
  { ts: Z('2025-03-13T02:00:00Z'), value: 6 }, // 13 Mar (last of day before)
  { ts: Z('2025-03-14T00:00:00Z'), value: 7 }, // 14 Mar 08:00 (yesterday)
  { ts: Z('2025-03-14T15:00:00Z'), value: 8 }, // 14 Mar 23:00 (last of yesterday)
  { ts: Z('2025-03-14T16:00:00Z'), value: 9 }, // 15 Mar 00:00 (today)
  { ts: now, value: 10 }, // now (today, included)
  { ts: now + 1, value: 100 }, // the future: never counted
];

describe('acquire', () => {
  const a = (method: AcquisitionMethod, range?: TimeRange, from?: string, to?: string) =>
    acquire(method, SERIES, { now, tz, range, from, to });

  it('computes every method by its exact meaning', () => {
    expect(a('latest')).toBe(10);
    expect(a('totalToday')).toBe(19);
    expect(a('totalYesterday')).toBe(15);
    expect(a('totalThisMonth')).toBe(5 + 6 + 7 + 8 + 9 + 10);
    expect(a('lastOfYesterday')).toBe(8);
    expect(a('lastOfDayBefore')).toBe(6);
    expect(a('lastOfLastMonth')).toBe(4);
    expect(a('lastOfMonthBefore')).toBe(2);
    expect(a('rangeSum', 'lastMonth')).toBe(7);
    expect(a('rangeAvg', 'thisMonth')).toBe(7.5);
    expect(a('rangeMax', 'monthBefore')).toBe(2);
    expect(a('rangeMin', 'yesterday')).toBe(7);
    expect(a('rangeSum', 'period', '2025-03-13T00:00:00Z', '2025-03-14T00:00:00Z')).toBe(11);
  });

  it('gives null for an empty window and for no data at all', () => {
    expect(acquire('lastOfYesterday', [{ ts: now, value: 1 }], { now, tz })).toBeNull();
    expect(acquire('totalToday', [], { now, tz })).toBeNull();
    expect(acquire('latest', [{ ts: now + 5, value: 1 }], { now, tz })).toBeNull();
  });

  it('refuses range methods without a usable range', () => {
    expect(() => a('rangeSum')).toThrow(TimeRangeError);
    expect(() => a('rangeSum', 'period', '2025-03-14T00:00:00Z', '2025-03-13T00:00:00Z')).toThrow(
      TimeRangeError,
    );
  });

  it('methodWindow matches rangeBounds and names the reduction', () => {
    expect(methodWindow('totalYesterday', now, tz)).toEqual({
      ...rangeBounds('yesterday', now, tz),
      reduce: 'sum',
    });
    expect(methodWindow('lastOfLastMonth', now, tz)).toEqual({
      ...rangeBounds('lastMonth', now, tz),
      reduce: 'last',
    });
    expect(methodWindow('rangeAvg', now, tz, 'dayBefore')).toEqual({
      ...rangeBounds('dayBefore', now, tz),
      reduce: 'avg',
    });
    expect(methodWindow('latest', now, tz)).toMatchObject({ to: now + 1, reduce: 'last' });
    for (const m of ACQUISITION_METHODS) {
      const w = methodWindow(m, now, tz, 'today');
      expect(w.from).toBeLessThan(w.to);
    }
  });
});

const zone = fc.constantFrom('Asia/Shanghai', 'Europe/Berlin', 'America/New_York');
const nowArb = fc.integer({ min: Z('2024-01-01T00:00:00Z'), max: Z('2026-12-31T00:00:00Z') });
/** A sorted series around `now`: up to ~100 days back, a little into the future, integer values. */
const seriesAround = (t: number) =>
  fc
    .array(
      fc.record({
        ts: fc.integer({ min: t - 100 * 86_400_000, max: t + 86_400_000 }),
        value: fc.integer({ min: -1000, max: 1000 }),
      }),
      { maxLength: 200 },
    )
    .map((s) => s.sort((x, y) => x.ts - y.ts));
const withSeries = fc
  .tuple(nowArb, zone)
  .chain(([t, z]) => fc.tuple(fc.constant(t), fc.constant(z), seriesAround(t)));

describe('acquisition properties', () => {
  it('a month sum equals the sum of its per-day sums', () => {
    fc.assert(
      fc.property(
        withSeries,
        fc.constantFrom<TimeRange>('lastMonth', 'thisMonth', 'monthBefore'),
        ([t, z, s], range) => {
          const { from, to } = rangeBounds(range, t, z);
          let perDay = 0;
          for (let day = from; day < to; day = addDays(day, 1, z)) {
            expect(startOfDay(day, z)).toBe(day);
            const end = Math.min(addDays(day, 1, z), to);
            perDay += acquire('rangeSum', s, { now: t, tz: z, range: 'period', from: day, to: end }) ?? 0;
          }
          expect(acquire('rangeSum', s, { now: t, tz: z, range }) ?? 0).toBe(perDay);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('max >= avg >= min over any range', () => {
    fc.assert(
      fc.property(
        withSeries,
        fc.constantFrom(...TIME_RANGES.filter((r) => r !== 'period')),
        ([t, z, s], range) => {
          const o = { now: t, tz: z, range };
          const [max, avg, min] = [
            acquire('rangeMax', s, o),
            acquire('rangeAvg', s, o),
            acquire('rangeMin', s, o),
          ];
          if (max === null) {
            expect([avg, min]).toEqual([null, null]);
            return;
          }
          expect(max).toBeGreaterThanOrEqual(avg!);
          expect(avg!).toBeGreaterThanOrEqual(min!);
        },
      ),
    );
  });

  it('last-of-window, sums and latest equal brute force', () => {
    const methods: AcquisitionMethod[] = [
      'latest',
      'lastOfYesterday',
      'lastOfDayBefore',
      'lastOfLastMonth',
      'lastOfMonthBefore',
      'totalToday',
      'totalYesterday',
      'totalThisMonth',
    ];
    fc.assert(
      fc.property(withSeries, fc.constantFrom(...methods), ([t, z, s], method) => {
        const w = methodWindow(method, t, z);
        const inside = s.filter((p) => p.ts >= w.from && p.ts < w.to);
        const expected =
          inside.length === 0
            ? null
            : w.reduce === 'last'
              ? inside[inside.length - 1]!.value
              : inside.reduce((sum, p) => sum + p.value, 0);
        expect(acquire(method, s, { now: t, tz: z })).toBe(expected);
        if (method === 'latest') {
          const past = s.filter((p) => p.ts <= t);
          expect(expected).toBe(past.length ? past[past.length - 1]!.value : null);
        }
      }),
    );
  });
});

describe('combine', () => {
  it('ignores nulls', () => {
    expect(combine('SUM', [1, null, 2])).toBe(3);
    expect(combine('MAX', [null, -1, -5])).toBe(-1);
    expect(combine('MIN', [3, null, 7])).toBe(3);
    expect(combine('SUM', [null, null])).toBeNull();
    expect(combine('MAX', [])).toBeNull();
  });

  it('property: agrees with Math over the non-null values', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.integer({ min: -1e6, max: 1e6 }))), (values) => {
        const present = values.filter((v): v is number => v !== null);
        expect(combine('MAX', values)).toBe(present.length ? Math.max(...present) : null);
        expect(combine('MIN', values)).toBe(present.length ? Math.min(...present) : null);
        expect(combine('SUM', values)).toBe(present.length ? present.reduce((a, b) => a + b, 0) : null);
      }),
    );
  });
});
