/**
 * A firmware upgrade as the gateway lives it (docs/device-protocol.md, "Firmware upgrade"):
 * accepted → downloading (progress) → verifying → installing (progress) → rebooting, or
 * `failed` with a reason at any step. The image is really downloaded over HTTP from the order's
 * url and its SHA-256 and size compared with the order's; the time each step takes is the
 * device's (2-3 minutes in all, spec point 9), divided by the simulator's speed factor so tests
 * take seconds.
 */
import { createHash } from 'node:crypto';
import type { Scheduler } from './scheduler';

export const UPGRADE_STEPS = ['accepted', 'downloading', 'verifying', 'installing', 'rebooting'] as const;
export type UpgradeStep = (typeof UPGRADE_STEPS)[number];
export const FAILURE_REASONS = ['download', 'verify', 'install'] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

export interface FirmwareOrder {
  upgradeId: number | string;
  version: string;
  url: string;
  size: number;
  sha256: string;
  timeouts?: { ack?: number; progress?: number; total?: number };
}

export interface UpgradeTiming {
  /** from the order to `accepted` */
  acceptMs: number;
  /** the download, paced to this at the least (it takes longer if the server is slower) */
  downloadMs: number;
  verifyMs: number;
  installMs: number;
  /** from `rebooting` to connecting again */
  rebootMs: number;
}

/** 1 s + 60 s + 5 s + 60 s + 20 s: about 2.5 minutes, as people see it on a real gateway. */
export const REAL_TIMING: UpgradeTiming = {
  acceptMs: 1_000,
  downloadMs: 60_000,
  verifyMs: 5_000,
  installMs: 60_000,
  rebootMs: 20_000,
};

export function scaleTiming(timing: UpgradeTiming, speed: number): UpgradeTiming {
  const s = speed > 0 ? speed : 1;
  return {
    acceptMs: timing.acceptMs / s,
    downloadMs: timing.downloadMs / s,
    verifyMs: timing.verifyMs / s,
    installMs: timing.installMs / s,
    rebootMs: timing.rebootMs / s,
  };
}

/** Faults for the next upgrade, each used once. */
export interface UpgradeFaults {
  fail?: FailureReason;
  /** the power goes right after this step is reported (mid-way for downloading and installing) */
  losePowerAt?: Exclude<UpgradeStep, 'rebooting'>;
}

export interface UpgradeMessage {
  upgradeId: number | string;
  state: UpgradeStep | 'failed';
  progress?: number;
  reason?: FailureReason;
  detail?: string;
}

export type UpgradeOutcome =
  | { outcome: 'installed'; version: string }
  | { outcome: 'failed'; reason: FailureReason; detail: string }
  | { outcome: 'powerLost'; step: UpgradeStep };

export interface UpgradeContext {
  order: FirmwareOrder;
  timing: UpgradeTiming;
  faults: UpgradeFaults;
  scheduler: Scheduler;
  /** aborted when the gateway loses power or stops */
  signal: AbortSignal;
  /** publishes on `up/firmware` */
  report: (message: UpgradeMessage) => void;
  fetch?: typeof fetch;
}

/** The largest image a gateway of ours takes: 64 MiB of flash. */
export const MAX_IMAGE_BYTES = 64 * 1024 * 1024;

