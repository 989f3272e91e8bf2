import { describe, expect, it } from 'vitest';
import { isIanaTimeZone, sameClock, utcOffsetLabel, zonedToInstant } from './time';
import { formatInstant } from './values';

const at = (iso: string) => Date.parse(iso);

describe('a company time zone', () => {
  it('formats one instant as the wall clock of the zone', () => {
    const ms = at('2026-11-24T18:50:46Z');
    expect(formatInstant(ms, 'yyyy-MM-dd HH:mm:ss', 'Asia/Shanghai')).toBe('2026-11-25 02:50:46');
    expect(formatInstant(ms, 'yyyy-MM-dd HH:mm:ss', 'Europe/Berlin')).toBe('2026-11-24 19:50:46');
    expect(formatInstant(ms, 'yyyy-MM-dd HH:mm:ss', 'America/New_York')).toBe('2026-11-24 13:50:46');
    expect(formatInstant(ms, 'yyyy-MM-dd', 'Asia/Shanghai')).toBe('2026-11-25');
    expect(formatInstant(ms, 'yyyy-MM-dd', 'UTC')).toBe('2026-11-24');
    // summer time in Berlin: +2
    expect(formatInstant(at('2026-07-01T22:30:00Z'), 'yyyy-MM-dd HH:mm:ss', 'Europe/Berlin')).toBe(
      '2026-07-02 00:30:00',
    );
  });

  it('reads an entered wall time in the zone back to the same instant', () => {
    const wall = { year: 2026, month: 11, day: 25, hour: 2, minute: 50, second: 46 };
    expect(new Date(zonedToInstant(wall, 'Asia/Shanghai')).toISOString()).toBe('2026-11-24T18:50:46.000Z');
    expect(new Date(zonedToInstant(wall, 'Europe/Berlin')).toISOString()).toBe('2026-11-25T01:50:46.000Z');
  });

  it('names the offset as people write it', () => {
    expect(utcOffsetLabel(at('2026-11-24T18:50:46Z'), 'Asia/Shanghai')).toBe('UTC+8');
    expect(utcOffsetLabel(at('2026-11-24T18:50:46Z'), 'Europe/Berlin')).toBe('UTC+1');
    expect(utcOffsetLabel(at('2026-07-01T00:00:00Z'), 'Europe/Berlin')).toBe('UTC+2');
    expect(utcOffsetLabel(at('2026-11-24T00:00:00Z'), 'Asia/Kolkata')).toBe('UTC+5:30');
    expect(utcOffsetLabel(at('2026-11-24T00:00:00Z'), 'America/Sao_Paulo')).toBe('UTC-3');
    expect(utcOffsetLabel(at('2026-11-24T00:00:00Z'), 'UTC')).toBe('UTC');
  });

  it('accepts IANA zone names only', () => {
    for (const ok of ['Asia/Shanghai', 'Europe/Berlin', 'America/Argentina/Salta', 'UTC', 'Etc/GMT-8']) {
      expect(isIanaTimeZone(ok), ok).toBe(true);
    }
    for (const bad of [
      '',
      'Mars/Olympus',
      '+08:00',
      'UTC+8',
      'CST',
      'asia/shanghai',
      'Asia/Shanghai ',
      42,
      null,
    ]) {
      expect(isIanaTimeZone(bad), String(bad)).toBe(false);
    }
  });

  it('tells zones that read the same clock from those that do not', () => {
    const now = at('2026-11-24T18:50:46Z');
    expect(sameClock('Asia/Shanghai', 'Asia/Shanghai', now)).toBe(true);
    expect(sameClock('Asia/Shanghai', 'Asia/Hong_Kong', now)).toBe(true);
    expect(sameClock('Asia/Shanghai', 'Europe/Berlin', now)).toBe(false);
    // same offset in winter, not in summer
    expect(sameClock('Europe/Berlin', 'Africa/Lagos', now)).toBe(false);
  });
});
