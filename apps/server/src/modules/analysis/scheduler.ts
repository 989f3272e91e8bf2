/**
 * The analysis scheduler. Every node runs the same loop (`startScheduler`, one tick a second);
 * a tick picks the enabled jobs whose nextRunAt has come and, for each, claims the fire by
 * inserting its analysis_runs row (job, fire time): the unique constraint lets exactly one
 * tick on one node win, so a fire runs once however many nodes or overlapping ticks there are.
 * The winner advances nextRunAt in the same transaction, then computes the assignments,
 * writes one record into the job's item through the ingest pipeline (source 'analysis', record
 * time = the fire time) and logs ok with the record id, or failed with the reason.
 *
 * Catch-up after downtime: only the latest missed fire runs (a job due every hour that missed
 * ten hours runs once, for the last of them); older missed fires are skipped, not queued,
 * because each fire computes "now"-relative windows and replaying stale ones would write
 * records nobody asked for. A single execution (runAt) runs once, late if need be, and is
 * then disabled.
 */
import {
  type AnalysisAssignment,
  combine,
  DEFAULT_TIME_ZONE,
  type FieldDef,
  messageFor,
  nextFires,
  type RecordValues,
} from '@platform/domain';
import { and, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { companyTimeZone } from '../companies/service';
import { dataItems } from '../dataitems/tables';
import { acquireSql } from './acquire';
import { type JobRow, nextRunFor, type RunView, runView } from './service';
import { analysisJobs, analysisRuns } from './tables';

/** jobs handled per tick; the rest wait for the next tick */
const BATCH = 50;
/** how many fires one nextFires call may list while looking for the latest missed one */
const FIRE_SCAN = 1000;

export interface Scheduler {
  /** one pass at `now`: runs every due job once; resolves with the number of runs this call claimed */
  tick(now?: Date): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export interface SchedulerOptions {
  intervalMs?: number;
  /** one zone for every job (tests); by default each job runs in its company's time zone */
  tz?: string;
}

/** The latest fire of `cron` in [from, now], or null; walks forward from a short look-back first. */
export function latestFire(cron: string, from: Date, now: Date, tz = DEFAULT_TIME_ZONE): Date | null {
  if (from.getTime() > now.getTime()) return null;
  const floor = from.getTime() - 1;
  for (const lookBack of [
    1_000,
    60_000,
    3_600_000,
    86_400_000,
    32 * 86_400_000,
    367 * 86_400_000,
    Infinity,
  ]) {
    const start = Math.max(floor, now.getTime() - lookBack);
    const first = nextFires(cron, start, 1, tz)[0];
    if (first !== undefined && first <= now.getTime()) {
      let latest = first;
      for (;;) {
        const batch = nextFires(cron, latest, FIRE_SCAN, tz);
        const due = batch.filter((f) => f <= now.getTime());
        if (due.length === 0) return new Date(latest);
        latest = due[due.length - 1]!;
        if (due.length < batch.length || batch.length < FIRE_SCAN) return new Date(latest);
      }
    }
    if (start === floor) return null;
  }
  return null;
}

export function createScheduler(app: App, options: SchedulerOptions = {}): Scheduler {
  const intervalMs = options.intervalMs ?? 1000;
  let timer: NodeJS.Timeout | null = null;
  let busy: Promise<unknown> | null = null;

  async function tick(now: Date = new Date()): Promise<number> {
    const due = await app.db
      .select()
      .from(analysisJobs)
      .where(
        and(
          eq(analysisJobs.enabled, true),
          isNotNull(analysisJobs.nextRunAt),
          lte(analysisJobs.nextRunAt, now),
        ),
      )
      .orderBy(analysisJobs.nextRunAt)
      .limit(BATCH);
    let claimed = 0;
    for (const job of due) {
      const tz = options.tz ?? (await companyTimeZone(app.db, job.companyId));
      const fireTime = job.cron ? latestFire(job.cron, job.nextRunAt!, now, tz) : job.nextRunAt!;
      const runId = await claimScheduled(app.db, job, fireTime, now, tz);
      if (runId === null) continue;
      claimed += 1;
      if (fireTime) await execute(app, job, runId, fireTime, null, tz);
    }
    return claimed;
  }

  return {
    tick,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        if (busy) return; // a slow pass is still running on this node: skip, the next tick catches up
        busy = tick()
          .catch((error) => app.log.error({ err: error }, 'analysis scheduler tick failed'))
          .finally(() => {
            busy = null;
          });
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await busy;
    },
  };
}

/**
 * Claims the fire (one analysis_runs row per job and fire time) and advances the job in one
 * transaction. Returns the run id, or null when another tick or node already claimed it or the
 * job changed meanwhile. A cron with no fire left in [nextRunAt, now] (its schedule moved)
 * only advances.
 */
async function claimScheduled(
  db: Db,
  job: JobRow,
  fireTime: Date | null,
  now: Date,
  tz: string,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    let runId: number | null = null;
    if (fireTime) {
      const [run] = await tx
        .insert(analysisRuns)
        .values({ jobId: job.id, fireTime, status: 'running' })
        .onConflictDoNothing()
        .returning({ id: analysisRuns.id });
      if (!run) return null;
      runId = run.id;
    }
    const single = !job.cron;
    const next = single
      ? null
      : nextRunFor(job, new Date(Math.max(now.getTime(), fireTime?.getTime() ?? 0)), tz);
    // the condition on nextRunAt leaves a job the user saved meanwhile to its new schedule
    const advanced = await tx
      .update(analysisJobs)
      .set({
        nextRunAt: next,
        ...(single ? { enabled: false } : {}),
        ...(fireTime ? { lastRunAt: fireTime } : {}),
      })
      .where(and(eq(analysisJobs.id, job.id), eq(analysisJobs.nextRunAt, job.nextRunAt!)))
      .returning({ id: analysisJobs.id });
    if (advanced.length === 0) {
      if (runId !== null) await tx.delete(analysisRuns).where(eq(analysisRuns.id, runId));
      return null;
    }
    return runId;
  });
}

