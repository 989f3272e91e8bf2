/**
 * Charts of data items (issue 11 point 1; docs/charts.md). Menu code sd_capsule, as the chart
 * pages of the route table; then the item's data permission: read to list, open, draw and export
 * a chart, read and write to create, change and delete one. The data route answers at most
 * `width` points per series (the chart's width in pixels, bounded).
 */

import type { Readable } from 'node:stream';
import { DATA_PERMISSION, MAX_CHART_WIDTH, MIN_CHART_WIDTH, NUMERIC_FIELD_TYPES } from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { caller } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import { chartOnReadableBoard } from '../boards/service';
import { dataCaller } from '../cabin/routes';
import { companyTimeZone } from '../companies/service';
import { sendSheet } from '../records/file-routes';
import { csvStream, xlsxStream } from '../records/spreadsheet';
import { chartData } from './data';
import { chartSheet } from './export';
import { canEdit, chartItem, chartOf, checkedConfig, deleteChart, listCharts, saveChart } from './service';

const PERMISSION = 'sd_capsule';
/** drawing a stored chart: the cabin's code, or the boards' for a chart some readable board draws */
const VIEW_CODES = [PERMISSION, 'sd_board'] as const;
const BASE = '/smartdata/chart';

const Width = Type.Integer({
  minimum: MIN_CHART_WIDTH,
  maximum: MAX_CHART_WIDTH,
  description: 'the chart width in pixels: at most this many points per series',
});

const ChartRow = Type.Object({
  id: Type.Integer(),
  itemId: Type.Integer(),
  name: Type.String(),
  type: Type.String(),
  updatedAt: Type.String(),
});

const Field = Type.Object({
  key: Type.String(),
  name: Type.String(),
  unit: Type.Union([Type.String(), Type.Null()]),
  type: Type.Integer(),
});

const SeriesData = Type.Object({
  field: Type.String(),
  name: Type.String(),
  unit: Type.Union([Type.String(), Type.Null()]),
  method: Type.String(),
  from: Type.Union([Type.String(), Type.Null()]),
  to: Type.Union([Type.String(), Type.Null()]),
  source: Type.Union([Type.Literal('records'), Type.Literal('rollups'), Type.Null()]),
  bucketS: Type.Union([Type.Integer(), Type.Null()]),
  points: Type.Array(Type.Array(Type.Number()), { description: '[epoch ms, value], oldest first' }),
  value: Type.Union([Type.Number(), Type.Null()]),
});

const DataAnswer = Type.Object({
  type: Type.String(),
  maxPoints: Type.Integer(),
  series: Type.Array(SeriesData),
});

