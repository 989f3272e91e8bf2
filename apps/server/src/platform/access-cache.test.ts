/**
 * The access cache against a real database and access watch: an answer is kept until the access
 * epoch moves (bumped by the database in the transaction that changes a grant) or its time is
 * up; an answer read while the epoch moved is not kept.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/helper';
import { AccessCache } from './access-cache';
import { AccessWatch } from './access-watch';

let t: TestApp;
let watch: AccessWatch;
const bump = () => t.db.execute(sql`UPDATE access_epoch SET epoch = epoch + 1`);

beforeAll(async () => {
  t = await buildTestApp();
  // polled only when a test says so (a long interval)
  watch = new AccessWatch(t.db, t.app.log, 3_600_000);
});
afterAll(async () => {
  watch.close();
  await t?.close();
});

describe('an access cache', () => {
  it('keeps an answer until the epoch moves, then reads it again', async () => {
    const cache = new AccessCache<number>(watch, 60_000);
    let reads = 0;
    const load = async () => ++reads;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('other', load)).toBe(2);
    await watch.poll();
    expect(await cache.get('k', load)).toBe(1);
    await bump();
    // not yet seen by this node
    expect(await cache.get('k', load)).toBe(1);
    await watch.poll();
    expect(await cache.get('k', load)).toBe(3);
    expect(await cache.get('other', load)).toBe(4);
    cache.forget('k');
    expect(await cache.get('k', load)).toBe(5);
  });

  it('reads again once the time is up, and keeps no more than its bound', async () => {
    const short = new AccessCache<number>(watch, 30);
    let reads = 0;
    const load = async () => ++reads;
    expect(await short.get('k', load)).toBe(1);
    await new Promise((r) => setTimeout(r, 60));
    expect(await short.get('k', load)).toBe(2);
    const small = new AccessCache<number>(watch, 60_000, 3);
    for (const key of ['a', 'b', 'c', 'd']) await small.get(key, load);
    expect(small.size).toBeLessThanOrEqual(3);
  });

  it('does not keep an answer read while the epoch moved', async () => {
    const cache = new AccessCache<string>(watch, 60_000);
    await cache.get('warm', async () => 'x');
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const slow = cache.get('k', async () => {
      await gate;
      return 'read before the change';
    });
    await bump();
    await watch.poll();
    release();
    expect(await slow).toBe('read before the change');
    expect(await cache.get('k', async () => 'read after')).toBe('read after');
  });
});
