import { Cron } from 'croner';
import { describe, expect, it } from 'vitest';
import { CronError, checkCron, nextFire, nextFires } from './cron';

const FROM = Date.parse('2025-01-01T00:00:00Z');
const days = (expr: string, n: number, tz?: string) =>
  nextFires(expr, FROM, n, tz).map((t) => new Date(t).toISOString().slice(0, 10));

describe('nextFires (Quartz meaning)', () => {
  it('follows the reference vectors', () => {
    expect(days('0 15 10 ? * 6L', 4)).toEqual(['2025-01-31', '2025-02-28', '2025-03-28', '2025-04-25']);
    expect(nextFires('0 15 10 ? * 6L', FROM, 1)).toEqual([Date.parse('2025-01-31T10:15:00Z')]);
    expect(days('0 0 12 ? * 6#3', 2)).toEqual(['2025-01-17', '2025-02-21']);
    expect(days('0 0 12 LW * ?', 4)).toEqual(['2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30']);
    expect(days('0 0 12 15W * ?', 2)).toEqual(['2025-01-15', '2025-02-14']);
    expect(days('0 0 12 ? * MON', 3)).toEqual(['2025-01-06', '2025-01-13', '2025-01-20']);
  });

  it('is not what croner does with its defaults', () => {
    const defaults = new Cron('0 0 12 ? * MON').nextRuns(2, new Date(FROM));
    expect(defaults.map((d) => d.toISOString().slice(0, 10))).not.toEqual(days('0 0 12 ? * MON', 2));
  });

  it('numbers weekdays 1-7 from Sunday and steps from a start', () => {
    expect(days('0 0 12 ? * 1', 2)).toEqual(['2025-01-05', '2025-01-12']); // Sundays
    expect(days('0 0 12 ? * 7', 1)).toEqual(['2025-01-04']); // Saturday
    expect(days('0 0 12 ? * 2-6/2', 3)).toEqual(['2025-01-01', '2025-01-03', '2025-01-06']); // Mon Wed Fri
    expect(nextFires('0 0/15 * * * ?', FROM, 2)).toEqual([FROM + 15 * 60_000, FROM + 30 * 60_000]);
    expect(days('0 0 12 L * ?', 2)).toEqual(['2025-01-31', '2025-02-28']);
  });

  it('fires strictly after the given instant and stops with the year field', () => {
    expect(nextFire('0 0 0 * * ?', FROM)).toBe(FROM + 86_400_000);
    expect(nextFires('0 0 12 ? * 2 2025', Date.parse('2025-12-20T00:00:00Z'), 5)).toHaveLength(2);
    expect(nextFire('0 0 12 ? * 2 2020', FROM)).toBeNull();
    expect(nextFires('0 0 12 * * ?', FROM, 0)).toEqual([]);
  });

  it('evaluates in a time zone, across DST', () => {
    expect(nextFire('0 0 8 * * ?', FROM, 'Asia/Shanghai')).toBe(
      Date.parse('2025-01-01T00:00:00Z') + 86_400_000,
    );
    const berlin = nextFires('0 0 9 * * ?', Date.parse('2025-03-29T00:00:00Z'), 2, 'Europe/Berlin');
    expect(berlin).toEqual([Date.parse('2025-03-29T08:00:00Z'), Date.parse('2025-03-30T07:00:00Z')]);
  });

  it('throws CronError for expressions checkCron refuses', () => {
    expect(() => nextFires('0 0 12 * * 2', FROM, 1)).toThrow(CronError);
  });
});

describe('checkCron', () => {
  it('accepts Quartz expressions', () => {
    for (const expr of [
      '0 15 10 ? * 6L',
      '0 0 12 ? * 6#3',
      '0 0 12 LW * ?',
      '0 0 12 15W * ?',
      '0 0 12 ? * MON-FRI',
      '0 0 12 ? jan-mar mon',
      '0 0/15 * * * ?',
      '*/5 * * * * ?',
      '0 0 12 1,L * ?',
      '0 0 12 ? * 1-5 2026',
      '  0 0 12 * * ?  ',
    ]) {
      expect(checkCron(expr), expr).toBeNull();
    }
  });

  it('refuses what is not Quartz', () => {
    for (const expr of [
      '',
      '0 12 * * ?', // 5 fields
      '0 0 12 * * ? 2025 1',
      '0 0 12 * * 2', // no ?
      '0 0 12 ? * ?', // two ?
      '0 0 ? * * ?',
      '0 0 12 ? * 0',
      '0 0 12 ? * 8',
      '0 0 12 ? * 6#6',
      '0 0 25 * * ?',
      '60 0 12 * * ?',
      '0 0 12 30 2 ?', // never fires
      '0 0 12 ? * 2 1969',
      'a b c d e f',
    ]) {
      expect(checkCron(expr), expr).toBe('cronInvalid');
    }
    expect(checkCron(null)).toBe('cronInvalid');
  });

  it('names unsupported Quartz forms', () => {
    for (const expr of ['0 0 12 L-3 * ?', '0 0 12 ? * L', '0 0 12 ? * 6L,2', '0 0 12 ? * 2,6#3']) {
      expect(checkCron(expr), expr).toBe('cronUnsupported');
    }
  });
});
