/**
 * Live records of every data item a board shows, through the app's live hub (src/app/live):
 * one WebSocket per page and one subscription per item however many widgets show it (the item
 * ids come from boardItemIds of packages/domain, each once). The hub reconnects by itself; when
 * the server confirms an item again after a reconnect, the board reads its data again (what
 * came meanwhile).
 */
import { useEffect, useRef, useState } from 'react';
import { itemHub } from '../../app/live/hooks';

export interface LiveRecordMessage {
  id: number;
  ts: string;
  values: Record<string, unknown>;
}

export function useBoardLive(
  itemIds: readonly number[],
  onRecords: (itemId: number, records: LiveRecordMessage[]) => void,
  onReconnect: () => void,
): { connected: boolean } {
  const [connected, setConnected] = useState(false);
  const handler = useRef(onRecords);
  handler.current = onRecords;
  const reconnected = useRef(onReconnect);
  reconnected.current = onReconnect;
  const key = itemIds.join(',');

  useEffect(() => {
    const ids = key ? key.split(',').map(Number) : [];
    if (ids.length === 0) return;
    const hub = itemHub();
    const since = new Map<number, number | null>();
    const check = () => {
      let again = false;
      let live = false;
      for (const id of ids) {
        const snapshot = hub.snapshot(id);
        if (snapshot.status === 'live') live = true;
        const before = since.get(id);
        if (before != null && snapshot.since != null && snapshot.since !== before) again = true;
        since.set(id, snapshot.since);
      }
      setConnected(live);
      if (again) reconnected.current();
    };
    const off = ids.map((id) =>
      hub.subscribe(id, (records, itemId) => handler.current(itemId, records as LiveRecordMessage[])),
    );
    const unwatch = ids.map((id) => hub.watch(id, check));
    check();
    return () => {
      for (const f of [...off, ...unwatch]) f();
      setConnected(false);
    };
  }, [key]);

  return { connected };
}
