/**
 * Data-update monitoring (cloud surveillance → data update, code cs_sditem_update): the no-data
 * transitions of one monitor as a pure function. A monitor watches a data item or a device and
 * a window of 30, 60, 720 or 1440 minutes (spec points 3 and 9).
 *
 * - ok: the last update is no older than the window.
 * - late: no update is known yet (never, which is not health), and the window has not yet run
 *   out since monitoring began.
 * - alarm: no update within the window (counted from the last update, or from the start of
 *   monitoring when there never was one). The alarm fires once when entering this state and
 *   stays, however many checks follow, until fresh data arrives: an update newer than the one
 *   the alarm fired on and within the window (or the same data within a window the user widened).
 *
 * Silence never reads as health: `ok` always means an update within the window.
 */

/** The time windows of spec point 3/9, in minutes. */
export const DATA_UPDATE_WINDOWS = [30, 60, 720, 1440] as const;
export type DataUpdateWindow = (typeof DATA_UPDATE_WINDOWS)[number];

export function isDataUpdateWindow(value: unknown): value is DataUpdateWindow {
  return (DATA_UPDATE_WINDOWS as readonly unknown[]).includes(value);
}

export const NO_DATA_STATES = ['ok', 'late', 'alarm'] as const;
export type NoDataState = (typeof NO_DATA_STATES)[number];

/** What is kept of a monitor between checks (times in ms since 1970). */
export interface NoDataMonitorState {
  state: NoDataState;
  /** when the monitor entered `state` */
  since: number;
  /** while in alarm: the last update the alarm fired on (null: never any), and the window then */
  alarmLastUpdate: number | null;
  alarmWindow: number | null;
}

export interface NoDataInput {
  /** the newest update known (ms), or null when there never was one */
  lastUpdate: number | null;
  /** when monitoring began (ms): a monitor with no data counts its window from here */
  startedAt: number;
  now: number;
  windowMinutes: number;
  /** how long a minute of the window lasts (ms); 60,000 but in tests, which shorten it */
  minuteMs?: number;
}

export type NoDataEvent =
  | { type: 'late'; at: number }
  | { type: 'fired'; at: number; lastUpdate: number | null }
  | { type: 'cleared'; at: number; lastUpdate: number; reason: 'data' | 'window' };

export interface NoDataResult {
  state: NoDataMonitorState;
  events: NoDataEvent[];
  /** whether anything of the state changed (the caller writes only then) */
  changed: boolean;
}

const MINUTE = 60_000;

/** Whether `lastUpdate` is within the window at `now` (an update stamped later than now counts as now). */
export function isFresh(
  lastUpdate: number | null,
  now: number,
  windowMinutes: number,
  minuteMs = MINUTE,
): boolean {
  return lastUpdate !== null && now - Math.min(lastUpdate, now) <= windowMinutes * minuteMs;
}

/** The minutes since the last update (whole minutes, rounded down), or null for never. */
export function minutesSince(lastUpdate: number | null, now: number): number | null {
  if (lastUpdate === null) return null;
  return Math.max(0, Math.floor((now - lastUpdate) / MINUTE));
}

/** One check of a monitor: `prev` is null for a monitor never checked. */
export function evaluateNoData(prev: NoDataMonitorState | null, input: NoDataInput): NoDataResult {
  const { lastUpdate, now, windowMinutes } = input;
  const minuteMs = input.minuteMs ?? MINUTE;
  const fresh = isFresh(lastUpdate, now, windowMinutes, minuteMs);

  if (prev?.state === 'alarm') {
    if (!fresh) return { state: prev, events: [], changed: false };
    const newData = prev.alarmLastUpdate === null || (lastUpdate as number) > prev.alarmLastUpdate;
    if (!newData && prev.alarmWindow === windowMinutes) return { state: prev, events: [], changed: false };
    return {
      state: ok(now),
      events: [
        { type: 'cleared', at: now, lastUpdate: lastUpdate as number, reason: newData ? 'data' : 'window' },
      ],
      changed: true,
    };
  }

  if (fresh) {
    if (prev?.state === 'ok') return { state: prev, events: [], changed: false };
    return { state: ok(now), events: [], changed: true };
  }

  const silentSince = lastUpdate ?? input.startedAt;
  if (now - silentSince > windowMinutes * minuteMs) {
    return {
      state: { state: 'alarm', since: now, alarmLastUpdate: lastUpdate, alarmWindow: windowMinutes },
      events: [{ type: 'fired', at: now, lastUpdate }],
      changed: true,
    };
  }
  if (prev?.state === 'late') return { state: prev, events: [], changed: false };
  return {
    state: { state: 'late', since: now, alarmLastUpdate: null, alarmWindow: null },
    events: [{ type: 'late', at: now }],
    changed: true,
  };
}

function ok(now: number): NoDataMonitorState {
  return { state: 'ok', since: now, alarmLastUpdate: null, alarmWindow: null };
}
