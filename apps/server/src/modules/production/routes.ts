import { SCHEDULE_STATUSES } from '@platform/domain';
import { Type } from 'typebox';
import { callerActor, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Literals, Page, Paging, paging } from '../../platform/schemas';
import { Sorting } from '../../platform/sorting';
import { companyTimeZone } from '../companies/service';
import { Serials } from '../inventory/routes';
import { sendSheet } from '../records/file-routes';
import { csvStream, type OutCell, xlsxStream } from '../records/spreadsheet';
import {
  deleteSchedule,
  finishUnits,
  getSchedule,
  listSchedules,
  MAX_STEPS,
  outputReport,
  recordUnits,
  saveSchedule,
  scheduleAction,
} from './service';

const Status = Literals(SCHEDULE_STATUSES);
const Day = Type.String({ maxLength: 10, description: 'YYYY-MM-DD' });

const ScheduleRow = Type.Object({
  id: Type.Integer(),
  number: Type.String(),
  categoryId: Type.Integer(),
  categoryName: Type.String(),
  model: Type.String(),
  quantity: Type.Integer(),
  line: Type.String(),
  startOn: Type.String(),
  endOn: Type.String(),
  status: Status,
  steps: Type.Array(Type.String()),
  notes: Type.String(),
  recorded: Type.Integer({ description: 'units recorded against the plan' }),
  inProduction: Type.Integer(),
  finished: Type.Integer(),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
const Report = Type.Object({
  rows: Type.Array(
    Type.Object({ day: Type.String(), line: Type.String(), product: Type.String(), count: Type.Integer() }),
  ),
  byDay: Type.Record(Type.String(), Type.Integer()),
  byLine: Type.Record(Type.String(), Type.Integer()),
  byProduct: Type.Record(Type.String(), Type.Integer()),
  total: Type.Integer(),
});
const ReportQuery = Type.Object({ from: Day, to: Day });

const EXPORT_WORDS = {
  zh: { sheet: '生产报表', head: ['日期', '产线', '产品', '数量'], total: '合计' },
  en: { sheet: 'production-output', head: ['Day', 'Line', 'Product', 'Units'], total: 'Total' },
} as const;

/**
 * Production (/productionManagement) under /general/production: plans, planned, changed,
 * started, finished, cancelled and deleted (pm_scheduling); the process of each plan where its
 * units are recorded and finished (pm_process, which reads the plans but changes none); the
 * output reports (pm_reports). Writes run in one transaction with the plan locked.
 */
export default async function productionRoutes(app: App): Promise<void> {
  app.get(
    '/production/schedule/list',
    {
      config: { permission: ['pm_scheduling', 'pm_process'] },
      schema: {
        tags: ['production'],
        summary: 'Production plans, latest start first, by number, line or product and by status',
        querystring: Type.Object({
          ...Paging,
          ...Sorting(['number', 'product', 'quantity', 'line', 'days', 'status']),
          keyword: Type.Optional(Type.String({ maxLength: 50 })),
          status: Type.Optional(Status),
        }),
        response: { 200: Envelope(Page(ScheduleRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      return ok({
        ...(await listSchedules(app.db, callerCompany(request), { ...request.query, ...page })),
        ...page,
      });
    },
  );

  app.get(
    '/production/schedule/get',
    {
      config: { permission: ['pm_scheduling', 'pm_process'] },
      schema: {
        tags: ['production'],
        summary: 'One plan: its steps, counts and every unit it made with its status now',
        querystring: Type.Object({ id: Id }),
        response: {
          200: Envelope(
            Type.Object({
              ...ScheduleRow.properties,
              units: Type.Array(
                Type.Object({
                  sn: Type.String(),
                  status: Type.String(),
                  disabled: Type.Boolean(),
                  updatedAt: Type.String(),
                }),
              ),
            }),
          ),
        },
      },
    },
    async (request) => ok(await getSchedule(app.db, callerCompany(request), request.query.id)),
  );

  app.post(
    '/production/schedule/save',
    {
      config: { permission: 'pm_scheduling' },
      schema: {
        tags: ['production'],
        summary: 'Plan a run of an own product on a line, or change a plan not yet ended',
        body: Type.Object({
          id: Type.Optional(Id),
          categoryId: Id,
          quantity: Type.Integer({ minimum: 1, maximum: 100_000 }),
          line: Type.String({ maxLength: 50 }),
          startOn: Day,
          endOn: Day,
          steps: Type.Optional(Type.Array(Type.String({ maxLength: 30 }), { maxItems: MAX_STEPS })),
          notes: Type.Optional(Type.String({ maxLength: 500 })),
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer(), number: Type.String() })) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => saveSchedule(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/production/schedule/delete',
    {
      config: { permission: 'pm_scheduling' },
      schema: {
        tags: ['production'],
        summary: 'Delete a plan that made nothing (planned or cancelled)',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await app.db.transaction((tx) => deleteSchedule(tx, callerActor(request), request.body.id));
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/production/schedule/state',
    {
      config: { permission: 'pm_scheduling' },
      schema: {
        tags: ['production'],
        summary: 'Start, finish or cancel a plan',
        body: Type.Object({ id: Id, action: Literals(['start', 'finish', 'cancel'] as const) }),
        response: { 200: Envelope(Type.Object({ status: Status })) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => scheduleAction(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/production/schedule/record',
    {
      config: { permission: 'pm_process' },
      schema: {
        tags: ['production'],
        summary: 'Record units a plan in production made, by serial number (in production, or finished)',
        body: Type.Object({ id: Id, sns: Serials, finished: Type.Optional(Type.Boolean()) }),
        response: { 200: Envelope(Type.Object({ created: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => recordUnits(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/production/schedule/finish-units',
    {
      config: { permission: 'pm_process' },
      schema: {
        tags: ['production'],
        summary: 'Mark units of this plan finished',
        body: Type.Object({ id: Id, sns: Serials }),
        response: { 200: Envelope(Type.Object({ changed: Type.Integer() })) },
      },
    },
    async (request) =>
      ok(
        await app.db.transaction((tx) => finishUnits(tx, callerActor(request), request.body)),
        'operation',
        request.lang,
      ),
  );

  app.get(
    '/production/report',
    {
      config: { permission: 'pm_reports' },
      schema: {
        tags: ['production'],
        summary:
          "Output from one day to another (the company's days): units finished by day, line and product",
        querystring: ReportQuery,
        response: { 200: Envelope(Report) },
      },
    },
    async (request) => {
      const companyId = callerCompany(request);
      return ok(
        await outputReport(app.db, companyId, {
          ...request.query,
          timeZone: await companyTimeZone(app.db, companyId),
        }),
      );
    },
  );

  app.get(
    '/production/report/export',
    {
      config: { permission: 'pm_reports' },
      schema: {
        tags: ['production'],
        summary: 'The output report as a CSV or XLSX file',
        querystring: Type.Object({
          ...ReportQuery.properties,
          format: Literals(['csv', 'xlsx'] as const),
          lang: Type.Optional(Literals(['zh', 'en'] as const)),
        }),
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the file' }) },
      },
    },
    async (request, reply) => {
      const companyId = callerCompany(request);
      const q = request.query;
      const lang = q.lang ?? request.lang;
      const report = await outputReport(app.db, companyId, {
        ...q,
        timeZone: await companyTimeZone(app.db, companyId),
      });
      const words = EXPORT_WORDS[lang];
      const rows: OutCell[][] = [
        ...report.rows.map((r) => [r.day, r.line, r.product, { number: r.count, decimals: 0 }]),
        [words.total, '', '', { number: report.total, decimals: 0 }],
      ];
      const batches = (async function* () {
        yield rows;
      })();
      const body =
        q.format === 'csv'
          ? csvStream([...words.head], batches)
          : xlsxStream(words.sheet, [...words.head], batches);
      return sendSheet(reply, q.format, `${words.sheet}-${q.from}-${q.to}.${q.format}`, body);
    },
  );
}
