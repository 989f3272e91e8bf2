/**
 * A gateway's firmware upgrade as the platform follows it (docs/firmware.md; the wire protocol
 * is docs/device-protocol.md "Firmware upgrade"). The one place that decides what moves an
 * upgrade; the server persists what this says, arms the deadlines it names and nothing else.
 *
 *   queued ─dispatch─▶ dispatched ─accepted─▶ accepted ─▶ downloading ─▶ verifying ─▶ installing
 *                                                                                       │
 *        success ◀─online with the target─ checking ◀─offline─ rebooting ◀──────────────┘
 *                  (another version: failed versionCheck)      (online with the target: success)
 *
 * and from any live state to `failed` with a reason:
 * - the gateway's own `failed` report: `download`, `verify`, `install`;
 * - the platform's timers: `ackTimeout` (dispatched, no `accepted` within `ack` seconds),
 *   `progressTimeout` (no report within `progress` seconds once accepted), `totalTimeout`
 *   (not done within `total` seconds of the dispatch);
 * - `interrupted`: the gateway went offline before `rebooting` (power lost mid-upgrade: it
 *   reports nothing more and comes back with the old firmware), or while still queued;
 * - `versionCheck`: it came back after rebooting running another version than the target;
 * - `notSent`: the order could not be published.
 *
 * Gateway reports may be repeated (QoS 1) or one may be lost: a report of a later step moves
 * the upgrade forward (skipping what was lost), a report of the same step with more progress
 * updates the progress, anything else changes nothing (null). A terminal state never moves.
 */

export const UPGRADE_STATES = [
  'queued',
  'dispatched',
  'accepted',
  'downloading',
  'verifying',
  'installing',
  'rebooting',
  'checking',
  'success',
  'failed',
] as const;
export type UpgradeState = (typeof UPGRADE_STATES)[number];

export const UPGRADE_TERMINAL: readonly UpgradeState[] = ['success', 'failed'];
/** states in which the gateway holds the order (what the dispatch limit counts) */
export const UPGRADE_IN_FLIGHT: readonly UpgradeState[] = [
  'dispatched',
  'accepted',
  'downloading',
  'verifying',
  'installing',
  'rebooting',
  'checking',
];
export const UPGRADE_LIVE: readonly UpgradeState[] = ['queued', ...UPGRADE_IN_FLIGHT];

export const GATEWAY_FAILURE_REASONS = ['download', 'verify', 'install'] as const;
export type GatewayFailureReason = (typeof GATEWAY_FAILURE_REASONS)[number];
export const PLATFORM_FAILURE_REASONS = [
  'ackTimeout',
  'progressTimeout',
  'totalTimeout',
  'interrupted',
  'versionCheck',
  'notSent',
] as const;
export const UPGRADE_FAILURE_REASONS = [...GATEWAY_FAILURE_REASONS, ...PLATFORM_FAILURE_REASONS] as const;
export type UpgradeFailureReason = (typeof UPGRADE_FAILURE_REASONS)[number];

/** the steps a gateway reports on `up/firmware`, in their order */
export const GATEWAY_UPGRADE_STEPS = [
  'accepted',
  'downloading',
  'verifying',
  'installing',
  'rebooting',
] as const;
export type GatewayUpgradeStep = (typeof GATEWAY_UPGRADE_STEPS)[number];

export const UPGRADE_TIMEOUT_KINDS = ['ack', 'progress', 'total'] as const;
export type UpgradeTimeoutKind = (typeof UPGRADE_TIMEOUT_KINDS)[number];

export interface UpgradeTimeouts {
  /** seconds from the order to `accepted` */
  ack: number;
  /** seconds between two reports once accepted (and for the reboot) */
  progress: number;
  /** seconds from the order to the end */
  total: number;
}

/** The protocol's example values: a real upgrade takes 2-3 minutes (spec point 9). */
export const DEFAULT_UPGRADE_TIMEOUTS: UpgradeTimeouts = { ack: 30, progress: 60, total: 300 };

