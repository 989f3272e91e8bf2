/**
 * The serial debug assistant's way to a gateway's port (docs/comdebug.md) and device commands.
 *
 * `GET /devicemanagement/passthrough/session?token=…&id=<device>&port=<n>` is a WebSocket (code
 * cd_device, the /comDebug page's): it opens a passthrough session on the port when the device
 * is bound to the caller's company, online, has that port, nobody else holds the port, and the
 * caller has the device's read-write level. Then
 * - the client sends `{"type":"send","data":"01 03 00 00 00 01 84 0A"}` (hex by the seed's rule,
 *   at most 256 bytes, at most 10 sends a second) and gets `{"type":"tx",data,at}` once it went;
 *   a refused send is `{"type":"error",code,message,data:{field}}` and the session stays open;
 * - what the port answers arrives as `{"type":"rx",port,data,at}`;
 * - `{"type":"ping"}` is answered `{"type":"pong"}` after everything before it.
 * The server sends `{"type":"opened",…}` first, or `{"type":"ended",code,message,data}` and
 * closes (4401 login gone, 4403 permission gone, 4400 refused: offline, in use, no such port,
 * no such device). A session ends too when the gateway goes offline or leaves the company, the
 * token expires, or access changes so the caller may no longer operate the device. Opening
 * (also a refused opening by someone who may operate the device) and closing are entries of
 * the device's operation log; the bytes are not.
 *
 * `POST /devicemanagement/device/command` `{id, command: "reboot" | "readNow"}` sends a command
 * to a bound online gateway (read-write level), logged with its result: readNow when it went
 * out, reboot when the gateway is back with its birth message (pending until then, failed
 * after REBOOT_WITHIN_MS).
 */
import { DATA_PERMISSION, ERROR_CODES, parseHex, toHex } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { authenticate, caller, holdsPermission } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, errorEnvelope, fieldError, ok } from '../../platform/envelope';
import { Envelope, Id, Literals } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import { deviceFor, requireDeviceLevel } from '../devices/access';
import { logOperation, settleOperation } from '../devices/operation-log';
import { DEVICE_CODES } from '../devices/schemas';
import { CLOSE_FORBIDDEN, CLOSE_UNAUTHORISED } from '../records/live-routes';
import { users } from '../users/tables';
import { MAX_SEND_BYTES, passthroughSessions, SENDS_PER_SECOND, type Session, takeSend } from './sessions';

/** the code of the serial debug assistant (/comDebug) */
export const COMDEBUG_CODES = ['cd_device'] as const;
/** the socket was refused or ended for a reason of the device (offline, in use, no such port) */
export const CLOSE_REFUSED = 4400;
/** a reboot not followed by the gateway's birth message within this long failed */
export const REBOOT_WITHIN_MS = 3 * 60_000;
const MAX_TIMER_MS = 2 ** 31 - 1;
export const COMMANDS = ['reboot', 'readNow'] as const;

function closeCodeOf(error: AppError): number {
  if (error.code === ERROR_CODES.TOKEN_INVALID || error.code === ERROR_CODES.TOKEN_EXPIRED)
    return CLOSE_UNAUTHORISED;
  if (error.code === ERROR_CODES.FORBIDDEN) return CLOSE_FORBIDDEN;
  return CLOSE_REFUSED;
}

