import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AlarmEvent,
  type AlarmRuleSpec,
  type AlarmState,
  checkAlarmRule,
  clearedByHand,
  INITIAL_ALARM_STATE,
  step,
} from './engine';

const MIN = 60_000;

/** Runs values (one a minute from t0) through a rule; the events of the whole stream. */
function run(rule: AlarmRuleSpec, values: number[], start: AlarmState = INITIAL_ALARM_STATE) {
  let state = start;
  const events: AlarmEvent[] = [];
  values.forEach((value, i) => {
    const ts = 1_700_000_000_000 + i * MIN;
    const out = step(state, { value, ts }, rule, ts + 5);
    state = out.state;
    events.push(...out.events);
  });
  return { state, events, kinds: events.map((e) => `${e.type}${e.level}`) };
}

const above: AlarmRuleSpec = {
  condition: 'above',
  levels: [
    { level: 1, threshold: 80 },
    { level: 2, threshold: 90 },
    { level: 3, threshold: 100 },
  ],
  durationS: 0,
  clear: { threshold: 75 },
};

describe('alarm engine transitions', () => {
  it('stays normal below the threshold and fires at once with no duration', () => {
    expect(run(above, [10, 50, 80]).kinds).toEqual([]);
    const r = run(above, [10, 81]);
    expect(r.kinds).toEqual(['fired1']);
    expect(r.events[0]).toMatchObject({ from: 0, level: 1, value: 81, sampleValue: 81 });
    expect(r.state).toMatchObject({ status: 'active', level: 1 });
  });

  it('fires straight at the highest level breached', () => {
    expect(run(above, [95]).kinds).toEqual(['fired2']);
    expect(run(above, [100.5]).kinds).toEqual(['fired3']);
  });

  it('raises and lowers the level as the value moves, lowering only past the dead band', () => {
    // dead band = 80 − 75 = 5: level 3 held down to 95, level 2 down to 85
    expect(run(above, [81, 91, 101, 97, 94, 86, 84, 76, 75]).kinds).toEqual([
      'fired1',
      'raised2',
      'raised3',
      'lowered2',
      'lowered1',
      'cleared0',
    ]);
  });

  it('a value hovering at the threshold fires once and does not flap', () => {
    expect(run(above, [79, 81, 79, 81, 78, 80.5, 76, 81]).kinds).toEqual(['fired1']);
  });

  it('clears only at or past the clear threshold, then may fire again', () => {
    expect(run(above, [85, 76, 75, 79, 81]).kinds).toEqual(['fired1', 'cleared0', 'fired1']);
  });

  it('waits for the duration, measured on the samples, before firing', () => {
    const rule = { ...above, durationS: 180 };
    // one sample a minute: breached at minutes 1, 2, 3, 4 → held 3 minutes at minute 4
    const r = run(rule, [50, 85, 86, 87, 88]);
    expect(r.kinds).toEqual(['fired1']);
    expect(r.events[0]!.ts - 1_700_000_000_000).toBe(4 * MIN);
    expect(run(rule, [50, 85, 86, 87]).state).toMatchObject({ status: 'pending', level: 1 });
  });

  it('a break in the condition restarts the duration', () => {
    const rule = { ...above, durationS: 120 };
    expect(run(rule, [85, 86, 70, 85, 86]).kinds).toEqual([]);
    expect(run(rule, [85, 86, 70, 85, 86, 87]).kinds).toEqual(['fired1']);
  });

  it('fires at the level breached when the duration is reached', () => {
    expect(run({ ...above, durationS: 60 }, [85, 95]).kinds).toEqual(['fired2']);
  });

  it('below: mirror image with its clear threshold above', () => {
    const below: AlarmRuleSpec = {
      condition: 'below',
      levels: [
        { level: 1, threshold: 10 },
        { level: 3, threshold: 0 },
      ],
      durationS: 0,
      clear: { threshold: 12 },
    };
    expect(run(below, [15, 9, -1, 1, 3, 11, 12]).kinds).toEqual([
      'fired1',
      'raised3',
      'lowered1',
      'cleared0',
    ]);
  });

  it('equal: fires on the value and clears when it differs', () => {
    const equal: AlarmRuleSpec = {
      condition: 'equal',
      levels: [{ level: 2, threshold: 3 }],
      durationS: 0,
      clear: null,
    };
    expect(run(equal, [1, 3, 3, 2, 3]).kinds).toEqual(['fired2', 'cleared0', 'fired2']);
  });

  it('outside: fires on either side and clears only well inside', () => {
    const outside: AlarmRuleSpec = {
      condition: 'outside',
      levels: [
        { level: 1, threshold: 200, high: 240 },
        { level: 2, threshold: 180, high: 260 },
      ],
      durationS: 0,
      clear: { threshold: 205, high: 235 },
    };
    expect(run(outside, [220, 241, 238, 236, 235, 199, 179, 203, 206]).kinds).toEqual([
      'fired1',
      'cleared0',
      'fired1',
      'raised2',
      'lowered1',
      'cleared0',
    ]);
  });

  it('rate: judges the change per minute since the previous sample', () => {
    const rate: AlarmRuleSpec = {
      condition: 'rate',
      levels: [{ level: 1, threshold: 5 }],
      durationS: 0,
      clear: { threshold: 2 },
    };
    const r = run(rate, [0, 3, 10, 14, 15]);
    // changes per minute: 3, 7 (fires), 4 (held: above 2), 1 (clears)
    expect(r.kinds).toEqual(['fired1', 'cleared0']);
    expect(r.events[0]!.value).toBe(7);
    // the first sample has no base: nothing judged
    expect(step(INITIAL_ALARM_STATE, { value: 1000, ts: 1 }, rate, 1).value).toBeNull();
  });

  it('ignores a sample older than the last one and a non-finite value', () => {
    const fired = run(above, [85]).state;
    const older = step(fired, { value: 10, ts: 1_600_000_000_000 }, above, 0);
    expect(older).toEqual({ state: fired, events: [], value: null });
    expect(step(fired, { value: Number.NaN, ts: 1_800_000_000_000 }, above, 0).events).toEqual([]);
  });

  it('after a clear by hand it fires again from the next breaching sample', () => {
    const fired = run(above, [85]).state;
    expect(run(above, [86], clearedByHand(fired)).kinds).toEqual(['fired1']);
  });

  it('without a clear threshold the lowest level clears as soon as it is not breached', () => {
    expect(run({ ...above, clear: null }, [81, 80, 81]).kinds).toEqual(['fired1', 'cleared0', 'fired1']);
  });
});

