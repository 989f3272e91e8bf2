import { describe, expect, it } from 'vitest';
import { addCalendarDays, isCalendarDate, isOverdue, nextDueAfter } from './records';
import {
  DEFAULT_DEVICE_PICTURE,
  DEVICE_PICTURE_PRESETS,
  type GatewayFacts,
  gatewayStatus,
  isDevicePicturePreset,
  readPorts,
} from './status';

const BOUND = Date.UTC(2026, 0, 1);
const facts = (f: Partial<GatewayFacts>): GatewayFacts => ({
  boundAt: BOUND,
  online: false,
  onlineAt: null,
  offlineAt: null,
  ports: [],
  ...f,
});

describe('gateway status', () => {
  it('is inactive when not bound, or never online since it was bound', () => {
    expect(gatewayStatus(facts({ boundAt: null, online: true, ports: [{ port: 1, ok: true }] }))).toBe(
      'inactive',
    );
    expect(gatewayStatus(facts({}))).toBe('inactive');
    expect(gatewayStatus(facts({ onlineAt: BOUND - 5_000, offlineAt: BOUND - 1_000 }))).toBe('inactive');
  });

  it('is running when online and every port is ok (or none reported)', () => {
    expect(gatewayStatus(facts({ online: true, onlineAt: BOUND - 1, ports: [{ port: 1, ok: true }] }))).toBe(
      'running',
    );
    expect(gatewayStatus(facts({ online: true, onlineAt: BOUND + 1 }))).toBe('running');
  });

  it('is abnormal when a port reported an error, or when it went offline after running', () => {
    expect(
      gatewayStatus(
        facts({
          online: true,
          onlineAt: BOUND + 1,
          ports: [
            { port: 1, ok: true },
            { port: 2, ok: false, error: 'no answer' },
          ],
        }),
      ),
    ).toBe('abnormal');
    expect(gatewayStatus(facts({ online: false, onlineAt: BOUND + 1, offlineAt: BOUND + 2 }))).toBe(
      'abnormal',
    );
    // online at the moment of binding, offline since
    expect(gatewayStatus(facts({ online: false, onlineAt: BOUND - 10, offlineAt: BOUND + 5 }))).toBe(
      'abnormal',
    );
  });

  it('keeps only well-formed port reports', () => {
    expect(
      readPorts([
        { port: 1, ok: true },
        { port: 2, ok: false, error: 'x'.repeat(500) },
        { port: '3', ok: true },
        { port: 4 },
        null,
        7,
        { port: -1, ok: true },
        { port: 1.5, ok: true },
      ]),
    ).toEqual([
      { port: 1, ok: true },
      { port: 2, ok: false, error: 'x'.repeat(200) },
    ]);
    expect(readPorts('ports')).toBeNull();
    expect(readPorts(Array.from({ length: 100 }, (_, i) => ({ port: i, ok: true })))).toHaveLength(32);
  });
});

describe('device picture presets', () => {
  it('are a handful of distinct ids, the default among them', () => {
    expect(new Set(DEVICE_PICTURE_PRESETS).size).toBe(DEVICE_PICTURE_PRESETS.length);
    expect(DEVICE_PICTURE_PRESETS.length).toBeGreaterThanOrEqual(4);
    expect(isDevicePicturePreset(DEFAULT_DEVICE_PICTURE)).toBe(true);
    expect(isDevicePicturePreset('devices/1/2/x.png')).toBe(false);
    expect(isDevicePicturePreset(undefined)).toBe(false);
  });
});

describe('maintenance dates', () => {
  it('checks calendar dates', () => {
    for (const good of ['2026-02-28', '2024-02-29', '1970-01-01', '9999-12-31'])
      expect(isCalendarDate(good)).toBe(true);
    for (const bad of [
      '2026-02-29',
      '2026-13-01',
      '2026-00-10',
      '2026-1-1',
      '1969-12-31',
      '2026-04-31',
      '',
      20260101,
    ])
      expect(isCalendarDate(bad), String(bad)).toBe(false);
  });

  it('moves a plan on by its interval from the day it was done, across months, years and leap days', () => {
    expect(nextDueAfter('2026-01-31', 30)).toBe('2026-03-02');
    expect(nextDueAfter('2024-02-28', 1)).toBe('2024-02-29');
    expect(nextDueAfter('2026-12-15', 30)).toBe('2027-01-14');
    // the day clocks change in Europe is still a day
    expect(addCalendarDays('2026-03-28', 2)).toBe('2026-03-30');
  });

  it('is overdue the day after it was due', () => {
    expect(isOverdue('2026-05-01', '2026-05-01')).toBe(false);
    expect(isOverdue('2026-05-01', '2026-05-02')).toBe(true);
    expect(isOverdue('2026-05-01', '2026-04-30')).toBe(false);
  });
});
