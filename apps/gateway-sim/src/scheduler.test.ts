import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Scheduler } from './scheduler';
import { ManualTimers } from './testing/manual-timers';

describe('scheduler', () => {
  it('runs a repeating task on its grid and passes the time it was due', () => {
    const clock = new ManualTimers();
    const scheduler = new Scheduler(clock);
    const start = clock.time;
    const runs: number[] = [];
    scheduler.every(1_000, (due) => runs.push(due - start));
    clock.advance(3_500);
    expect(runs).toEqual([1_000, 2_000, 3_000]);
  });

  it('skips runs missed while the process was busy instead of bunching them', () => {
    const clock = new ManualTimers();
    const scheduler = new Scheduler(clock);
    const start = clock.time;
    const runs: number[] = [];
    scheduler.every(1_000, (due) => {
      runs.push(due - start);
      // the first run takes 3.5 periods
      if (runs.length === 1) clock.time += 3_500;
    });
    clock.advance(6_000);
    // 1000 ran until 4500; 2000, 3000 and 4000 were missed; back on the grid at 5000
    expect(runs).toEqual([1_000, 5_000, 6_000]);
  });

  it('holds one timer whatever the number of tasks', () => {
    const clock = new ManualTimers();
    const scheduler = new Scheduler(clock);
    let count = 0;
    for (let i = 0; i < 10_000; i++) scheduler.every(10_000, () => count++, (i * 7) % 10_000);
    expect(clock.pending).toBe(1);
    clock.advance(10_000);
    // every task ran once in the first period (the one due at 0 twice: at 0 and 10,000)
    expect(count).toBe(10_001);
    expect(clock.pending).toBe(1);
    expect(scheduler.size).toBe(10_000);
  });

  it('gives the event loop a turn when the due tasks take longer than a slice', () => {
    const clock = new ManualTimers();
    const scheduler = new Scheduler(clock);
    const ran: number[] = [];
    for (let i = 0; i < 10; i++)
      scheduler.after(0, () => {
        ran.push(i);
        clock.time += 3; // each task costs 3 ms
      });
    const armedBefore = clock.armed;
    clock.advance(100);
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // 10 tasks of 3 ms in slices of 8 ms: at least three turns of the event loop
    expect(clock.armed - armedBefore).toBeGreaterThanOrEqual(3);
  });

  it('never runs a cancelled task, and a one-shot task once', () => {
    const clock = new ManualTimers();
    const scheduler = new Scheduler(clock);
    let a = 0;
    let b = 0;
    const task = scheduler.every(100, () => a++);
    scheduler.after(150, () => b++);
    clock.advance(120);
    task.cancel();
    clock.advance(1_000);
    expect(a).toBe(1);
    expect(b).toBe(1);
    expect(scheduler.size).toBe(0);
    expect(clock.pending).toBe(0);
  });

  it('keeps running the others when a task throws', () => {
    const clock = new ManualTimers();
    const scheduler = new Scheduler(clock);
    const errors: unknown[] = [];
    scheduler.onError = (e) => errors.push(e);
    let ok = 0;
    scheduler.every(100, () => {
      throw new Error('boom');
    });
    scheduler.every(100, () => ok++);
    clock.advance(300);
    expect(ok).toBe(3);
    expect(errors).toHaveLength(3);
    expect(scheduler.errors).toBe(3);
  });

  it('runs nothing after stop', () => {
    const clock = new ManualTimers();
    const scheduler = new Scheduler(clock);
    let count = 0;
    scheduler.every(100, () => count++);
    scheduler.stop();
    scheduler.after(10, () => count++);
    clock.advance(1_000);
    expect(count).toBe(0);
  });

  it('sleep resolves on the clock and rejects when aborted', async () => {
    const clock = new ManualTimers();
    const scheduler = new Scheduler(clock);
    let done = false;
    const sleeping = scheduler.sleep(500).then(() => {
      done = true;
    });
    clock.advance(499);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    await sleeping;
    expect(done).toBe(true);
    const controller = new AbortController();
    const aborted = scheduler.sleep(500, controller.signal);
    controller.abort(new Error('power lost'));
    await expect(aborted).rejects.toThrow('power lost');
    expect(scheduler.size).toBe(0);
  });

  it('runs any mix of tasks in order of due time, each repeating one on its grid', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            delay: fc.integer({ min: 0, max: 5_000 }),
            period: fc.option(fc.integer({ min: 1, max: 2_000 }), { nil: null }),
            cancelAt: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
          }),
          { maxLength: 40 },
        ),
        (specs) => {
          const clock = new ManualTimers();
          const scheduler = new Scheduler(clock);
          const start = clock.time;
          const log: Array<{ i: number; due: number; at: number }> = [];
          specs.forEach((spec, i) => {
            const fn = (due: number) => log.push({ i, due, at: clock.time });
            const task =
              spec.period === null
                ? scheduler.after(spec.delay, fn)
                : scheduler.every(spec.period, fn, spec.delay);
            if (spec.cancelAt !== null) scheduler.at(start + spec.cancelAt, () => task.cancel());
          });
          clock.advance(10_000);
          // never early, and in order of due time
          for (let k = 0; k < log.length; k++) {
            expect(log[k]!.at).toBeGreaterThanOrEqual(log[k]!.due);
            if (k > 0) expect(log[k]!.due).toBeGreaterThanOrEqual(log[k - 1]!.due);
          }
          specs.forEach((spec, i) => {
            const dues = log.filter((e) => e.i === i).map((e) => e.due - start);
            const expected: number[] = [];
            const { delay, period, cancelAt } = spec;
            if (period === null) {
              // due at the very moment of its cancellation: runs, being older than the cancelling task
              if (cancelAt === null || delay <= cancelAt) expected.push(delay);
            } else {
              for (let t = delay; cancelAt === null ? t <= 10_000 : t < cancelAt; t += period)
                expected.push(t);
              // a repeating task is renewed at each run, so only its first run is older than the cancel
              if (cancelAt !== null && delay === cancelAt) expected.push(delay);
            }
            expect(dues).toEqual(expected);
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});
