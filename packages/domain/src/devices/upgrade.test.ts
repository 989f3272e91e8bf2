import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareFirmwareVersions,
  DEFAULT_UPGRADE_TIMEOUTS,
  dueTimeout,
  GATEWAY_FAILURE_REASONS,
  GATEWAY_UPGRADE_STEPS,
  isFirmwareVersion,
  nextUpgradeState,
  readFirmwareReport,
  UPGRADE_STATES,
  UPGRADE_TIMEOUT_KINDS,
  type UpgradeEvent,
  type UpgradeState,
  type UpgradeStep,
  upgradeDeadlines,
  upgradeOutcomeKey,
} from './upgrade';

const TARGET = '1.3.0';

/** Every event there is, each with a name for the table below. */
const EVENTS: Record<string, UpgradeEvent> = {
  dispatch: { kind: 'dispatch' },
  notSent: { kind: 'notSent' },
  offline: { kind: 'offline' },
  'online target': { kind: 'online', firmware: TARGET, target: TARGET },
  'online old': { kind: 'online', firmware: '1.2.0', target: TARGET },
  'online none': { kind: 'online', firmware: null, target: TARGET },
  'timeout ack': { kind: 'timeout', timeout: 'ack' },
  'timeout progress': { kind: 'timeout', timeout: 'progress' },
  'timeout total': { kind: 'timeout', timeout: 'total' },
  'report accepted': { kind: 'report', step: 'accepted' },
  'report downloading 30': { kind: 'report', step: 'downloading', progress: 30 },
  'report verifying': { kind: 'report', step: 'verifying' },
  'report installing 40': { kind: 'report', step: 'installing', progress: 40 },
  'report rebooting': { kind: 'report', step: 'rebooting' },
  'failed download': { kind: 'report', step: 'failed', reason: 'download' },
  'failed verify': { kind: 'report', step: 'failed', reason: 'verify' },
  'failed install': { kind: 'report', step: 'failed', reason: 'install' },
};

type Expect = UpgradeState | `failed:${string}` | null | `${UpgradeState}@${number}`;

/**
 * The whole table: for each state (progress 20 where the state carries progress) and each
 * event, where the upgrade goes (`failed:<reason>`, `<state>@<progress>`), or null: refused,
 * nothing changes.
 */
const live = (over: Partial<Record<string, Expect>>): Record<string, Expect> => ({
  dispatch: null,
  notSent: null,
  offline: 'failed:interrupted',
  'online target': null,
  'online old': null,
  'online none': null,
  'timeout ack': null,
  'timeout progress': 'failed:progressTimeout',
  'timeout total': 'failed:totalTimeout',
  'report accepted': null,
  'report downloading 30': null,
  'report verifying': null,
  'report installing 40': null,
  'report rebooting': null,
  'failed download': 'failed:download',
  'failed verify': 'failed:verify',
  'failed install': 'failed:install',
  ...over,
});
const refusesAll = Object.fromEntries(Object.keys(EVENTS).map((k) => [k, null])) as Record<string, Expect>;

const TABLE: Record<UpgradeState, Record<string, Expect>> = {
  queued: {
    ...refusesAll,
    dispatch: 'dispatched',
    notSent: 'failed:notSent',
    offline: 'failed:interrupted',
  },
  dispatched: live({
    notSent: 'failed:notSent',
    'timeout ack': 'failed:ackTimeout',
    'timeout progress': null,
    'report accepted': 'accepted',
    'report downloading 30': 'downloading@30',
    'report verifying': 'verifying',
    'report installing 40': 'installing@40',
    'report rebooting': 'rebooting',
  }),
  accepted: live({
    'report downloading 30': 'downloading@30',
    'report verifying': 'verifying',
    'report installing 40': 'installing@40',
    'report rebooting': 'rebooting',
  }),
  downloading: live({
    'report downloading 30': 'downloading@30',
    'report verifying': 'verifying',
    'report installing 40': 'installing@40',
    'report rebooting': 'rebooting',
  }),
  verifying: live({
    'report installing 40': 'installing@40',
    'report rebooting': 'rebooting',
  }),
  installing: live({
    'report installing 40': 'installing@40',
    'report rebooting': 'rebooting',
  }),
  rebooting: live({
    offline: 'checking',
    'online target': 'success',
    'online old': 'failed:versionCheck',
    'online none': 'failed:versionCheck',
  }),
  checking: live({
    offline: null,
    'online target': 'success',
    'online old': 'failed:versionCheck',
    'online none': 'failed:versionCheck',
  }),
  success: refusesAll,
  failed: refusesAll,
};

const PROGRESS_STATES: readonly UpgradeState[] = ['downloading', 'installing'];

function render(step: UpgradeStep | null): Expect {
  if (!step) return null;
  if (step.state === 'failed') return `failed:${step.reason}`;
  return step.progress === null ? step.state : `${step.state}@${step.progress}`;
}

