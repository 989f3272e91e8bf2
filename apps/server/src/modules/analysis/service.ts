/**
 * Intelligent analysis jobs of a data item (spec point 3): on each fire of a Quartz cron, or
 * once at `runAt`, every assignment is computed and one record is written into the item.
 * Saving checks the whole job before anything is written: target fields belong to the item,
 * referenced sources are numeric fields of items of the company the caller can read, methods,
 * ranges, aggregates and custom values fit. `nextRunAt` is the next fire from now.
 */
import {
  ACQUISITION_METHODS,
  AGGREGATES,
  type AnalysisAssignment,
  checkCron,
  checkName,
  coerceValue,
  DATA_PERMISSION,
  DEFAULT_TIME_ZONE,
  type FieldDef,
  type FieldType,
  isRowId,
  NUMERIC_FIELD_TYPES,
  nextFires,
  RANGE_METHODS,
  TIME_RANGES,
} from '@platform/domain';
import { and, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, assertField, fieldError } from '../../platform/envelope';
import { type DataCaller, levelsFor, requireLevel } from '../cabin/permissions';
import { companyTimeZone } from '../companies/service';
import { dataItems } from '../dataitems/tables';
import { analysisJobs, analysisRuns } from './tables';

/** What a job produces; the spec names a type without listing values: one record per fire. */
export const ANALYSIS_TYPES = ['record'] as const;
export type AnalysisType = (typeof ANALYSIS_TYPES)[number];

export type JobRow = typeof analysisJobs.$inferSelect;
export type RunRow = typeof analysisRuns.$inferSelect;

export interface ItemRef {
  id: number;
  nodeId: number;
  companyId: number;
  name: string;
  fields: FieldDef[];
}

/** The item of the caller's company with at least `level` on its node; 40400 / 40300 otherwise. */
export async function itemFor(db: Db, caller: DataCaller, itemId: number, level: number): Promise<ItemRef> {
  const [item] = await db
    .select({
      id: dataItems.id,
      nodeId: dataItems.nodeId,
      companyId: dataItems.companyId,
      name: dataItems.name,
      fields: dataItems.fields,
    })
    .from(dataItems)
    .where(and(eq(dataItems.id, itemId), eq(dataItems.companyId, caller.companyId)));
  if (!item) throw new AppError('notFound', {}, { field: 'itemId' });
  await requireLevel(db, caller, item.nodeId, level as 0 | 1 | 2 | 3, 'itemId');
  return item;
}

