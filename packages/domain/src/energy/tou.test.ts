import { describe, expect, it } from 'vitest';
import { zonedToInstant } from '../data/time';
import {
  periodAt,
  splitByPeriod,
  TOU_PERIOD_LABELS,
  type TouSchedule,
  touCost,
  touPriceWarnings,
  validateTouSchedule,
} from './tou';

// valley 00–08, peak 08–10, sharp 10–11, peak 11–12, flat 12–17, peak 17–22, flat 22–24
const DAY: TouSchedule = {
  sharp: [{ from: 10, to: 11 }],
  peak: [
    { from: 8, to: 10 },
    { from: 11, to: 12 },
    { from: 17, to: 22 },
  ],
  flat: [
    { from: 12, to: 17 },
    { from: 22, to: 24 },
  ],
  valley: [{ from: 0, to: 8 }],
};

// the valley runs past midnight: 23–07
const NIGHT: TouSchedule = {
  peak: [
    { from: 8, to: 11 },
    { from: 18, to: 23 },
  ],
  flat: [
    { from: 7, to: 8 },
    { from: 11, to: 18 },
  ],
  valley: [{ from: 23, to: 7 }],
};

const SHANGHAI = 'Asia/Shanghai';
const BERLIN = 'Europe/Berlin';
const at = (tz: string, month: number, day: number, hour: number, minute = 0) =>
  zonedToInstant({ year: 2024, month, day, hour, minute }, tz);

describe('time-of-use schedule', () => {
  it('labels the four periods in both languages', () => {
    expect(Object.values(TOU_PERIOD_LABELS).map((l) => l.zh)).toEqual(['尖', '峰', '平', '谷']);
    expect(TOU_PERIOD_LABELS.valley.en).toBe('valley');
  });

  it('accepts a schedule that covers the day once, also past midnight', () => {
    expect(validateTouSchedule(DAY)).toEqual({ ok: true });
    expect(validateTouSchedule(NIGHT)).toEqual({ ok: true });
    expect(validateTouSchedule({ flat: [{ from: 0, to: 24 }] })).toEqual({ ok: true });
  });

  it('names the first gap', () => {
    expect(validateTouSchedule({ ...DAY, flat: [{ from: 12, to: 17 }] })).toEqual({
      ok: false,
      reason: 'gap',
      from: 22,
      to: 24,
    });
    expect(validateTouSchedule({})).toEqual({ ok: false, reason: 'gap', from: 0, to: 24 });
    // half hours: 11:30–12:00 uncovered
    expect(
      validateTouSchedule({
        ...DAY,
        peak: [
          { from: 8, to: 10 },
          { from: 11, to: 11.5 },
          { from: 17, to: 22 },
        ],
      }),
    ).toEqual({
      ok: false,
      reason: 'gap',
      from: 11.5,
      to: 12,
    });
  });

  it('names the first overlap, in the order of the day', () => {
    // valley 07–09 overlaps valley 00–08 at 07–08 (before it overlaps peak at 08–09)
    expect(
      validateTouSchedule({
        ...DAY,
        valley: [
          { from: 0, to: 8 },
          { from: 7, to: 9 },
        ],
      }),
    ).toEqual({
      ok: false,
      reason: 'overlap',
      from: 7,
      to: 8,
      periods: ['valley', 'valley'],
    });
    expect(validateTouSchedule({ ...DAY, sharp: [{ from: 21, to: 23 }] })).toMatchObject({
      reason: 'gap',
      from: 10,
      to: 11,
    });
    expect(
      validateTouSchedule({
        ...DAY,
        sharp: [
          { from: 10, to: 11 },
          { from: 21, to: 23 },
        ],
      }),
    ).toEqual({
      ok: false,
      reason: 'overlap',
      from: 21,
      to: 22,
      periods: ['sharp', 'peak'],
    });
  });

  it('refuses a range outside the day, of parts of a minute, or empty', () => {
    expect(validateTouSchedule({ ...DAY, sharp: [{ from: 25, to: 3 }] })).toEqual({
      ok: false,
      reason: 'range',
      period: 'sharp',
      index: 0,
    });
    expect(validateTouSchedule({ flat: [{ from: 0, to: 10.001 }] })).toMatchObject({ reason: 'range' });
    expect(validateTouSchedule({ valley: [{ from: 8, to: 8 }] })).toMatchObject({ reason: 'range' });
  });
});