describe('the firmware upgrade state machine', () => {
  for (const state of UPGRADE_STATES) {
    for (const [name, event] of Object.entries(EVENTS)) {
      const expected = TABLE[state][name];
      it(`${state} + ${name} → ${expected ?? 'refused'}`, () => {
        const progress = PROGRESS_STATES.includes(state) ? 20 : null;
        expect(render(nextUpgradeState({ state, progress }, event))).toBe(expected);
      });
    }
  }

  it('the table covers every state and event', () => {
    expect(Object.keys(TABLE).sort()).toEqual([...UPGRADE_STATES].sort());
    for (const state of UPGRADE_STATES)
      expect(Object.keys(TABLE[state]).sort()).toEqual(Object.keys(EVENTS).sort());
  });

  it('progress moves forward only: a repeated or lower progress is refused, a higher one taken', () => {
    const at = (progress: number) => ({ state: 'downloading' as const, progress });
    const report = (progress: number): UpgradeEvent => ({ kind: 'report', step: 'downloading', progress });
    expect(nextUpgradeState(at(40), report(40))).toBeNull();
    expect(nextUpgradeState(at(40), report(10))).toBeNull();
    expect(nextUpgradeState(at(40), report(50))).toMatchObject({ state: 'downloading', progress: 50 });
    expect(nextUpgradeState({ state: 'downloading', progress: null }, report(0))).toMatchObject({
      progress: 0,
    });
    // a step without progress repeated is the same step: nothing changes
    expect(
      nextUpgradeState({ state: 'verifying', progress: null }, { kind: 'report', step: 'verifying' }),
    ).toBeNull();
    // a report of a step with no progress number keeps none
    expect(
      nextUpgradeState({ state: 'accepted', progress: null }, { kind: 'report', step: 'downloading' }),
    ).toMatchObject({ state: 'downloading', progress: null });
  });

  it('each report refreshes the progress deadline; timeouts and ends do not', () => {
    expect(
      nextUpgradeState({ state: 'dispatched', progress: null }, EVENTS['report accepted']!)?.refreshProgress,
    ).toBe(true);
    expect(nextUpgradeState({ state: 'rebooting', progress: null }, EVENTS.offline!)?.refreshProgress).toBe(
      true,
    );
    expect(
      nextUpgradeState({ state: 'accepted', progress: null }, EVENTS['timeout total']!)?.refreshProgress,
    ).toBe(false);
  });

  it('any sequence of events ends where it may, and a terminal state never moves again', () => {
    const event = fc.constantFrom(...Object.values(EVENTS));
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        let snap: { state: UpgradeState; progress: number | null } = { state: 'queued', progress: null };
        for (const e of events) {
          const step = nextUpgradeState(snap, e);
          if (!step) continue;
          expect(UPGRADE_STATES).toContain(step.state);
          expect(step.state === 'failed').toBe(step.reason !== null);
          if (snap.state === 'success' || snap.state === 'failed') throw new Error('a terminal state moved');
          // success only ever comes from the reboot's return with the target version
          if (step.state === 'success') {
            expect(['rebooting', 'checking']).toContain(snap.state);
            expect(e).toMatchObject({ kind: 'online', firmware: TARGET });
          }
          snap = { state: step.state, progress: step.progress };
        }
      }),
    );
  });

  it('with the timers armed, every upgrade that gets no more reports ends by a timeout', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    const t = DEFAULT_UPGRADE_TIMEOUTS;
    for (const state of UPGRADE_STATES) {
      if (state === 'queued' || state === 'success' || state === 'failed') continue;
      const step: UpgradeStep = { state, progress: null, reason: null, refreshProgress: true };
      const deadlines = upgradeDeadlines(step, { ack: null, progress: null, total: null }, t, now);
      const later = new Date(now.getTime() + t.total * 1000 + 1);
      const due = dueTimeout(deadlines, later);
      expect(due, state).not.toBeNull();
      const end = nextUpgradeState({ state, progress: null }, { kind: 'timeout', timeout: due! });
      expect(end?.state, state).toBe('failed');
    }
  });
});

