/**
 * Electricity meters (docs/energy.md) under /general/meter/…: meters are data cabin entries, so
 * every route needs the cabin's code sd_capsule and then the meter node's data permission (read
 * to see, write to change or record a replacement, administrator to delete). Time-of-use is the
 * company's: read by any member, written with the company settings code sys_company_info.
 * System maintenance (system_emeter, system_emeter_log) lists every company's meters and log.
 */
import { messageFor } from '@platform/domain';
import { type Static, Type } from 'typebox';
import { callerActor } from '../../platform/auth';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Paging, paging } from '../../platform/schemas';
import { checkNodeName, dataCaller } from '../cabin/routes';
import { attachment } from '../records/spreadsheet';
import {
  liveValues,
  meterEnergy,
  meterLog,
  monthlyReport,
  recordReplacement,
  systemMeters,
} from './meter-data';
import { reportPdf } from './report-pdf';
import { reportXlsx } from './report-xlsx';
import {
  EnergySchema,
  LogRowSchema,
  MeterBody,
  MeterViewSchema,
  PricesSchema,
  ReportQuery,
  ReportSchema,
  ScheduleSchema,
  TouViewSchema,
} from './schemas';
import {
  checkMeterFormula,
  createMeter,
  deleteMeter,
  formulaError,
  getMeter,
  listMeters,
  type MeterInput,
  type MeterPoint,
  meterFor,
  updateMeter,
} from './service';
import { getTou, saveTou } from './tou';

const PERMISSION = 'sd_capsule';
const TOU_WRITE = 'sys_company_info';
const tags = ['meters'];

function input(body: Static<typeof MeterBody>): MeterInput {
  const name = body.name.trim();
  checkNodeName('meter', name);
  return { ...body, name, points: body.points as Partial<Record<MeterPoint, string>> | undefined };
}