describe('period of an instant', () => {
  it('reads the local clock of Asia/Shanghai', () => {
    expect(periodAt(DAY, Date.parse('2024-06-01T02:30:00Z'), SHANGHAI)).toBe('sharp'); // 10:30
    expect(periodAt(DAY, Date.parse('2024-06-01T15:30:00Z'), SHANGHAI)).toBe('flat'); // 23:30
    expect(periodAt(NIGHT, Date.parse('2024-06-01T15:30:00Z'), SHANGHAI)).toBe('valley'); // 23:30
    expect(periodAt(NIGHT, Date.parse('2024-06-01T22:59:00Z'), SHANGHAI)).toBe('valley'); // 06:59 next day
    expect(periodAt(NIGHT, Date.parse('2024-06-01T23:00:00Z'), SHANGHAI)).toBe('flat'); // 07:00
    expect(periodAt(DAY, Date.parse('2024-06-01T02:30:00Z'))).toBe('sharp'); // the default zone
  });

  it('follows daylight saving where the zone has it: the hours are local', () => {
    // 06:30 UTC is 07:30 in Berlin in winter (valley) and 08:30 in summer (peak); always 14:30 in Shanghai
    expect(periodAt(DAY, Date.parse('2024-03-30T06:30:00Z'), BERLIN)).toBe('valley');
    expect(periodAt(DAY, Date.parse('2024-06-01T06:30:00Z'), BERLIN)).toBe('peak');
    expect(periodAt(DAY, Date.parse('2024-03-30T06:30:00Z'), SHANGHAI)).toBe('flat');
    expect(periodAt(DAY, Date.parse('2024-06-01T06:30:00Z'), SHANGHAI)).toBe('flat');
  });

  it('has no period under a schedule that is not valid', () => {
    expect(
      periodAt({ flat: [{ from: 0, to: 12 }] }, Date.parse('2024-06-01T02:30:00Z'), SHANGHAI),
    ).toBeNull();
  });
});

