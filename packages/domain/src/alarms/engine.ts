/**
 * The alarm rule engine (issue 11 point 5) as pure state transitions:
 * `step(state, sample, rule, now)` → the next state and the events it caused.
 *
 * A rule watches one numeric value. Each of its levels (1, 2, 3; at least one) has a threshold;
 * the level of a value is the highest level whose threshold it breaches. The condition must
 * hold for `durationS` seconds (measured on the samples' own times) before the alarm fires.
 * Once active, the level follows the value at once (raised and lowered: escalation), but
 * lowering and clearing use the rule's separate clear threshold: the distance between the
 * lowest level's threshold and the clear threshold is a dead band every level keeps, so a
 * value hovering at a threshold neither flaps between active and cleared nor between levels.
 *
 * Conditions:
 * - above: value > threshold; clear when value ≤ clear (clear ≤ the lowest level's threshold)
 * - below: value < threshold; clear when value ≥ clear (clear ≥ the lowest level's threshold)
 * - equal: value = threshold (to 1e-9); clear when it differs (no dead band)
 * - outside: value < low or value > high; clear when clearLow ≤ value ≤ clearHigh, a range
 *   inside the lowest level's range
 * - rate: |change per minute| since the previous sample > threshold; clear when ≤ clear
 *
 * Samples older than the last one seen are ignored (a back-filled import must not fire or
 * clear anything: the state describes the newest value).
 */

export const ALARM_LEVELS = [1, 2, 3] as const;
export type AlarmLevel = (typeof ALARM_LEVELS)[number];

export const ALARM_CONDITIONS = ['above', 'below', 'equal', 'outside', 'rate'] as const;
export type AlarmCondition = (typeof ALARM_CONDITIONS)[number];

/** the longest duration a condition may be asked to hold: one day */
export const MAX_ALARM_DURATION_S = 86_400;

export interface AlarmLevelSpec {
  level: AlarmLevel;
  /** the threshold; for `outside` the low end of the allowed range */
  threshold: number;
  /** `outside` only: the high end of the allowed range */
  high?: number | null;
}

export interface AlarmClearSpec {
  /** the clear threshold; for `outside` the low end of the range that clears */
  threshold: number;
  /** `outside` only */
  high?: number | null;
}

export interface AlarmRuleSpec {
  condition: AlarmCondition;
  levels: AlarmLevelSpec[];
  /** seconds the condition must hold before the alarm fires; 0 fires at once */
  durationS: number;
  /** null: clear as soon as the lowest level is no longer breached (no dead band) */
  clear: AlarmClearSpec | null;
}

export interface AlarmSample {
  value: number;
  /** the sample's time, ms since the epoch */
  ts: number;
}

export type AlarmStatus = 'normal' | 'pending' | 'active';

export interface AlarmState {
  status: AlarmStatus;
  /** the active level, or the level a pending alarm would fire at; 0 when normal */
  level: 0 | AlarmLevel;
  /** when the condition began to hold (pending and active), ms */
  since: number | null;
  /** the last sample seen: the rate condition's base and the out-of-order guard */
  last: AlarmSample | null;
}

export type AlarmEventType = 'fired' | 'raised' | 'lowered' | 'cleared';

export interface AlarmEvent {
  type: AlarmEventType;
  /** the level after the event (0 for cleared) */
  level: 0 | AlarmLevel;
  /** the level before the event (0 for fired) */
  from: 0 | AlarmLevel;
  /** the value the condition judged (for `rate` the change per minute) */
  value: number;
  /** the raw sample value */
  sampleValue: number;
  /** the sample's time, ms */
  ts: number;
  /** when the engine saw it, ms */
  at: number;
}

export interface AlarmStep {
  state: AlarmState;
  events: AlarmEvent[];
  /** the judged value of this sample (null when the sample could not be judged) */
  value: number | null;
}

export const INITIAL_ALARM_STATE: AlarmState = { status: 'normal', level: 0, since: null, last: null };

const EQUAL_TOLERANCE = 1e-9;

/** Levels sorted from 1 up. */
function sortedLevels(rule: AlarmRuleSpec): AlarmLevelSpec[] {
  return [...rule.levels].sort((a, b) => a.level - b.level);
}