export default async function meterRoutes(app: App): Promise<void> {
  app.get(
    '/meter/list',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'The company’s meters the caller can read, by code',
        response: { 200: Envelope(Type.Array(MeterViewSchema)) },
      },
    },
    async (request) => ok(await listMeters(app.db, dataCaller(request))),
  );

  app.get(
    '/meter/get',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'One meter (read level on its node)',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(MeterViewSchema) },
      },
    },
    async (request) => ok(await getMeter(app.db, dataCaller(request), request.query.id)),
  );

  app.post(
    '/meter/create',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary:
          'A standard (101) or virtual (100) meter in a directory (write level there); every field checked, nothing written on a refusal',
        body: Type.Object({
          ...MeterBody.properties,
          parentId: Type.Optional(Type.Union([Id, Type.Null()])),
        }),
        response: { 200: Envelope(MeterViewSchema) },
      },
    },
    async (request) => {
      const created = await createMeter(app.db, dataCaller(request), {
        ...input(request.body),
        parentId: request.body.parentId ?? null,
      });
      return ok(created, 'operation', request.lang);
    },
  );

  app.post(
    '/meter/update',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'Change a meter (write level); its type stays',
        body: Type.Object({ ...MeterBody.properties, id: Id }),
        response: { 200: Envelope(MeterViewSchema) },
      },
    },
    async (request) => {
      const updated = await updateMeter(app.db, dataCaller(request), request.body.id, input(request.body));
      return ok(updated, 'operation', request.lang);
    },
  );

  app.post(
    '/meter/delete',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'Delete a meter (administrator level) unless a virtual meter’s formula names it',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deleteMeter(app.db, dataCaller(request), request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.post(
    '/meter/formula/check',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary:
          'Check a virtual meter formula as it is typed (nothing saved): the meters it names, or the issue with its position and message',
        body: Type.Object({
          formula: Type.String({ maxLength: 1000 }),
          code: Type.Optional(
            Type.String({ maxLength: 100, description: 'the code of the meter being defined' }),
          ),
          id: Type.Optional(Id),
        }),
        response: {
          200: Envelope(
            Type.Object({
              ok: Type.Boolean(),
              refs: Type.Array(Type.String()),
              issue: Type.Union([
                Type.Object({
                  reason: Type.String(),
                  at: Type.Union([Type.Integer(), Type.Null()]),
                  name: Type.Optional(Type.String()),
                  path: Type.Optional(Type.Array(Type.String())),
                  message: Type.String(),
                }),
                Type.Null(),
              ]),
            }),
          ),
        },
      },
    },
    async (request) => {
      const caller = dataCaller(request);
      let self = request.body.code?.trim() || undefined;
      if (request.body.id != null) self = (await meterFor(app.db, caller, request.body.id, 1)).meter.code;
      const r = await checkMeterFormula(app.db, caller, request.body.formula, self);
      if (r.ok) return ok({ ok: true, refs: r.refs, issue: null });
      const error = formulaError(r);
      const data = error.data as { at: number | null; name?: string; path?: string[] };
      return ok({
        ok: false,
        refs: [],
        issue: {
          reason: r.reason,
          at: data.at,
          ...(data.name === undefined ? {} : { name: data.name }),
          ...(data.path === undefined ? {} : { path: data.path }),
          message: messageFor(error.key, request.lang, error.params),
        },
      });
    },
  );

  app.post(
    '/meter/replace',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary:
          'Record a meter replacement (write level): the instant, the old register’s final reading, the new one’s start reading and the new transformers',
        body: Type.Object({
          id: Id,
          at: Type.String({ maxLength: 40, description: 'ISO instant' }),
          oldFinal: Type.Number({ minimum: 0 }),
          newInitial: Type.Number({ minimum: 0 }),
          ctPrimary: Type.Optional(Type.Number()),
          ctSecondary: Type.Optional(Type.Number()),
          ptPrimary: Type.Optional(Type.Number()),
          ptSecondary: Type.Optional(Type.Number()),
          note: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: {
          200: Envelope(
            Type.Object({
              kWhAround: Type.Number({
                description: 'energy from the last reading before to the first after',
              }),
              oldKWh: Type.Number(),
              newKWh: Type.Number(),
            }),
          ),
        },
      },
    },
    async (request) =>
      ok(await recordReplacement(app.db, dataCaller(request), request.body), 'operation', request.lang),
  );

  app.get(
    '/meter/log',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'A meter’s log: replacements and rollovers, newest first (read level)',
        querystring: Type.Object({ id: Id, ...Paging }),
        response: { 200: Envelope(Type.Array(LogRowSchema)) },
      },
    },
    async (request) => {
      const { meter } = await meterFor(app.db, dataCaller(request), request.query.id, 1);
      return ok(await meterLog(app.db, { meterId: meter.id }, paging(request.query)));
    },
  );

  app.get(
    '/meter/energy',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary:
          'Energy per day (from/to yyyy-MM-dd) or per month (yyyy-MM), split by time-of-use period with cost; read level on the meter and what it reads',
        querystring: Type.Object({
          id: Id,
          grain: Type.Union([Type.Literal('day'), Type.Literal('month')]),
          from: Type.String({ maxLength: 10 }),
          to: Type.String({ maxLength: 10 }),
        }),
        response: { 200: Envelope(EnergySchema) },
      },
    },
    async (request) => ok(await meterEnergy(app.db, dataCaller(request), request.query)),
  );

  app.get(
    '/meter/report',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary:
          'Monthly report: readings at the month boundaries, energy with ratios, energy and cost per time-of-use period, balance against the child meters',
        querystring: ReportQuery,
        response: { 200: Envelope(ReportSchema) },
      },
    },
    async (request) => ok(await monthlyReport(app.db, dataCaller(request), request.query)),
  );

  app.get(
    '/meter/report/export',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'The monthly report as XLSX, in the caller’s language',
        querystring: ReportQuery,
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the file' }) },
      },
    },
    async (request, reply) => {
      const report = await monthlyReport(app.db, dataCaller(request), request.query);
      const month = `${report.year}-${String(report.month).padStart(2, '0')}`;
      return reply
        .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment(`${report.meter.name}-${month}.xlsx`))
        .header('cache-control', 'no-store')
        .send(await reportXlsx(report, request.lang));
    },
  );

  app.get(
    '/meter/report/pdf',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary:
          'The monthly report as PDF, in the caller’s language: readings, energy, time-of-use periods, balance against the child meters; numbered pages',
        querystring: ReportQuery,
        response: { 200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the file' }) },
      },
    },
    async (request, reply) => {
      const report = await monthlyReport(app.db, dataCaller(request), request.query);
      const month = `${report.year}-${String(report.month).padStart(2, '0')}`;
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachment(`${report.meter.name}-${month}.pdf`))
        .header('cache-control', 'no-store')
        .send(await reportPdf(report, request.lang));
    },
  );

  app.get(
    '/meter/live',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'The newest value of each bound point of a standard meter, with its time',
        querystring: Type.Object({ id: Id }),
        response: {
          200: Envelope(
            Type.Object({
              id: Type.Integer(),
              points: Type.Array(
                Type.Object({
                  point: Type.String(),
                  field: Type.String(),
                  value: Type.Union([Type.Number(), Type.Null()]),
                  at: Type.Union([Type.String(), Type.Null()]),
                }),
              ),
            }),
          ),
        },
      },
    },
    async (request) => ok(await liveValues(app.db, dataCaller(request), request.query.id)),
  );

  app.get(
    '/meter/tou',
    {
      config: { permission: 'member' },
      schema: {
        tags,
        summary: 'The company’s time-of-use hours and prices (cents per kWh), with price warnings',
        response: { 200: Envelope(TouViewSchema) },
      },
    },
    async (request) => ok(await getTou(app.db, dataCaller(request).companyId)),
  );

  app.post(
    '/meter/tou/save',
    {
      config: { permission: TOU_WRITE },
      schema: {
        tags,
        summary:
          'Save the time-of-use hours (covering the day exactly once: a gap or overlap is named) and prices; price rules come back as warnings',
        body: Type.Object({
          schedule: ScheduleSchema,
          prices: PricesSchema,
          largeLoadGap: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Envelope(TouViewSchema) },
      },
    },
    async (request) =>
      ok(await saveTou(app.db, callerActor(request), request.body), 'operation', request.lang),
  );

  app.get(
    '/system/meter/list',
    {
      config: { permission: 'system_emeter' },
      schema: {
        tags,
        summary: 'System maintenance: every company’s meters, newest first',
        querystring: Type.Object({ ...Paging, companyId: Type.Optional(Id) }),
        response: {
          200: Envelope(
            Type.Array(
              Type.Object({
                id: Type.Integer(),
                companyId: Type.Integer(),
                name: Type.String(),
                code: Type.String(),
                type: Type.Integer(),
                itemId: Type.Union([Type.Integer(), Type.Null()]),
                formula: Type.Union([Type.String(), Type.Null()]),
                updatedAt: Type.String(),
              }),
            ),
          ),
        },
      },
    },
    async (request) => ok(await systemMeters(app.db, paging(request.query), request.query.companyId)),
  );

  app.get(
    '/system/meter/log',
    {
      config: { permission: 'system_emeter_log' },
      schema: {
        tags,
        summary: 'System maintenance: the meter log of every company, newest first',
        querystring: Type.Object({ ...Paging, companyId: Type.Optional(Id) }),
        response: { 200: Envelope(Type.Array(LogRowSchema)) },
      },
    },
    async (request) =>
      ok(await meterLog(app.db, { companyId: request.query.companyId ?? null }, paging(request.query))),
  );
}