export default async function chartRoutes(app: App): Promise<void> {
  /**
   * A board viewer without the cabin's code draws a chart only when a board they can read
   * draws it (then the item's read permission applies as for anyone); otherwise the chart
   * answers as absent.
   */
  const onABoard = async (request: FastifyRequest, itemId: number, chartId: number) => {
    if (caller(request).menuCodes.has(PERMISSION)) return;
    if (!(await chartOnReadableBoard(app.db, dataCaller(request), chartId, itemId)))
      throw new AppError('notFound', {}, { field: 'id' });
  };

  app.get(
    `${BASE}/list`,
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['charts'],
        summary: "The item's charts (read permission on the item)",
        querystring: Type.Object({ itemId: Id }),
        response: { 200: Envelope(Type.Object({ canEdit: Type.Boolean(), list: Type.Array(ChartRow) })) },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const item = await chartItem(app.db, who, request.query.itemId, DATA_PERMISSION.read);
      return ok({ canEdit: await canEdit(app.db, who, item), list: await listCharts(app.db, item.id) });
    },
  );

  app.get(
    `${BASE}/get`,
    {
      config: { permission: VIEW_CODES },
      schema: {
        tags: ['charts'],
        summary:
          "A chart's configuration, with the item's numeric fields and whether the caller may change it (sd_board: a chart on a board the caller can read)",
        querystring: Type.Object({ itemId: Id, id: Id }),
        response: {
          200: Envelope(
            Type.Object({
              chart: Type.Object({ ...ChartRow.properties, config: Type.Unknown() }),
              item: Type.Object({ id: Type.Integer(), name: Type.String(), fields: Type.Array(Field) }),
              canEdit: Type.Boolean(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      await onABoard(request, request.query.itemId, request.query.id);
      const item = await chartItem(app.db, who, request.query.itemId, DATA_PERMISSION.read);
      const chart = await chartOf(app.db, item.id, request.query.id);
      return ok({
        chart,
        item: {
          id: item.id,
          name: item.name,
          fields: item.fields
            .filter((f) => NUMERIC_FIELD_TYPES.includes(f.type))
            .map((f) => ({ key: f.key, name: f.name, unit: f.unit || null, type: f.type })),
        },
        canEdit: await canEdit(app.db, who, item),
      });
    },
  );

  app.post(
    `${BASE}/save`,
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['charts'],
        summary: 'Create a chart (no id) or change one: name and configuration (read and write on the item)',
        body: Type.Object({
          itemId: Id,
          id: Type.Optional(Id),
          name: Type.String({ maxLength: 200 }),
          config: Type.Unknown({ description: 'ChartConfig (packages/domain charts/config.ts)' }),
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const item = await chartItem(app.db, who, request.body.itemId, DATA_PERMISSION.write);
      return ok(await saveChart(app.db, who, item, request.body), 'operation', request.lang);
    },
  );

  app.post(
    `${BASE}/delete`,
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['charts'],
        summary: 'Delete a chart (read and write on the item)',
        body: Type.Object({ itemId: Id, id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const item = await chartItem(app.db, dataCaller(request), request.body.itemId, DATA_PERMISSION.write);
      await deleteChart(app.db, item.id, request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.get(
    `${BASE}/data`,
    {
      config: { permission: VIEW_CODES },
      schema: {
        tags: ['charts'],
        summary:
          "A stored chart's data: per series its points (at most `width`, downsampled; long ranges from the hourly rollups) or its value (sd_board: a chart on a board the caller can read)",
        querystring: Type.Object({ itemId: Id, id: Id, width: Width }),
        response: { 200: Envelope(DataAnswer) },
      },
    },
    async (request) => {
      const q = request.query;
      await onABoard(request, q.itemId, q.id);
      const item = await chartItem(app.db, dataCaller(request), q.itemId, DATA_PERMISSION.read);
      const chart = await chartOf(app.db, item.id, q.id);
      // a stored configuration is checked again: the item's fields may have changed since
      const config = checkedConfig(item, chart.config);
      const tz = await companyTimeZone(app.db, item.companyId);
      const series = await chartData(app.db, item, config, q.width, new Date(), tz);
      return ok({ type: config.type, maxPoints: q.width, series });
    },
  );

  app.post(
    `${BASE}/preview`,
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['charts'],
        summary: "The data of a configuration not saved yet (the editor's live preview); writes nothing",
        body: Type.Object({ itemId: Id, width: Width, config: Type.Unknown() }),
        response: { 200: Envelope(DataAnswer) },
      },
    },
    async (request) => {
      const b = request.body;
      const item = await chartItem(app.db, dataCaller(request), b.itemId, DATA_PERMISSION.read);
      const config = checkedConfig(item, b.config);
      const tz = await companyTimeZone(app.db, item.companyId);
      const series = await chartData(app.db, item, config, b.width, new Date(), tz);
      return ok({ type: config.type, maxPoints: b.width, series });
    },
  );

  app.get(
    `${BASE}/export`,
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['charts'],
        summary:
          "A chart's data as CSV (UTF-8 with BOM) or XLSX: what the chart draws at `width` (default 1000)",
        querystring: Type.Object({
          itemId: Id,
          id: Id,
          format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]),
          width: Type.Optional(Width),
        }),
        response: {
          200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'the file' }),
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const item = await chartItem(app.db, dataCaller(request), q.itemId, DATA_PERMISSION.read);
      const chart = await chartOf(app.db, item.id, q.id);
      const config = checkedConfig(item, chart.config);
      const tz = await companyTimeZone(app.db, item.companyId);
      const series = await chartData(app.db, item, config, q.width ?? 1000, new Date(), tz);
      const raw = config.series.every((s) => s.method === 'raw');
      const { header, rows } = chartSheet(series, raw, request.lang, tz);
      const batches = (async function* () {
        yield rows;
      })();
      const fileName = `${chart.name}.${q.format}`;
      const body = q.format === 'csv' ? csvStream(header, batches) : xlsxStream(chart.name, header, batches);
      return sendSheet(reply, q.format, fileName, body);
    },
  );
}
