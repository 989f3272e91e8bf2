import type { TimerHost } from '../scheduler';

/** A clock that moves only when told, with the timers it holds fired in order of time. */
export class ManualTimers implements TimerHost {
  time = 1_000_000;
  private timers: Array<{ at: number; fn: () => void; id: number }> = [];
  private id = 0;
  /** timers armed so far (each slice of the scheduler arms one) */
  armed = 0;
  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => {
    this.armed += 1;
    const entry = { at: this.time + ms, fn, id: this.id++ };
    this.timers.push(entry);
    return entry;
  };
  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((t) => t !== handle);
  };
  setImmediate = (fn: () => void) => this.setTimeout(fn, 0);
  /** moves the clock to `time`, firing every timer due on the way */
  advanceTo(time: number): void {
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > time) break;
      this.timers.shift();
      this.time = Math.max(this.time, next.at);
      next.fn();
    }
    this.time = time;
  }
  advance(ms: number): void {
    this.advanceTo(this.time + ms);
  }
  get pending(): number {
    return this.timers.length;
  }
}
