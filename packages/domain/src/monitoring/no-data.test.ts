import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DATA_UPDATE_WINDOWS,
  evaluateNoData,
  isDataUpdateWindow,
  minutesSince,
  type NoDataEvent,
  type NoDataMonitorState,
} from './no-data';

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 27, 8, 0, 0);
const at = (minutes: number) => T0 + minutes * MIN;

describe('data-update windows', () => {
  it('are the four of the specification and nothing else', () => {
    expect([...DATA_UPDATE_WINDOWS]).toEqual([30, 60, 720, 1440]);
    for (const w of [30, 60, 720, 1440]) expect(isDataUpdateWindow(w)).toBe(true);
    for (const w of [0, 15, 29, 31, 45, 120, 1441, '30', null, 30.5])
      expect(isDataUpdateWindow(w)).toBe(false);
  });

  it('minutes since counts whole minutes, and never is null', () => {
    expect(minutesSince(null, at(10))).toBeNull();
    expect(minutesSince(at(0), at(0))).toBe(0);
    expect(minutesSince(at(0), at(30) - 1)).toBe(29);
    expect(minutesSince(at(0), at(30))).toBe(30);
  });
});

describe('evaluateNoData transitions', () => {
  const window = 30;

  it('first check, fresh data: ok, no event', () => {
    const r = evaluateNoData(null, {
      lastUpdate: at(-5),
      startedAt: at(0),
      now: at(0),
      windowMinutes: window,
    });
    expect(r.state).toEqual({ state: 'ok', since: at(0), alarmLastUpdate: null, alarmWindow: null });
    expect(r.events).toEqual([]);
    expect(r.changed).toBe(true);
  });

  it('first check, never any data: late (not healthy), with a late event', () => {
    const r = evaluateNoData(null, { lastUpdate: null, startedAt: at(0), now: at(1), windowMinutes: window });
    expect(r.state.state).toBe('late');
    expect(r.events).toEqual([{ type: 'late', at: at(1) }]);
  });

  it('late stays late without a second event until the window since the start runs out', () => {
    const late: NoDataMonitorState = {
      state: 'late',
      since: at(1),
      alarmLastUpdate: null,
      alarmWindow: null,
    };
    const r = evaluateNoData(late, {
      lastUpdate: null,
      startedAt: at(0),
      now: at(30),
      windowMinutes: window,
    });
    expect(r).toEqual({ state: late, events: [], changed: false });
  });

  it('late → alarm when the window since the start has passed', () => {
    const late: NoDataMonitorState = {
      state: 'late',
      since: at(1),
      alarmLastUpdate: null,
      alarmWindow: null,
    };
    const r = evaluateNoData(late, {
      lastUpdate: null,
      startedAt: at(0),
      now: at(31),
      windowMinutes: window,
    });
    expect(r.state).toEqual({ state: 'alarm', since: at(31), alarmLastUpdate: null, alarmWindow: 30 });
    expect(r.events).toEqual([{ type: 'fired', at: at(31), lastUpdate: null }]);
  });

  it('late → ok when data arrives', () => {
    const late: NoDataMonitorState = {
      state: 'late',
      since: at(1),
      alarmLastUpdate: null,
      alarmWindow: null,
    };
    const r = evaluateNoData(late, {
      lastUpdate: at(10),
      startedAt: at(0),
      now: at(11),
      windowMinutes: window,
    });
    expect(r.state.state).toBe('ok');
    expect(r.events).toEqual([]);
  });

  it('ok stays ok at exactly the window, and fires one minute later', () => {
    const ok: NoDataMonitorState = { state: 'ok', since: at(0), alarmLastUpdate: null, alarmWindow: null };
    const edge = evaluateNoData(ok, {
      lastUpdate: at(0),
      startedAt: at(0),
      now: at(30),
      windowMinutes: window,
    });
    expect(edge).toEqual({ state: ok, events: [], changed: false });
    const past = evaluateNoData(ok, {
      lastUpdate: at(0),
      startedAt: at(0),
      now: at(31),
      windowMinutes: window,
    });
    expect(past.state).toEqual({ state: 'alarm', since: at(31), alarmLastUpdate: at(0), alarmWindow: 30 });
    expect(past.events).toEqual([{ type: 'fired', at: at(31), lastUpdate: at(0) }]);
  });

  it('data already older than the window on the first check fires at once', () => {
    const r = evaluateNoData(null, { lastUpdate: at(-120), startedAt: at(0), now: at(0), windowMinutes: 60 });
    expect(r.state.state).toBe('alarm');
    expect(r.events.map((e) => e.type)).toEqual(['fired']);
  });

  it('alarm stays without firing again while silent', () => {
    const alarm: NoDataMonitorState = {
      state: 'alarm',
      since: at(31),
      alarmLastUpdate: at(0),
      alarmWindow: 30,
    };
    for (const now of [at(32), at(120), at(100_000)]) {
      expect(evaluateNoData(alarm, { lastUpdate: at(0), startedAt: at(0), now, windowMinutes: 30 })).toEqual({
        state: alarm,
        events: [],
        changed: false,
      });
    }
  });

  it('alarm does not clear on an update that is itself already stale', () => {
    const alarm: NoDataMonitorState = {
      state: 'alarm',
      since: at(31),
      alarmLastUpdate: at(0),
      alarmWindow: 30,
    };
    const r = evaluateNoData(alarm, { lastUpdate: at(5), startedAt: at(0), now: at(100), windowMinutes: 30 });
    expect(r.state).toBe(alarm);
    expect(r.events).toEqual([]);
  });

  it('alarm → ok with a cleared event when fresh data arrives', () => {
    const alarm: NoDataMonitorState = {
      state: 'alarm',
      since: at(31),
      alarmLastUpdate: at(0),
      alarmWindow: 30,
    };
    const r = evaluateNoData(alarm, { lastUpdate: at(40), startedAt: at(0), now: at(41), windowMinutes: 30 });
    expect(r.state).toEqual({ state: 'ok', since: at(41), alarmLastUpdate: null, alarmWindow: null });
    expect(r.events).toEqual([{ type: 'cleared', at: at(41), lastUpdate: at(40), reason: 'data' }]);
  });

  it('an alarm that fired on "never" clears on the first data', () => {
    const alarm: NoDataMonitorState = {
      state: 'alarm',
      since: at(31),
      alarmLastUpdate: null,
      alarmWindow: 30,
    };
    const r = evaluateNoData(alarm, { lastUpdate: at(50), startedAt: at(0), now: at(50), windowMinutes: 30 });
    expect(r.events).toEqual([{ type: 'cleared', at: at(50), lastUpdate: at(50), reason: 'data' }]);
  });

  it('a window the user widened over the silence clears the alarm, said so', () => {
    const alarm: NoDataMonitorState = {
      state: 'alarm',
      since: at(31),
      alarmLastUpdate: at(0),
      alarmWindow: 30,
    };
    const r = evaluateNoData(alarm, { lastUpdate: at(0), startedAt: at(0), now: at(45), windowMinutes: 60 });
    expect(r.state.state).toBe('ok');
    expect(r.events).toEqual([{ type: 'cleared', at: at(45), lastUpdate: at(0), reason: 'window' }]);
  });

  it('ok stays ok without writing while data keeps coming', () => {
    const ok: NoDataMonitorState = { state: 'ok', since: at(0), alarmLastUpdate: null, alarmWindow: null };
    expect(
      evaluateNoData(ok, { lastUpdate: at(59), startedAt: at(0), now: at(60), windowMinutes: 30 }).changed,
    ).toBe(false);
  });

  it('an update stamped in the future counts as now, not as data fresh for ever', () => {
    const r = evaluateNoData(null, { lastUpdate: at(500), startedAt: at(0), now: at(0), windowMinutes: 30 });
    expect(r.state.state).toBe('ok');
  });
});

