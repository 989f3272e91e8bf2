/**
 * What a shown board's widgets read: the items' newest records and the devices' states, loaded
 * once, then kept current by the live socket (one subscription per item) and read again every
 * minute and after a reconnect. State is bounded: each item keeps only as many records as its
 * largest table shows, so a board can stay open for days.
 */
import { type BoardBody, boardItemIds } from '@platform/domain';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useLiveSocket } from '../../../app/live';
import { useSession } from '../../../app/store/session';
import type { BoardData, BoardItemData } from '../api';
import { type LiveRecordMessage, useBoardLive } from '../live';

export interface BoardDataState {
  items: Map<number, BoardItemData>;
  missing: Set<number>;
  devices: BoardData['devices'];
  /** ms epoch, ticks every second: clocks and staleness */
  now: number;
  connected: boolean;
  loaded: boolean;
}

const EMPTY: BoardDataState = {
  items: new Map(),
  missing: new Set(),
  devices: null,
  now: Date.now(),
  connected: false,
  loaded: false,
};
const Context = createContext<BoardDataState>(EMPTY);
export const useBoardData = () => useContext(Context);

const REFRESH_MS = 60_000;

function keepOf(body: BoardBody): Map<number, number> {
  const keep = new Map<number, number>();
  for (const w of body.widgets) {
    if ((w.type === 'number' || w.type === 'table') && w.config.itemId != null) {
      const rows = w.type === 'table' ? w.config.rows : 1;
      keep.set(w.config.itemId, Math.max(keep.get(w.config.itemId) ?? 1, rows));
    }
  }
  return keep;
}

export function BoardDataProvider({
  body,
  initial,
  load,
  children,
}: {
  body: BoardBody;
  initial?: BoardData | null;
  load: () => Promise<BoardData>;
  children: ReactNode;
}) {
  const [data, setData] = useState<BoardData | null>(initial ?? null);
  const [now, setNow] = useState(() => Date.now());
  const itemIds = useMemo(() => boardItemIds(body), [body]);
  const keep = useMemo(() => keepOf(body), [body]);

  const reload = useCallback(() => {
    load().then(setData, () => {
      // keep what is shown; the next tick tries again
    });
  }, [load]);

  useEffect(() => {
    if (!initial) reload();
    const refresh = window.setInterval(reload, REFRESH_MS);
    const tick = window.setInterval(() => setNow(Date.now()), 1000);
    return () => {
      window.clearInterval(refresh);
      window.clearInterval(tick);
    };
  }, [reload, initial]);

  const onRecords = useCallback(
    (itemId: number, records: LiveRecordMessage[]) => {
      setData((current) => {
        if (!current) return current;
        const items = current.items.map((item) => {
          if (item.itemId !== itemId) return item;
          const merged = [
            ...records.map((r) => ({ id: r.id, ts: r.ts, values: r.values as never })),
            ...item.records,
          ]
            .filter((r, i, all) => all.findIndex((o) => o.id === r.id) === i)
            .sort((a, b) => b.ts.localeCompare(a.ts) || b.id - a.id)
            .slice(0, keep.get(itemId) ?? 1);
          return { ...item, records: merged };
        });
        return { ...current, items };
      });
    },
    [keep],
  );
  const { connected } = useBoardLive(itemIds, onRecords, reload);

  // device states live: the device socket tells of every readable device going on or off line
  // (viewers holding a device code; others keep the minute's refresh)
  const { user } = useSession();
  const deviceCodes = user?.menuCode.some((code) => code === 'dm_list' || code === 'cd_device') === true;
  const wantsDevices = body.widgets.some((w) => w.type === 'deviceStatus' && !w.hidden);
  const deviceReady = useRef(false);
  useLiveSocket('/devicemanagement/device/live', {
    enabled: deviceCodes && wantsDevices,
    readyWhen: (m) => m.type === 'ready',
    onMessage: (m) => {
      if (m.type === 'ready') {
        if (deviceReady.current) reload();
        deviceReady.current = true;
        return;
      }
      if (m.type !== 'device' || typeof m.id !== 'number') return;
      const event = m as unknown as {
        id: number;
        online: boolean;
        onlineAt: string | null;
        offlineAt: string | null;
      };
      setData((current) => {
        if (!current?.devices?.some((d) => d.id === event.id)) return current;
        const devices = current.devices
          .map((d) =>
            d.id === event.id
              ? { ...d, online: event.online, changedAt: event.online ? event.onlineAt : event.offlineAt }
              : d,
          )
          .sort((a, b) => Number(b.online) - Number(a.online) || a.name.localeCompare(b.name));
        return { ...current, devices };
      });
    },
  });

  const value = useMemo<BoardDataState>(
    () => ({
      items: new Map((data?.items ?? []).map((i) => [i.itemId, i])),
      missing: new Set(data?.missingItemIds ?? []),
      devices: data?.devices ?? null,
      now,
      connected,
      loaded: data != null,
    }),
    [data, now, connected],
  );
  return <Context.Provider value={value}>{children}</Context.Provider>;
}
