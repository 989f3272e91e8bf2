/**
 * Tells long-lived connections (live record sockets, MQTT clients) that access may have
 * changed, so they re-check what they were granted when they connected.
 *
 * Database triggers bump `access_epoch` in the same transaction as any change to tokens,
 * users, memberships, roles, groups, data permissions, companies or submission keys
 * (platform/access-tables.ts). Every node polls that one row while anything listens, so a
 * revocation made on any node reaches every node's connections within one poll interval plus
 * the time their re-checks take. Polling one row costs a node one tiny query per interval
 * however many connections it holds, and needs nothing beyond the database both
 * deployments already share.
 */
import type { FastifyBaseLogger } from 'fastify';
import { accessEpoch } from './access-tables';
import type { Db } from './db';

export type AccessListener = () => void | Promise<void>;

export const ACCESS_POLL_MS = 400;

export class AccessWatch {
  readonly #listeners = new Set<AccessListener>();
  #epoch: number | null = null;
  #timer: NodeJS.Timeout | null = null;
  #polling: Promise<void> | null = null;
  #baseline: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = ACCESS_POLL_MS,
  ) {}

  /**
   * Calls `listener` after every change of access seen from now on; returns the unsubscribe.
   * The database is polled only while at least one listener is registered. A connection
   * registers first, awaits `ready()`, then checks its grants: a change made after that check
   * is then always seen as a change.
   */
  onChange(listener: AccessListener): () => void {
    this.#listeners.add(listener);
    if (!this.#timer && !this.#closed) {
      this.#baseline = this.poll();
      this.#timer = setInterval(() => void this.poll(), this.intervalMs);
      this.#timer.unref();
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#stop();
    };
  }

  /** Resolves once the epoch that later changes are measured against has been read. */
  ready(): Promise<void> {
    return this.#baseline;
  }

  /** Reads the epoch now and, when it moved, runs every listener (resolves when they are done). */
  poll(): Promise<void> {
    // one poll at a time: a slow re-check must not pile polls up behind it
    this.#polling ??= this.#pollOnce().finally(() => {
      this.#polling = null;
    });
    return this.#polling;
  }

  async #pollOnce(): Promise<void> {
    let epoch: number;
    try {
      const [row] = await this.db.select({ epoch: accessEpoch.epoch }).from(accessEpoch);
      epoch = Number(row?.epoch ?? 0);
    } catch (error) {
      if (!this.#closed) this.log.warn({ err: error }, 'could not read the access epoch');
      return;
    }
    const previous = this.#epoch;
    this.#epoch = epoch;
    if (previous === null || previous === epoch) return;
    await Promise.all(
      [...this.#listeners].map(async (listener) => {
        try {
          await listener();
        } catch (error) {
          this.log.error({ err: error }, 'an access re-check failed');
        }
      }),
    );
  }

  #stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    // the next listener takes a fresh baseline: changes while nobody listened concern nobody
    this.#epoch = null;
  }

  close(): void {
    this.#closed = true;
    this.#listeners.clear();
    this.#stop();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** re-check long-lived connections when grants change (see platform/access-watch.ts) */
    accessWatch: AccessWatch;
  }
}
