import type { AnalysisAssignment } from '@platform/domain';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  varchar,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { dataItems } from '../dataitems/tables';

/**
 * Intelligent analysis jobs of a data item: on each fire (Quartz cron, or once at runAt),
 * compute every assignment and write one record into the item.
 */
export const analysisJobs = pgTable(
  'analysis_jobs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => dataItems.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 25 }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Quartz cron; null for a single execution */
    cron: varchar('cron', { length: 120 }),
    /** single execution: when to run */
    runAt: timestamp('run_at', { withTimezone: true }),
    type: varchar('type', { length: 16 }).notNull().default('record'),
    assignments: jsonb('assignments').$type<AnalysisAssignment[]>().notNull().default([]),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('analysis_jobs_item').on(t.itemId), index('analysis_jobs_next').on(t.nextRunAt)],
);

/** One row per fire (unique per job and fire time, so a fire runs once): the run log the user reads. status: running | ok | failed */
export const analysisRuns = pgTable(
  'analysis_runs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    jobId: integer('job_id')
      .notNull()
      .references(() => analysisJobs.id, { onDelete: 'cascade' }),
    fireTime: timestamp('fire_time', { withTimezone: true }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().default(sql`now()`),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    status: varchar('status', { length: 8 }).notNull(),
    message: text('message'),
    recordId: bigint('record_id', { mode: 'number' }),
  },
  (t) => [unique('analysis_runs_fire').on(t.jobId, t.fireTime)],
);