/** The 'run' route: runs the job now (fire time = now), whatever its schedule; nextRunAt is left alone. */
export async function runJobNow(app: App, job: JobRow, now: Date, userId: number | null): Promise<RunView> {
  const [run] = await app.db
    .insert(analysisRuns)
    .values({ jobId: job.id, fireTime: now, status: 'running' })
    .onConflictDoNothing()
    .returning({ id: analysisRuns.id });
  if (!run) {
    // the same instant was claimed already (a double click within a millisecond): answer that run
    const [existing] = await app.db
      .select()
      .from(analysisRuns)
      .where(and(eq(analysisRuns.jobId, job.id), eq(analysisRuns.fireTime, now)));
    return runView(existing!);
  }
  await app.db.update(analysisJobs).set({ lastRunAt: now }).where(eq(analysisJobs.id, job.id));
  return execute(app, job, run.id, now, userId, await companyTimeZone(app.db, job.companyId));
}

/** Computes and writes one fire's record, then logs the outcome on the run row. */
async function execute(
  app: App,
  job: JobRow,
  runId: number,
  fireTime: Date,
  userId: number | null,
  tz: string,
): Promise<RunView> {
  let status = 'ok';
  let message: string | null = null;
  let recordId: number | null = null;
  try {
    const values = await computeValues(app.db, job, fireTime, tz);
    recordId = await writeRecord(app, job, values, fireTime, userId);
  } catch (error) {
    status = 'failed';
    message = failureMessage(error);
    if (!(error instanceof AppError)) app.log.warn({ err: error, jobId: job.id }, 'analysis run failed');
  }
  const [row] = await app.db
    .update(analysisRuns)
    .set({ status, message, recordId, finishedAt: new Date() })
    .where(eq(analysisRuns.id, runId))
    .returning();
  return runView(row!);
}

/** A failure the user can act on: catalogue errors in English with the field they name. */
function failureMessage(error: unknown): string {
  if (error instanceof AppError) {
    const field = (error.data as { field?: string } | null)?.field;
    const text = messageFor(error.key, 'en', error.params);
    return (field && !text.includes(field) ? `${field}: ${text}` : text).slice(0, 1000);
  }
  return (error instanceof Error ? error.message : String(error)).slice(0, 1000);
}

/** Each assignment's value at the fire time; a source item gone from the company fails the run. */
export async function computeValues(db: Db, job: JobRow, now: Date, tz: string): Promise<RecordValues> {
  const [target] = await db
    .select({ fields: dataItems.fields })
    .from(dataItems)
    .where(eq(dataItems.id, job.itemId));
  const fields = target?.fields ?? [];
  const sourceIds = [
    ...new Set(job.assignments.flatMap((a) => (a.mode === 'ref' ? a.sources.map((s) => s.itemId) : []))),
  ];
  const present =
    sourceIds.length === 0
      ? new Set<number>()
      : new Set(
          (
            await db
              .select({ id: dataItems.id })
              .from(dataItems)
              .where(and(eq(dataItems.companyId, job.companyId), inArray(dataItems.id, sourceIds)))
          ).map((r) => r.id),
        );
  const values: RecordValues = {};
  for (const assignment of job.assignments) {
    values[assignment.field] = await assignmentValue(db, assignment, present, fields, now, tz);
  }
  return values;
}

async function assignmentValue(
  db: Db,
  a: AnalysisAssignment,
  present: Set<number>,
  fields: FieldDef[],
  now: Date,
  tz: string,
): Promise<number | string | null> {
  if (a.mode === 'custom') return a.value;
  const parts: Array<number | null> = [];
  for (const source of a.sources) {
    if (!present.has(source.itemId)) {
      throw new Error(`The source data item ${source.itemId} of field ${a.field} no longer exists`);
    }
    parts.push(
      await acquireSql(db, {
        itemId: source.itemId,
        field: source.field,
        method: a.method,
        range: a.range,
        from: a.from,
        to: a.to,
        now,
        tz,
      }),
    );
  }
  const value = parts.length === 1 ? parts[0]! : combine(a.aggregate ?? 'SUM', parts);
  if (value == null) return null;
  // an integer field takes whole numbers (an average of integers need not be one)
  const type = fields.find((f) => f.key === a.field)?.type;
  return type === 10 ? Math.round(value) : value;
}

async function writeRecord(
  app: App,
  job: JobRow,
  values: RecordValues,
  ts: Date,
  userId: number | null,
): Promise<number | null> {
  const result = await app.ingest.write({
    companyId: job.companyId,
    userId,
    source: 'analysis',
    records: [{ itemId: job.itemId, ts, values }],
  });
  return result.ids?.[0] ?? null;
}
