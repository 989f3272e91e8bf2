/**
 * Live data in React, on the one reconnecting socket (./socket.ts) and the item hub (./hub.ts).
 *
 * Records of data items (one WebSocket per page to `/general/smartdata/live`, one server
 * subscription per item however many components show it):
 *
 *   const { status } = useItemRecords(itemId, (records) => …);   // each batch committed live
 *   const { record, receivedAt, status, since } = useItemLatest(itemId);
 *
 *   status: 'connecting' | 'live' | 'offline' (lost, reconnecting) | 'refused' (no read
 *   permission) | 'ended' (logout, lost code: reported like any refused request)
 *   record: the newest record heard live (null until one arrives: read the first value with
 *   an ordinary request); receivedAt: when it arrived (ms epoch; a widget greys when stale);
 *   since: when the server last confirmed the subscription (changes after a reconnect).
 *   An itemId ≤ 0, NaN or `enabled` false subscribes to nothing.
 *
 * Any other live socket of the app (the device sockets):
 *
 *   const { status, send } = useLiveSocket('/devicemanagement/device/live', {
 *     onMessage, onOpen, readyWhen, enabled });
 *
 * Every socket reconnects with a doubling back-off (1 s … 30 s) and ends for good when the
 * server ends the stream because access ended (the envelope is then reported as any request
 * refused for the token: logout, expiry, lost code).
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { API_BASE, reportFailure } from '../http/client';
import { session } from '../store/session';
import {
  type ItemSnapshot,
  type ItemStatus,
  LiveItemHub,
  type LiveRecord,
  type RecordsListener,
} from './hub';
import { type EndedEnvelope, ReconnectingSocket, type SocketStatus } from './socket';

export type { ItemSnapshot, ItemStatus, LiveRecord, SocketStatus };

/** The WebSocket address of a live endpoint under the API base, with the login token. */
export function liveUrl(path: string, token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${API_BASE}${path}?token=${encodeURIComponent(token)}`;
}

function reportEnded(envelope: EndedEnvelope | null): void {
  if (envelope?.code) reportFailure({ code: envelope.code, message: envelope.message, data: envelope.data });
}

const token = () => session.get().token;

let hub: LiveItemHub | null = null;

/** The page's one hub of live item records (created at first use). */
export function itemHub(): LiveItemHub {
  if (!hub) {
    hub = new LiveItemHub({
      token,
      onEnded: reportEnded,
      openSocket: (handlers) =>
        new ReconnectingSocket({ url: (t) => liveUrl('/smartdata/live', t), token, ...handlers }),
    });
  }
  return hub;
}

const validItem = (itemId: number) => Number.isSafeInteger(itemId) && itemId > 0;

/** Hands each batch of records committed to the item to `onRecords` while mounted. */
export function useItemRecords(
  itemId: number,
  onRecords: RecordsListener,
  enabled = true,
): { status: ItemStatus; since: number | null } {
  const handler = useRef(onRecords);
  handler.current = onRecords;
  const on = enabled && validItem(itemId);
  useEffect(() => {
    if (!on) return;
    return itemHub().subscribe(itemId, (records, id) => handler.current(records, id));
  }, [itemId, on]);
  const snapshot = useItemSnapshot(itemId, on);
  return { status: snapshot.status, since: snapshot.since };
}

/** The latest record heard live of the item, when it came, and the connection's state. */
export function useItemLatest(itemId: number, enabled = true): ItemSnapshot {
  const on = enabled && validItem(itemId);
  useEffect(() => {
    if (!on) return;
    return itemHub().subscribe(itemId);
  }, [itemId, on]);
  return useItemSnapshot(itemId, on);
}

const OFF: ItemSnapshot = Object.freeze({
  record: null,
  receivedAt: null,
  status: 'connecting',
  since: null,
});

function useItemSnapshot(itemId: number, on: boolean): ItemSnapshot {
  const subscribe = useMemo(
    () => (changed: () => void) => (on ? itemHub().watch(itemId, changed) : () => {}),
    [itemId, on],
  );
  return useSyncExternalStore(
    subscribe,
    () => (on ? itemHub().snapshot(itemId) : OFF),
    () => OFF,
  );
}

export interface LiveSocketOptions {
  /** each parsed message (not 'ended', which ends the socket) */
  onMessage: (message: Record<string, unknown> & { type?: unknown }) => void;
  /** on every connection once open: send what the server must hear again (a watch) */
  onOpen?: (send: (message: unknown) => boolean) => void;
  /** 'open' only from the first message it accepts (e.g. the server's `{"type":"ready"}`) */
  readyWhen?: (message: Record<string, unknown>) => boolean;
  enabled?: boolean;
}

/**
 * A reconnecting socket to `path` (under the API base) while mounted and enabled; it is
 * opened anew when `key` changes. The handlers may change at every render.
 */
export function useLiveSocket(
  path: string,
  options: LiveSocketOptions,
  key: unknown = null,
): { status: SocketStatus; send: (message: unknown) => boolean } {
  const [status, setStatus] = useState<SocketStatus>('stopped');
  const latest = useRef(options);
  latest.current = options;
  const socket = useRef<ReconnectingSocket | null>(null);
  const enabled = options.enabled ?? true;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new key opens a new socket
  useEffect(() => {
    if (!enabled) return;
    const live = new ReconnectingSocket({
      url: (t) => liveUrl(path, t),
      token,
      onMessage: (message) => latest.current.onMessage(message),
      onOpen: (send) => latest.current.onOpen?.(send),
      readyWhen: latest.current.readyWhen
        ? (message) => latest.current.readyWhen?.(message) ?? true
        : undefined,
      onStatus: setStatus,
      onEnded: reportEnded,
    });
    socket.current = live;
    live.start();
    return () => {
      live.stop();
      socket.current = null;
      setStatus('stopped');
    };
  }, [path, enabled, key]);

  const send = useMemo(() => (message: unknown) => socket.current?.send(message) ?? false, []);
  return { status, send };
}
