/**
 * Boards (docs/boards.md): routes under /general/smartdata/board/…, menu code sd_board. A board
 * is addressed by the id of its cabin node (type `dashboard`, or `dashboardTemplate` for a
 * company's own templates); rename, move and delete go through the cabin routes. Carousels are
 * in play-routes.ts (sd_board_play).
 */
import { BUILT_IN_TEMPLATES, DATA_PERMISSION } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import { checkNodeName, dataCaller } from '../cabin/routes';
import {
  boardData,
  boardFor,
  createBoard,
  listBoards,
  openBoard,
  readableCharts,
  readableItems,
  recentBoards,
  saveBoard,
  selectWidget,
} from './service';

const PERMISSION = 'sd_board';

const ModeSchema = Type.Union([Type.Literal('grid'), Type.Literal('canvas')]);
const NodeTypeSchema = Type.Union([Type.Literal('dashboard'), Type.Literal('dashboardTemplate')]);

export const BoardRow = Type.Object({
  id: Type.Integer({ description: 'cabin node id' }),
  type: NodeTypeSchema,
  name: Type.String(),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  mode: ModeSchema,
  widgetCount: Type.Integer(),
  level: Type.Integer({ description: 'the caller’s data permission: 1 read, 2 write, 3 admin' }),
  version: Type.Integer({ description: '0: never saved; each save adds one' }),
  updatedAt: Type.String(),
});

/** the body is checked by checkBoardBody of packages/domain, which names the broken field */
const BoardBodySchema = Type.Unknown({
  description: 'BoardBody: mode, width, height, scale, background, widgets',
});

export const BoardView = Type.Object({
  ...BoardRow.properties,
  body: BoardBodySchema,
  selectedWidget: Type.Union([Type.String(), Type.Null()]),
});

export const BoardData = Type.Object({
  items: Type.Array(
    Type.Object({
      itemId: Type.Integer(),
      name: Type.String(),
      fields: Type.Array(Type.Unknown()),
      records: Type.Array(Type.Object({ id: Type.Integer(), ts: Type.String(), values: Type.Unknown() })),
    }),
  ),
  missingItemIds: Type.Array(Type.Integer()),
  devices: Type.Union([
    Type.Array(
      Type.Object({
        id: Type.Integer(),
        name: Type.String(),
        online: Type.Boolean(),
        changedAt: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
    Type.Null(),
  ]),
  at: Type.String(),
});

export default async function boardRoutes(app: App): Promise<void> {
  const tags = ['boards'];
  app.get(
    '/smartdata/board/list',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'Boards and board templates the caller can read',
        response: { 200: Envelope(Type.Array(BoardRow)) },
      },
    },
    async (request) => ok(await listBoards(app.db, dataCaller(request))),
  );

  app.get(
    '/smartdata/board/templates',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'Built-in board templates (a company’s own are boards of type dashboardTemplate)',
        response: {
          200: Envelope(
            Type.Array(
              Type.Object({
                code: Type.String(),
                name: Type.Object({ zh: Type.String(), en: Type.String() }),
                body: BoardBodySchema,
              }),
            ),
          ),
        },
      },
    },
    async () => ok(BUILT_IN_TEMPLATES.map((t) => ({ ...t }))),
  );

  app.post(
    '/smartdata/board/create',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary:
          'A new board in a directory: empty, from a built-in template or from a board the caller can read',
        body: Type.Object({
          parentId: Type.Optional(Type.Union([Id, Type.Null()])),
          name: Type.Optional(Type.String({ maxLength: 200 })),
          type: Type.Optional(NodeTypeSchema),
          mode: Type.Optional(ModeSchema),
          template: Type.Optional(Type.Union([Type.String({ maxLength: 40 }), Type.Null()])),
          fromId: Type.Optional(Type.Union([Id, Type.Null()])),
        }),
        response: { 200: Envelope(BoardView) },
      },
    },
    async (request) => {
      const b = request.body;
      const name = (b.name ?? '').trim();
      checkNodeName('dashboard', name);
      const created = await createBoard(app.db, dataCaller(request), {
        parentId: b.parentId ?? null,
        name,
        type: b.type ?? 'dashboard',
        mode: b.mode ?? 'grid',
        template: b.template ?? null,
        fromId: b.fromId ?? null,
      });
      return ok(created, 'operation', request.lang);
    },
  );

  app.get(
    '/smartdata/board/get',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'A board with its body and the caller’s last selected widget (read level)',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(BoardView) },
      },
    },
    async (request) =>
      ok(await boardFor(app.db, dataCaller(request), request.query.id, DATA_PERMISSION.read)),
  );

  app.post(
    '/smartdata/board/open',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary:
          'A board opened for display, with what its widgets show; remembered for “boards I opened last”',
        body: Type.Object({ id: Id }),
        response: { 200: Envelope(Type.Object({ board: BoardView, data: BoardData })) },
      },
    },
    async (request) => {
      const caller = dataCaller(request);
      const board = await openBoard(app.db, caller, request.body.id);
      return ok({ board, data: await boardData(app.db, caller, board.body) });
    },
  );

  app.get(
    '/smartdata/board/data',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'What a board’s widgets show now: newest records of its readable items, device states',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(BoardData) },
      },
    },
    async (request) => {
      const caller = dataCaller(request);
      const board = await boardFor(app.db, caller, request.query.id, DATA_PERMISSION.read);
      return ok(await boardData(app.db, caller, board.body));
    },
  );

  app.get(
    '/smartdata/board/items',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'The data items the caller can read, with their fields (the designer’s item pickers)',
        response: {
          200: Envelope(
            Type.Array(
              Type.Object({ id: Type.Integer(), name: Type.String(), fields: Type.Array(Type.Unknown()) }),
            ),
          ),
        },
      },
    },
    async (request) => ok(await readableItems(app.db, dataCaller(request))),
  );

  app.get(
    '/smartdata/board/charts',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary:
          'Every chart of the data items the caller can read, with its item (the chart widget’s picker)',
        response: {
          200: Envelope(
            Type.Array(
              Type.Object({
                id: Type.Integer(),
                name: Type.String(),
                type: Type.String(),
                itemId: Type.Integer(),
                itemName: Type.String(),
              }),
            ),
          ),
        },
      },
    },
    async (request) => ok(await readableCharts(app.db, dataCaller(request))),
  );

  app.post(
    '/smartdata/board/save',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'Save a body based on the version loaded (write level); a stale version is refused (40900)',
        body: Type.Object({ id: Id, version: Type.Integer({ minimum: 0 }), body: BoardBodySchema }),
        response: { 200: Envelope(BoardView) },
      },
    },
    async (request) => {
      const { id, version, body } = request.body;
      return ok(
        await saveBoard(app.db, dataCaller(request), { id, version, body }),
        'operation',
        request.lang,
      );
    },
  );

  app.post(
    '/smartdata/board/select',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'Remember the widget the caller selected last on a board (read level)',
        body: Type.Object({
          id: Id,
          widgetId: Type.Union([Type.String({ maxLength: 32 }), Type.Null()]),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await selectWidget(app.db, dataCaller(request), request.body);
      return ok(null);
    },
  );

  app.get(
    '/smartdata/board/recent',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'The boards the caller opened last (still readable), most recent first',
        response: {
          200: Envelope(
            Type.Array(
              Type.Object({
                id: Type.Integer(),
                name: Type.String(),
                mode: ModeSchema,
                openedAt: Type.String(),
              }),
            ),
          ),
        },
      },
    },
    async (request) => ok(await recentBoards(app.db, dataCaller(request))),
  );
}
