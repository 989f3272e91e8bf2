import { DATA_UPDATE_WINDOWS, NO_DATA_STATES } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Literals, Page, Paging, paging } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import { ADD_MAX, addMonitors, candidates, listMonitors, removeMonitors, setWindow } from './service';

/** Data-update monitoring (/cloudSurveillance/dataUpdate): every route needs cs_sditem_update. */
const PERMISSION = 'cs_sditem_update';

const Window = Type.Union(
  DATA_UPDATE_WINDOWS.map((w) => Type.Literal(w)),
  { description: 'minutes: 30, 60, 720 or 1440' },
);
const Instant = Type.Union([Type.String(), Type.Null()]);

const MonitorRow = Type.Object({
  id: Type.Integer(),
  kind: Literals(['item', 'device'] as const),
  itemId: Type.Union([Type.Integer(), Type.Null()]),
  deviceId: Type.Union([Type.Integer(), Type.Null()]),
  name: Type.String(),
  serialNumber: Type.Union([Type.String(), Type.Null()]),
  windowMinutes: Type.Integer(),
  lastUpdateAt: Instant,
  minutesSince: Type.Union([Type.Integer(), Type.Null()], { description: 'null: never any data' }),
  state: Literals(NO_DATA_STATES, { description: 'ok | late | alarm' }),
  stateSince: Type.String(),
  alarmId: Type.Union([Type.Integer(), Type.Null()], {
    description: 'the open no-data alarm in the alarm log (state alarm)',
  }),
  checkedAt: Instant,
  createdAt: Type.String(),
});

export default async function dataUpdateRoutes(app: App): Promise<void> {
  app.get(
    '/cloudSurveillance/dataUpdate/list',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['dataUpdate'],
        summary:
          'Monitors the caller can read, with last update, minutes since and state; most overdue first',
        querystring: Type.Object({
          state: Type.Optional(Literals(NO_DATA_STATES)),
          kind: Type.Optional(Literals(['item', 'device'] as const)),
          keyword: Type.Optional(Type.String({ maxLength: 50 })),
          sort: Type.Optional(Literals(['lateness', 'name', 'created'] as const)),
          ...Paging,
        }),
        response: { 200: Envelope(Page(MonitorRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listMonitors(app.db, dataCaller(request), {
        ...request.query,
        limit: page.limit,
        offset: page.offset,
      });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    '/cloudSurveillance/dataUpdate/candidates',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['dataUpdate'],
        summary: 'What can be watched: the readable cabin directories and data items, and readable devices',
        response: {
          200: Envelope(
            Type.Object({
              nodes: Type.Array(
                Type.Object({
                  id: Type.Integer(),
                  parentId: Type.Union([Type.Integer(), Type.Null()]),
                  type: Type.String(),
                  name: Type.String(),
                  itemId: Type.Union([Type.Integer(), Type.Null()]),
                  watched: Type.Boolean(),
                }),
              ),
              devices: Type.Array(
                Type.Object({
                  id: Type.Integer(),
                  name: Type.String(),
                  serialNumber: Type.String(),
                  watched: Type.Boolean(),
                }),
              ),
            }),
          ),
        },
      },
    },
    async (request) => ok(await candidates(app, dataCaller(request))),
  );

  app.post(
    '/cloudSurveillance/dataUpdate/add',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['dataUpdate'],
        summary: 'Watch items and devices with a window; already watched ones keep their monitor',
        body: Type.Object({
          itemIds: Type.Optional(Type.Array(Id, { maxItems: ADD_MAX })),
          deviceIds: Type.Optional(Type.Array(Id, { maxItems: ADD_MAX })),
          windowMinutes: Window,
        }),
        response: {
          200: Envelope(
            Type.Object({ added: Type.Integer(), existing: Type.Integer(), ids: Type.Array(Type.Integer()) }),
          ),
        },
      },
    },
    async (request) => {
      const result = await addMonitors(app, dataCaller(request), request.body);
      return ok(result, 'operation', request.lang);
    },
  );

  app.post(
    '/cloudSurveillance/dataUpdate/window',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['dataUpdate'],
        summary: "Change a monitor's window; it is checked again at once",
        body: Type.Object({ id: Id, windowMinutes: Window }),
        response: { 200: Envelope(MonitorRow) },
      },
    },
    async (request) =>
      ok(
        await setWindow(app, dataCaller(request), request.body.id, request.body.windowMinutes),
        'operation',
        request.lang,
      ),
  );

  app.post(
    '/cloudSurveillance/dataUpdate/delete',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['dataUpdate'],
        summary: 'Stop watching; an open no-data alarm of the monitor is cleared',
        body: Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: ADD_MAX }) }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await removeMonitors(app, dataCaller(request), request.body.ids);
      return ok(null, 'deleted', request.lang);
    },
  );
}