/** A random run: checks at increasing times, with updates arriving (or not) between them. */
const runArb = fc.record({
  window: fc.constantFrom(...DATA_UPDATE_WINDOWS),
  start: fc.integer({ min: 0, max: 10_000 }),
  initial: fc.option(fc.integer({ min: -5_000, max: 0 }), { nil: null }),
  steps: fc.array(
    fc.record({
      advance: fc.integer({ min: 0, max: 2_000 }),
      update: fc.option(fc.integer({ min: 0, max: 2_000 }), { nil: null }),
    }),
    { maxLength: 60 },
  ),
});

type Run = typeof runArb extends fc.Arbitrary<infer R> ? R : never;

interface Step {
  now: number;
  lastUpdate: number | null;
  state: NoDataMonitorState;
  events: NoDataEvent[];
}

/** Runs the checks; an update lands `update` minutes before the check (never before the previous one). */
function simulate(run: Run): Step[] {
  const startedAt = at(run.start);
  let now = startedAt;
  let lastUpdate: number | null = run.initial === null ? null : startedAt + run.initial * MIN;
  let state: NoDataMonitorState | null = null;
  const out: Step[] = [];
  let prevNow = now;
  for (const step of run.steps) {
    now += step.advance * MIN;
    if (step.update !== null) {
      const ts = Math.max(prevNow, now - step.update * MIN);
      lastUpdate = lastUpdate === null ? ts : Math.max(lastUpdate, ts);
    }
    const r = evaluateNoData(state, { lastUpdate, startedAt, now, windowMinutes: run.window });
    state = r.state;
    out.push({ now, lastUpdate, state: r.state, events: r.events });
    prevNow = now;
  }
  return out;
}

