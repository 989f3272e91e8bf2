/**
 * Live devices over the WebSocket `/general/devicemanagement/device/live?token=…`
 * (docs/devices.md, "Live device events"): nothing is sent but pings; the server sends
 * `{"type":"ready"}` once it listens, `{"type":"device",…}` when a readable device changes its
 * online state, status, firmware or ports, `{"type":"bind",…}` when one of the caller's
 * own bind requests is bound, expires or is cancelled, and `{"type":"upgrade",…}` when a
 * readable device's firmware upgrade changes state or progress (docs/firmware.md).
 *
 * As the live records socket (features/datarecords/live.ts): it reconnects with a doubling
 * back-off (1 s … 30 s); an `ended` message (logout, lost code, expired token) stops it for
 * good and is handled like any request that found the token invalid. `connected` turns on at
 * `ready`, when events can no longer be missed.
 */
import type { GatewayStatus, PortHealth } from '@platform/domain';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { API_BASE, reportFailure } from '../../app/http/client';
import { session } from '../../app/store/session';
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

type LiveMessage =
  | DeviceStateEvent
  | BindEvent
  | UpgradeEvent
  | { type: 'ready' | 'pong' | 'error' }
  | { type: 'ended'; code: number; message: string; data: unknown };

const MIN_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

function liveUrl(token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${API_BASE}/devicemanagement/device/live?token=${encodeURIComponent(token)}`;
}

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
  const [connected, setConnected] = useState(false);
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const upgradeHandler = useRef(onUpgrade);
  upgradeHandler.current = onUpgrade;

  useEffect(() => {
    if (!enabled) return;
    let socket: WebSocket | null = null;
    let timer: number | undefined;
    let delay = MIN_DELAY_MS;
    let stopped = false;
    let readyBefore = false;

    const stop = () => {
      stopped = true;
      window.clearTimeout(timer);
      socket?.close();
      setConnected(false);
    };
    const schedule = () => {
      if (stopped) return;
      timer = window.setTimeout(connect, delay);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    };

    function connect() {
      const token = session.get().token;
      if (!token || stopped) return;
      try {
        socket = new WebSocket(liveUrl(token));
      } catch {
        schedule();
        return;
      }
      socket.onmessage = (event) => {
        let message: LiveMessage;
        try {
          message = JSON.parse(String(event.data)) as LiveMessage;
        } catch {
          return;
        }
        if (message.type === 'ready') {
          delay = MIN_DELAY_MS;
          setConnected(true);
          // what changed while the socket was away is read afresh
          if (readyBefore) void client.invalidateQueries({ queryKey: deviceKeys.all });
          readyBefore = true;
        } else if (message.type === 'device') {
          applyDeviceEvent(client, message);
          handler.current?.(message);
        } else if (message.type === 'bind') {
          handler.current?.(message);
        } else if (message.type === 'upgrade') {
          upgradeHandler.current?.(message);
        } else if (message.type === 'ended') {
          stop();
          reportFailure({ code: message.code, message: message.message, data: message.data ?? null });
        }
      };
      socket.onclose = () => {
        setConnected(false);
        socket = null;
        schedule();
      };
      socket.onerror = () => socket?.close();
    }

    connect();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      if (socket) {
        socket.onclose = null;
        socket.close();
      }
      setConnected(false);
    };
  }, [client, enabled]);

  return { connected };
}
