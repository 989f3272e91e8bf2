import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  dayStartInstant,
  isTimeZone,
  offsetAt,
  rangeBounds,
  startOfDay,
  startOfMonth,
  TimeRangeError,
  zonedParts,
  zonedToInstant,
} from './time';
import { TIME_RANGES } from './types';

const Z = (iso: string) => Date.parse(iso);
const ZONES = [
  'Asia/Shanghai',
  'Europe/Berlin',
  'America/New_York',
  'America/Santiago',
  'Asia/Kolkata',
  'UTC',
];
const instant = fc.integer({ min: Z('1995-01-01T00:00:00Z'), max: Z('2060-01-01T00:00:00Z') });
const zone = fc.constantFrom(...ZONES);
const dateOf = (ms: number, tz: string) => {
  const p = zonedParts(ms, tz);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
};

describe('zoned calendar', () => {
  it('finds the start of a day and a month in Shanghai', () => {
    const t = Z('2025-03-01T15:59:59.999Z'); // 23:59:59.999 local
    expect(startOfDay(t, 'Asia/Shanghai')).toBe(Z('2025-02-28T16:00:00Z'));
    expect(startOfDay(t + 1, 'Asia/Shanghai')).toBe(Z('2025-03-01T16:00:00Z'));
    expect(startOfMonth(t, 'Asia/Shanghai')).toBe(Z('2025-02-28T16:00:00Z'));
    expect(startOfMonth(Z('2025-02-28T15:00:00Z'), 'Asia/Shanghai')).toBe(Z('2025-01-31T16:00:00Z'));
    expect(offsetAt(t, 'Asia/Shanghai')).toBe(8 * 3_600_000);
    expect(zonedParts(t, 'Asia/Shanghai')).toEqual({
      year: 2025,
      month: 3,
      day: 1,
      hour: 23,
      minute: 59,
      second: 59,
      millisecond: 999,
    });
  });

  it('handles DST days of 23 and 25 hours', () => {
    const berlin = startOfDay(Z('2025-03-30T12:00:00Z'), 'Europe/Berlin');
    expect(berlin).toBe(Z('2025-03-29T23:00:00Z'));
    expect(addDays(berlin, 1, 'Europe/Berlin') - berlin).toBe(23 * 3_600_000);
    const ny = startOfDay(Z('2025-11-02T12:00:00Z'), 'America/New_York');
    expect(ny).toBe(Z('2025-11-02T04:00:00Z'));
    expect(addDays(ny, 1, 'America/New_York') - ny).toBe(25 * 3_600_000);
    expect(startOfMonth(Z('2025-11-15T00:00:00Z'), 'America/New_York')).toBe(Z('2025-11-01T04:00:00Z'));
  });

  it('starts a day whose midnight is skipped at the end of the gap', () => {
    // Santiago 2024-09-08: clocks go from 24:00 (-04) to 01:00 (-03) at 04:00Z
    const start = startOfDay(Z('2024-09-08T15:00:00Z'), 'America/Santiago');
    expect(start).toBe(Z('2024-09-08T04:00:00Z'));
    expect(zonedParts(start, 'America/Santiago').hour).toBe(1);
    expect(dateOf(start - 1, 'America/Santiago')).toBe('2024-09-07');
  });

  it('clamps month arithmetic to the month end', () => {
    const tz = 'Asia/Shanghai';
    const jan31 = zonedToInstant({ year: 2025, month: 1, day: 31, hour: 10 }, tz);
    expect(dateOf(addMonths(jan31, 1, tz), tz)).toBe('2025-02-28');
    expect(dateOf(addMonths(zonedToInstant({ year: 2024, month: 1, day: 31 }, tz), 1, tz), tz)).toBe(
      '2024-02-29',
    );
    expect(dateOf(addMonths(jan31, -2, tz), tz)).toBe('2024-11-30');
    expect(dateOf(addMonths(jan31, 13, tz), tz)).toBe('2026-02-28');
    expect(zonedParts(addMonths(jan31, 1, tz), tz).hour).toBe(10);
    expect(dateOf(addDays(jan31, 1, tz), tz)).toBe('2025-02-01');
    expect(dateOf(addDays(jan31, -366, tz), tz)).toBe('2024-01-31');
  });

  it('knows zones', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('property: start of day is the first instant of the local date', () => {
    fc.assert(
      fc.property(instant, zone, (t, tz) => {
        const s = startOfDay(t, tz);
        expect(s).toBeLessThanOrEqual(t);
        expect(dateOf(s, tz)).toBe(dateOf(t, tz));
        expect(dateOf(s - 1, tz)).not.toBe(dateOf(t, tz));
        const m = startOfMonth(t, tz);
        expect(m).toBeLessThanOrEqual(s);
        expect(dateOf(m, tz)).toBe(`${dateOf(t, tz).slice(0, 7)}-01`);
        expect(dateOf(m - 1, tz).slice(0, 7)).not.toBe(dateOf(t, tz).slice(0, 7));
      }),
    );
  });

  it('property: addDays moves the local date by n days', () => {
    fc.assert(
      fc.property(instant, zone, fc.integer({ min: -400, max: 400 }), (t, tz, n) => {
        const [y, m, d] = dateOf(t, tz).split('-').map(Number) as [number, number, number];
        const expected = new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
        expect(dateOf(addDays(t, n, tz), tz)).toBe(expected);
      }),
    );
  });

  it('property: a wall time read back from an instant denotes that instant (outside overlaps)', () => {
    fc.assert(
      fc.property(instant, zone, (t, tz) => {
        const back = zonedToInstant(zonedParts(t, tz), tz);
        // in an overlap the earlier of the two instants is chosen
        if (offsetAt(t - 3_600_000, tz) > offsetAt(t, tz)) expect(back).toBeLessThanOrEqual(t);
        else expect(back).toBe(t);
      }),
    );
  });
});

describe('rangeBounds', () => {
  const tz = 'Asia/Shanghai';
  const now = Z('2025-03-15T04:30:00Z'); // 12:30 local on 15 March
  it('gives each named window', () => {
    expect(rangeBounds('today', now, tz)).toEqual({ from: Z('2025-03-14T16:00:00Z'), to: now + 1 });
    expect(rangeBounds('yesterday', now, tz)).toEqual({
      from: Z('2025-03-13T16:00:00Z'),
      to: Z('2025-03-14T16:00:00Z'),
    });
    expect(rangeBounds('dayBefore', now, tz)).toEqual({
      from: Z('2025-03-12T16:00:00Z'),
      to: Z('2025-03-13T16:00:00Z'),
    });
    expect(rangeBounds('thisMonth', now, tz)).toEqual({ from: Z('2025-02-28T16:00:00Z'), to: now + 1 });
    expect(rangeBounds('lastMonth', now, tz)).toEqual({
      from: Z('2025-01-31T16:00:00Z'),
      to: Z('2025-02-28T16:00:00Z'),
    });
    expect(rangeBounds('monthBefore', now, tz)).toEqual({
      from: Z('2024-12-31T16:00:00Z'),
      to: Z('2025-01-31T16:00:00Z'),
    });
    expect(rangeBounds('period', now, tz, '2025-01-01T00:00:00Z', Z('2025-01-02T00:00:00Z'))).toEqual({
      from: Z('2025-01-01T00:00:00Z'),
      to: Z('2025-01-02T00:00:00Z'),
    });
  });

  it('uses the zone: New York around the DST change', () => {
    const t = Z('2025-03-10T12:00:00Z');
    expect(rangeBounds('yesterday', t, 'America/New_York')).toEqual({
      from: Z('2025-03-09T05:00:00Z'),
      to: Z('2025-03-10T04:00:00Z'),
    });
  });

  it('refuses a bad period', () => {
    expect(() => rangeBounds('period', now, tz)).toThrow(TimeRangeError);
    expect(() => rangeBounds('period', now, tz, 'x', now)).toThrow(TimeRangeError);
    try {
      rangeBounds('period', now, tz, now, now);
    } catch (e) {
      expect(e).toMatchObject({ key: 'timeRangeInvalid', field: 'to' });
    }
    expect(() => rangeBounds('period', now, tz, now, now)).toThrow(TimeRangeError);
    expect(() => rangeBounds('someday' as never, now, tz)).toThrow(TimeRangeError);
  });

  it('property: windows are non-empty, contiguous and in order', () => {
    fc.assert(
      fc.property(instant, zone, (t, tz) => {
        const b = Object.fromEntries(
          TIME_RANGES.filter((r) => r !== 'period').map((r) => [r, rangeBounds(r, t, tz)]),
        ) as Record<string, { from: number; to: number }>;
        for (const w of Object.values(b)) expect(w.from).toBeLessThan(w.to);
        expect(b.today!.from).toBeLessThanOrEqual(t);
        expect(b.yesterday!.to).toBe(b.today!.from);
        expect(b.dayBefore!.to).toBe(b.yesterday!.from);
        expect(b.lastMonth!.to).toBe(b.thisMonth!.from);
        expect(b.monthBefore!.to).toBe(b.lastMonth!.from);
        const hours = (b.yesterday!.to - b.yesterday!.from) / 3_600_000;
        expect(hours).toBeGreaterThanOrEqual(23);
        expect(hours).toBeLessThanOrEqual(25);
      }),
    );
  });
});

describe('dayStartInstant', () => {
  it('is the instant a calendar day of the zone begins', () => {
    expect(dayStartInstant('2026-03-01', 'Asia/Shanghai').toISOString()).toBe('2026-02-28T16:00:00.000Z');
    expect(dayStartInstant('2026-03-01', 'UTC').toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(dayStartInstant('2024-02-29', 'UTC').toISOString()).toBe('2024-02-29T00:00:00.000Z');
  });

  it('follows daylight saving: New York springs forward on 2026-03-08 at 02:00', () => {
    // the day of the change begins in EST (UTC-5), the next one in EDT (UTC-4)
    expect(dayStartInstant('2026-03-08', 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(dayStartInstant('2026-03-09', 'America/New_York').toISOString()).toBe('2026-03-09T04:00:00.000Z');
    // and back on 2026-11-01: that day begins in EDT, and lasts 25 hours
    expect(dayStartInstant('2026-11-01', 'America/New_York').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(dayStartInstant('2026-11-02', 'America/New_York').toISOString()).toBe('2026-11-02T05:00:00.000Z');
  });

  it('is the first instant of a day whose midnight is skipped (Santiago, 2026-09-06)', () => {
    // Chile moves 00:00 → 01:00 on the first Sunday of September: the day begins at 01:00 CLST (UTC-3)
    expect(dayStartInstant('2026-09-06', 'America/Santiago').toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });
});
