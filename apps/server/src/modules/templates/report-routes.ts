import { DATA_PERMISSION, formatInstant, utcOffsetLabel } from '@platform/domain';
import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import type { DataCaller } from '../cabin/permissions';
import { attachment } from '../records/spreadsheet';
import { reportPdf, reportXlsx } from './report-export';
import { previewReport, reportFor, reportView, saveReport } from './report-service';

const PERMISSION = 'sd_capsule';

function dataCaller(request: Parameters<typeof caller>[0]): DataCaller {
  return { companyId: callerCompany(request), userId: caller(request).userId };
}

const Template = Type.Object(
  {
    title: Type.String(),
    rows: Type.Integer(),
    cols: Type.Integer(),
    colWidths: Type.Array(Type.Integer()),
    cells: Type.Array(Type.Unknown(), { description: 'ReportCell[] of packages/domain reports/template.ts' }),
    merges: Type.Array(Type.Unknown(), { description: 'ReportMerge[]' }),
  },
  { additionalProperties: true },
);

const ResolvedCell = Type.Object(
  {
    kind: Type.String({ description: 'empty | text | value | covered' }),
    text: Type.Optional(Type.String()),
    value: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    decimals: Type.Optional(Type.Integer()),
    rowSpan: Type.Optional(Type.Integer()),
    colSpan: Type.Optional(Type.Integer()),
    style: Type.Optional(
      Type.Object(
        {
          bold: Type.Optional(Type.Boolean()),
          align: Type.Optional(
            Type.Union([Type.Literal('left'), Type.Literal('center'), Type.Literal('right')]),
          ),
          fill: Type.Optional(Type.String({ description: '#rrggbb' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const Preview = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  generatedAt: Type.String(),
  timeZone: Type.String({ description: "the company's IANA time zone the windows' days begin in" }),
  title: Type.String(),
  rows: Type.Integer(),
  cols: Type.Integer(),
  colWidths: Type.Array(Type.Integer()),
  grid: Type.Array(Type.Array(ResolvedCell)),
});

/** yyyyMMdd-HHmmss of an instant in the company's zone, for file names. */
function stamp(date: Date, timeZone: string): string {
  return formatInstant(date.getTime(), 'yyyy-MM-dd HH:mm:ss', timeZone)
    .replace(/[-:]/g, '')
    .replace(' ', '-');
}

/**
 * Report templates of the data cabin, by the report node's id: get / preview / export need
 * read level (1) on the node, save needs write level (2). Routes of docs/api-data-engine.md.
 */
export default async function reportRoutes(app: App): Promise<void> {
  app.get(
    '/smartdata/report/get',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['reports'],
        summary: "A report template and its node's name; a report never saved is an empty 10 × 6 grid",
        querystring: Type.Object({ id: Id }),
        response: {
          200: Envelope(
            Type.Object({
              id: Type.Integer(),
              name: Type.String(),
              level: Type.Integer(),
              template: Template,
              updatedAt: Type.String(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const report = await reportFor(app.db, dataCaller(request), request.query.id, DATA_PERMISSION.read);
      return ok(reportView(report));
    },
  );

  app.post(
    '/smartdata/report/save',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['reports'],
        summary: 'Replace the template; bound cells name numeric fields of readable items of the company',
        body: Type.Object({ id: Id, template: Type.Unknown({ description: 'ReportTemplate' }) }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const report = await reportFor(app.db, who, request.body.id, DATA_PERMISSION.write);
      await saveReport(app.db, who, report, request.body.template);
      return ok(null, 'operation', request.lang);
    },
  );

  app.get(
    '/smartdata/report/preview',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['reports'],
        summary: 'The template filled with real data now: every binding through its acquisition method',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(Preview) },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const report = await reportFor(app.db, who, request.query.id, DATA_PERMISSION.read);
      return ok(await previewReport(app.db, who, report, new Date()));
    },
  );

  app.get(
    '/smartdata/report/export',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['reports'],
        summary: 'Download the filled report as XLSX or PDF',
        querystring: Type.Object({
          id: Id,
          format: Type.Union([Type.Literal('xlsx'), Type.Literal('pdf')]),
        }),
        response: {
          200: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the file' }),
        },
      },
    },
    async (request, reply) => {
      const who = dataCaller(request);
      const report = await reportFor(app.db, who, request.query.id, DATA_PERMISSION.read);
      const now = new Date();
      const preview = await previewReport(app.db, who, report, now);
      const format = request.query.format;
      const body =
        format === 'xlsx'
          ? await reportXlsx(preview, report.name)
          : await reportPdf(preview, {
              title: preview.title || report.name,
              generatedAt: `${formatInstant(now.getTime(), 'yyyy-MM-dd HH:mm:ss', preview.timeZone)} ${preview.timeZone} (${utcOffsetLabel(now.getTime(), preview.timeZone)})`,
            });
      return reply
        .header(
          'content-type',
          format === 'xlsx'
            ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
            : 'application/pdf',
        )
        .header('content-disposition', attachment(`${report.name}-${stamp(now, preview.timeZone)}.${format}`))
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
}