export default async function passthroughRoutes(app: App): Promise<void> {
  const sessions = passthroughSessions(app);
  app.gateways.onUp('passthrough', (message) => sessions.answer(message));

  /** reboots waiting for the gateway's birth message: gateway id → operation ids and timers */
  const reboots = new Map<number, Array<{ operationId: number; timer: NodeJS.Timeout }>>();

  app.gateways.onState(async ({ before, after }) => {
    // offline, or no longer bound to the session's company: its sessions end
    for (const session of sessions.ofGateway(after.id)) {
      if (!after.online || after.companyId !== session.companyId) session.end('offline');
    }
    // back online after a reboot: the reboot succeeded
    const back =
      after.online && (!before.online || (after.session !== null && after.session !== before.session));
    const waiting = reboots.get(after.id);
    if (back && waiting) {
      reboots.delete(after.id);
      for (const { operationId, timer } of waiting) {
        clearTimeout(timer);
        await settleOperation(app.db, operationId, 'ok', {
          data: { command: 'reboot', firmware: after.firmware },
        });
      }
    }
  });
  app.addHook('onClose', async () => {
    for (const waiting of reboots.values()) for (const { timer } of waiting) clearTimeout(timer);
    reboots.clear();
  });

  app.post(
    '/devicemanagement/device/command',
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary:
          'Send reboot or readNow to a bound online gateway (read-write level); logged with its result (a reboot stays pending until the gateway is back)',
        body: Type.Object({ id: Id, command: Literals(COMMANDS) }),
        response: {
          200: Envelope(
            Type.Object({ operationId: Type.Integer(), result: Literals(['ok', 'pending'] as const) }),
          ),
        },
      },
    },
    async (request) => {
      const { id, command } = request.body;
      const device = await requireDeviceLevel(app, request, id, DATA_PERMISSION.write);
      const who = dataCaller(request);
      const base = {
        companyId: who.companyId,
        gatewayId: id,
        kind: 'command' as const,
        actor: { userId: who.userId },
      };
      if (!device.online) {
        await logOperation(app.db, {
          ...base,
          result: 'failed',
          detail: `${command}: the gateway is offline`,
          data: { command, reason: 'offline' },
        });
        throw new AppError('gatewayOfflineCommand');
      }
      const operationId = await logOperation(app.db, {
        ...base,
        result: 'pending',
        detail: command,
        data: { command },
      });
      try {
        await app.gateways.send(device.serialNumber, 'command', { command }, 1);
      } catch (error) {
        request.log.warn({ err: error }, 'a command could not be sent');
        await settleOperation(app.db, operationId, 'failed', { data: { command, reason: 'broker' } });
        throw new AppError('mqttBrokerUnavailableGateway');
      }
      if (command === 'readNow') {
        await settleOperation(app.db, operationId, 'ok');
        return ok({ operationId, result: 'ok' as const }, 'operation', request.lang);
      }
      const timer = setTimeout(() => {
        const waiting = reboots.get(id)?.filter((w) => w.operationId !== operationId) ?? [];
        if (waiting.length) reboots.set(id, waiting);
        else reboots.delete(id);
        settleOperation(app.db, operationId, 'failed', {
          data: { command, reason: 'noBirth' },
        }).catch((error: unknown) => app.log.warn({ err: error }, 'could not settle a reboot'));
      }, REBOOT_WITHIN_MS);
      timer.unref();
      reboots.set(id, [...(reboots.get(id) ?? []), { operationId, timer }]);
      return ok({ operationId, result: 'pending' as const }, 'operation', request.lang);
    },
  );

  app.route({
    method: 'GET',
    url: '/devicemanagement/passthrough/session',
    config: { permission: [...COMDEBUG_CODES] },
    schema: {
      tags: ['devices'],
      summary:
        'WebSocket of a serial passthrough session on a port of a bound online gateway (read-write level): {"type":"send","data":"hex"} out, {"type":"rx",…} back',
      querystring: Type.Object({
        token: Type.Optional(
          Type.String({ maxLength: 200, description: 'the login token (upgrade requests)' }),
        ),
        id: Id,
        port: Type.Integer({ minimum: 0, maximum: 255 }),
      }),
    },
    handler: async () => {
      throw new AppError('validation', { field: 'upgrade' }, { field: 'upgrade' });
    },
    wsHandler: (socket, request) => {
      const who = dataCaller(request);
      const { token, expiresAt } = caller(request);
      const { id: deviceId, port } = request.query as { id: number; port: number };
      let closed = false;
      let session: Session | null = null;
      let finished = false;
      const send = (message: unknown) => {
        if (!closed && socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
      };
      const log = (result: 'ok' | 'failed', data: Record<string, unknown>, detail: string) =>
        logOperation(app.db, {
          companyId: who.companyId,
          gatewayId: deviceId,
          kind: 'passthrough',
          actor: { userId: who.userId },
          result,
          detail,
          data: { port, ...data },
        }).catch((error: unknown) => request.log.warn({ err: error }, 'passthrough log'));

      // messages of one socket are handled one at a time, in order
      let queue: Promise<void> = Promise.resolve();
      let queued = 0;
      const serially = (work: () => Promise<void>) => {
        queued += 1;
        queue = queue
          .then(work)
          .catch((error) => request.log.error({ err: error }, 'passthrough socket'))
          .finally(() => {
            queued -= 1;
          });
      };

      /** the session ends: the port is free, the log says so (once) */
      const finish = () => {
        if (finished) return;
        finished = true;
        if (!session) return;
        sessions.close(session);
        const { sent, received } = session;
        void log('ok', { action: 'close', sent, received }, `closed port ${port}`);
      };
      const end = (error: AppError) => {
        if (closed) return;
        send({ type: 'ended', ...errorEnvelope(error, request.lang) });
        closed = true;
        finish();
        socket.close(closeCodeOf(error));
      };

      /** the device as the caller may operate it now; throws the reason otherwise */
      const operable = async () => {
        const device = await deviceFor(app.db, who, deviceId, DATA_PERMISSION.write, 'id');
        if (!device.gateway.online) throw new AppError('gatewayOfflinePassthrough');
        return device;
      };

      const open = async () => {
        await app.accessWatch.ready();
        let device: Awaited<ReturnType<typeof operable>>;
        try {
          device = await deviceFor(app.db, who, deviceId, DATA_PERMISSION.write, 'id');
        } catch (error) {
          end(error instanceof AppError ? error : new AppError('internal'));
          return;
        }
        const refuse = (error: AppError, reason: string) => {
          void log('failed', { action: 'open', reason }, `port ${port}: ${reason}`);
          end(error);
        };
        if (!device.gateway.online) return refuse(new AppError('gatewayOfflinePassthrough'), 'offline');
        if (!device.gateway.ports.some((p) => p.port === port))
          return refuse(new AppError('passthroughPortUnknown', { port }, { field: 'port' }), 'noPort');
        const [me] = await app.db
          .select({ userName: users.userName })
          .from(users)
          .where(eq(users.id, who.userId));
        if (closed) return;
        const holder = sessions.holder(deviceId, port);
        const opened = holder
          ? null
          : sessions.open(
              {
                userId: who.userId,
                userName: me?.userName ?? String(who.userId),
                companyId: who.companyId,
                gatewayId: deviceId,
                serialNumber: device.serialNumber,
                port,
              },
              (answer) => send({ type: 'rx', ...answer }),
              () => end(new AppError('gatewayOfflinePassthrough')),
            );
        if (!opened) {
          const name = holder?.userName ?? '';
          return refuse(
            new AppError('passthroughPortInUse', { port, name }, { field: 'port', name }),
            'inUse',
          );
        }
        session = opened;
        void log('ok', { action: 'open' }, `opened port ${port}`);
        send({
          type: 'opened',
          device: { id: deviceId, name: device.name, serialNumber: device.serialNumber },
          port,
          limits: { maxBytes: MAX_SEND_BYTES, sendsPerSecond: SENDS_PER_SECOND },
        });
      };

      const sendBytes = async (data: unknown) => {
        const s = session;
        if (closed || !s) return;
        const refused = (error: AppError) => send({ type: 'error', ...errorEnvelope(error, request.lang) });
        if (typeof data !== 'string' || data.length === 0)
          return refused(fieldError('data', typeof data === 'string' ? 'passthroughEmpty' : 'validation'));
        if (data.length > MAX_SEND_BYTES * 3)
          return refused(new AppError('passthroughTooLong', { max: MAX_SEND_BYTES }, { field: 'data' }));
        const bytes = parseHex(data);
        if (!bytes) return refused(fieldError('data', 'hexPacketInvalid'));
        // the device as it is now: access, binding and presence may have changed since opening
        try {
          await operable();
        } catch (error) {
          end(error instanceof AppError ? error : new AppError('internal'));
          return;
        }
        const hex = toHex(bytes);
        try {
          await app.gateways.send(s.serialNumber, 'passthrough', { session: s.id, port, data: hex }, 0);
        } catch (error) {
          request.log.warn({ err: error }, 'passthrough could not be sent');
          return refused(new AppError('mqttBrokerUnavailableGateway'));
        }
        s.sent += 1;
        send({ type: 'tx', port, data: hex, at: new Date().toISOString() });
      };

      const recheck = async () => {
        if (closed) return;
        try {
          const now = await authenticate(app.db, token);
          if (now.companyId !== who.companyId || !holdsPermission(now.menuCodes, COMDEBUG_CODES)) {
            end(new AppError('forbidden'));
            return;
          }
          await deviceFor(app.db, who, deviceId, DATA_PERMISSION.write, 'id');
        } catch (error) {
          end(error instanceof AppError ? error : new AppError('tokenInvalid'));
        }
      };

      // a socket-wide bucket: a flood is refused at once, before any work is queued
      const bucket = { sendTokens: SENDS_PER_SECOND, sendRefilledAt: Date.now() };
      socket.on('message', (raw) => {
        if (closed) return;
        let message: { type?: unknown; data?: unknown } | null = null;
        try {
          const parsed = JSON.parse(String(raw)) as unknown;
          if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
            message = parsed as { type?: unknown; data?: unknown };
        } catch {
          // not JSON
        }
        if (message?.type === 'ping') {
          serially(async () => send({ type: 'pong' }));
          return;
        }
        if (message?.type !== 'send') {
          send({
            type: 'error',
            ...errorEnvelope(fieldError('type'), request.lang),
          });
          return;
        }
        if (!takeSend(bucket, Date.now()) || queued > SENDS_PER_SECOND * 2) {
          send({
            type: 'error',
            ...errorEnvelope(
              new AppError('passthroughTooFast', { max: SENDS_PER_SECOND }, { field: 'data' }),
              request.lang,
            ),
          });
          return;
        }
        const data = message.data;
        serially(() => sendBytes(data));
      });

      const stopWatching = app.accessWatch.onChange(() => serially(recheck));
      const expiry = setTimeout(
        () => end(new AppError('tokenExpired')),
        Math.min(Math.max(expiresAt.getTime() - Date.now(), 0), MAX_TIMER_MS),
      );
      socket.on('close', () => {
        closed = true;
        clearTimeout(expiry);
        stopWatching();
        finish();
      });
      serially(open);
    },
  });
}