describe('upgrade deadlines', () => {
  const t = { ack: 10, progress: 20, total: 100 };
  const now = new Date('2026-01-01T00:00:00Z');
  const sec = (s: number) => new Date(now.getTime() + s * 1000);
  const none = { ack: null, progress: null, total: null };

  it('the order arms ack and total; a report clears ack and arms progress; an end clears all', () => {
    const dispatched = upgradeDeadlines(
      { state: 'dispatched', progress: null, reason: null, refreshProgress: false },
      none,
      t,
      now,
    );
    expect(dispatched).toEqual({ ack: sec(10), progress: null, total: sec(100) });
    const accepted = upgradeDeadlines(
      { state: 'accepted', progress: null, reason: null, refreshProgress: true },
      dispatched,
      t,
      sec(5),
    );
    expect(accepted).toEqual({ ack: null, progress: sec(25), total: sec(100) });
    const notRefreshed = upgradeDeadlines(
      { state: 'accepted', progress: null, reason: null, refreshProgress: false },
      accepted,
      t,
      sec(9),
    );
    expect(notRefreshed.progress).toEqual(sec(25));
    expect(
      upgradeDeadlines(
        { state: 'failed', progress: null, reason: 'verify', refreshProgress: false },
        accepted,
        t,
        now,
      ),
    ).toEqual(none);
    expect(
      upgradeDeadlines(
        { state: 'queued', progress: null, reason: null, refreshProgress: false },
        none,
        t,
        now,
      ),
    ).toEqual(none);
  });

  it('the earliest passed deadline is the one due; none before any passes', () => {
    const d = { ack: sec(10), progress: sec(5), total: sec(100) };
    expect(dueTimeout(d, sec(4))).toBeNull();
    expect(dueTimeout(d, sec(5))).toBe('progress');
    expect(dueTimeout(d, sec(50))).toBe('progress');
    expect(dueTimeout({ ...d, progress: null }, sec(50))).toBe('ack');
    expect(dueTimeout({ ack: null, progress: sec(500), total: sec(100) }, sec(200))).toBe('total');
    expect(dueTimeout(none, sec(1e6))).toBeNull();
    expect(UPGRADE_TIMEOUT_KINDS).toEqual(['ack', 'progress', 'total']);
  });
});

describe('reading a gateway report', () => {
  it('takes every step of the protocol and its progress', () => {
    for (const step of GATEWAY_UPGRADE_STEPS) {
      expect(readFirmwareReport({ upgradeId: 42, state: step, progress: 30 })?.event).toMatchObject({ step });
    }
    expect(readFirmwareReport({ upgradeId: '42', state: 'downloading', progress: 35 })).toEqual({
      upgradeId: 42,
      event: { kind: 'report', step: 'downloading', progress: 35 },
      detail: null,
    });
    for (const reason of GATEWAY_FAILURE_REASONS) {
      expect(readFirmwareReport({ upgradeId: 1, state: 'failed', reason, detail: 'HTTP 403' })).toEqual({
        upgradeId: 1,
        event: { kind: 'report', step: 'failed', reason },
        detail: 'HTTP 403',
      });
    }
  });

  it('refuses what is no report: bad ids, states, reasons; drops a progress out of range', () => {
    for (const bad of [
      null,
      [],
      'x',
      {},
      { upgradeId: 0, state: 'accepted' },
      { upgradeId: -1, state: 'accepted' },
      { upgradeId: 1.5, state: 'accepted' },
      { upgradeId: 2 ** 31, state: 'accepted' },
      { upgradeId: '1e3', state: 'accepted' },
      { upgradeId: 1, state: 'success' },
      { upgradeId: 1, state: 'checking' },
      { upgradeId: 1, state: 'failed' },
      { upgradeId: 1, state: 'failed', reason: 'versionCheck' },
    ])
      expect(readFirmwareReport(bad), JSON.stringify(bad)).toBeNull();
    expect(readFirmwareReport({ upgradeId: 1, state: 'downloading', progress: 101 })?.event).toEqual({
      kind: 'report',
      step: 'downloading',
      progress: null,
    });
    expect(
      readFirmwareReport({ upgradeId: 1, state: 'failed', reason: 'install', detail: 'x'.repeat(999) })
        ?.detail,
    ).toHaveLength(300);
  });
});

describe('firmware versions', () => {
  it('accepts dotted numbers with an optional suffix, at most 32 characters', () => {
    for (const v of ['1', '1.2', '1.2.3', '1.2.3.4', '10.0.0-rc1', '0.0.1-beta.2'])
      expect(isFirmwareVersion(v), v).toBe(true);
    for (const v of [
      '',
      'v1.2',
      '1.2.3.4.5',
      '1..2',
      '1.2.',
      '12345.1',
      '1.2-',
      '1.2 ',
      '1.2/../x',
      1.2,
      null,
    ])
      expect(isFirmwareVersion(v), String(v)).toBe(false);
  });

  it('orders numerically part by part, a suffixed version before its release', () => {
    const sorted = ['1.10.0', '1.9', '1.2.0', '1.2.0-rc1', '2', '1.2.1'].sort(compareFirmwareVersions);
    expect(sorted).toEqual(['1.2.0-rc1', '1.2.0', '1.2.1', '1.9', '1.10.0', '2']);
    expect(compareFirmwareVersions('1.2', '1.2.0')).toBe(0);
    expect(compareFirmwareVersions('junk', '0.0.1')).toBe(-1);
  });

  it('the outcome a person is told is the spec message of success or failure', () => {
    expect(upgradeOutcomeKey('success')).toBe('firmwareUpdated');
    expect(upgradeOutcomeKey('failed')).toBe('firmwareFailed');
    expect(upgradeOutcomeKey('downloading')).toBeNull();
  });
});
