import { describe, expect, it } from 'vitest';
import { zonedParts, zonedToInstant, zoneFormatter } from './time';

/** The wall time as Intl reads it, straight (what zonedParts answered before its offset cache). */
function intl(instantMs: number, tz: string) {
  const p: Record<string, number> = {};
  for (const part of zoneFormatter(tz).formatToParts(instantMs))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  return {
    year: p.year,
    month: p.month,
    day: p.day,
    hour: p.hour! % 24,
    minute: p.minute,
    second: p.second,
    millisecond: ((instantMs % 1000) + 1000) % 1000,
  };
}

const ZONES = [
  'Asia/Shanghai',
  'UTC',
  'Europe/Berlin',
  'America/New_York',
  'America/St_Johns',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Apia',
  'Europe/Amsterdam',
];

describe('zonedParts with offsets kept per quarter hour', () => {
  it('reads every instant as Intl does, around each offset change of 2024 and at random', () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (const tz of ZONES) {
      const probes: number[] = [];
      // the offset changes of 2024, found hour by hour through Intl, and the instants around them
      const offset = (t: number) => {
        const w = intl(t, tz);
        return Date.UTC(w.year!, w.month! - 1, w.day, w.hour, w.minute, w.second, w.millisecond) - t;
      };
      const from = Date.UTC(2024, 0, 1);
      for (let t = from; t < from + 366 * 86_400_000; t += 3_600_000) {
        if (offset(t) === offset(t + 3_600_000)) continue;
        let lo = t;
        let hi = t + 3_600_000;
        while (hi - lo > 1) {
          const mid = Math.floor((lo + hi) / 2);
          if (offset(mid) === offset(lo)) lo = mid;
          else hi = mid;
        }
        for (const d of [-60_000, -1000, -1, 0, 1, 1000, 60_000, 900_000]) probes.push(hi + d);
      }
      // random instants from 1850 to 2100, and a month of quarter hours
      for (let i = 0; i < 400; i++)
        probes.push(Math.floor(Date.UTC(1850, 0, 1) + random() * 250 * 365.25 * 86_400_000));
      for (let q = 0; q < 31 * 96; q++) probes.push(Date.UTC(2026, 9, 1) + q * 900_000 + (q % 3) * 123);
      for (const t of probes)
        expect(zonedParts(t, tz), `${tz} ${new Date(t).toISOString()}`).toEqual(intl(t, tz));
    }
  });

  it('keeps local midnights where they were (a day skipped in Apia, a DST night in New York)', () => {
    expect(new Date(zonedToInstant({ year: 2011, month: 12, day: 31 }, 'Pacific/Apia')).toISOString()).toBe(
      '2011-12-30T10:00:00.000Z',
    );
    expect(
      new Date(
        zonedToInstant({ year: 2024, month: 3, day: 10, hour: 2, minute: 30 }, 'America/New_York'),
      ).toISOString(),
    ).toBe('2024-03-10T07:30:00.000Z');
  });
});
