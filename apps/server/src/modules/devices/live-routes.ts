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
 *   bytes, 'ok' or why it was refused, the decoded values) and each record stored from it (its
 *   frames and its JSON telemetry), and each record submitted over HTTP or MQTT for an item whose
 *   data sources name the device or that its running configuration feeds (the items as they
 *   were when the watch began). A value or record of an item the caller cannot read is left
 *   out. `{"type":"unwatch",…}` stops.
 *
 * The rules of every live socket (platform/live-access.ts): the token rides in the upgrade's
 * query; whenever access changes anywhere (the access epoch) the socket checks its token,
 * company and codes again and ends with `{"type":"ended", …}` and close code 4401/4403 when they
 * are gone; what the caller may read is worked out again then, and when a device joins or leaves
 * the company. A token's expiry ends the stream at that moment.
 */
import { DATA_PERMISSION, messageFor } from '@platform/domain';
import { and, eq, sql } from 'drizzle-orm';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import type { DeviceEvent, FlowEvent, LiveEvent } from '../../platform/live';
import { guardLiveSocket } from '../../platform/live-access';
import { levelOf } from '../cabin/permissions';
import { dataCaller } from '../cabin/routes';
import { dataItems } from '../dataitems/tables';
import { appliedConfig, pointsOf } from '../deviceviews/points';
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
        onStop: () => {
          unsubscribe();
          for (const stop of itemWatches.values()) stop();
          itemWatches.clear();
        },
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
      /** per watched device, the subscription to the records of the items naming it */
      const itemWatches = new Map<number, () => void>();
      /**
       * Records stored for the items whose data sources name the device, from any source but
       * the device itself (its frames and telemetry come as its own flow events): what a screen
       * of the device shows from HTTP or MQTT submissions arrives as it is stored.
       */
      const watchItems = async (deviceId: number) => {
        const found = await companyDevice(app.db, who.companyId, deviceId);
        if (!found) return;
        // what its screens and flow charts may bind: items naming it, items its configuration feeds
        const sourced = await app.db
          .select({ id: dataItems.id })
          .from(dataItems)
          .where(
            and(
              eq(dataItems.companyId, who.companyId),
              sql`${dataItems.sources} @> ${JSON.stringify([{ deviceId: found.gateway.serialNumber }])}::jsonb`,
            ),
          );
        const applied = await appliedConfig(app.db, who.companyId, deviceId);
        const fed = applied ? (await pointsOf(app.db, who, applied.config)).points : [];
        const items = [...new Set([...sourced.map((i) => i.id), ...fed.map((p) => p.itemId)])];
        if (items.length === 0 || !watched.has(deviceId) || access.closed) return;
        itemWatches.get(deviceId)?.();
        const onRecords = (event: LiveEvent) => {
          if (event.companyId !== who.companyId) return;
          const records = event.records.filter((r) => r.source !== 'gateway');
          if (records.length === 0) return;
          const at = new Date().toISOString();
          serially(async () => {
            if (!watched.has(deviceId) || !(await mayRead(deviceId))) return;
            if (!(await mayReadItem(event.itemId))) return;
            for (const r of records)
              send({
                type: 'flow',
                deviceId,
                kind: 'record',
                at,
                itemId: event.itemId,
                ts: r.ts,
                values: r.values,
              });
          });
        };
        itemWatches.set(deviceId, app.live.subscribe(items, onRecords));
      };
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
            itemWatches.get(deviceId)?.();
            itemWatches.delete(deviceId);
            serially(async () => send({ type: 'unwatched', deviceId }));
            return;
          }
          serially(async () => {
            if (watched.size >= MAX_WATCHED && !watched.has(deviceId)) return refuse();
            if (!(await mayRead(deviceId))) return refuse();
            watched.add(deviceId);
            await watchItems(deviceId);
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
