/**
 * Concurrent identical reads share one query: a call whose key is already being fetched gets
 * that fetch's promise; nothing is kept once it settles, so the next call reads afresh. Used on
 * the submission path, where a busy device sends many messages at the same moment and each
 * would otherwise repeat the same key lookup and permission queries.
 *
 * What a caller sees is the state read by a query that started at most one round trip before
 * it arrived — never a cached answer from earlier.
 */
export class InFlight<V> {
  readonly #pending = new Map<string, Promise<V>>();

  run(key: string, fetch: () => Promise<V>): Promise<V> {
    const pending = this.#pending.get(key);
    if (pending) return pending;
    const started = fetch().finally(() => this.#pending.delete(key));
    this.#pending.set(key, started);
    return started;
  }

  /** fetches under way (for tests) */
  get size(): number {
    return this.#pending.size;
  }
}

/** One InFlight per owner (a database handle), created on first use. */
export function inFlightPer<O extends object, V>(): (owner: O) => InFlight<V> {
  const byOwner = new WeakMap<O, InFlight<V>>();
  return (owner) => {
    let flights = byOwner.get(owner);
    if (!flights) {
      flights = new InFlight<V>();
      byOwner.set(owner, flights);
    }
    return flights;
  };
}
