import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight';

function deferred<V>() {
  let resolve!: (v: V) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<V>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('InFlight', () => {
  it('shares one fetch between concurrent calls of a key, not between keys', async () => {
    const flights = new InFlight<number>();
    const calls: string[] = [];
    const gate = deferred<number>();
    const fetch = (key: string) => () => {
      calls.push(key);
      return key === 'a' ? gate.promise : Promise.resolve(2);
    };
    const first = flights.run('a', fetch('a'));
    const second = flights.run('a', fetch('a'));
    const other = flights.run('b', fetch('b'));
    expect(calls).toEqual(['a', 'b']);
    gate.resolve(1);
    expect(await Promise.all([first, second, other])).toEqual([1, 1, 2]);
  });

  it('keeps nothing once settled: the next call fetches afresh, after a failure too', async () => {
    const flights = new InFlight<number>();
    let n = 0;
    expect(await flights.run('k', async () => ++n)).toBe(1);
    expect(await flights.run('k', async () => ++n)).toBe(2);
    const failing = deferred<number>();
    const a = flights.run('k', () => failing.promise);
    const b = flights.run('k', async () => 99);
    failing.reject(new Error('down'));
    await expect(a).rejects.toThrow('down');
    await expect(b).rejects.toThrow('down');
    expect(flights.size).toBe(0);
    expect(await flights.run('k', async () => ++n)).toBe(3);
  });
});
