import { describe, expect, it } from 'vitest';
import { addCalendarMonths, extendServiceEnd } from './subscription';

describe('adding calendar months', () => {
  it.each([
    ['2026-01-15', 1, '2026-02-15'],
    ['2026-01-31', 1, '2026-02-28'],
    ['2024-01-31', 1, '2024-02-29'],
    ['2026-03-31', 1, '2026-04-30'],
    ['2026-11-29', 2, '2027-01-29'],
    ['2026-12-31', 12, '2027-12-31'],
    ['2024-02-29', 12, '2025-02-28'],
    ['2026-08-31', 6, '2027-02-28'],
  ])('%s + %i months = %s', (day, months, expected) => {
    expect(addCalendarMonths(day, months)).toBe(expected);
  });
});

describe('the service end date after a payment', () => {
  it('a running service is extended from its end', () => {
    expect(extendServiceEnd('2026-12-20', '2026-11-29', 12)).toEqual({
      ok: true,
      start: '2026-12-20',
      end: '2027-12-20',
    });
  });

  it('a service ending on the payment day is extended from that day', () => {
    expect(extendServiceEnd('2026-11-29', '2026-11-29', 1)).toMatchObject({ end: '2026-12-29' });
  });

  it('a lapsed service, or none yet, starts on the payment day (not paid for backwards)', () => {
    expect(extendServiceEnd('2025-05-01', '2026-11-29', 6)).toEqual({
      ok: true,
      start: '2026-11-29',
      end: '2027-05-29',
    });
    expect(extendServiceEnd(null, '2026-01-31', 1)).toMatchObject({ end: '2026-02-28' });
  });

  it('names every wrong field and computes nothing', () => {
    expect(extendServiceEnd('2026-02-30', '29/11/2026', 0)).toEqual({
      ok: false,
      errors: [
        { field: 'months', reason: 'invalid' },
        { field: 'paidOn', reason: 'invalid' },
        { field: 'currentEnd', reason: 'invalid' },
      ],
    });
    expect(extendServiceEnd(null, '2026-11-29', 1.5)).toMatchObject({ ok: false });
    expect(extendServiceEnd(null, '2026-11-29', 121)).toMatchObject({ ok: false });
    expect(extendServiceEnd(null, '2026-11-29', 120)).toMatchObject({ ok: true, end: '2036-11-29' });
  });
});