export interface JobView {
  id: number;
  itemId: number;
  name: string;
  enabled: boolean;
  cron: string | null;
  runAt: string | null;
  type: string;
  assignments: AnalysisAssignment[];
  nextRunAt: string | null;
  lastRunAt: string | null;
  createdAt: string;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function jobView(row: JobRow): JobView {
  return {
    id: row.id,
    itemId: row.itemId,
    name: row.name,
    enabled: row.enabled,
    cron: row.cron,
    runAt: iso(row.runAt),
    type: row.type,
    assignments: row.assignments,
    nextRunAt: iso(row.nextRunAt),
    lastRunAt: iso(row.lastRunAt),
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listJobs(db: Db, itemId: number): Promise<JobView[]> {
  const rows = await db
    .select()
    .from(analysisJobs)
    .where(eq(analysisJobs.itemId, itemId))
    .orderBy(analysisJobs.id);
  return rows.map(jobView);
}

/** The job when it belongs to the item; 40400 naming `id` otherwise. */
export async function jobOf(db: Db, itemId: number, jobId: number, field = 'id'): Promise<JobRow> {
  const [row] = await db
    .select()
    .from(analysisJobs)
    .where(and(eq(analysisJobs.id, jobId), eq(analysisJobs.itemId, itemId)));
  if (!row) throw new AppError('notFound', {}, { field });
  return row;
}

export interface JobInput {
  itemId: number;
  id?: number;
  name: string;
  enabled: boolean;
  cron?: string | null;
  runAt?: string | null;
  type?: string;
  assignments: unknown[];
}

/** The next fire strictly after `after`, or null (a cron that never fires again, or a disabled job). */
export function nextRunFor(
  job: { enabled: boolean; cron: string | null; runAt: Date | null },
  after: Date,
  tz = DEFAULT_TIME_ZONE,
): Date | null {
  if (!job.enabled) return null;
  if (job.cron) {
    const next = nextFires(job.cron, after.getTime(), 1, tz)[0];
    return next === undefined ? null : new Date(next);
  }
  return job.runAt;
}

function isIsoInstant(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 40 && !Number.isNaN(Date.parse(value));
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** target types a custom value can fill */
const NUMERIC_OR_TEXT: readonly FieldType[] = [10, 1, 2, 4, 5, 6];

export const MAX_ASSIGNMENTS = 100;
export const MAX_SOURCES = 50;

/**
 * Checks the assignments against the item and the company, throwing a field error naming the
 * first bad part (`assignments.2.sources.0.itemId`). Returns them normalised (only known keys).
 */
export async function checkAssignments(
  db: Db,
  caller: DataCaller,
  item: ItemRef,
  input: unknown[],
): Promise<AnalysisAssignment[]> {
  if (input.length === 0) throw fieldError('assignments', 'fieldRequired');
  if (input.length > MAX_ASSIGNMENTS) throw fieldError('assignments');
  const targetKeys = new Set(item.fields.map((f) => f.key));
  const seen = new Set<string>();
  const out: AnalysisAssignment[] = [];
  const refs: Array<{ path: string; itemId: number; field: string }> = [];
  input.forEach((raw, i) => {
    const at = `assignments.${i}`;
    if (!isObject(raw)) throw fieldError(at);
    const field = raw.field;
    if (typeof field !== 'string' || !targetKeys.has(field) || seen.has(field))
      throw fieldError(`${at}.field`);
    seen.add(field);
    if (raw.mode === 'custom') {
      const target = item.fields.find((f) => f.key === field)!;
      if (raw.value == null || raw.value === '') throw fieldError(`${at}.value`, 'fieldRequired');
      // a fixed value must be one the target field stores: a number for numeric types, an
      // instant for dateTime, text for text; pictures and files are uploads, never fixed
      const coerced = NUMERIC_OR_TEXT.includes(target.type) ? coerceValue(target, raw.value) : null;
      if (!coerced) throw fieldError(`${at}.value`);
      if (!coerced.ok) throw fieldError(`${at}.value`, coerced.key);
      out.push({ field, mode: 'custom', value: coerced.value as string | number });
      return;
    }
    if (raw.mode !== 'ref') throw fieldError(`${at}.mode`);
    const sources = raw.sources;
    if (!Array.isArray(sources) || sources.length === 0) throw fieldError(`${at}.sources`, 'fieldRequired');
    if (sources.length > MAX_SOURCES) throw fieldError(`${at}.sources`);
    const cleanSources = sources.map((s, j) => {
      if (!isObject(s)) throw fieldError(`${at}.sources.${j}`);
      if (!isRowId(s.itemId)) throw fieldError(`${at}.sources.${j}.itemId`);
      if (typeof s.field !== 'string' || s.field === '') throw fieldError(`${at}.sources.${j}.field`);
      refs.push({ path: `${at}.sources.${j}`, itemId: s.itemId as number, field: s.field });
      return { itemId: s.itemId as number, field: s.field };
    });
    const method = raw.method;
    if (typeof method !== 'string' || !(ACQUISITION_METHODS as readonly string[]).includes(method)) {
      throw fieldError(`${at}.method`);
    }
    const assignment: AnalysisAssignment = {
      field,
      mode: 'ref',
      sources: cleanSources,
      method: method as (typeof ACQUISITION_METHODS)[number],
    };
    if ((RANGE_METHODS as readonly string[]).includes(method)) {
      const range = raw.range;
      if (range == null) throw fieldError(`${at}.range`, 'fieldRequired');
      if (typeof range !== 'string' || !(TIME_RANGES as readonly string[]).includes(range)) {
        throw fieldError(`${at}.range`);
      }
      assignment.range = range as (typeof TIME_RANGES)[number];
      if (range === 'period') {
        if (raw.from == null) throw fieldError(`${at}.from`, 'fieldRequired');
        if (!isIsoInstant(raw.from)) throw fieldError(`${at}.from`);
        if (raw.to == null) throw fieldError(`${at}.to`, 'fieldRequired');
        if (!isIsoInstant(raw.to)) throw fieldError(`${at}.to`);
        const from = new Date(raw.from);
        const to = new Date(raw.to);
        if (from.getTime() >= to.getTime()) throw fieldError(`${at}.to`, 'timeRangeInvalid');
        assignment.from = from.toISOString();
        assignment.to = to.toISOString();
      }
    }
    if (cleanSources.length > 1) {
      const aggregate = raw.aggregate;
      if (aggregate == null) throw fieldError(`${at}.aggregate`, 'fieldRequired');
      if (typeof aggregate !== 'string' || !(AGGREGATES as readonly string[]).includes(aggregate)) {
        throw fieldError(`${at}.aggregate`);
      }
      assignment.aggregate = aggregate as (typeof AGGREGATES)[number];
    } else if (raw.aggregate != null) {
      if (typeof raw.aggregate !== 'string' || !(AGGREGATES as readonly string[]).includes(raw.aggregate)) {
        throw fieldError(`${at}.aggregate`);
      }
      assignment.aggregate = raw.aggregate as (typeof AGGREGATES)[number];
    }
    out.push(assignment);
  });
  await checkSources(db, caller, refs);
  return out;
}

/** Every referenced source: an item of the caller's company, readable by the caller, and a numeric field of it (also used by report templates). */
export async function checkSources(
  db: Db,
  caller: DataCaller,
  refs: Array<{ path: string; itemId: number; field: string }>,
): Promise<void> {
  if (refs.length === 0) return;
  const ids = [...new Set(refs.map((r) => r.itemId))];
  const rows = await db
    .select({ id: dataItems.id, nodeId: dataItems.nodeId, fields: dataItems.fields })
    .from(dataItems)
    .where(and(eq(dataItems.companyId, caller.companyId), inArray(dataItems.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const levels = await levelsFor(
    db,
    caller,
    rows.map((r) => r.nodeId),
  );
  for (const ref of refs) {
    const source = byId.get(ref.itemId);
    // another company's item, a missing one and an unreadable one all read as absent
    if (!source || (levels.get(source.nodeId) ?? 0) < DATA_PERMISSION.read) {
      throw fieldError(`${ref.path}.itemId`);
    }
    const field = source.fields.find((f) => f.key === ref.field);
    if (!field || !NUMERIC_FIELD_TYPES.includes(field.type)) throw fieldError(`${ref.path}.field`);
  }
}

/** Validates and writes a job; nothing is written when any part is bad. */
export async function saveJob(
  db: Db,
  caller: DataCaller,
  item: ItemRef,
  input: JobInput,
  now: Date,
): Promise<{ id: number; nextRunAt: string | null }> {
  const name = input.name.trim();
  assertField('name', checkName(name));
  const type = input.type ?? 'record';
  if (!(ANALYSIS_TYPES as readonly string[]).includes(type)) throw fieldError('type');
  const cron = input.cron?.trim() || null;
  const runAtText = input.runAt || null;
  if (cron && runAtText) throw fieldError('runAt');
  if (!cron && !runAtText) throw fieldError('cron', 'fieldRequired');
  let runAt: Date | null = null;
  if (cron) {
    assertField('cron', checkCron(cron));
  } else {
    if (!isIsoInstant(runAtText)) throw fieldError('runAt');
    runAt = new Date(runAtText);
  }
  // another item's or company's job reads as absent before anything else is judged
  const existing = input.id === undefined ? null : await jobOf(db, item.id, input.id);
  const assignments = await checkAssignments(db, caller, item, input.assignments);
  const nextRunAt = nextRunFor(
    { enabled: input.enabled, cron, runAt },
    now,
    await companyTimeZone(db, caller.companyId),
  );
  const values = {
    name,
    enabled: input.enabled,
    cron,
    runAt,
    type,
    assignments,
    nextRunAt,
  };
  if (existing) {
    await db.update(analysisJobs).set(values).where(eq(analysisJobs.id, existing.id));
    return { id: existing.id, nextRunAt: iso(nextRunAt) };
  }
  const [row] = await db
    .insert(analysisJobs)
    .values({ ...values, companyId: item.companyId, itemId: item.id })
    .returning({ id: analysisJobs.id });
  return { id: row!.id, nextRunAt: iso(nextRunAt) };
}

export async function deleteJob(db: Db, itemId: number, jobId: number): Promise<void> {
  const job = await jobOf(db, itemId, jobId);
  await db.delete(analysisJobs).where(eq(analysisJobs.id, job.id));
}

export interface RunView {
  id: number;
  jobId: number;
  fireTime: string;
  startedAt: string;
  finishedAt: string | null;
  status: string;
  message: string | null;
  recordId: number | null;
}

export function runView(row: RunRow): RunView {
  return {
    id: row.id,
    jobId: row.jobId,
    fireTime: row.fireTime.toISOString(),
    startedAt: row.startedAt.toISOString(),
    finishedAt: iso(row.finishedAt),
    status: row.status,
    message: row.message,
    recordId: row.recordId,
  };
}

/** The job's runs, newest fire first. */
export async function listRuns(
  db: Db,
  jobId: number,
  page: { limit: number; offset: number },
): Promise<{ list: RunView[]; total: number }> {
  const [total] = await db.select({ n: count() }).from(analysisRuns).where(eq(analysisRuns.jobId, jobId));
  const rows = await db
    .select()
    .from(analysisRuns)
    .where(eq(analysisRuns.jobId, jobId))
    .orderBy(desc(analysisRuns.fireTime), desc(analysisRuns.id))
    .limit(page.limit)
    .offset(page.offset);
  return { list: rows.map(runView), total: Number(total?.n ?? 0) };
}