export type UpgradeEvent =
  /** the order was published to the gateway */
  | { kind: 'dispatch' }
  /** the order could not be published */
  | { kind: 'notSent' }
  | { kind: 'report'; step: GatewayUpgradeStep; progress?: number | null }
  | { kind: 'report'; step: 'failed'; reason: GatewayFailureReason }
  /** the gateway's connection ended (last will, goodbye, the broker saw it go) */
  | { kind: 'offline' }
  /** the gateway (re)connected: its birth message names the firmware it runs */
  | { kind: 'online'; firmware: string | null; target: string }
  /** a deadline the server armed has passed */
  | { kind: 'timeout'; timeout: UpgradeTimeoutKind };

export interface UpgradeStep {
  state: UpgradeState;
  progress: number | null;
  reason: UpgradeFailureReason | null;
  /** the progress deadline starts again from now (a report came) */
  refreshProgress: boolean;
}

export interface UpgradeSnapshot {
  state: UpgradeState;
  progress: number | null;
}

const ORDER: Record<UpgradeState, number> = {
  queued: -1,
  dispatched: 0,
  accepted: 1,
  downloading: 2,
  verifying: 3,
  installing: 4,
  rebooting: 5,
  checking: 6,
  success: 7,
  failed: 7,
};

/** steps that report progress */
const WITH_PROGRESS: ReadonlySet<UpgradeState> = new Set(['downloading', 'installing']);

export const isUpgradeLive = (state: UpgradeState): boolean => !UPGRADE_TERMINAL.includes(state);

const fail = (reason: UpgradeFailureReason): UpgradeStep => ({
  state: 'failed',
  progress: null,
  reason,
  refreshProgress: false,
});

const to = (state: UpgradeState, progress: number | null, refreshProgress: boolean): UpgradeStep => ({
  state,
  progress,
  reason: null,
  refreshProgress,
});

/** The next state of an upgrade, or null when the event changes nothing. */
export function nextUpgradeState(current: UpgradeSnapshot, event: UpgradeEvent): UpgradeStep | null {
  const { state } = current;
  if (!isUpgradeLive(state)) return null;
  const before = ORDER[state];
  switch (event.kind) {
    case 'dispatch':
      return state === 'queued' ? to('dispatched', null, false) : null;
    case 'notSent':
      return state === 'queued' || state === 'dispatched' ? fail('notSent') : null;
    case 'offline':
      if (state === 'rebooting') return to('checking', null, true);
      if (state === 'checking') return null;
      return fail('interrupted');
    case 'online': {
      // only the reboot's return says which firmware the upgrade ended with: a gateway that
      // reconnects mid-download is judged by its going offline (interrupted), not here
      if (state !== 'rebooting' && state !== 'checking') return null;
      return event.firmware !== null && event.firmware === event.target
        ? to('success', null, false)
        : fail('versionCheck');
    }
    case 'timeout':
      if (state === 'queued') return null;
      if (event.timeout === 'total') return fail('totalTimeout');
      if (event.timeout === 'ack') return state === 'dispatched' ? fail('ackTimeout') : null;
      return state === 'dispatched' ? null : fail('progressTimeout');
    case 'report': {
      if (state === 'queued') return null;
      if (event.step === 'failed') return fail(event.reason);
      const after = ORDER[event.step];
      const progress = WITH_PROGRESS.has(event.step) ? clampProgress(event.progress) : null;
      if (after > before) return to(event.step, progress, true);
      if (after === before && WITH_PROGRESS.has(state) && progress !== null) {
        return current.progress === null || progress > current.progress ? to(state, progress, true) : null;
      }
      return null;
    }
  }
}

function clampProgress(value: number | null | undefined): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return Math.max(0, Math.min(100, Math.round(value)));
}

export interface UpgradeDeadlines {
  ack: Date | null;
  progress: Date | null;
  total: Date | null;
}

const plus = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000);

/**
 * The deadlines to keep after a step taken at `now`: the order arms `ack` and `total`; a report
 * clears `ack` and arms `progress` afresh; an end clears them all.
 */
export function upgradeDeadlines(
  step: UpgradeStep,
  previous: UpgradeDeadlines,
  timeouts: UpgradeTimeouts,
  now: Date,
): UpgradeDeadlines {
  if (!isUpgradeLive(step.state) || step.state === 'queued')
    return { ack: null, progress: null, total: null };
  if (step.state === 'dispatched')
    return { ack: plus(now, timeouts.ack), progress: null, total: plus(now, timeouts.total) };
  return {
    ack: null,
    progress:
      step.refreshProgress || previous.progress === null ? plus(now, timeouts.progress) : previous.progress,
    total: previous.total ?? plus(now, timeouts.total),
  };
}

