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
 */
import { DATA_PERMISSION } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import type { LiveEvent } from '../../platform/live';
import { dataCaller, PERMISSION } from './schemas';
import { itemFor } from './service';
import { withFileLinks } from './stored-files';

/** more than a page could ever show at once; keeps one socket from pinning the bus */
export const MAX_LIVE_ITEMS = 50;

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
    config: { permission: PERMISSION },
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
      let unsubscribe: (() => void) | null = null;
      let closed = false;
      const send = (message: unknown) => {
        if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      };
      const deliver = (event: LiveEvent) => {
        if (event.companyId !== who.companyId) return;
        const records = event.records.map((r) => ({
          ...r,
          values: withFileLinks(app.fileLinks, r.values, who.companyId),
        }));
        send({ type: 'records', itemId: event.itemId, records });
      };
      // listeners attached at once: a message sent right after the upgrade is not lost
      socket.on('message', async (data) => {
        const ids = subscription(String(data));
        if (ids == null) {
          send({ type: 'error', message: 'expected {"subscribe":[itemId, …]}' });
          return;
        }
        const accepted: number[] = [];
        const refused: number[] = [];
        for (const id of ids) {
          try {
            await itemFor(app.db, who, id, DATA_PERMISSION.read);
            accepted.push(id);
          } catch {
            refused.push(id);
          }
        }
        if (closed) return;
        unsubscribe?.();
        unsubscribe = accepted.length ? app.live.subscribe(accepted, deliver) : null;
        send({ type: 'subscribed', itemIds: accepted, refused });
      });
      socket.on('close', () => {
        closed = true;
        unsubscribe?.();
        unsubscribe = null;
      });
    },
  });
}
