/**
 * A configuration push and what ends it (docs/gateway-config.md, "Push"), as the protocol's
 * "Configuration" section has the gateway answer (docs/device-protocol.md):
 *
 *   waiting ──applied──▶ applied ──commit sent──▶ committed
 *      │                   │  └──rolledBack──▶ rolledBack   (the commit did not reach it in time)
 *      ├──rejected──▶ rejected      (nothing changed on the gateway)
 *      ├──unchanged──▶ unchanged    (it already runs this hash)
 *      ├──rolledBack──▶ rolledBack  (its "applied" was lost on the way)
 *      └──deadline──▶ noAnswer ──(a late answer)──▶ as from waiting
 *
 * A committed push may still be reported rolled back (the commit was published but the gateway
 * never got it). `noAnswer` is the platform giving up waiting, not the gateway's word, so a
 * late answer still counts. Pure: the server persists the result and sends what `send` names.
 */

export const CONFIG_PUSH_STATES = [
  'waiting',
  'applied',
  'committed',
  'rejected',
  'unchanged',
  'rolledBack',
  'noAnswer',
] as const;
export type ConfigPushState = (typeof CONFIG_PUSH_STATES)[number];

/** States after which only a rollback report can still arrive (or nothing at all). */
export const CONFIG_PUSH_FINAL: readonly ConfigPushState[] = [
  'committed',
  'rejected',
  'unchanged',
  'rolledBack',
];

/** Seconds a gateway keeps an applied configuration waiting for the commit (the protocol's `confirmWithin`). */
export const CONFIRM_WITHIN_S = 60;

export const CONFIG_ANSWERS = ['applied', 'rejected', 'unchanged', 'rolledBack'] as const;
export type ConfigAnswer = (typeof CONFIG_ANSWERS)[number];

export type ConfigPushEvent =
  | { kind: 'answer'; result: ConfigAnswer }
  | { kind: 'commitSent' }
  | { kind: 'deadline' };

export interface ConfigPushStep {
  state: ConfigPushState;
  /** what the platform publishes now */
  send?: 'commit';
}

/** The next state, or null when the event changes nothing (a repeated or out-of-order message). */
export function nextPushState(state: ConfigPushState, event: ConfigPushEvent): ConfigPushStep | null {
  switch (event.kind) {
    case 'deadline':
      return state === 'waiting' ? { state: 'noAnswer' } : null;
    case 'commitSent':
      return state === 'applied' ? { state: 'committed' } : null;
    case 'answer':
      break;
  }
  const result = event.result;
  const open = state === 'waiting' || state === 'noAnswer';
  if (result === 'rolledBack') {
    return open || state === 'applied' || state === 'committed' ? { state: 'rolledBack' } : null;
  }
  if (!open) {
    // a repeated "applied" while the commit is on its way is answered with the commit again
    return result === 'applied' && state === 'applied' ? { state: 'applied', send: 'commit' } : null;
  }
  if (result === 'applied') return { state: 'applied', send: 'commit' };
  return { state: result };
}

/** The answer a gateway published on `up/config`, read defensively; null when it is no answer of the protocol. */
export interface ConfigAnswerMessage {
  version: number;
  hash: string;
  result: ConfigAnswer;
  errors: Array<{ node: string | null; field: string | null; message: string }>;
  runningVersion: number | null;
}

const HASH = /^[0-9a-f]{64}$/;
const MAX_ERRORS = 100;

const shortText = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v !== '' ? [...v].slice(0, max).join('') : null;

export function readConfigAnswer(payload: unknown): ConfigAnswerMessage | null {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const p = payload as Record<string, unknown>;
  if (!Number.isSafeInteger(p.version) || (p.version as number) < 1) return null;
  if (typeof p.hash !== 'string' || !HASH.test(p.hash.toLowerCase())) return null;
  if (!(CONFIG_ANSWERS as readonly unknown[]).includes(p.result)) return null;
  const errors = Array.isArray(p.errors)
    ? p.errors.slice(0, MAX_ERRORS).flatMap((e) => {
        if (e === null || typeof e !== 'object') return [];
        const r = e as Record<string, unknown>;
        return [
          {
            node: shortText(r.node, 64),
            field: shortText(r.field, 64),
            message: shortText(r.message, 300) ?? '',
          },
        ];
      })
    : [];
  const running = p.runningVersion;
  return {
    version: p.version as number,
    hash: p.hash.toLowerCase(),
    result: p.result as ConfigAnswer,
    errors,
    runningVersion: Number.isSafeInteger(running) && (running as number) >= 0 ? (running as number) : null,
  };
}
