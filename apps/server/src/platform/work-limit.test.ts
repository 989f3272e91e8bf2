import { describe, expect, it } from 'vitest';
import { WorkLimit } from './work-limit';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('WorkLimit', () => {
  it('runs at most `running` jobs, lets `waiting` more wait in order, and refuses the rest at once', async () => {
    const limit = new WorkLimit(2, 2, () => new Error('busy'));
    const gates = Array.from({ length: 4 }, gate);
    const order: number[] = [];
    const jobs = gates.map((g, i) =>
      limit.run(async () => {
        order.push(i);
        await g.opened;
        return i;
      }),
    );
    await expect(limit.run(async () => 99)).rejects.toThrow('busy');
    expect(limit.stats).toEqual({ active: 2, queued: 2, peak: 2 });
    expect(order).toEqual([0, 1]);
    gates[1]!.open();
    await jobs[1];
    await Promise.resolve();
    expect(order).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3]);
    expect(order).toEqual([0, 1, 2, 3]);
    expect(limit.stats).toEqual({ active: 0, queued: 0, peak: 2 });
  });

  it('frees the slot of a job that fails', async () => {
    const limit = new WorkLimit(1, 0, () => new Error('busy'));
    await expect(limit.run(() => Promise.reject(new Error('bad image')))).rejects.toThrow('bad image');
    expect(await limit.run(async () => 'next')).toBe('next');
    expect(limit.stats.active).toBe(0);
  });
});
