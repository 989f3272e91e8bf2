/**
 * Failed MQTT CONNECTs per client address on the embedded broker. Each refused CONNECT costs
 * a lookup (and, for a wrong password, a hash): an address that fails more than `limit` times
 * in a minute is not listened to for the rest of that minute: its new connections are closed
 * as they are accepted, before a byte is read. Successful connections are never counted, so a
 * fleet of devices behind one NAT address is held up only by its own failures.
 *
 * Behind a TCP proxy every client has the proxy's address: set the limit to 0 there (off) and
 * limit at the proxy (docs/mqtt-broker.md).
 */

export const THROTTLE_WINDOW_MS = 60_000;
/** addresses remembered at most; past it, expired windows are swept, then the oldest dropped */
export const THROTTLE_MAX_ADDRESSES = 10_000;

interface Window {
  start: number;
  failures: number;
}

export class ConnectThrottle {
  readonly #windows = new Map<string, Window>();

  constructor(
    /** failures per address per window before it is shut out; 0 = no limit */
    private readonly limit: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether connections from `address` are refused now. */
  blocked(address: string | undefined): boolean {
    if (this.limit <= 0 || !address) return false;
    const window = this.#windows.get(address);
    if (!window) return false;
    if (this.now() - window.start >= THROTTLE_WINDOW_MS) {
      this.#windows.delete(address);
      return false;
    }
    return window.failures >= this.limit;
  }

  /** Counts a refused CONNECT from `address`. */
  failed(address: string | undefined): void {
    if (this.limit <= 0 || !address) return;
    const now = this.now();
    const window = this.#windows.get(address);
    if (window && now - window.start < THROTTLE_WINDOW_MS) {
      window.failures += 1;
      return;
    }
    if (!window && this.#windows.size >= THROTTLE_MAX_ADDRESSES) this.#sweep(now);
    this.#windows.set(address, { start: now, failures: 1 });
  }

  /** addresses being counted (tests, and the bound on memory) */
  get size(): number {
    return this.#windows.size;
  }

  #sweep(now: number): void {
    for (const [address, window] of this.#windows) {
      if (now - window.start >= THROTTLE_WINDOW_MS) this.#windows.delete(address);
    }
    // still full: forget the oldest (a Map iterates in insertion order)
    while (this.#windows.size >= THROTTLE_MAX_ADDRESSES) {
      const oldest = this.#windows.keys().next().value;
      if (oldest === undefined) break;
      this.#windows.delete(oldest);
    }
  }
}
