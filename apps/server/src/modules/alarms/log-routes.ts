/**
 * The alarm log (cs_info): list with filters, counts of what is open, acknowledge with a
 * comment, clear, CSV/XLSX export, and the live socket the alarm pages and the home card
 * listen on: `GET /general/cloudSurveillance/alarm/live?token=…` sends
 * `{"type":"alarm", alarmId, change, level, status, name, value, itemId, mine}` for each change
 * of an alarm of the caller's company on an item the caller can read (`mine`: the caller was
 * told of it), raised on any server node (the live channel `alarms`). Like every live socket
 * (platform/live-access.ts), it ends when the token, the company membership or the cs_info code
 * goes (checked on every access change and at the token's expiry).
 */
import type { Readable } from 'node:stream';
import {
  ALARM_LOG_TEXT,
  alarmLogHeader,
  alarmStatusText,
  DATA_PERMISSION,
  type Lang,
  zonedParts,
} from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError, ok } from '../../platform/envelope';
import { guardLiveSocket } from '../../platform/live-access';
import { EmptyEnvelope, Envelope, Id, Literals, Page, Paging, paging } from '../../platform/schemas';
import { companyTimeZone } from '../companies/service';
import { sendSheet, stamp } from '../records/file-routes';
import { parseInstant } from '../records/query';
import { dataCaller } from '../records/schemas';
import { itemFor } from '../records/service';
import { csvStream, type OutCell, xlsxStream } from '../records/spreadsheet';
import {
  ALARM_SORTS,
  type AlarmFilter,
  type AlarmView,
  alarmBatches,
  alarmFor,
  listAlarms,
  openCounts,
} from './log-query';
import { ALARM_STATUSES } from './tables';

export const LOG_CODE = 'cs_info';
const BASE = '/cloudSurveillance/alarm';

const AlarmRow = Type.Object({
  id: Type.Integer(),
  origin: Type.String(),
  ruleId: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  itemId: Type.Union([Type.Integer(), Type.Null()]),
  itemName: Type.Union([Type.String(), Type.Null()]),
  fieldKey: Type.Union([Type.String(), Type.Null()]),
  deviceId: Type.Union([Type.Integer(), Type.Null()]),
  deviceName: Type.Union([Type.String(), Type.Null()]),
  level: Type.Integer(),
  peakLevel: Type.Integer(),
  value: Type.Union([Type.Number(), Type.Null()]),
  status: Type.String(),
  firedAt: Type.String(),
  updatedAt: Type.String(),
  acknowledgedAt: Type.Union([Type.String(), Type.Null()]),
  acknowledgedBy: Type.Union([Type.String(), Type.Null()]),
  ackComment: Type.Union([Type.String(), Type.Null()]),
  clearedAt: Type.Union([Type.String(), Type.Null()]),
  clearedBy: Type.Union([Type.String(), Type.Null()]),
  clearValue: Type.Union([Type.Number(), Type.Null()]),
});

const Filters = {
  level: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
  itemId: Type.Optional(Id),
  deviceId: Type.Optional(Id),
  status: Type.Optional(Literals([...ALARM_STATUSES, 'open'] as const)),
  from: Type.Optional(Type.String({ maxLength: 40, description: 'ISO instant: fired at or after' })),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO instant: fired at or before' })),
  sortField: Type.Optional(Literals(ALARM_SORTS)),
  sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
};

type FilterQuery = {
  level?: number;
  itemId?: number;
  deviceId?: number;
  status?: AlarmFilter['status'];
  from?: string;
  to?: string;
};

function filterOf(q: FilterQuery): AlarmFilter {
  return {
    level: q.level,
    itemId: q.itemId,
    deviceId: q.deviceId,
    status: q.status,
    from: parseInstant('from', q.from),
    to: parseInstant('to', q.to),
  };
}