describe('energy by period', () => {
  it('splits an interval across boundaries by time, across midnight', () => {
    // 22:00 → 08:00 next day, 10 kWh over 10 h: peak 22–23, valley 23–07, flat 07–08
    expect(
      splitByPeriod(
        [{ start: at(SHANGHAI, 6, 1, 22), end: at(SHANGHAI, 6, 2, 8), kWh: 10 }],
        NIGHT,
        SHANGHAI,
      ),
    ).toEqual({ ok: true, kWh: { sharp: 0, peak: 1, flat: 1, valley: 8 } });
    // 10:30 → 11:30, 2 kWh: half sharp, half peak
    expect(
      splitByPeriod(
        [{ start: at(SHANGHAI, 6, 1, 10, 30), end: at(SHANGHAI, 6, 1, 11, 30), kWh: 2 }],
        DAY,
        SHANGHAI,
      ),
    ).toEqual({ ok: true, kWh: { sharp: 1, peak: 1, flat: 0, valley: 0 } });
  });

  it('adds up many intervals: a day of 96 quarter hours of 0.25 kWh', () => {
    const start = at(SHANGHAI, 6, 1, 0);
    const intervals = Array.from({ length: 96 }, (_, i) => ({
      start: start + i * 900_000,
      end: start + (i + 1) * 900_000,
      kWh: 0.25,
    }));
    expect(splitByPeriod(intervals, DAY, SHANGHAI)).toEqual({
      ok: true,
      kWh: { sharp: 1, peak: 8, flat: 7, valley: 8 },
    });
  });

  it('counts the hours a DST day really has', () => {
    // 31 March 2024 in Berlin has 23 hours (02:00 → 03:00): the valley 00–08 lasts 7
    const spring = [{ start: at(BERLIN, 3, 31, 0), end: at(BERLIN, 4, 1, 0), kWh: 23 }];
    expect(spring[0]!.end - spring[0]!.start).toBe(23 * 3_600_000);
    expect(splitByPeriod(spring, DAY, BERLIN)).toEqual({
      ok: true,
      kWh: { sharp: 1, peak: 8, flat: 7, valley: 7 },
    });
    // 27 October 2024 has 25 (03:00 → 02:00): the valley lasts 9
    const autumn = [{ start: at(BERLIN, 10, 27, 0), end: at(BERLIN, 10, 28, 0), kWh: 25 }];
    expect(splitByPeriod(autumn, DAY, BERLIN)).toEqual({
      ok: true,
      kWh: { sharp: 1, peak: 8, flat: 7, valley: 9 },
    });
    // the first 8 real hours of that day: Berlin 00:00–09:00 (valley 7 h, peak 1 h), which
    // Shanghai's clock reads as 07:00–15:00
    const morning = [{ start: spring[0]!.start, end: spring[0]!.start + 8 * 3_600_000, kWh: 8 }];
    expect(splitByPeriod(morning, DAY, BERLIN)).toEqual({
      ok: true,
      kWh: { sharp: 0, peak: 1, flat: 0, valley: 7 },
    });
    expect(splitByPeriod(morning, DAY, SHANGHAI)).toEqual({
      ok: true,
      kWh: { sharp: 1, peak: 3, flat: 3, valley: 1 },
    });
  });

  it('refuses a bad interval or schedule', () => {
    expect(splitByPeriod([{ start: 10, end: 10, kWh: 1 }], DAY)).toEqual({
      ok: false,
      reason: 'interval',
      index: 0,
    });
    expect(splitByPeriod([{ start: 0, end: 10, kWh: Number.NaN }], DAY)).toMatchObject({
      reason: 'interval',
    });
    expect(splitByPeriod([], { flat: [{ from: 0, to: 12 }] })).toEqual({
      ok: false,
      reason: 'schedule',
      issue: { reason: 'gap', from: 12, to: 24 },
    });
  });
});

describe('time-of-use cost', () => {
  const prices = { sharp: 120, peak: 100, flat: 60, valley: 30 };

  it('costs each period in whole cents', () => {
    expect(touCost({ sharp: 1, peak: 8, flat: 7, valley: 7 }, prices)).toEqual({
      ok: true,
      cents: { sharp: 120, peak: 800, flat: 420, valley: 210 },
      totalCents: 1550,
    });
    // 0.125 kWh × 100 = 12.5 → 13, 0.105 × 30 = 3.15 → 3
    expect(touCost({ peak: 0.125, valley: 0.105 }, prices)).toMatchObject({ totalCents: 16 });
  });

  it('refuses energy without a price and prices that are not whole cents', () => {
    expect(touCost({ sharp: 1 }, { peak: 100 })).toEqual({ ok: false, reason: 'price', period: 'sharp' });
    expect(touCost({ peak: 1 }, { peak: 99.5 })).toEqual({ ok: false, reason: 'price', period: 'peak' });
    expect(touCost({}, { peak: 100 })).toMatchObject({ ok: true, totalCents: 0 });
  });

  it('warns of a peak:valley ratio below 3:1 (4:1 with a large load gap) and of periods out of order', () => {
    expect(touPriceWarnings(prices)).toEqual([]);
    expect(touPriceWarnings({ peak: 90, valley: 30 })).toEqual([]);
    expect(touPriceWarnings({ peak: 80, valley: 30 })).toEqual([
      { key: 'peakValleyRatio', ratio: 2.67, min: 3 },
    ]);
    expect(touPriceWarnings(prices, { largeLoadGap: true })).toEqual([
      { key: 'peakValleyRatio', ratio: 3.33, min: 4 },
    ]);
    expect(touPriceWarnings({ ...prices, flat: 110 })).toEqual([
      { key: 'periodOrder', period: 'peak', cheaper: 'flat' },
    ]);
  });
});
