/**
 * Live devices: the WebSocket `GET /general/devicemanagement/device/live?token=…` for the
 * device list, a device's page and the bind countdown (docs/devices.md, "Live device events").
 * Nothing needs to be sent (`{"type":"ping"}` is answered `{"type":"pong"}`); the server sends
 * `{"type":"ready"}` once it listens, and
 * - `{"type":"device", id, online, status, …}` when a device of the caller's company that the
 *   caller can read changes its online state, status, firmware or ports;
 * - `{"type":"bind", requestId, state, deviceId}` when one of the caller's own bind requests
 *   is bound, expires or is cancelled;
 * - `{"type":"upgrade", deviceId, upgrade}` when a firmware upgrade of a readable device moves
 *   (state or progress; docs/firmware.md).
 *
 * - `{"type":"flow", deviceId, kind, …}` for a device the socket watches (the device views):
 *   after `{"type":"watch","deviceId":N}` (answered `{"type":"watching","deviceId":N}`, or an
 *   error naming `deviceId` when the caller cannot read it), each frame the device sends (port,
 *   bytes, 'ok' or why it was refused, the decoded values) and each record stored from it. A
 *   value or record of an item the caller cannot read is left out. `{"type":"unwatch",…}` stops.
 *
 * The rules of every live socket (platform/live-access.ts): the token rides in the upgrade's
 * query; whenever access changes anywhere (the access epoch) the socket checks its token,
 * company and codes again and ends with `{"type":"ended", …}` and close code 4401/4403 when they
 * are gone; what the caller may read is worked out again then, and when a device joins or leaves
 * the company. A token's expiry ends the stream at that moment.
 */
import { DATA_PERMISSION, messageFor } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import type { DeviceEvent, FlowEvent } from '../../platform/live';
import { guardLiveSocket } from '../../platform/live-access';
import { levelOf } from '../cabin/permissions';
import { dataCaller } from '../cabin/routes';
import { dataItems } from '../dataitems/tables';
import { upgradeMessage } from '../firmware/views';
import { companyDevice } from './access';
import { DEVICE_CODES } from './schemas';

/** devices one socket may watch at once (a page watches one) */
export const MAX_WATCHED = 4;

export default async function deviceLiveRoutes(app: App): Promise<void> {
  app.route({
    method: 'GET',
    url: '/devicemanagement/device/live',
    config: { permission: DEVICE_CODES },
    schema: {
      tags: ['devices'],
      summary:
        'WebSocket of live device events: {"type":"device",…} when a readable device changes, {"type":"bind",…} when one of your bind requests ends',
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
      /** whether the caller may read each gateway, worked out when first needed */
      let readable = new Map<number, Promise<boolean>>();
      let unsubscribe = () => {};
      const access = guardLiveSocket(app, socket, request, {
        permission: DEVICE_CODES,
        label: 'device live socket',
        // permissions, groups or the tree may have changed: work readability out afresh
        afterCheck: () => {
          readable = new Map();
          itemReadable = new Map();
        },
        onStop: () => unsubscribe(),
      });
      const { send, serially } = access;
      const mayRead = (gatewayId: number) => {
        let known = readable.get(gatewayId);
        if (!known) {
          known = (async () => {
            const found = await companyDevice(app.db, who.companyId, gatewayId);
            if (!found?.device.nodeId) return false;
            return (await levelOf(app.db, who, found.device.nodeId)) >= DATA_PERMISSION.read;
          })().catch(() => false);
          readable.set(gatewayId, known);
        }
        return known;
      };
      /** whether the caller may read each item, for the values of flow events */
      let itemReadable = new Map<number, Promise<boolean>>();
      const mayReadItem = (itemId: number) => {
        let known = itemReadable.get(itemId);
        if (!known) {
          known = (async () => {
            const [item] = await app.db
              .select({ nodeId: dataItems.nodeId })
              .from(dataItems)
              .where(and(eq(dataItems.id, itemId), eq(dataItems.companyId, who.companyId)));
            if (!item) return false;
            return (await levelOf(app.db, who, item.nodeId)) >= DATA_PERMISSION.read;
          })().catch(() => false);
          if (itemReadable.size > 10_000) itemReadable.clear();
          itemReadable.set(itemId, known);
        }
        return known;
      };
      const watched = new Set<number>();
      /** the flow event as this caller may see it, or null */
      const visibleFlow = async (flow: FlowEvent): Promise<FlowEvent | null> => {
        if (flow.kind === 'record') return (await mayReadItem(flow.itemId)) ? flow : null;
        const values = [];
        for (const v of flow.values) if (v.itemId === null || (await mayReadItem(v.itemId))) values.push(v);
        return { ...flow, values };
      };
      // events of one socket leave in the order they came, each after its permission check
      const onEvent = (event: DeviceEvent) => {
        if (access.closed || event.companyId !== who.companyId) return;
        if (event.type === 'membership') {
          readable.delete(event.gatewayId);
          return;
        }
        if (event.type === 'bind') {
          if (event.userId !== who.userId) return;
          send({ type: 'bind', requestId: event.requestId, state: event.state, deviceId: event.deviceId });
          return;
        }
        if (event.type === 'flow') {
          if (!watched.has(event.gatewayId)) return;
          serially(async () => {
            if (!watched.has(event.gatewayId) || !(await mayRead(event.gatewayId))) return;
            const flow = await visibleFlow(event.flow);
            if (flow) send({ type: 'flow', deviceId: event.gatewayId, ...flow });
          });
          return;
        }
        if (event.type === 'upgrade') {
          const upgrade = { ...event.upgrade, message: upgradeMessage(event.upgrade.state, request.lang) };
          serially(async () => {
            if (await mayRead(event.gatewayId)) send({ type: 'upgrade', deviceId: event.gatewayId, upgrade });
          });
          return;
        }
        serially(async () => {
          if (await mayRead(event.gatewayId)) send({ type: 'device', ...event.state });
        });
      };
      unsubscribe = app.live.subscribeDevices(who.companyId, onEvent);
      serially(async () => send({ type: 'ready' }));
      socket.on('message', (data) => {
        // `{"type":"ping"}` is answered in turn, after every event queued before it: a client
        // (or a test) knows then that it has seen everything sent so far
        let message: { type?: unknown; deviceId?: unknown } = {};
        try {
          const parsed = JSON.parse(String(data)) as unknown;
          if (typeof parsed === 'object' && parsed !== null) message = parsed;
        } catch {
          // not JSON
        }
        if (message.type === 'ping') {
          serially(async () => send({ type: 'pong' }));
          return;
        }
        if (message.type === 'watch' || message.type === 'unwatch') {
          const deviceId = message.deviceId;
          const refuse = () =>
            send({
              type: 'error',
              field: 'deviceId',
              message: messageFor('validation', request.lang, { field: 'deviceId' }),
            });
          if (
            typeof deviceId !== 'number' ||
            !Number.isInteger(deviceId) ||
            deviceId < 1 ||
            deviceId > 2 ** 31 - 1
          ) {
            refuse();
            return;
          }
          if (message.type === 'unwatch') {
            watched.delete(deviceId);
            serially(async () => send({ type: 'unwatched', deviceId }));
            return;
          }
          serially(async () => {
            if (watched.size >= MAX_WATCHED && !watched.has(deviceId)) return refuse();
            if (!(await mayRead(deviceId))) return refuse();
            watched.add(deviceId);
            send({ type: 'watching', deviceId });
          });
          return;
        }
        send({
          type: 'error',
          message: 'expected {"type":"ping"} or {"type":"watch","deviceId":…}; nothing else needs to be sent',
        });
      });
    },
  });
}