function localTime(iso: string | null, tz: string): string {
  if (!iso) return '';
  const p = zonedParts(new Date(iso).getTime(), tz);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)} ${two(p.hour)}:${two(p.minute)}:${two(p.second)}`;
}

function exportRow(a: AlarmView, lang: Lang, tz: string): OutCell[] {
  const num = (v: number | null): OutCell => (v === null ? '' : { number: v });
  return [
    { number: a.id },
    a.name,
    a.itemName ?? '',
    a.deviceName ?? '',
    { number: a.level },
    { number: a.peakLevel },
    num(a.value),
    alarmStatusText(a.status, lang),
    localTime(a.firedAt, tz),
    localTime(a.acknowledgedAt, tz),
    a.acknowledgedBy ?? '',
    a.ackComment ?? '',
    localTime(a.clearedAt, tz),
    a.clearedAt ? (a.clearedBy ?? ALARM_LOG_TEXT.automatic[lang]) : '',
    num(a.clearValue),
  ];
}

export default async function logRoutes(app: App): Promise<void> {
  app.get(
    `${BASE}/list`,
    {
      config: { permission: LOG_CODE },
      schema: {
        tags: ['alarms'],
        summary: 'A page of the alarm log (alarms of items the caller can read), newest first by default',
        querystring: Type.Object({
          ...Paging,
          ...Filters,
          mine: Type.Optional(Type.Boolean({ description: 'only alarms the caller was told of' })),
        }),
        response: { 200: Envelope(Page(AlarmRow)) },
      },
    },
    async (request) => {
      const q = request.query;
      const who = dataCaller(request);
      const page = paging(q);
      const filter = { ...filterOf(q), notifiedUserId: q.mine ? who.userId : undefined };
      const { list, total } = await listAlarms(app.db, who, filter, page, q.sortField, q.sortOrder);
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    `${BASE}/counts`,
    {
      config: { permission: LOG_CODE },
      schema: {
        tags: ['alarms'],
        summary: 'Open alarms by level (the alert dashboard; with mine, the home card)',
        querystring: Type.Object({
          mine: Type.Optional(Type.Boolean({ description: 'only alarms the caller was told of' })),
        }),
        response: {
          200: Envelope(Type.Object({ '1': Type.Integer(), '2': Type.Integer(), '3': Type.Integer() })),
        },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      return ok(await openCounts(app.db, who, request.query.mine ? who.userId : undefined));
    },
  );

  app.post(
    `${BASE}/acknowledge`,
    {
      config: { permission: LOG_CODE },
      schema: {
        tags: ['alarms'],
        summary: 'Acknowledge an active alarm with a comment',
        body: Type.Object({ id: Id, comment: Type.String({ minLength: 1, maxLength: 500 }) }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const comment = request.body.comment.trim();
      if (!comment) throw new AppError('fieldRequired', { field: 'comment' }, { field: 'comment' });
      await alarmFor(app.db, who, request.body.id);
      await app.alarms.acknowledge(who.companyId, request.body.id, who.userId, comment);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    `${BASE}/clear`,
    {
      config: { permission: LOG_CODE },
      schema: {
        tags: ['alarms'],
        summary: 'Clear an open alarm by hand; its rule fires again on the next breach',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      await alarmFor(app.db, who, request.body.id);
      await app.alarms.clearByHand(who.companyId, request.body.id, who.userId);
      return ok(null, 'operation', request.lang);
    },
  );

  app.get(
    `${BASE}/export`,
    {
      config: { permission: LOG_CODE },
      schema: {
        tags: ['alarms'],
        summary: 'Download the filtered alarm log as CSV (UTF-8 with BOM) or XLSX',
        querystring: Type.Object({
          format: Type.Union([Type.Literal('csv'), Type.Literal('xlsx')]),
          ...Filters,
        }),
        response: {
          200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'the file' }),
        },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const who = dataCaller(request);
      const lang = request.lang;
      const filter = filterOf(q);
      const tz = await companyTimeZone(app.db, who.companyId);
      const batches = (async function* () {
        for await (const batch of alarmBatches(
          app.db,
          who,
          filter,
          q.sortField ?? 'firedAt',
          q.sortOrder ?? 'desc',
        ))
          yield batch.map((a) => exportRow(a, lang, tz));
      })();
      const title = ALARM_LOG_TEXT.title[lang];
      const header = alarmLogHeader(lang);
      const fileName = `${title}-${stamp(new Date())}.${q.format}`;
      const body = q.format === 'csv' ? csvStream(header, batches) : xlsxStream(title, header, batches);
      return sendSheet(reply, q.format, fileName, body);
    },
  );

  app.route({
    method: 'GET',
    url: `${BASE}/live`,
    config: { permission: LOG_CODE },
    schema: {
      tags: ['alarms'],
      summary:
        'WebSocket of alarm changes: receive {"type":"alarm", alarmId, change, level, status, name, value, itemId, mine}',
      querystring: Type.Object({
        token: Type.Optional(
          Type.String({ maxLength: 200, description: 'the login token (upgrade requests)' }),
        ),
      }),
    },
    handler: async () => {
      throw new AppError('validation', { field: 'upgrade' }, { field: 'upgrade' });
    },
    wsHandler: (socket, request) => {
      const who = dataCaller(request);
      /** item id → readable, worked out afresh after each access check */
      const readable = new Map<number, Promise<boolean>>();
      const canRead = (itemId: number | null): Promise<boolean> => {
        if (itemId === null) return Promise.resolve(true);
        let known = readable.get(itemId);
        if (!known) {
          known = itemFor(app.db, who, itemId, DATA_PERMISSION.read).then(
            () => true,
            () => false,
          );
          readable.set(itemId, known);
        }
        return known;
      };
      let unsubscribe = () => {};
      const access = guardLiveSocket(app, socket, request, {
        permission: LOG_CODE,
        label: 'alarm socket',
        afterCheck: () => readable.clear(),
        onStop: () => unsubscribe(),
      });
      // changes leave in the order they came, each after its item's check
      unsubscribe = app.alarms.changes.subscribe(who.companyId, (change) => {
        if (change.companyId !== who.companyId) return;
        access.serially(async () => {
          if (!(await canRead(change.itemId))) return;
          const { companyId: _c, notified, ...rest } = change;
          access.send({ type: 'alarm', ...rest, mine: notified.includes(who.userId) });
        });
      });
      // any message is a ping: answered after the first access check and every change queued
      // before it, so a client knows from then on it hears every change
      socket.on('message', () => {
        access.serially(() => access.send({ type: 'ready' }));
      });
    },
  });
}
