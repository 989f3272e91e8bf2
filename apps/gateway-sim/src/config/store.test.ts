import { describe, expect, it } from 'vitest';
import { defaultPorts, pollingConfig } from '../layouts';
import { ConfigStore } from './store';

const PORTS = [1, 2];
const made = (version: number, intervalS = 10) => pollingConfig(defaultPorts(), { intervalS, version });
const push = (version: number, confirmWithin?: number, intervalS?: number) => ({
  ...made(version, intervalS),
  ...(confirmWithin === undefined ? {} : { confirmWithin }),
});

describe('configuration store: apply, commit, roll back', () => {
  it('applies, runs the new one at once, and keeps it on commit', () => {
    const store = new ConfigStore();
    const v1 = push(1, 30);
    const { answer, changed } = store.receive(v1, PORTS, 1_000);
    expect(answer).toEqual({ version: 1, hash: v1.hash, result: 'applied' });
    expect(changed).toBe(true);
    expect(store.running?.version).toBe(1);
    expect(store.committed).toBeNull();
    expect(store.pending?.deadline).toBe(31_000);
    expect(store.commit({ version: 1, hash: v1.hash.toUpperCase() })).toBe(true);
    expect(store.committed?.version).toBe(1);
    expect(store.pending).toBeNull();
    expect(store.expire(1e12)).toBe(false);
    expect(store.powerCycle()).toBe(false);
  });

  it('waits 60 s for the commit when confirmWithin is not given', () => {
    const store = new ConfigStore();
    store.receive(push(1), PORTS, 0);
    expect(store.pending?.deadline).toBe(60_000);
  });

  it('rolls back at the deadline (not before) to the committed one, and owes a report', () => {
    const v1 = made(1);
    const store = new ConfigStore(v1);
    const v2 = push(2, 5, 20);
    store.receive(v2, PORTS, 0);
    expect(store.expire(4_999)).toBe(false);
    expect(store.expire(5_000)).toBe(true);
    expect(store.running).toBe(v1);
    expect(store.reports).toEqual([{ version: 2, hash: v2.hash, result: 'rolledBack', runningVersion: 1 }]);
    // the commit of the lost one is ignored
    expect(store.commit({ version: 2, hash: v2.hash })).toBe(false);
  });

  it('a newer push replaces a pending one; a rollback goes to the committed one', () => {
    const v1 = made(1);
    const store = new ConfigStore(v1);
    store.receive(push(2, 10, 20), PORTS, 0);
    const v3 = push(3, 10, 30);
    store.receive(v3, PORTS, 1);
    expect(store.running?.version).toBe(3);
    expect(store.commit({ version: 2, hash: made(2, 20).hash })).toBe(false);
    store.powerCycle();
    expect(store.running).toBe(v1);
    expect(store.reports).toEqual([{ version: 3, hash: v3.hash, result: 'rolledBack', runningVersion: 1 }]);
  });

  it('answers unchanged for the hash it runs, applied again for a pending one delivered twice', () => {
    const v1 = made(1);
    const store = new ConfigStore(v1);
    expect(store.receive({ ...v1, hash: v1.hash.toUpperCase() }, PORTS, 0)).toEqual({
      answer: { version: 1, hash: v1.hash.toUpperCase(), result: 'unchanged' },
      changed: false,
    });
    const v2 = push(2, 10, 20);
    expect(store.receive(v2, PORTS, 0).changed).toBe(true);
    expect(store.receive(v2, PORTS, 1)).toEqual({
      answer: { version: 2, hash: v2.hash, result: 'applied' },
      changed: false,
    });
    expect(store.pending?.deadline).toBe(10_000);
  });

  it('rejects bad pushes naming the field, and changes nothing', () => {
    const store = new ConfigStore();
    const errors = (m: unknown) =>
      store.receive(m, PORTS, 0).answer.errors?.map((e) => `${e.node}.${e.field}`);
    expect(errors({ hash: 'ab'.repeat(32), config: made(1).config })).toEqual(['.version']);
    expect(errors({ version: 1.5, hash: 'ab'.repeat(32) })).toEqual(['.version']);
    expect(errors({ version: 1, hash: 'not hex' })).toEqual(['.hash']);
    expect(errors({ ...push(1), confirmWithin: 0 })).toEqual(['.confirmWithin']);
    expect(errors({ ...push(1), confirmWithin: '60' })).toEqual(['.confirmWithin']);
    expect(
      errors({ version: 1, hash: 'ab'.repeat(32), config: { nodes: [], links: [{ from: 'a', to: 'b' }] } }),
    ).toEqual(['a.links']);
    expect(errors(null)).toEqual(['.version']);
    expect(store.running).toBeNull();
    expect(store.receive(push(1), PORTS, 0, 'simulated').answer).toMatchObject({
      result: 'rejected',
      errors: [{ node: '', field: 'config', message: 'simulated' }],
    });
  });
});
