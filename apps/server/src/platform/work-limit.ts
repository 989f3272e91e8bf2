/**
 * At most `running` jobs at once, at most `waiting` more in line, first come first served. A job
 * beyond the line is refused at once (`run` rejects with `busy()`), so a flood of expensive
 * requests gets quick answers instead of piling up work, memory and time-outs behind it.
 */
export class WorkLimit {
  #active = 0;
  #peak = 0;
  readonly #line: Array<() => void> = [];

  constructor(
    readonly running: number,
    readonly waiting: number,
    private readonly busy: () => Error,
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#active >= this.running) {
      if (this.#line.length >= this.waiting) throw this.busy();
      // the slot is handed over by the job that ends (see finally), never raced for
      await new Promise<void>((resolve) => this.#line.push(resolve));
    } else {
      this.#active += 1;
    }
    this.#peak = Math.max(this.#peak, this.#active);
    try {
      return await job();
    } finally {
      const next = this.#line.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }

  /** jobs running now, jobs waiting, and the most ever run at once (for tests and metrics) */
  get stats(): { active: number; queued: number; peak: number } {
    return { active: this.#active, queued: this.#line.length, peak: this.#peak };
  }
}
