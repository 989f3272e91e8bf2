import type { AnalysisAssignment } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { dataItems } from '../dataitems/tables';
import { dataRecords } from '../records/tables';
import { makeRecords } from '../records/test-support';
import { makeJob } from './route-cases';
import { createScheduler, latestFire, type Scheduler } from './scheduler';
import { analysisJobs, analysisRuns } from './tables';

let t: TestApp;
let a: TestCompany;
let scheduler: Scheduler;
let src: number;

/** 12:00 in Shanghai; "today" there began at 2026-03-09T16:00Z */
const NOW = new Date('2026-03-10T04:00:00Z');
const HOUR = 3_600_000;

const todays = [1.5, 2.25, 10, 0.5];

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Sched');
  scheduler = createScheduler(t.app);
  src = (await makeItem(t, a.id, { fields: SAMPLE_FIELDS })).itemId;
  await makeRecords(t, a.id, src, [
    // yesterday in Shanghai: not part of today's total
    { ts: '2026-03-09T15:59:59Z', values: { f1: 100 } },
    { ts: '2026-03-09T16:00:00Z', values: { f1: todays[0]! } },
    { ts: '2026-03-09T23:30:00Z', values: { f1: todays[1]! } },
    { ts: '2026-03-10T02:10:00Z', values: { f1: todays[2]! } },
    { ts: '2026-03-10T03:59:00Z', values: { f1: todays[3]!, f3: 'text is no number' } },
  ]);
});
afterAll(async () => {
  await scheduler.stop();
  await t.close();
});

const totalToday: AnalysisAssignment = {
  field: 'f1',
  mode: 'ref',
  sources: [{ itemId: 0, field: 'f1' }],
  method: 'totalToday',
};

async function target() {
  return (await makeItem(t, a.id, { fields: SAMPLE_FIELDS })).itemId;
}

async function hourlyJob(itemId: number, nextRunAt: Date, extra: AnalysisAssignment[] = []) {
  return makeJob(t, a.id, itemId, {
    cron: '0 0 * * * ?',
    nextRunAt,
    assignments: [{ ...totalToday, sources: [{ itemId: src, field: 'f1' }] } as AnalysisAssignment, ...extra],
  });
}

const runsOf = (jobId: number) => t.db.select().from(analysisRuns).where(eq(analysisRuns.jobId, jobId));
const recordsOf = (itemId: number) => t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId));
const jobRow = async (jobId: number) =>
  (await t.db.select().from(analysisJobs).where(eq(analysisJobs.id, jobId)))[0]!;

