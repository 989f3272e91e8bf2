import { DATA_PERMISSION } from '@platform/domain';
import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Page, Paging, paging } from '../../platform/schemas';
import type { DataCaller } from '../cabin/permissions';
import { runJobNow } from './scheduler';
import { deleteJob, itemFor, jobOf, listJobs, listRuns, saveJob } from './service';

const Instant = Type.Union([Type.String(), Type.Null()]);

const JobRow = Type.Object({
  id: Type.Integer(),
  itemId: Type.Integer(),
  name: Type.String(),
  enabled: Type.Boolean(),
  cron: Type.Union([Type.String(), Type.Null()]),
  runAt: Instant,
  type: Type.String(),
  assignments: Type.Array(Type.Unknown()),
  nextRunAt: Instant,
  lastRunAt: Instant,
  createdAt: Type.String(),
});

const RunRow = Type.Object({
  id: Type.Integer(),
  jobId: Type.Integer(),
  fireTime: Type.String(),
  startedAt: Type.String(),
  finishedAt: Instant,
  status: Type.String({ description: 'running | ok | failed' }),
  message: Type.Union([Type.String(), Type.Null()]),
  recordId: Type.Union([Type.Integer(), Type.Null()]),
});

function dataCaller(request: Parameters<typeof caller>[0]): DataCaller {
  return { companyId: callerCompany(request), userId: caller(request).userId };
}

/**
 * Intelligent analysis of a data item: configuring, running and reading the log of its jobs
 * all need administrator level (3) on the item's node, like every item configuration.
 */
export default async function analysisRoutes(app: App): Promise<void> {
  app.get(
    '/smartdata/analysis/list',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['analysis'],
        summary: "The item's analysis jobs",
        querystring: Type.Object({ itemId: Id }),
        response: { 200: Envelope(Type.Array(JobRow)) },
      },
    },
    async (request) => {
      const item = await itemFor(app.db, dataCaller(request), request.query.itemId, DATA_PERMISSION.admin);
      return ok(await listJobs(app.db, item.id));
    },
  );

  app.post(
    '/smartdata/analysis/save',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['analysis'],
        summary: 'Create or change a job: a Quartz cron or a single execution at runAt, and its assignments',
        body: Type.Object({
          itemId: Id,
          id: Type.Optional(Id),
          name: Type.String({ maxLength: 200 }),
          enabled: Type.Boolean(),
          cron: Type.Optional(Type.Union([Type.String({ maxLength: 120 }), Type.Null()])),
          runAt: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
          type: Type.Optional(Type.String({ maxLength: 16 })),
          assignments: Type.Array(Type.Unknown(), { description: 'AnalysisAssignment[]' }),
        }),
        response: {
          200: Envelope(Type.Object({ id: Type.Integer(), nextRunAt: Instant })),
        },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const item = await itemFor(app.db, who, request.body.itemId, DATA_PERMISSION.admin);
      return ok(await saveJob(app.db, who, item, request.body, new Date()), 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/analysis/delete',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['analysis'],
        summary: 'Delete a job and its run log',
        body: Type.Object({ itemId: Id, id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const item = await itemFor(app.db, dataCaller(request), request.body.itemId, DATA_PERMISSION.admin);
      await deleteJob(app.db, item.id, request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.post(
    '/smartdata/analysis/run',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['analysis'],
        summary: 'Run a job now (fire time = now); answers the run as logged',
        body: Type.Object({ itemId: Id, id: Id }),
        response: { 200: Envelope(RunRow) },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const item = await itemFor(app.db, who, request.body.itemId, DATA_PERMISSION.admin);
      const job = await jobOf(app.db, item.id, request.body.id);
      return ok(await runJobNow(app, job, new Date(), who.userId));
    },
  );

  app.get(
    '/smartdata/analysis/log',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['analysis'],
        summary: "A job's runs, newest first",
        querystring: Type.Object({ itemId: Id, jobId: Id, ...Paging }),
        response: { 200: Envelope(Page(RunRow)) },
      },
    },
    async (request) => {
      const item = await itemFor(app.db, dataCaller(request), request.query.itemId, DATA_PERMISSION.admin);
      const job = await jobOf(app.db, item.id, request.query.jobId, 'jobId');
      const page = paging(request.query);
      const { list, total } = await listRuns(app.db, job.id, page);
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );
}
