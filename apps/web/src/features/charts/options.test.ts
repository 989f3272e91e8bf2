import { describe, expect, it } from 'vitest';
import { dailyAverages } from './options';

const at = (iso: string) => Date.parse(iso);

describe('dailyAverages (the calendar view)', () => {
  it("splits days at the company zone's midnight, not the browser's", () => {
    // 15:30 and 16:30 UTC are 23:30 on the 1st and 00:30 on the 2nd in Shanghai (UTC+8),
    // but the same day (the 1st) in UTC and in Berlin
    const points: Array<[number, number]> = [
      [at('2026-03-01T15:30:00Z'), 10],
      [at('2026-03-01T16:30:00Z'), 20],
      [at('2026-03-01T17:30:00Z'), 40],
    ];
    expect(dailyAverages(points, 'Asia/Shanghai')).toEqual([
      ['2026-03-01', 10],
      ['2026-03-02', 30],
    ]);
    expect(dailyAverages(points, 'Europe/Berlin')).toEqual([['2026-03-01', 23.3333]]);
  });

  it('is empty without points', () => {
    expect(dailyAverages([], 'Asia/Shanghai')).toEqual([]);
  });
});