/** Does `value` breach this level's threshold? */
function breaches(rule: AlarmRuleSpec, spec: AlarmLevelSpec, value: number): boolean {
  switch (rule.condition) {
    case 'above':
    case 'rate':
      return value > spec.threshold;
    case 'below':
      return value < spec.threshold;
    case 'equal':
      return Math.abs(value - spec.threshold) <= EQUAL_TOLERANCE;
    case 'outside':
      return value < spec.threshold || value > (spec.high ?? spec.threshold);
  }
}

/** The dead band below (or inside) the lowest level that clearing needs; ≥ 0. */
function deadBand(rule: AlarmRuleSpec): { low: number; high: number } {
  const lowest = sortedLevels(rule)[0];
  if (!lowest || !rule.clear || rule.condition === 'equal') return { low: 0, high: 0 };
  switch (rule.condition) {
    case 'above':
    case 'rate':
      return { low: Math.max(0, lowest.threshold - rule.clear.threshold), high: 0 };
    case 'below':
      return { low: Math.max(0, rule.clear.threshold - lowest.threshold), high: 0 };
    case 'outside':
      return {
        low: Math.max(0, rule.clear.threshold - lowest.threshold),
        high: Math.max(0, (lowest.high ?? lowest.threshold) - (rule.clear.high ?? rule.clear.threshold)),
      };
  }
}

/** Is an alarm at this level still held by `value` (not yet past the level's dead band)? */
function holds(rule: AlarmRuleSpec, spec: AlarmLevelSpec, value: number): boolean {
  const band = deadBand(rule);
  switch (rule.condition) {
    case 'above':
    case 'rate':
      return value > spec.threshold - band.low;
    case 'below':
      return value < spec.threshold + band.low;
    case 'equal':
      return breaches(rule, spec, value);
    case 'outside':
      return value < spec.threshold + band.low || value > (spec.high ?? spec.threshold) - band.high;
  }
}

/** The highest level `value` breaches; 0 when none. */
export function breachedLevel(rule: AlarmRuleSpec, value: number): 0 | AlarmLevel {
  let level: 0 | AlarmLevel = 0;
  for (const spec of sortedLevels(rule)) if (breaches(rule, spec, value)) level = spec.level;
  return level;
}

/** The highest level an active alarm keeps at `value` (breached, or still inside its dead band). */
export function heldLevel(rule: AlarmRuleSpec, value: number): 0 | AlarmLevel {
  let level: 0 | AlarmLevel = 0;
  for (const spec of sortedLevels(rule)) if (holds(rule, spec, value)) level = spec.level;
  return level;
}

/** The value the condition judges: the sample, or for `rate` the change per minute since `last`. */
export function judgedValue(
  rule: AlarmRuleSpec,
  sample: AlarmSample,
  last: AlarmSample | null,
): number | null {
  if (!Number.isFinite(sample.value)) return null;
  if (rule.condition !== 'rate') return sample.value;
  if (!last || sample.ts <= last.ts) return null;
  return Math.abs(sample.value - last.value) / ((sample.ts - last.ts) / 60_000);
}

/**
 * One sample through the rule. Pure: the same inputs give the same outputs, nothing else read.
 */
export function step(state: AlarmState, sample: AlarmSample, rule: AlarmRuleSpec, now: number): AlarmStep {
  if (!Number.isFinite(sample.value) || !Number.isFinite(sample.ts))
    return { state, events: [], value: null };
  if (state.last && sample.ts < state.last.ts) return { state, events: [], value: null };
  const value = judgedValue(rule, sample, state.last);
  const last = { value: sample.value, ts: sample.ts };
  if (value === null) return { state: { ...state, last }, events: [], value: null };
  const event = (type: AlarmEventType, from: 0 | AlarmLevel, level: 0 | AlarmLevel): AlarmEvent => ({
    type,
    from,
    level,
    value,
    sampleValue: sample.value,
    ts: sample.ts,
    at: now,
  });

  if (state.status === 'active' && state.level !== 0) {
    const held = heldLevel(rule, value);
    const breached = breachedLevel(rule, value);
    if (held === 0)
      return {
        state: { status: 'normal', level: 0, since: null, last },
        events: [event('cleared', state.level, 0)],
        value,
      };
    if (breached > state.level)
      return {
        state: { ...state, level: breached, last },
        events: [event('raised', state.level, breached)],
        value,
      };
    if (held < state.level)
      return {
        state: { ...state, level: held, last },
        events: [event('lowered', state.level, held)],
        value,
      };
    return { state: { ...state, last }, events: [], value };
  }

  const breached = breachedLevel(rule, value);
  if (breached === 0) return { state: { status: 'normal', level: 0, since: null, last }, events: [], value };
  const since = state.status === 'pending' && state.since !== null ? state.since : sample.ts;
  if (sample.ts - since >= rule.durationS * 1000)
    return {
      state: { status: 'active', level: breached, since, last },
      events: [event('fired', 0, breached)],
      value,
    };
  return { state: { status: 'pending', level: breached, since, last }, events: [], value };
}

