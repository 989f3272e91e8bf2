/**
 * Answers about who may do what (a parser saver's write permission on items, the company a
 * gateway is bound to), kept until access changes on any node or `ttlMs` passes, whichever
 * comes first. Every change such an answer depends on bumps the access epoch in its own
 * transaction (platform/access-tables.ts, migrations 0004, 0009, 0031), and the access watch
 * tells this node within one poll (ACCESS_POLL_MS): the same bound on a revocation as the
 * live sockets and MQTT connections have, instead of a database read for every gateway
 * message. `ttlMs` bounds what a node whose epoch reads fail (the database away) keeps serving.
 *
 * An answer loaded while the epoch moves is handed to its caller but not kept: it may have been
 * read before the change.
 */
import type { AccessWatch } from './access-watch';

export class AccessCache<V> {
  readonly #entries = new Map<string, { value: V; generation: number; at: number }>();
  #generation = 0;
  #watching: Promise<void> | null = null;

  constructor(
    private readonly watch: AccessWatch,
    private readonly ttlMs: number,
    private readonly max = 50_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    this.#watching ??= this.#start();
    await this.#watching;
    const hit = this.#entries.get(key);
    if (hit && hit.generation === this.#generation && Date.now() - hit.at < this.ttlMs) return hit.value;
    const generation = this.#generation;
    const at = Date.now();
    const value = await load();
    if (generation === this.#generation) {
      // bounded: keys come from gateways' messages
      if (this.#entries.size >= this.max) this.#entries.clear();
      this.#entries.set(key, { value, generation, at });
    }
    return value;
  }

  /** Forgets one answer at once (this node changed what it depends on). */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  get size(): number {
    return this.#entries.size;
  }

  #start(): Promise<void> {
    this.watch.onChange(() => {
      this.#generation += 1;
      this.#entries.clear();
    });
    // changes are measured from the epoch read now: nothing is kept before it is known
    return this.watch.ready();
  }
}
