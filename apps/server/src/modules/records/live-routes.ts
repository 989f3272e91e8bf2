/**
 * Live records: the WebSocket `GET /general/smartdata/live?token=…` (a browser cannot set the
 * Authorization header on a WebSocket, so the token rides in the query of the upgrade request;
 * the auth guard takes it from there for upgrades only, and the request log hides it).
 *
 * The client sends `{"subscribe":[itemId, …]}`; each item must belong to the caller's company
 * and be readable by the caller (the same check as the record list), the others are refused
 * and named in the answer `{"type":"subscribed","itemIds":[…],"refused":[…]}`. A new subscribe
 * replaces the previous one. Every record committed later to a subscribed item arrives as
 * `{"type":"records","itemId","records":[{id,ts,values,source}]}`.
 *
 * A stream never outlives its access (platform/live-access.ts, shared by every live socket):
 * whenever anything that grants access changes the socket re-checks its token, company and code,
 * and ends with `{"type":"ended", code, message, data}` and close code 4401 or 4403 when they
 * are gone; then its items: one no longer readable is dropped with `{"type":"revoked","itemIds"}`.
 * A token's expiry ends the stream at that moment even if nothing changed.
 *
 * Who may listen: holders of sd_capsule (the data cabin) to any item they can read, and board
 * viewers (sd_board) to the items a board they can read shows (a number card, table or chart
 * on it, docs/boards.md): viewing a board grants following its values, never more, and the
 * item's own data permission and company still apply.
 */
import { DATA_PERMISSION } from '@platform/domain';
import { Type } from 'typebox';
import { caller, menuCodesOf } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import type { LiveEvent } from '../../platform/live';
import { guardLiveSocket } from '../../platform/live-access';
import { itemsOnReadableBoards } from '../boards/service';
import { dataCaller, PERMISSION } from './schemas';
import { itemFor } from './service';
import { withFileLinks } from './stored-files';

/** the cabin's code (any readable item), or the boards' (items shown on a readable board) */
export const LIVE_CODES = [PERMISSION, 'sd_board'] as const;

/** more than a page could ever show at once; keeps one socket from pinning the bus */
export const MAX_LIVE_ITEMS = 50;

/** close codes of a stream that ended because access ended (platform/live-access.ts) */
export { CLOSE_FORBIDDEN, CLOSE_UNAUTHORISED } from '../../platform/live-access';

function subscription(text: string): number[] | null {
  try {
    const message = JSON.parse(text) as { subscribe?: unknown };
    if (!Array.isArray(message.subscribe)) return null;
    return [...new Set(message.subscribe)]
      .filter((id): id is number => Number.isSafeInteger(id) && (id as number) > 0)
      .slice(0, MAX_LIVE_ITEMS);
  } catch {
    return null;
  }
}

export default async function liveRoutes(app: App): Promise<void> {
  app.route({
    method: 'GET',
    url: '/smartdata/live',
    config: { permission: LIVE_CODES },
    schema: {
      tags: ['records'],
      summary:
        'WebSocket of live records: send {"subscribe":[itemId]}, receive {"type":"records","itemId","records"}',
      querystring: Type.Object({
        token: Type.Optional(
          Type.String({ maxLength: 200, description: 'the login token (upgrade requests)' }),
        ),
      }),
    },
    // a plain GET (no upgrade) has nothing to get
    handler: async () => {
      throw new AppError('validation', { field: 'upgrade' }, { field: 'upgrade' });
    },
    wsHandler: (socket, request) => {
      const who = dataCaller(request);
      const { menuCodes } = caller(request);
      /** the codes as last checked: without sd_capsule only items on a readable board */
      let codes = menuCodes;
      let items: number[] = [];
      let unsubscribe: (() => void) | null = null;
      const deliver = (event: LiveEvent) => {
        if (event.companyId !== who.companyId) return;
        const records = event.records.map((r) => ({
          ...r,
          values: withFileLinks(app.fileLinks, r.values, who.companyId),
        }));
        access.send({ type: 'records', itemId: event.itemId, records });
      };
      const listen = (ids: number[]) => {
        unsubscribe?.();
        items = ids;
        unsubscribe = ids.length ? app.live.subscribe(ids, deliver) : null;
      };
      const readable = async (ids: number[]) => {
        const accepted: number[] = [];
        const refused: number[] = [];
        const onBoards = codes.has(PERMISSION) ? null : await itemsOnReadableBoards(app.db, who, ids);
        for (const id of ids) {
          try {
            if (onBoards && !onBoards.has(id)) throw new AppError('notFound');
            await itemFor(app.db, who, id, DATA_PERMISSION.read);
            accepted.push(id);
          } catch {
            refused.push(id);
          }
        }
        return { accepted, refused };
      };
      const access = guardLiveSocket(app, socket, request, {
        permission: LIVE_CODES,
        label: 'live socket',
        // the token still holds: are these items still readable?
        afterCheck: async () => {
          codes = await menuCodesOf(app.db, who.userId, who.companyId);
          if (items.length === 0) return;
          const { accepted, refused } = await readable(items);
          if (refused.length === 0 || access.closed) return;
          listen(accepted);
          access.send({ type: 'revoked', itemIds: refused });
        },
        onStop: () => listen([]),
      });
      // listeners attached at once: a message sent right after the upgrade is not lost
      socket.on('message', (data) => {
        const ids = subscription(String(data));
        if (ids == null) {
          access.send({ type: 'error', message: 'expected {"subscribe":[itemId, …]}' });
          return;
        }
        access.serially(async () => {
          const { accepted, refused } = await readable(ids);
          if (access.closed) return;
          listen(accepted);
          access.send({ type: 'subscribed', itemIds: accepted, refused });
        });
      });
    },
  });
}
