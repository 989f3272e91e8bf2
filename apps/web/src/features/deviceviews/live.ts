/**
 * A device's live flow over the device socket (`/general/devicemanagement/device/live`,
 * docs/devices.md "Device views"): once the socket is ready the page sends
 * `{"type":"watch","deviceId":N}` and then hears `{"type":"flow",…}` for each frame the device
 * sends (port, bytes, 'ok' or why it was refused, the decoded values it may read) and each
 * record stored from it, and `{"type":"device",…}` when the device goes online or offline.
 * It reconnects with a doubling back-off (1 s … 30 s) and watches again each time; `ended`
 * (logout, lost code) stops it for good and is handled as any request refused for the token.
 */
import { useEffect, useRef, useState } from 'react';
import { API_BASE, reportFailure } from '../../app/http/client';
import { session } from '../../app/store/session';

export interface FlowValue {
  name: string;
  value: number | string | null;
  error: string | null;
  itemId: number | null;
  fieldKey: string | null;
}

export type FlowEvent =
  | {
      type: 'flow';
      kind: 'frame';
      deviceId: number;
      at: string;
      port: number;
      packetId: number | null;
      bytes: number;
      /** 'ok' or the frame counter it was counted under (badCrc, wrongLength, …) */
      result: string;
      values: FlowValue[];
    }
  | {
      type: 'flow';
      kind: 'record';
      deviceId: number;
      at: string;
      itemId: number;
      ts: string;
      values: Record<string, unknown>;
    };

export interface DeviceOnline {
  type: 'device';
  id: number;
  online: boolean;
}

type Message =
  | FlowEvent
  | DeviceOnline
  | { type: 'ready' | 'pong' | 'watching' | 'error' }
  | { type: 'ended'; code: number; message: string; data: unknown };

const MIN_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

function liveUrl(token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${API_BASE}/devicemanagement/device/live?token=${encodeURIComponent(token)}`;
}

/** Watches the device while mounted; `watching` turns on once the server confirmed the watch. */
export function useDeviceFlow(
  deviceId: number,
  onEvent: (event: FlowEvent | DeviceOnline) => void,
  enabled = true,
): { watching: boolean } {
  const [watching, setWatching] = useState(false);
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    if (!enabled || !Number.isInteger(deviceId) || deviceId <= 0) return;
    let socket: WebSocket | null = null;
    let timer: number | undefined;
    let delay = MIN_DELAY_MS;
    let stopped = false;

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
      const open = socket;
      open.onmessage = (event) => {
        let message: Message;
        try {
          message = JSON.parse(String(event.data)) as Message;
        } catch {
          return;
        }
        if (message.type === 'ready') {
          delay = MIN_DELAY_MS;
          open.send(JSON.stringify({ type: 'watch', deviceId }));
        } else if (message.type === 'watching') {
          setWatching(true);
        } else if (message.type === 'flow') {
          if (message.deviceId === deviceId) handler.current(message);
        } else if (message.type === 'device') {
          if (message.id === deviceId) handler.current(message);
        } else if (message.type === 'ended') {
          stopped = true;
          open.close();
          setWatching(false);
          reportFailure({ code: message.code, message: message.message, data: message.data ?? null });
        }
      };
      open.onclose = () => {
        setWatching(false);
        socket = null;
        schedule();
      };
      open.onerror = () => open.close();
    }

    connect();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      if (socket) {
        socket.onclose = null;
        socket.close();
      }
      setWatching(false);
    };
  }, [deviceId, enabled]);

  return { watching };
}