describe('checkAlarmRule', () => {
  it('accepts the rules above', () => {
    expect(checkAlarmRule(above)).toBeNull();
  });
  it('names the field of a bad rule', () => {
    expect(checkAlarmRule({ ...above, levels: [] })).toEqual({ field: 'levels', key: 'fieldRequired' });
    expect(checkAlarmRule({ ...above, durationS: -1 })?.field).toBe('durationS');
    expect(checkAlarmRule({ ...above, durationS: 86_401 })?.field).toBe('durationS');
    expect(
      checkAlarmRule({
        ...above,
        levels: [
          { level: 1, threshold: 90 },
          { level: 2, threshold: 80 },
        ],
      }),
    ).toEqual({ field: 'levels', key: 'alarmLevelsOrder' });
    expect(
      checkAlarmRule({
        ...above,
        levels: [
          { level: 1, threshold: 1 },
          { level: 1, threshold: 2 },
        ],
      })?.field,
    ).toBe('levels[1].level');
    expect(checkAlarmRule({ ...above, clear: { threshold: 81 } })?.field).toBe('clear.threshold');
    expect(checkAlarmRule({ ...above, levels: [{ level: 1, threshold: Number.NaN }] })?.field).toBe(
      'levels[0].threshold',
    );
    expect(
      checkAlarmRule({
        condition: 'outside',
        levels: [{ level: 1, threshold: 5, high: 4 }],
        durationS: 0,
        clear: null,
      })?.field,
    ).toBe('levels[0].high');
  });
});

/**
 * The reference: the same rule ("above" with thresholds t1 ≤ t2 ≤ t3, clear c ≤ t1, duration
 * counted in samples one minute apart) written as a plain loop over value bands, without the
 * engine's helpers. The engine's events must match it exactly on any stream.
 */
function reference(ts: number[], clear: number, durationMin: number, values: number[]): string[] {
  const band = ts[0]! - clear;
  const out: string[] = [];
  let level = 0;
  let pendingSince = -1;
  values.forEach((v, i) => {
    const breach = ts.filter((t) => v > t).length;
    if (level === 0) {
      if (breach === 0) {
        pendingSince = -1;
        return;
      }
      if (pendingSince < 0) pendingSince = i;
      if (i - pendingSince >= durationMin) {
        level = breach;
        out.push(`fired${level}`);
      }
      return;
    }
    const held = ts.filter((t) => v > t - band).length;
    if (held === 0) {
      out.push(`cleared0`);
      level = 0;
      pendingSince = -1;
    } else if (breach > level) {
      level = breach;
      out.push(`raised${level}`);
    } else if (held < level) {
      level = held;
      out.push(`lowered${level}`);
    }
  });
  return out;
}

describe('alarm engine against a reference evaluation', () => {
  const thresholds = fc
    .tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 }))
    .map(([a, b, c]) => [a, a + b, a + b + c]);

  it('gives the same events on random value streams', () => {
    fc.assert(
      fc.property(
        thresholds,
        fc.integer({ min: 0, max: 20 }),
        fc.integer({ min: 0, max: 3 }),
        fc.array(fc.integer({ min: -10, max: 160 }), { maxLength: 60 }),
        (ts, gap, durationMin, values) => {
          const rule: AlarmRuleSpec = {
            condition: 'above',
            levels: ts.map((threshold, i) => ({ level: (i + 1) as 1 | 2 | 3, threshold })),
            durationS: durationMin * 60,
            clear: { threshold: ts[0]! - gap },
          };
          expect(checkAlarmRule(rule)).toBeNull();
          expect(run(rule, values).kinds).toEqual(reference(ts, ts[0]! - gap, durationMin, values));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('never flaps: between a clear and the next fire the value crossed the whole dead band', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 60, max: 100, noNaN: true }), { maxLength: 80 }), (values) => {
        const { events } = run(above, values);
        // events alternate fired … cleared, and each level change stays within 1..3
        let open = false;
        for (const e of events) {
          if (e.type === 'fired') expect(open).toBe(false);
          else expect(open).toBe(true);
          open = e.type !== 'cleared';
          if (e.type === 'cleared') expect(e.sampleValue).toBeLessThanOrEqual(75);
          if (e.type === 'fired') expect(e.sampleValue).toBeGreaterThan(80);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the state after a stream does not depend on how it was split between calls', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 120 }), { maxLength: 40 }),
        fc.nat(40),
        (values, cut) => {
          const whole = run(above, values);
          const first = run(above, values.slice(0, cut));
          let state = first.state;
          const events = [...first.events];
          values.slice(cut).forEach((value, j) => {
            const ts = 1_700_000_000_000 + (Math.min(cut, values.length) + j) * MIN;
            const out = step(state, { value, ts }, above, ts + 5);
            state = out.state;
            events.push(...out.events);
          });
          expect(state).toEqual(whole.state);
          expect(events).toEqual(whole.events);
        },
      ),
    );
  });
});
