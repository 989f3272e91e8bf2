/**
 * Carousels (docs/boards.md): routes under /general/smartdata/boardplay/…, menu code
 * sd_board_play. A carousel is a company's; the boards in it keep their data permissions.
 */
import { PLAY_LIMITS } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import { checkNodeName, dataCaller } from '../cabin/routes';
import { deletePlay, listPlays, playBoard, playFor, savePlay } from './play-service';
import { BoardData, BoardView } from './routes';

const PERMISSION = 'sd_board_play';

const PlayRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  entries: Type.Array(
    Type.Object({
      boardId: Type.Integer(),
      seconds: Type.Integer(),
      name: Type.Union([Type.String(), Type.Null()], {
        description: 'null: the board is gone or not readable',
      }),
    }),
  ),
  updatedAt: Type.String(),
});

export default async function boardPlayRoutes(app: App): Promise<void> {
  const tags = ['boards'];
  app.get(
    '/smartdata/boardplay/list',
    {
      config: { permission: PERMISSION },
      schema: { tags, summary: 'The company’s carousels', response: { 200: Envelope(Type.Array(PlayRow)) } },
    },
    async (request) => ok(await listPlays(app.db, dataCaller(request))),
  );

  app.get(
    '/smartdata/boardplay/get',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'A carousel with its boards in order',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(PlayRow) },
      },
    },
    async (request) => ok(await playFor(app.db, dataCaller(request), request.query.id)),
  );

  app.post(
    '/smartdata/boardplay/save',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'Create (no id) or replace a carousel: a name and boards in order with their seconds',
        body: Type.Object({
          id: Type.Optional(Type.Union([Id, Type.Null()])),
          name: Type.Optional(Type.String({ maxLength: 200 })),
          entries: Type.Array(Type.Unknown(), {
            maxItems: PLAY_LIMITS.entries,
            description: `[{boardId, seconds ${PLAY_LIMITS.secondsMin}..${PLAY_LIMITS.secondsMax}}]`,
          }),
        }),
        response: { 200: Envelope(PlayRow) },
      },
    },
    async (request) => {
      const name = (request.body.name ?? '').trim();
      checkNodeName('dashboard', name);
      const saved = await savePlay(app.db, dataCaller(request), {
        id: request.body.id ?? null,
        name,
        entries: request.body.entries,
      });
      return ok(saved, 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/boardplay/delete',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary: 'Delete a carousel (its boards stay)',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deletePlay(app.db, dataCaller(request), request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.get(
    '/smartdata/boardplay/board',
    {
      config: { permission: PERMISSION },
      schema: {
        tags,
        summary:
          'One board of a carousel for the player, with what its widgets show (read level on the board)',
        querystring: Type.Object({ id: Id, boardId: Id }),
        response: { 200: Envelope(Type.Object({ board: BoardView, data: BoardData })) },
      },
    },
    async (request) => ok(await playBoard(app.db, dataCaller(request), request.query)),
  );
}
