/**
 * How an upgrade reads on screen: the ordered steps (queued … success), where a failure
 * happened, the tag colour of a state, and sizes and hashes shown short. No I/O.
 */
import { type FailureReason, UPGRADE_STEPS, type Upgrade, type UpgradeState } from './api';

export type Step = Exclude<UpgradeState, 'failed'>;
export type StepStatus = 'wait' | 'process' | 'finish' | 'error';

/** The step a failure of this reason happened at, when the reason says it. */
const REASON_STEP: Partial<Record<FailureReason, Step>> = {
  cancelled: 'queued',
  notSent: 'dispatched',
  ackTimeout: 'dispatched',
  download: 'downloading',
  verify: 'verifying',
  install: 'installing',
  versionCheck: 'checking',
};

/**
 * The step the upgrade failed at: the server's `failedAt` when it says, else what the reason
 * names, else the last step this page saw live, else (a power loss or a silent gateway seen
 * only after a reload) the step its progress points to.
 */
export function failedStep(upgrade: Upgrade & { failedAt?: UpgradeState | null }, lastSeen?: Step): Step {
  const at = upgrade.failedAt;
  if (at && at !== 'failed') return at;
  const byReason = upgrade.reason ? REASON_STEP[upgrade.reason] : undefined;
  if (byReason) return byReason;
  if (lastSeen) return lastSeen;
  if (upgrade.progress != null) return 'downloading';
  return upgrade.dispatchedAt ? 'dispatched' : 'queued';
}

/** Each step's status for an upgrade's state. */
export function stepStatuses(upgrade: Upgrade, lastSeen?: Step): StepStatus[] {
  if (upgrade.state === 'failed') {
    const at = UPGRADE_STEPS.indexOf(failedStep(upgrade, lastSeen));
    return UPGRADE_STEPS.map((_, i) => (i < at ? 'finish' : i === at ? 'error' : 'wait'));
  }
  const at = UPGRADE_STEPS.indexOf(upgrade.state);
  if (upgrade.state === 'success') return UPGRADE_STEPS.map(() => 'finish');
  return UPGRADE_STEPS.map((_, i) => (i < at ? 'finish' : i === at ? 'process' : 'wait'));
}

export const STATE_COLOR: Record<UpgradeState, string> = {
  queued: 'default',
  dispatched: 'processing',
  accepted: 'processing',
  downloading: 'processing',
  verifying: 'processing',
  installing: 'processing',
  rebooting: 'processing',
  checking: 'processing',
  success: 'success',
  failed: 'error',
};

/** Bytes as people read them (1 decimal above a KiB). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** The first and last characters of a hash, enough to tell two apart by eye. */
export const shortHash = (hash: string) =>
  hash.length > 16 ? `${hash.slice(0, 8)}…${hash.slice(-8)}` : hash;