describe('scheduler tick', () => {
  it('runs a due fire once even when two ticks race, and advances to the next fire', async () => {
    const dst = await target();
    const jobId = await hourlyJob(dst, NOW, [{ field: 'f3', mode: 'custom', value: 'hourly' }]);
    const claimed = await Promise.all([scheduler.tick(NOW), scheduler.tick(NOW), scheduler.tick(NOW)]);
    expect(claimed.reduce((x, y) => x + y, 0)).toBe(1);

    const runs = await runsOf(jobId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ fireTime: NOW, status: 'ok', message: null });
    const records = await recordsOf(dst);
    expect(records).toHaveLength(1);
    expect(records[0]!.id).toBe(runs[0]!.recordId);
    expect(records[0]!.source).toBe('analysis');
    expect(records[0]!.ts).toEqual(NOW);
    expect(records[0]!.values.f1).toBeCloseTo(
      todays.reduce((x, y) => x + y, 0),
      9,
    );
    expect(records[0]!.values.f3).toBe('hourly');

    const job = await jobRow(jobId);
    expect(job.nextRunAt).toEqual(new Date(NOW.getTime() + HOUR));
    expect(job.lastRunAt).toEqual(NOW);
    // the same moment again, and just before the next fire: nothing more
    expect(await scheduler.tick(NOW)).toBe(0);
    expect(await scheduler.tick(new Date(NOW.getTime() + HOUR - 1))).toBe(0);
    expect(await runsOf(jobId)).toHaveLength(1);
    // the next fire comes
    expect(await scheduler.tick(new Date(NOW.getTime() + HOUR + 200))).toBe(1);
    expect((await runsOf(jobId)).map((r) => r.fireTime.toISOString()).sort()).toEqual([
      NOW.toISOString(),
      new Date(NOW.getTime() + HOUR).toISOString(),
    ]);
    await t.db.delete(analysisJobs).where(eq(analysisJobs.id, jobId));
  });

  it('after downtime runs only the latest missed fire', async () => {
    const dst = await target();
    const jobId = await hourlyJob(dst, new Date(NOW.getTime() - 10 * HOUR));
    const late = new Date(NOW.getTime() + 30 * 60_000);
    expect(await scheduler.tick(late)).toBe(1);
    const runs = await runsOf(jobId);
    expect(runs.map((r) => r.fireTime)).toEqual([NOW]);
    expect((await jobRow(jobId)).nextRunAt).toEqual(new Date(NOW.getTime() + HOUR));
    expect(await recordsOf(dst)).toHaveLength(1);
    await t.db.delete(analysisJobs).where(eq(analysisJobs.id, jobId));
  });

  it('runs a single execution once, late if need be, then disables it; skips disabled jobs', async () => {
    const dst = await target();
    const runAt = new Date(NOW.getTime() - 90_000);
    const single = await makeJob(t, a.id, dst, { cron: null, runAt, nextRunAt: runAt });
    const off = await hourlyJob(dst, NOW);
    await t.db.update(analysisJobs).set({ enabled: false }).where(eq(analysisJobs.id, off));
    expect(await scheduler.tick(NOW)).toBe(1);
    expect((await runsOf(single)).map((r) => [r.fireTime, r.status])).toEqual([[runAt, 'ok']]);
    expect(await jobRow(single)).toMatchObject({ enabled: false, nextRunAt: null, lastRunAt: runAt });
    expect(await scheduler.tick(new Date(NOW.getTime() + 10 * HOUR))).toBe(0);
    expect(await runsOf(off)).toEqual([]);
    const records = await recordsOf(dst);
    expect(records.map((r) => r.values)).toEqual([{ f2: 7 }]);
    await t.db.delete(analysisJobs).where(eq(analysisJobs.itemId, dst));
  });

  it('logs a failed run with its reason and still advances', async () => {
    const dst = await target();
    const gone = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const missingSource = await makeJob(t, a.id, dst, {
      nextRunAt: NOW,
      assignments: [{ ...totalToday, sources: [{ itemId: gone.itemId, field: 'f1' }] } as AnalysisAssignment],
    });
    await t.db.delete(dataItems).where(eq(dataItems.id, gone.itemId));
    // the target field was removed from the item after the job was saved
    const shrunk = await target();
    const missingTarget = await hourlyJob(shrunk, NOW, [{ field: 'f2', mode: 'custom', value: 3 }]);
    await t.db
      .update(dataItems)
      .set({ fields: SAMPLE_FIELDS.filter((f) => f.key !== 'f2') })
      .where(eq(dataItems.id, shrunk));

    expect(await scheduler.tick(NOW)).toBe(2);
    const [first] = await runsOf(missingSource);
    expect(first).toMatchObject({ status: 'failed', recordId: null });
    expect(first!.message).toContain(`source data item ${gone.itemId}`);
    expect(first!.finishedAt).toBeInstanceOf(Date);
    const [second] = await runsOf(missingTarget);
    expect(second).toMatchObject({ status: 'failed', recordId: null });
    expect(second!.message).toMatch(/f2/);
    expect(await recordsOf(dst)).toEqual([]);
    expect(await recordsOf(shrunk)).toEqual([]);
    expect((await jobRow(missingSource)).nextRunAt).toEqual(new Date(NOW.getTime() + HOUR));
    await t.db.delete(analysisJobs).where(eq(analysisJobs.itemId, dst));
    await t.db.delete(analysisJobs).where(eq(analysisJobs.itemId, shrunk));
  });

  it('runs by itself once started', async () => {
    const dst = await target();
    const due = new Date(Date.now() - 1000);
    const jobId = await makeJob(t, a.id, dst, { cron: null, runAt: due, nextRunAt: due });
    const loop = createScheduler(t.app, { intervalMs: 20 });
    loop.start();
    try {
      for (let i = 0; i < 200 && (await runsOf(jobId)).every((r) => r.status !== 'ok'); i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    } finally {
      await loop.stop();
    }
    expect((await runsOf(jobId)).map((r) => r.status)).toEqual(['ok']);
  });
});

describe('latestFire', () => {
  it('finds the last fire in [from, now] or none', () => {
    const from = new Date('2026-03-01T00:00:00Z');
    expect(latestFire('0 0 * * * ?', from, new Date('2026-03-10T04:30:00Z'))).toEqual(
      new Date('2026-03-10T04:00:00Z'),
    );
    expect(latestFire('* * * * * ?', from, new Date('2026-03-10T04:30:00.500Z'))).toEqual(
      new Date('2026-03-10T04:30:00Z'),
    );
    // 08:30 Shanghai daily
    expect(latestFire('0 30 8 * * ?', from, new Date('2026-03-10T00:00:00Z'))).toEqual(
      new Date('2026-03-09T00:30:00Z'),
    );
    expect(
      latestFire('0 0 * * * ?', new Date('2026-03-10T04:10:00Z'), new Date('2026-03-10T04:50:00Z')),
    ).toBe(null);
    // a fire exactly at `from` counts
    expect(latestFire('0 0 * * * ?', NOW, NOW)).toEqual(NOW);
  });
});
