import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_ANSWERS,
  CONFIG_PUSH_STATES,
  type ConfigPushEvent,
  type ConfigPushState,
  nextPushState,
  readConfigAnswer,
} from './config-push';

const answer = (result: (typeof CONFIG_ANSWERS)[number]): ConfigPushEvent => ({ kind: 'answer', result });

describe('a configuration push', () => {
  it('applied → commit sent → committed', () => {
    expect(nextPushState('waiting', answer('applied'))).toEqual({ state: 'applied', send: 'commit' });
    expect(nextPushState('applied', { kind: 'commitSent' })).toEqual({ state: 'committed' });
  });

  it('rejected, unchanged and rolled back end it; the deadline ends it without an answer', () => {
    expect(nextPushState('waiting', answer('rejected'))).toEqual({ state: 'rejected' });
    expect(nextPushState('waiting', answer('unchanged'))).toEqual({ state: 'unchanged' });
    expect(nextPushState('waiting', answer('rolledBack'))).toEqual({ state: 'rolledBack' });
    expect(nextPushState('waiting', { kind: 'deadline' })).toEqual({ state: 'noAnswer' });
  });

  it('a gateway that never got the commit reports the rollback after it was applied or committed', () => {
    expect(nextPushState('applied', answer('rolledBack'))).toEqual({ state: 'rolledBack' });
    expect(nextPushState('committed', answer('rolledBack'))).toEqual({ state: 'rolledBack' });
  });

  it('a late answer after the deadline still counts: the platform gave up, not the gateway', () => {
    expect(nextPushState('noAnswer', answer('applied'))).toEqual({ state: 'applied', send: 'commit' });
    expect(nextPushState('noAnswer', answer('rolledBack'))).toEqual({ state: 'rolledBack' });
  });

  it('a repeated applied is answered with the commit again; nothing else moves a finished push', () => {
    expect(nextPushState('applied', answer('applied'))).toEqual({ state: 'applied', send: 'commit' });
    for (const state of ['committed', 'rejected', 'unchanged', 'rolledBack'] as const) {
      expect(nextPushState(state, answer('applied')), state).toBeNull();
      expect(nextPushState(state, answer('rejected')), state).toBeNull();
      expect(nextPushState(state, answer('unchanged')), state).toBeNull();
      expect(nextPushState(state, { kind: 'deadline' }), state).toBeNull();
    }
    expect(nextPushState('rolledBack', answer('rolledBack'))).toBeNull();
    expect(nextPushState('waiting', { kind: 'commitSent' })).toBeNull();
  });

  it('any sequence of events leaves a known state and only applied ever sends the commit', () => {
    const event = fc.oneof(
      fc.constantFrom(...CONFIG_ANSWERS).map(answer),
      fc.constant<ConfigPushEvent>({ kind: 'commitSent' }),
      fc.constant<ConfigPushEvent>({ kind: 'deadline' }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        let state: ConfigPushState = 'waiting';
        for (const e of events) {
          const step = nextPushState(state, e);
          if (!step) continue;
          if (step.send) expect(step.state).toBe('applied');
          state = step.state;
          expect(CONFIG_PUSH_STATES).toContain(state);
        }
      }),
    );
  });
});

describe('reading a gateway answer', () => {
  const hash = 'a'.repeat(64);
  it('reads the protocol examples', () => {
    expect(readConfigAnswer({ version: 4, hash, result: 'applied' })).toEqual({
      version: 4,
      hash,
      result: 'applied',
      errors: [],
      runningVersion: null,
    });
    expect(
      readConfigAnswer({
        version: 4,
        hash: hash.toUpperCase(),
        result: 'rejected',
        errors: [{ node: 'com1', field: 'baudRate', message: 'unsupported' }, 'junk', null],
      }),
    ).toMatchObject({ hash, errors: [{ node: 'com1', field: 'baudRate', message: 'unsupported' }] });
    expect(readConfigAnswer({ version: 4, hash, result: 'rolledBack', runningVersion: 3 })).toMatchObject({
      runningVersion: 3,
    });
  });

  it('refuses what is not an answer, and bounds what it keeps', () => {
    for (const bad of [
      null,
      [],
      'x',
      { version: 0, hash, result: 'applied' },
      { version: 1, hash: 'zz', result: 'applied' },
    ]) {
      expect(readConfigAnswer(bad)).toBeNull();
    }
    expect(readConfigAnswer({ version: 1.5, hash, result: 'applied' })).toBeNull();
    expect(readConfigAnswer({ version: 1, hash, result: 'done' })).toBeNull();
    const many = readConfigAnswer({
      version: 1,
      hash,
      result: 'rejected',
      errors: Array.from({ length: 500 }, () => ({ message: 'x'.repeat(1000) })),
    });
    expect(many!.errors).toHaveLength(100);
    expect(many!.errors[0]!.message).toHaveLength(300);
    fc.assert(fc.property(fc.jsonValue(), (v) => void readConfigAnswer(v)));
  });
});
