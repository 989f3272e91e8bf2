/**
 * One scheduler for a whole fleet: a binary heap of tasks ordered by due time behind a single
 * timer, instead of a setInterval per gateway and port (10,000 gateways with two ports would
 * otherwise hold 20,000 timers and wake the event loop for each).
 *
 * - Repeating tasks stay on their grid (due, due + period, …): a late run does not push the
 *   next one later, and runs missed while the process was busy are skipped, not bunched.
 * - Due tasks run in slices of a few milliseconds; the rest continue after the event loop has
 *   had a turn (setImmediate), so a fleet sharing the server's process never holds it up long.
 * - A cancelled task is only marked; it is dropped when it reaches the top of the heap.
 */

export interface TimerHost {
  /** milliseconds since 1970 (the clock the slave models and the frames' `ts` use) */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** runs `fn` after pending I/O; defaults to setTimeout(fn, 0) */
  setImmediate?(fn: () => void): unknown;
}

export const realTimers: TimerHost = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    // the fleet's sockets keep a process alive, never its timer
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  setImmediate: (fn) => setImmediate(fn),
};

export interface Task {
  /** when it runs next (ms since 1970) */
  readonly due: number;
  readonly period: number | null;
  readonly cancelled: boolean;
  cancel(): void;
}

class Entry implements Task {
  cancelled = false;
  constructor(
    public due: number,
    public readonly period: number | null,
    public readonly run: (due: number) => void,
    /** insertion order, so tasks due at the same time run in the order they were added */
    public seq: number,
    private readonly owner: Scheduler,
  ) {}
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.owner.dropped();
  }
}

/** The longest a slice of due tasks runs before the event loop gets a turn. */
const SLICE_MS = 8;

export class Scheduler {
  private heap: Entry[] = [];
  private seq = 0;
  private timer: unknown = null;
  private armedFor = Number.POSITIVE_INFINITY;
  private running = false;
  /** a slice ended with tasks still due: the rest run after the event loop's turn */
  private resumePending = false;
  private stopped = false;
  private cancelledCount = 0;
  /** task errors: counted and reported, never allowed to stop the other tasks */
  errors = 0;
  onError: (error: unknown) => void = () => {};

  constructor(readonly timers: TimerHost = realTimers) {}

  now(): number {
    return this.timers.now();
  }

  /** Tasks waiting (cancelled ones not counted). */
  get size(): number {
    return this.heap.length - this.cancelledCount;
  }

  /** Runs `fn` once after `ms` milliseconds. */
  after(ms: number, fn: (due: number) => void): Task {
    return this.add(this.now() + Math.max(0, ms), null, fn);
  }

  /** Runs `fn` once at `time` (ms since 1970), at once if it has passed. */
  at(time: number, fn: (due: number) => void): Task {
    return this.add(time, null, fn);
  }

  /**
   * Runs `fn` every `periodMs`, first after `firstInMs` (default: one period). `fn` gets the
   * time the run was due, so what it reads is stamped on the grid whatever the lateness.
   */
  every(periodMs: number, fn: (due: number) => void, firstInMs = periodMs): Task {
    if (!(periodMs > 0)) throw new RangeError(`period must be positive, got ${periodMs}`);
    return this.add(this.now() + Math.max(0, firstInMs), periodMs, fn);
  }

  /** Cancels everything; nothing runs after this. */
  stop(): void {
    this.stopped = true;
    for (const entry of this.heap) entry.cancelled = true;
    this.heap = [];
    this.cancelledCount = 0;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
  }

  /** @internal a task was cancelled: compact the heap when mostly dead */
  dropped(): void {
    this.cancelledCount += 1;
    if (this.cancelledCount > 64 && this.cancelledCount > this.heap.length / 2) {
      this.heap = this.heap.filter((e) => !e.cancelled);
      this.cancelledCount = 0;
      // re-heapify
      for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.down(i);
    }
  }

  private add(due: number, period: number | null, run: (due: number) => void): Task {
    const entry = new Entry(due, period, run, this.seq++, this);
    if (this.stopped) {
      entry.cancelled = true;
      return entry;
    }
    this.push(entry);
    if (!this.running) this.arm();
    return entry;
  }

  private arm(): void {
    if (this.resumePending) return;
    // drop cancelled tasks from the top so the timer is armed for a live one
    while (this.heap.length > 0 && this.heap[0]!.cancelled) {
      this.pop();
      this.cancelledCount -= 1;
    }
    const next = this.heap[0];
    if (!next) {
      if (this.timer !== null) this.timers.clearTimeout(this.timer);
      this.timer = null;
      this.armedFor = Number.POSITIVE_INFINITY;
      return;
    }
    if (this.timer !== null && this.armedFor <= next.due) return;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.armedFor = next.due;
    this.timer = this.timers.setTimeout(() => this.tick(), Math.max(0, next.due - this.now()));
  }

  private tick(): void {
    this.timer = null;
    this.armedFor = Number.POSITIVE_INFINITY;
    if (this.stopped) return;
    this.running = true;
    const started = this.now();
    let now = started;
    try {
      while (this.heap.length > 0) {
        const top = this.heap[0]!;
        if (top.cancelled) {
          this.pop();
          this.cancelledCount -= 1;
          continue;
        }
        if (top.due > now) break;
        if (now - started >= SLICE_MS) {
          // more is due: let I/O through first, then carry on
          this.resumePending = true;
          const resume = () => {
            this.resumePending = false;
            this.tick();
          };
          if (this.timers.setImmediate) this.timers.setImmediate(resume);
          else this.timers.setTimeout(resume, 0);
          return;
        }
        const due = top.due;
        this.pop();
        if (top.period === null) top.cancelled = true;
        try {
          top.run(due);
        } catch (error) {
          this.errors += 1;
          this.onError(error);
        }
        now = this.now();
        if (top.period !== null) {
          if (top.cancelled) {
            // cancelled while it ran: it is no longer in the heap
            this.cancelledCount -= 1;
          } else {
            // the next slot on the grid after the run: missed slots are skipped, never bunched
            top.due = due + top.period * (Math.floor((now - due) / top.period) + 1);
            top.seq = this.seq++;
            this.push(top);
          }
        }
        now = this.now();
      }
    } finally {
      this.running = false;
    }
    if (!this.stopped) this.arm();
  }

  // binary heap by (due, seq)

  private less(a: Entry, b: Entry): boolean {
    return a.due < b.due || (a.due === b.due && a.seq < b.seq);
  }

  private push(entry: Entry): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private pop(): Entry | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      this.down(0);
    }
    return top;
  }

  private down(start: number): void {
    const heap = this.heap;
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && this.less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && this.less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }

  /** A promise that resolves after `ms` on this scheduler's clock (device durations). */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const task = this.after(ms, () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
      const onAbort = () => {
        task.cancel();
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
