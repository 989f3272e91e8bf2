/**
 * The access rules every live socket keeps (records, devices, alarms): a stream never outlives
 * its access. The upgrade was authenticated by the guard (token in the query) for the route's
 * code; from then on, whenever anything that grants access changes (the access epoch,
 * platform/access-watch.ts) the socket checks its token again: a token revoked (logout),
 * expired or of a disabled user, a move to another company or a lost code ends the stream with
 * `{"type":"ended", code, message, data}` (the envelope of why) and close code 4401 or 4403.
 * A token's expiry ends it at that moment even if nothing changed.
 *
 * Work of one socket (the checks, and whatever the route queues with `serially`) runs one piece
 * after another, so a re-check always sees what the last subscribe granted and a subscribe
 * never undoes a re-check. The first check runs once the access watch is ready: a change made
 * between the upgrade's authentication and then is caught by it, a later one by the watch.
 */
import { ERROR_CODES, type MenuCode } from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { authenticate, caller, holdsPermission } from './auth';
import type { App } from './context';
import { AppError, errorEnvelope } from './envelope';

/** close codes of a stream that ended because access ended (the client must not just reconnect) */
export const CLOSE_UNAUTHORISED = 4401;
export const CLOSE_FORBIDDEN = 4403;
/** setTimeout's limit (about 24.8 days); a longer-lived token is re-checked by the watch anyway */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface LiveAccessOptions {
  /** the code (or any of the codes) the socket's route needs */
  permission: MenuCode | readonly MenuCode[];
  /** what the request log calls this socket's failures */
  label: string;
  /**
   * Runs after each check that the token, company and code passed (access may still have
   * narrowed: forget or re-check what the caller could read). Queued like any other work.
   */
  afterCheck?: () => Promise<void> | void;
  /** Runs once when the stream stops, ended or closed: unsubscribe here. */
  onStop: () => void;
}

export interface LiveAccess {
  /** true once the stream ended or the socket closed: send nothing, subscribe nothing */
  readonly closed: boolean;
  /** sends JSON while the stream is open */
  send(message: unknown): void;
  /** runs `work` after every piece queued before it (checks included); failures are logged */
  serially(work: () => Promise<void> | void): void;
  /** ends the stream: the client is told why and the socket closes with 4401 or 4403 */
  end(error: AppError): void;
}

/** Keeps a live socket's access; call from the route's wsHandler before anything is sent. */
export function guardLiveSocket(
  app: App,
  socket: WebSocket,
  request: FastifyRequest,
  options: LiveAccessOptions,
): LiveAccess {
  const { token, expiresAt, companyId } = caller(request);
  let closed = false;
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    options.onStop();
  };
  let queue: Promise<void> = Promise.resolve();
  const access: LiveAccess = {
    get closed() {
      return closed;
    },
    send(message) {
      if (!closed && socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
    },
    serially(work) {
      queue = queue.then(work).catch((error: unknown) => request.log.error({ err: error }, options.label));
    },
    end(error) {
      if (closed) return;
      access.send({ type: 'ended', ...errorEnvelope(error, request.lang) });
      closed = true;
      stop();
      socket.close(error.code === ERROR_CODES.FORBIDDEN ? CLOSE_FORBIDDEN : CLOSE_UNAUTHORISED);
    },
  };
  /** Access changed somewhere: is this token still good, for this company and code? */
  const recheck = async () => {
    if (closed) return;
    try {
      const now = await authenticate(app.db, token);
      if (now.companyId !== companyId || !holdsPermission(now.menuCodes, options.permission)) {
        access.end(new AppError('forbidden'));
        return;
      }
    } catch (error) {
      access.end(error instanceof AppError ? error : new AppError('tokenInvalid'));
      return;
    }
    if (!closed) await options.afterCheck?.();
  };
  // watch first, then check once
  const stopWatching = app.accessWatch.onChange(() => access.serially(recheck));
  access.serially(async () => {
    await app.accessWatch.ready();
    await recheck();
  });
  const expiry = setTimeout(
    () => access.end(new AppError('tokenExpired')),
    Math.min(Math.max(expiresAt.getTime() - Date.now(), 0), MAX_TIMER_MS),
  );
  socket.on('close', () => {
    closed = true;
    clearTimeout(expiry);
    stopWatching();
    stop();
  });
  return access;
}
