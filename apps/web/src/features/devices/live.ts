/**
 * Live devices over the WebSocket `/general/devicemanagement/device/live?token=…`
 * (docs/devices.md, "Live device events"): nothing is sent but pings; the server sends
 * `{"type":"ready"}` once it listens, `{"type":"device",…}` when a readable device changes its
 * online state, status, firmware or ports, `{"type":"bind",…}` when one of the caller's
 * own bind requests is bound, expires or is cancelled, and `{"type":"upgrade",…}` when a
 * readable device's firmware upgrade changes state or progress (docs/firmware.md).
 *
 * On the app's one reconnecting socket (app/live): it reconnects with a doubling back-off
 * (1 s … 30 s); an `ended` message or the close codes 4401/4403 (logout, lost code, expired
 * token) stop it for good and are handled like any request that found the token invalid.
 * `connected` turns on at `ready`, when events can no longer be missed.
 */
import type { GatewayStatus, PortHealth } from '@platform/domain';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useLiveSocket } from '../../app/live';
import type { Page } from '../../shared/paging';
import { type BindState, type DeviceDetail, type DeviceRow, deviceKeys } from './api';

export interface DeviceStateEvent {
  type: 'device';
  id: number;
  online: boolean;
  status: GatewayStatus;
  onlineAt: string | null;
  offlineAt: string | null;
  lastSeenAt: string | null;
  firmware: string | null;
  ports: PortHealth[];
}

export interface BindEvent {
  type: 'bind';
  requestId: string;
  state: Exclude<BindState, 'waiting'>;
  deviceId: number | null;
}

/** A firmware upgrade's new state (its shape is the firmware feature's `Upgrade`). */
export interface UpgradeEvent {
  type: 'upgrade';
  deviceId: number;
  upgrade: { id: number; deviceId: number; state: string } & Record<string, unknown>;
}

type LiveMessage = DeviceStateEvent | BindEvent | UpgradeEvent | { type: 'ready' | 'pong' | 'error' };

/** Merges a live state into every cached list page and detail of the device. */
export function applyDeviceEvent(client: QueryClient, event: DeviceStateEvent): void {
  const { type: _type, id, ...state } = event;
  const merge = <T extends DeviceRow>(row: T): T =>
    row.id === id ? { ...row, ...state, updatedAt: new Date().toISOString() } : row;
  client.setQueriesData<Page<DeviceRow>>({ queryKey: deviceKeys.lists }, (page) =>
    page?.list.some((row) => row.id === id) ? { ...page, list: page.list.map(merge) } : page,
  );
  client.setQueryData<DeviceDetail>(deviceKeys.detail(id), (detail) => (detail ? merge(detail) : detail));
}

/**
 * Opens the socket while mounted (and `enabled`): device events are merged into the cached
 * lists and details, and handed to `onEvent` (the list marks the changed row, the bind dialog
 * ends its countdown); upgrade events go to `onUpgrade` (the firmware pages).
 */
export function useDeviceLive(
  onEvent?: (event: DeviceStateEvent | BindEvent) => void,
  enabled = true,
  onUpgrade?: (event: UpgradeEvent) => void,
): { connected: boolean } {
  const client = useQueryClient();
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const upgradeHandler = useRef(onUpgrade);
  upgradeHandler.current = onUpgrade;
  const readyBefore = useRef(false);

  const { status } = useLiveSocket(
    '/devicemanagement/device/live',
    {
      enabled,
      readyWhen: (message) => message.type === 'ready',
      onMessage: (raw) => {
        const message = raw as unknown as LiveMessage;
        if (message.type === 'ready') {
          // what changed while the socket was away is read afresh
          if (readyBefore.current) void client.invalidateQueries({ queryKey: deviceKeys.all });
          readyBefore.current = true;
        } else if (message.type === 'device') {
          applyDeviceEvent(client, message);
          handler.current?.(message);
        } else if (message.type === 'bind') {
          handler.current?.(message);
        } else if (message.type === 'upgrade') {
          upgradeHandler.current?.(message);
        }
      },
    },
    client,
  );

  return { connected: status === 'open' };
}