/** The first deadline that has passed at `now` (the earliest one), or null. */
export function dueTimeout(deadlines: UpgradeDeadlines, now: Date): UpgradeTimeoutKind | null {
  let due: { kind: UpgradeTimeoutKind; at: number } | null = null;
  for (const kind of UPGRADE_TIMEOUT_KINDS) {
    const at = deadlines[kind]?.getTime();
    if (at === undefined || at > now.getTime()) continue;
    if (!due || at < due.at) due = { kind, at };
  }
  return due?.kind ?? null;
}

/** What a person is told when an upgrade ends (catalogue keys, the spec's words). */
export function upgradeOutcomeKey(state: UpgradeState): 'firmwareUpdated' | 'firmwareFailed' | null {
  if (state === 'success') return 'firmwareUpdated';
  if (state === 'failed') return 'firmwareFailed';
  return null;
}

/** A report on `up/firmware`, read defensively; null when it is no report of the protocol. */
export interface FirmwareReport {
  upgradeId: number;
  event: Extract<UpgradeEvent, { kind: 'report' }>;
  detail: string | null;
}

export function readFirmwareReport(payload: unknown): FirmwareReport | null {
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) return null;
  const p = payload as Record<string, unknown>;
  const id =
    typeof p.upgradeId === 'string' && /^\d{1,15}$/.test(p.upgradeId) ? Number(p.upgradeId) : p.upgradeId;
  if (!Number.isSafeInteger(id) || (id as number) < 1 || (id as number) > 2_147_483_647) return null;
  const detail =
    typeof p.detail === 'string' && p.detail !== '' ? [...p.detail].slice(0, 300).join('') : null;
  if (p.state === 'failed') {
    if (!(GATEWAY_FAILURE_REASONS as readonly unknown[]).includes(p.reason)) return null;
    return {
      upgradeId: id as number,
      event: { kind: 'report', step: 'failed', reason: p.reason as GatewayFailureReason },
      detail,
    };
  }
  if (!(GATEWAY_UPGRADE_STEPS as readonly unknown[]).includes(p.state)) return null;
  const progress =
    typeof p.progress === 'number' && Number.isFinite(p.progress) && p.progress >= 0 && p.progress <= 100
      ? p.progress
      : null;
  return {
    upgradeId: id as number,
    event: { kind: 'report', step: p.state as GatewayUpgradeStep, progress },
    detail,
  };
}

/**
 * A firmware version as the platform accepts it: dotted numbers (1 to 4 parts of at most 4
 * digits) with an optional `-suffix`, at most 32 characters (what a birth message can carry).
 */
export const FIRMWARE_VERSION_PATTERN = /^\d{1,4}(\.\d{1,4}){0,3}(-[A-Za-z0-9.]{1,16})?$/;

export function isFirmwareVersion(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 32 && FIRMWARE_VERSION_PATTERN.test(value);
}

/**
 * Orders two versions numerically part by part (1.10 after 1.9; 1.2 = 1.2.0); a version with a
 * suffix comes before the same one without (1.3.0-rc1 before 1.3.0); suffixes compare as text.
 * Anything that is not a version sorts before every version.
 */
export function compareFirmwareVersions(a: string, b: string): number {
  const okA = isFirmwareVersion(a);
  const okB = isFirmwareVersion(b);
  if (!okA || !okB) return okA === okB ? (a < b ? -1 : a > b ? 1 : 0) : okA ? 1 : -1;
  const [numA, sufA] = splitVersion(a);
  const [numB, sufB] = splitVersion(b);
  for (let i = 0; i < 4; i++) {
    const d = (numA[i] ?? 0) - (numB[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (sufA === sufB) return 0;
  if (sufA === null) return 1;
  if (sufB === null) return -1;
  return sufA < sufB ? -1 : 1;
}

function splitVersion(v: string): [number[], string | null] {
  const dash = v.indexOf('-');
  const numbers = (dash < 0 ? v : v.slice(0, dash)).split('.').map(Number);
  return [numbers, dash < 0 ? null : v.slice(dash + 1)];
}
