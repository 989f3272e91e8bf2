/**
 * Live records over the WebSocket `/general/smartdata/live?token=…`: subscribe with
 * `{"subscribe":[itemId]}`, receive `{"type":"records","itemId","records":[…]}`. The socket
 * reconnects with a doubling back-off (1 s … 30 s) so a restarted server or a dropped network
 * heals on its own; `connected` drives the page's small "live" indicator.
 *
 * The server ends the stream when the access it was opened with ends (`{"type":"ended"}` with
 * an envelope: logout, disabled account, removal, lost code, expired token) and drops items
 * whose permission was lowered (`{"type":"revoked","itemIds"}`). Neither is a network failure:
 * the page stops listening instead of reconnecting, and an ended login is handled like any
 * request that found the token invalid.
 */
import { useEffect, useRef, useState } from 'react';
import { API_BASE, reportFailure } from '../../app/http/client';
import { session } from '../../app/store/session';
import type { DataRecord } from './api';

export interface LiveMessage {
  type: string;
  itemId?: number;
  itemIds?: number[];
  records?: DataRecord[];
  /** with type 'ended': the envelope of why */
  code?: number;
  message?: string;
  data?: unknown;
}

const MIN_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

export function liveUrl(token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${API_BASE}/smartdata/live?token=${encodeURIComponent(token)}`;
}

export function useLiveRecords(
  itemId: number,
  onRecords: (records: DataRecord[]) => void,
): { connected: boolean } {
  const [connected, setConnected] = useState(false);
  const handler = useRef(onRecords);
  handler.current = onRecords;

  useEffect(() => {
    if (!Number.isFinite(itemId) || itemId <= 0) return;
    let socket: WebSocket | null = null;
    let timer: number | undefined;
    let delay = MIN_DELAY_MS;
    let stopped = false;

    /** access ended: no reconnecting until the page is opened again */
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
      socket.onopen = () => {
        delay = MIN_DELAY_MS;
        setConnected(true);
        socket?.send(JSON.stringify({ subscribe: [itemId] }));
      };
      socket.onmessage = (event) => {
        let message: LiveMessage;
        try {
          message = JSON.parse(String(event.data)) as LiveMessage;
        } catch {
          return;
        }
        if (message.type === 'records' && message.itemId === itemId && message.records?.length) {
          handler.current(message.records);
        } else if (message.type === 'ended' && typeof message.code === 'number') {
          stop();
          reportFailure({ code: message.code, message: message.message ?? '', data: message.data ?? null });
        } else if (message.type === 'revoked' && message.itemIds?.includes(itemId)) {
          stop();
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
  }, [itemId]);

  return { connected };
}
