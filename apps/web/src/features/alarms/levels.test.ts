import { describe, expect, it } from 'vitest';
import { openFor } from './levels';

describe('openFor: how long an alarm has been open', () => {
  const fired = '2026-11-28T00:00:00.000Z';
  const at = (ms: number) => Date.parse(fired) + ms;

  it('reads hh:mm:ss within a day', () => {
    expect(openFor(fired, at(0))).toEqual({ days: 0, clock: '00:00:00' });
    expect(openFor(fired, at(59_999))).toEqual({ days: 0, clock: '00:00:59' });
    expect(openFor(fired, at((3600 + 2 * 60 + 3) * 1000))).toEqual({ days: 0, clock: '01:02:03' });
    expect(openFor(fired, at(86_399_000))).toEqual({ days: 0, clock: '23:59:59' });
  });

  it('counts whole days before the clock', () => {
    expect(openFor(fired, at(86_400_000))).toEqual({ days: 1, clock: '00:00:00' });
    expect(openFor(fired, at(3 * 86_400_000 + 61_000))).toEqual({ days: 3, clock: '00:01:01' });
  });

  it('a browser clock behind the server reads 0, never a negative span', () => {
    expect(openFor(fired, at(-5000))).toEqual({ days: 0, clock: '00:00:00' });
  });
});