describe('evaluateNoData properties', () => {
  it('never reports ok when the last update is older than the window (or never came)', () => {
    fc.assert(
      fc.property(runArb, (run) => {
        for (const s of simulate(run)) {
          if (s.state.state === 'ok') {
            expect(s.lastUpdate).not.toBeNull();
            expect(s.now - (s.lastUpdate as number)).toBeLessThanOrEqual(run.window * MIN);
          }
        }
      }),
    );
  });

  it('is in alarm whenever the silence is longer than the window', () => {
    fc.assert(
      fc.property(runArb, (run) => {
        for (const s of simulate(run)) {
          const silentSince = s.lastUpdate ?? at(run.start);
          if (s.now - silentSince > run.window * MIN) expect(s.state.state).toBe('alarm');
        }
      }),
    );
  });

  it('fires at most once per silence, and clears only on new data', () => {
    fc.assert(
      fc.property(runArb, (run) => {
        let firedOn: number | null | undefined; // undefined: no alarm open
        for (const s of simulate(run)) {
          for (const e of s.events) {
            if (e.type === 'fired') {
              expect(firedOn).toBeUndefined();
              firedOn = e.lastUpdate;
            }
            if (e.type === 'cleared') {
              expect(firedOn).not.toBeUndefined();
              expect(e.reason).toBe('data');
              if (firedOn !== null) expect(e.lastUpdate).toBeGreaterThan(firedOn as number);
              firedOn = undefined;
            }
          }
          expect(s.state.state === 'alarm').toBe(firedOn !== undefined);
        }
      }),
    );
  });

  it('checking again at the same instant changes nothing (a second node, a restart)', () => {
    fc.assert(
      fc.property(runArb, (run) => {
        for (const s of simulate(run)) {
          const again = evaluateNoData(s.state, {
            lastUpdate: s.lastUpdate,
            startedAt: at(run.start),
            now: s.now,
            windowMinutes: run.window,
          });
          expect(again.events).toEqual([]);
          expect(again.changed).toBe(false);
        }
      }),
    );
  });
});

describe('a shortened minute (tests of the whole app only)', () => {
  it('a 30-minute window of 100 ms minutes passes after 3 s, not before', () => {
    const input = { lastUpdate: 10_000, startedAt: 0, windowMinutes: 30, minuteMs: 100 };
    expect(evaluateNoData(null, { ...input, now: 13_000 }).state.state).toBe('ok');
    const fired = evaluateNoData(null, { ...input, now: 13_001 });
    expect(fired.state.state).toBe('alarm');
    expect(fired.events).toEqual([{ type: 'fired', at: 13_001, lastUpdate: 10_000 }]);
    // the ordinary minute: the same silence is fresh
    expect(evaluateNoData(null, { ...input, minuteMs: undefined, now: 13_001 }).state.state).toBe('ok');
  });
});
