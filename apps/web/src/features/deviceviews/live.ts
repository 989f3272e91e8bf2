/**
 * A device's live flow over the device socket (`/general/devicemanagement/device/live`,
 * docs/devices.md "Device views"): once the socket is ready the page sends
 * `{"type":"watch","deviceId":N}` and then hears `{"type":"flow",…}` for each frame the device
 * sends (port, bytes, 'ok' or why it was refused, the decoded values it may read) and each
 * record stored from it, and `{"type":"device",…}` when the device goes online or offline.
 * On the app's one reconnecting socket (app/live): it reconnects with a doubling back-off
 * (1 s … 30 s) and watches again each time; `ended` or the close codes 4401/4403 (logout,
 * lost code) stop it for good and are handled as any request refused for the token.
 */
import { useEffect, useRef, useState } from 'react';
import { useLiveSocket } from '../../app/live';

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

type Message = FlowEvent | DeviceOnline | { type: 'ready' | 'pong' | 'watching' | 'error' };

/** Watches the device while mounted; `watching` turns on once the server confirmed the watch. */
export function useDeviceFlow(
  deviceId: number,
  onEvent: (event: FlowEvent | DeviceOnline) => void,
  enabled = true,
): { watching: boolean } {
  const [watching, setWatching] = useState(false);
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const valid = Number.isInteger(deviceId) && deviceId > 0;

  const { status, send } = useLiveSocket(
    '/devicemanagement/device/live',
    {
      enabled: enabled && valid,
      readyWhen: (message) => message.type === 'ready',
      onMessage: (raw) => {
        const message = raw as unknown as Message;
        if (message.type === 'ready') send({ type: 'watch', deviceId });
        else if (message.type === 'watching') setWatching(true);
        else if (message.type === 'flow') {
          if (message.deviceId === deviceId) handler.current(message);
        } else if (message.type === 'device') {
          if (message.id === deviceId) handler.current(message);
        }
      },
    },
    deviceId,
  );
  // a lost socket is no longer watching; the next `ready` watches again
  useEffect(() => {
    if (status !== 'open') setWatching(false);
  }, [status]);

  return { watching };
}