/** Why an order cannot be carried out, or null. */
export function checkOrder(order: unknown): string | null {
  if (typeof order !== 'object' || order === null) return 'the order is not an object';
  const o = order as Record<string, unknown>;
  if (typeof o.version !== 'string' || o.version.length === 0 || o.version.length > 64) return 'version';
  if (typeof o.url !== 'string' || !/^https?:\/\//i.test(o.url) || o.url.length > 4096) return 'url';
  if (typeof o.size !== 'number' || !Number.isInteger(o.size) || o.size < 1 || o.size > MAX_IMAGE_BYTES)
    return 'size';
  if (typeof o.sha256 !== 'string' || !/^[0-9a-fA-F]{64}$/.test(o.sha256)) return 'sha256';
  return null;
}

class PowerLost extends Error {
  constructor(readonly step: UpgradeStep) {
    super(`power lost at ${step}`);
  }
}

class Failed extends Error {
  constructor(
    readonly reason: FailureReason,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Runs the upgrade; resolves with how it ended (never rejects). */
export async function runUpgrade(ctx: UpgradeContext): Promise<UpgradeOutcome> {
  const { order, timing, faults, scheduler, signal } = ctx;
  const id = order.upgradeId;
  const started = scheduler.now();
  const sleepUntil = (time: number) => scheduler.sleep(Math.max(0, time - scheduler.now()), signal);
  let step: UpgradeStep = 'accepted';
  const report = (message: Omit<UpgradeMessage, 'upgradeId'>) => {
    if (message.state !== 'failed') step = message.state;
    if (!signal.aborted) ctx.report({ upgradeId: id, ...message });
  };
  const powerCheck = (step: UpgradeStep) => {
    if (faults.losePowerAt === step) throw new PowerLost(step);
  };
  try {
    const problem = checkOrder(order);
    if (problem) throw new Failed('download', `invalid order: ${problem}`);
    await sleepUntil(started + timing.acceptMs);
    report({ state: 'accepted' });
    powerCheck('accepted');

    // downloading: fetched for real, progress by bytes received, paced to the device's time
    const downloadStart = scheduler.now();
    report({ state: 'downloading', progress: 0 });
    const hash = createHash('sha256');
    let received = 0;
    let next = 10;
    const totalS = order.timeouts?.total;
    const fetchSignal =
      totalS && totalS > 0 ? AbortSignal.any([signal, AbortSignal.timeout(totalS * 1000)]) : signal;
    let response: Response;
    try {
      response = await (ctx.fetch ?? fetch)(order.url, { signal: fetchSignal });
    } catch (error) {
      if (signal.aborted) throw error;
      throw new Failed('download', `cannot reach the image: ${(error as Error).message}`);
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => {});
      throw new Failed('download', `HTTP ${response.status}`);
    }
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        received += chunk.length;
        if (received > order.size) break;
        hash.update(chunk);
        const percent = Math.floor((received / order.size) * 100);
        while (next <= percent && next <= 100) {
          await sleepUntil(downloadStart + (timing.downloadMs * next) / 100);
          report({ state: 'downloading', progress: next });
          if (next === 40) {
            if (faults.fail === 'download')
              throw new Failed('download', 'connection reset during download (simulated)');
            powerCheck('downloading');
          }
          next += 10;
        }
      }
    } catch (error) {
      if (error instanceof Failed || error instanceof PowerLost || signal.aborted) throw error;
      throw new Failed('download', `download broke off: ${(error as Error).message}`);
    } finally {
      // stop reading whatever is left (a too-large image, a failure)
      await response.body.cancel().catch(() => {});
    }
    // a short image never reaches 40 %: the download faults still apply
    if (faults.fail === 'download')
      throw new Failed('download', 'connection reset during download (simulated)');
    powerCheck('downloading');

    report({ state: 'verifying' });
    powerCheck('verifying');
    await scheduler.sleep(timing.verifyMs, signal);
    if (received !== order.size)
      throw new Failed(
        'verify',
        `the image is ${received > order.size ? 'larger' : 'smaller'} than ${order.size} bytes`,
      );
    const digest = hash.digest('hex');
    if (digest !== order.sha256.toLowerCase())
      throw new Failed('verify', `sha256 ${digest} does not match ${order.sha256.toLowerCase()}`);
    if (faults.fail === 'verify') throw new Failed('verify', 'signature check failed (simulated)');

    const installStart = scheduler.now();
    report({ state: 'installing', progress: 0 });
    for (let p = 10; p <= 100; p += 10) {
      await sleepUntil(installStart + (timing.installMs * p) / 100);
      report({ state: 'installing', progress: p });
      if (p === 50) powerCheck('installing');
      if (p === 60 && faults.fail === 'install') throw new Failed('install', 'flash write error (simulated)');
    }
    report({ state: 'rebooting' });
    return { outcome: 'installed', version: order.version };
  } catch (error) {
    if (error instanceof PowerLost) return { outcome: 'powerLost', step: error.step };
    if (error instanceof Failed) {
      report({ state: 'failed', reason: error.reason, detail: error.detail });
      return { outcome: 'failed', reason: error.reason, detail: error.detail };
    }
    // aborted from outside (power cut by the controller, the fleet stopping)
    return { outcome: 'powerLost', step };
  }
}
