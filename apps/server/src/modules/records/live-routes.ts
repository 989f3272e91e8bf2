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
 * A stream never outlives its access. Whenever anything that grants access changes (the access
 * epoch, platform/access-watch.ts) the socket re-checks its token, company, code and items:
 * a token revoked (logout), expired or of a disabled user, a removal from the company or a lost
 * code ends it with `{"type":"ended", code, message, data}` (the envelope of why) and close code
 * 4401 or 4403; an item no longer readable is dropped with `{"type":"revoked","itemIds"}`.
 * A token's expiry ends the stream at that moment even if nothing changed.
 */
import { DATA_PERMISSION, ERROR_CODES } from '@platform/domain';
import { Type } from 'typebox';
import { authenticate, caller } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, errorEnvelope } from '../../platform/envelope';
import type { LiveEvent } from '../../platform/live';
import { dataCaller, PERMISSION } from './schemas';
import { itemFor } from './service';
import { withFileLinks } from './stored-files';

/** more than a page could ever show at once; keeps one socket from pinning the bus */
export const MAX_LIVE_ITEMS = 50;

/** close codes of a stream that ended because access ended (the client must not just reconnect) */
export const CLOSE_UNAUTHORISED = 4401;
export const CLOSE_FORBIDDEN = 4403;
/** setTimeout's limit (about 24.8 days); a longer-lived token is re-checked by the watch anyway */
const MAX_TIMER_MS = 2 ** 31 - 1;

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
      const { token, expiresAt } = caller(request);
      let items: number[] = [];
      let unsubscribe: (() => void) | null = null;
      let closed = false;
      // subscribes and re-checks run one after another, so a re-check always sees the items
      // the last subscribe granted and a subscribe never undoes a re-check
      let queue: Promise<void> = Promise.resolve();
      const serially = (work: () => Promise<void>) => {
        queue = queue.then(work).catch((error) => request.log.error({ err: error }, 'live socket'));
      };
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
      const listen = (ids: number[]) => {
        unsubscribe?.();
        items = ids;
        unsubscribe = ids.length ? app.live.subscribe(ids, deliver) : null;
      };
      const readable = async (ids: number[]) => {
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
        return { accepted, refused };
      };
      /** Ends the stream: the client is told why (an envelope code) and must not reconnect as is. */
      const end = (error: AppError) => {
        if (closed) return;
        listen([]);
        send({ type: 'ended', ...errorEnvelope(error, request.lang) });
        socket.close(error.code === ERROR_CODES.FORBIDDEN ? CLOSE_FORBIDDEN : CLOSE_UNAUTHORISED);
      };
      /** Access changed somewhere: is this token still good, for this company and code, and these items? */
      const recheck = async () => {
        if (closed) return;
        let now: Awaited<ReturnType<typeof authenticate>>;
        try {
          now = await authenticate(app.db, token);
        } catch (error) {
          end(error instanceof AppError ? error : new AppError('tokenInvalid'));
          return;
        }
        if (now.companyId !== who.companyId || !now.menuCodes.has(PERMISSION)) {
          end(new AppError('forbidden'));
          return;
        }
        if (items.length === 0 || closed) return;
        const { accepted, refused } = await readable(items);
        if (refused.length === 0 || closed) return;
        listen(accepted);
        send({ type: 'revoked', itemIds: refused });
      };
      // watch first, then check once: a change made between the upgrade's authentication and
      // now is caught by the check, a later one by the watch
      const stopWatching = app.accessWatch.onChange(() => {
        serially(recheck);
      });
      serially(async () => {
        await app.accessWatch.ready();
        await recheck();
      });
      const expiry = setTimeout(
        () => end(new AppError('tokenExpired')),
        Math.min(Math.max(expiresAt.getTime() - Date.now(), 0), MAX_TIMER_MS),
      );
      // listeners attached at once: a message sent right after the upgrade is not lost
      socket.on('message', (data) => {
        const ids = subscription(String(data));
        if (ids == null) {
          send({ type: 'error', message: 'expected {"subscribe":[itemId, …]}' });
          return;
        }
        serially(async () => {
          const { accepted, refused } = await readable(ids);
          if (closed) return;
          listen(accepted);
          send({ type: 'subscribed', itemIds: accepted, refused });
        });
      });
      socket.on('close', () => {
        closed = true;
        clearTimeout(expiry);
        stopWatching();
        listen([]);
      });
    },
  });
}
