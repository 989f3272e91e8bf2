/**
 * The configurations a gateway keeps (docs/device-protocol.md, "Configuration"):
 * - `committed`: the one it boots with (in flash);
 * - `pending`: applied and running, waiting for `down/config/commit` until its deadline. If the
 *   commit does not come in time, or the power goes before it does, the gateway goes back to
 *   `committed` by itself and owes the platform a `rolledBack` report, sent once connected.
 * Pure: the gateway calls it with the time and arms the deadline on its scheduler.
 */
import type { GatewayConfig } from '@platform/domain';
import { type ConfigError, checkConfig } from './check';

export interface StoredConfig {
  version: number;
  hash: string;
  config: GatewayConfig;
}

export interface ConfigAnswer {
  version: unknown;
  hash: unknown;
  result: 'applied' | 'rejected' | 'unchanged';
  errors?: ConfigError[];
}

export interface RollbackReport {
  version: number;
  hash: string;
  result: 'rolledBack';
  /** the version it runs again (absent when it runs none) */
  runningVersion?: number;
}

export const DEFAULT_CONFIRM_WITHIN_S = 60;

/** Hashes are hex: compared without regard to case, kept as the platform sent them. */
const sameHash = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();
const MAX_CONFIRM_WITHIN_S = 86_400;

export class ConfigStore {
  committed: StoredConfig | null;
  pending: { config: StoredConfig; deadline: number } | null = null;
  /** rollbacks not reported yet */
  reports: RollbackReport[] = [];

  constructor(initial: StoredConfig | null = null) {
    this.committed = initial;
  }

  /** What the gateway runs now. */
  get running(): StoredConfig | null {
    return this.pending?.config ?? this.committed;
  }

  /**
   * A `down/config` message. Returns the answer to publish and whether what the gateway runs
   * changed (its polling must restart). `rejectWith`: the controller's fault "reject the next
   * configuration".
   */
  receive(
    message: unknown,
    ports: readonly number[],
    now: number,
    rejectWith?: string,
  ): { answer: ConfigAnswer; changed: boolean } {
    const m = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
    const head = { version: m.version, hash: m.hash };
    const reject = (errors: ConfigError[]) => ({
      answer: { ...head, result: 'rejected' as const, errors },
      changed: false,
    });
    if (typeof m.version !== 'number' || !Number.isInteger(m.version) || m.version < 0)
      return reject([{ node: '', field: 'version', message: 'version must be a non-negative integer' }]);
    if (typeof m.hash !== 'string' || !/^[0-9a-fA-F]{8,128}$/.test(m.hash))
      return reject([
        { node: '', field: 'hash', message: 'hash must be hex (the SHA-256 of the configuration)' },
      ]);
    const version = m.version;
    const hash = m.hash;
    if (sameHash(this.running?.hash, hash)) {
      // QoS 1 may deliver a push twice: the pending one is answered "applied" again
      if (sameHash(this.pending?.config.hash, hash))
        return { answer: { version, hash, result: 'applied' }, changed: false };
      return { answer: { version, hash, result: 'unchanged' }, changed: false };
    }
    if (rejectWith !== undefined) return reject([{ node: '', field: 'config', message: rejectWith }]);
    const confirmWithin = m.confirmWithin ?? DEFAULT_CONFIRM_WITHIN_S;
    if (typeof confirmWithin !== 'number' || !(confirmWithin > 0) || confirmWithin > MAX_CONFIRM_WITHIN_S)
      return reject([
        {
          node: '',
          field: 'confirmWithin',
          message: `confirmWithin must be 0-${MAX_CONFIRM_WITHIN_S} seconds`,
        },
      ]);
    const errors = checkConfig(m.config, ports);
    if (errors.length > 0) return reject(errors);
    this.pending = {
      config: { version, hash, config: m.config as GatewayConfig },
      deadline: now + confirmWithin * 1000,
    };
    return { answer: { version, hash, result: 'applied' }, changed: true };
  }

  /** A `down/config/commit` message: true when it committed the pending configuration. */
  commit(message: unknown): boolean {
    const m = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
    const pending = this.pending?.config;
    if (!pending || typeof m.hash !== 'string' || !sameHash(m.hash, pending.hash)) return false;
    if (m.version !== undefined && m.version !== pending.version) return false;
    this.committed = pending;
    this.pending = null;
    return true;
  }

  /** Rolls back when the deadline has passed; true when it did. */
  expire(now: number): boolean {
    if (!this.pending || now < this.pending.deadline) return false;
    this.rollBack();
    return true;
  }

  /** The power went and came back: an uncommitted configuration is gone. True when it rolled back. */
  powerCycle(): boolean {
    if (!this.pending) return false;
    this.rollBack();
    return true;
  }

  private rollBack(): void {
    const lost = this.pending!.config;
    this.pending = null;
    this.reports.push({
      version: lost.version,
      hash: lost.hash,
      result: 'rolledBack',
      ...(this.committed ? { runningVersion: this.committed.version } : {}),
    });
  }
}