/** The state after a person cleared the alarm by hand: it may fire again from the next sample. */
export function clearedByHand(state: AlarmState): AlarmState {
  return { status: 'normal', level: 0, since: null, last: state.last };
}

export type AlarmRuleProblem = { field: string; key: 'validation' | 'fieldRequired' | 'alarmLevelsOrder' };

/**
 * Checks a rule before it is stored: one to three distinct levels, finite thresholds ordered so
 * a higher level is further out, the clear threshold on the safe side of the lowest level, the
 * duration within a day. The field names are the form's.
 */
export function checkAlarmRule(rule: AlarmRuleSpec): AlarmRuleProblem | null {
  if (!ALARM_CONDITIONS.includes(rule.condition)) return { field: 'condition', key: 'validation' };
  if (!Number.isInteger(rule.durationS) || rule.durationS < 0 || rule.durationS > MAX_ALARM_DURATION_S)
    return { field: 'durationS', key: 'validation' };
  if (rule.levels.length === 0) return { field: 'levels', key: 'fieldRequired' };
  const seen = new Set<number>();
  for (const [i, spec] of rule.levels.entries()) {
    if (!ALARM_LEVELS.includes(spec.level) || seen.has(spec.level))
      return { field: `levels[${i}].level`, key: 'validation' };
    seen.add(spec.level);
    if (!Number.isFinite(spec.threshold)) return { field: `levels[${i}].threshold`, key: 'validation' };
    if (rule.condition === 'outside') {
      if (spec.high == null || !Number.isFinite(spec.high) || spec.high < spec.threshold)
        return { field: `levels[${i}].high`, key: 'validation' };
    }
    if (rule.condition === 'rate' && spec.threshold < 0)
      return { field: `levels[${i}].threshold`, key: 'validation' };
  }
  const levels = sortedLevels(rule);
  for (let i = 1; i < levels.length; i++) {
    const lower = levels[i - 1]!;
    const upper = levels[i]!;
    const ordered =
      rule.condition === 'above' || rule.condition === 'rate'
        ? upper.threshold >= lower.threshold
        : rule.condition === 'below'
          ? upper.threshold <= lower.threshold
          : rule.condition === 'outside'
            ? upper.threshold <= lower.threshold && (upper.high ?? 0) >= (lower.high ?? 0)
            : upper.threshold !== lower.threshold;
    if (!ordered) return { field: 'levels', key: 'alarmLevelsOrder' };
  }
  const clear = rule.clear;
  if (clear) {
    const lowest = levels[0]!;
    if (rule.condition === 'equal') return { field: 'clear', key: 'validation' };
    if (!Number.isFinite(clear.threshold)) return { field: 'clear.threshold', key: 'validation' };
    const safe =
      rule.condition === 'above' || rule.condition === 'rate'
        ? clear.threshold <= lowest.threshold
        : rule.condition === 'below'
          ? clear.threshold >= lowest.threshold
          : clear.high != null &&
            Number.isFinite(clear.high) &&
            clear.threshold >= lowest.threshold &&
            clear.high <= (lowest.high ?? lowest.threshold) &&
            clear.threshold <= clear.high;
    if (!safe) return { field: 'clear.threshold', key: 'validation' };
  }
  return null;
}
