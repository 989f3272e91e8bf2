/**
 * The hub of live records of data items: ONE WebSocket per page to `/general/smartdata/live`
 * for every widget, table and chart that shows an item live, with subscriptions counted per
 * item id (ten widgets on one item = one subscription on the server).
 *
 *   const off = hub.subscribe(itemId, (records, itemId) => …);  // a reference; off() drops it
 *   hub.snapshot(itemId)  // { record, receivedAt, status, since }: the latest record heard live
 *   hub.watch(itemId, () => …)  // called when that snapshot changes (useSyncExternalStore)
 *
 * The React side is in ./hooks.ts (`useItemRecords`, `useItemLatest`).
 *
 * - Changes made in one turn of the event loop are sent as one `{"subscribe":[…]}` (a new
 *   subscribe replaces the previous one on the server, so the whole list is sent each time).
 * - The server takes at most MAX_LIVE_ITEMS (50) items per socket: the 51st item opens a
 *   second socket, and so on (a socket is filled before another is opened, and one closes
 *   when its last item is dropped). A page showing 120 items has three sockets.
 * - After a reconnect every socket subscribes again to what it holds; `since` of each item
 *   moves to when the server confirmed it again (a widget that must not miss records reads
 *   what came meanwhile when `since` changes).
 * - Item status: 'connecting' until the server confirms the subscription, 'live' then,
 *   'offline' while the socket is lost and retried, 'refused' when the server refused the
 *   item or revoked it (no read permission), 'ended' when the server ended the stream
 *   because access ended (logout, lost code): nothing reconnects until the login changes.
 * - `record` is the newest record heard (by `ts`), `receivedAt` when it arrived (ms epoch);
 *   only what arrived live: a widget shows its first value from an ordinary request.
 */
import type { EndedEnvelope, SocketStatus } from './socket';

/** the server's limit of items per subscribe (apps/server/src/modules/records/live-routes.ts) */
export const MAX_LIVE_ITEMS = 50;

export interface LiveRecord {
  id: number;
  ts: string;
  values: Record<string, unknown>;
  source?: string;
  [key: string]: unknown;
}

export type ItemStatus = 'connecting' | 'live' | 'offline' | 'refused' | 'ended';

export interface ItemSnapshot {
  record: LiveRecord | null;
  receivedAt: number | null;
  status: ItemStatus;
  /** when the server last confirmed the subscription (ms epoch), null before */
  since: number | null;
}

export type RecordsListener = (records: LiveRecord[], itemId: number) => void;

/** What the hub needs of a socket (a ReconnectingSocket). */
export interface HubSocket {
  start(): void;
  stop(): void;
  send(message: unknown): boolean;
}

export interface HubSocketHandlers {
  onOpen: (send: (message: unknown) => boolean) => void;
  onMessage: (message: Record<string, unknown>) => void;
  onStatus: (status: SocketStatus) => void;
  onEnded: (envelope: EndedEnvelope | null) => void;
}

export interface HubOptions {
  openSocket: (handlers: HubSocketHandlers) => HubSocket;
  /** the login the sockets use; an ended hub starts again once it changes */
  token: () => string | null;
  /** the stream ended because access ended (called once per login) */
  onEnded?: (envelope: EndedEnvelope | null) => void;
  maxItemsPerSocket?: number;
  now?: () => number;
  /** runs the batched subscribe; defaults to a microtask */
  defer?: (run: () => void) => void;
}

interface Shard {
  socket: HubSocket;
  items: Set<number>;
  status: SocketStatus;
}

interface Entry {
  listeners: Set<RecordsListener>;
  watchers: Set<() => void>;
  shard: Shard | null;
  snapshot: ItemSnapshot;
}

const IDLE: ItemSnapshot = Object.freeze({
  record: null,
  receivedAt: null,
  status: 'connecting',
  since: null,
});

function newest(records: LiveRecord[], current: LiveRecord | null): LiveRecord | null {
  let best = current;
  for (const record of records) {
    if (!best || Date.parse(record.ts) >= Date.parse(best.ts)) best = record;
  }
  return best;
}

export class LiveItemHub {
  private readonly entries = new Map<number, Entry>();
  private readonly shards: Shard[] = [];
  private readonly dirty = new Set<Shard>();
  private flushQueued = false;
  /** the token whose stream the server ended; null while not ended */
  private endedToken: string | null | undefined;
  private readonly max: number;
  private readonly now: () => number;
  private readonly defer: (run: () => void) => void;

  constructor(private readonly options: HubOptions) {
    this.max = options.maxItemsPerSocket ?? MAX_LIVE_ITEMS;
    this.now = options.now ?? Date.now;
    // called as a plain function: browsers refuse queueMicrotask called on another object
    this.defer = options.defer ?? ((run) => queueMicrotask(run));
  }

  /** Adds a reference to the item (and a listener of its records); returns the drop. */
  subscribe(itemId: number, listener?: RecordsListener): () => void {
    if (!Number.isSafeInteger(itemId) || itemId <= 0) return () => {};
    const entry = this.entry(itemId);
    // a listener object per call: the same function subscribed twice counts twice
    const own: RecordsListener = (records, id) => listener?.(records, id);
    entry.listeners.add(own);
    if (!entry.shard) this.place(itemId, entry);
    let dropped = false;
    return () => {
      if (dropped) return;
      dropped = true;
      entry.listeners.delete(own);
      if (entry.listeners.size > 0) return;
      if (entry.shard) {
        entry.shard.items.delete(itemId);
        this.touch(entry.shard);
        entry.shard = null;
      }
      if (entry.watchers.size === 0) this.entries.delete(itemId);
      else this.update(entry, { ...IDLE });
    };
  }

  /** The item's latest state (the same object until it changes). */
  snapshot(itemId: number): ItemSnapshot {
    return this.entries.get(itemId)?.snapshot ?? IDLE;
  }

  /** Calls `onChange` whenever the item's snapshot changes; holds no subscription. */
  watch(itemId: number, onChange: () => void): () => void {
    const entry = this.entry(itemId);
    entry.watchers.add(onChange);
    return () => {
      entry.watchers.delete(onChange);
      if (entry.watchers.size === 0 && entry.listeners.size === 0 && this.entries.get(itemId) === entry)
        this.entries.delete(itemId);
    };
  }

  /** How many references the item has (0 when it is not subscribed). */
  references(itemId: number): number {
    return this.entries.get(itemId)?.listeners.size ?? 0;
  }

  /** The item ids each open socket holds (for tests and the diagnostics). */
  sockets(): number[][] {
    return this.shards.map((shard) => [...shard.items]);
  }

  /** Sends what changed now instead of at the end of the turn. */
  flush(): void {
    this.flushQueued = false;
    if (this.endedToken !== undefined && this.options.token() !== this.endedToken) this.restart();
    for (const shard of [...this.dirty]) {
      this.dirty.delete(shard);
      if (shard.items.size === 0) {
        shard.socket.stop();
        const at = this.shards.indexOf(shard);
        if (at >= 0) this.shards.splice(at, 1);
        continue;
      }
      if (this.endedToken !== undefined) {
        for (const id of shard.items) this.setStatus(id, 'ended');
        continue;
      }
      if (shard.status === 'stopped') shard.socket.start();
      else if (shard.status === 'open') this.sendSubscribe(shard, (m) => shard.socket.send(m));
      // connecting or waiting: the socket subscribes when it opens
    }
  }

  private entry(itemId: number): Entry {
    let entry = this.entries.get(itemId);
    if (!entry) {
      entry = { listeners: new Set(), watchers: new Set(), shard: null, snapshot: IDLE };
      this.entries.set(itemId, entry);
    }
    return entry;
  }

  private place(itemId: number, entry: Entry): void {
    let shard = this.shards.find((s) => s.items.size < this.max && s.status !== 'ended');
    if (!shard) shard = this.newShard();
    shard.items.add(itemId);
    entry.shard = shard;
    this.update(entry, {
      ...entry.snapshot,
      status: this.endedToken !== undefined ? 'ended' : shard.status === 'waiting' ? 'offline' : 'connecting',
    });
    this.touch(shard);
  }

  private newShard(): Shard {
    const shard: Shard = { items: new Set(), status: 'stopped', socket: undefined as unknown as HubSocket };
    shard.socket = this.options.openSocket({
      onOpen: (send) => this.sendSubscribe(shard, send),
      onMessage: (message) => this.receive(shard, message),
      onStatus: (status) => this.socketStatus(shard, status),
      onEnded: (envelope) => this.ended(envelope),
    });
    this.shards.push(shard);
    return shard;
  }

  private touch(shard: Shard): void {
    this.dirty.add(shard);
    if (this.flushQueued) return;
    this.flushQueued = true;
    this.defer(() => {
      if (this.flushQueued) this.flush();
    });
  }

  private sendSubscribe(shard: Shard, send: (message: unknown) => boolean): void {
    send({ subscribe: [...shard.items] });
  }

  private socketStatus(shard: Shard, status: SocketStatus): void {
    shard.status = status;
    if (status === 'waiting') for (const id of shard.items) this.setStatus(id, 'offline');
  }

  private receive(shard: Shard, message: Record<string, unknown>): void {
    if (message.type === 'records' && typeof message.itemId === 'number' && Array.isArray(message.records)) {
      const entry = this.entries.get(message.itemId);
      if (!entry || entry.shard !== shard || message.records.length === 0) return;
      const records = message.records as LiveRecord[];
      this.update(entry, {
        ...entry.snapshot,
        record: newest(records, entry.snapshot.record),
        receivedAt: this.now(),
        status: 'live',
      });
      for (const listener of [...entry.listeners]) {
        try {
          listener(records, message.itemId);
        } catch (error) {
          // one broken widget must not starve the others
          console.error(error);
        }
      }
      return;
    }
    if (message.type === 'subscribed') {
      const at = this.now();
      for (const id of Array.isArray(message.itemIds) ? message.itemIds : []) {
        const entry = this.entries.get(id as number);
        if (entry && entry.shard === shard && entry.snapshot.status !== 'live')
          this.update(entry, { ...entry.snapshot, status: 'live', since: at });
      }
      for (const id of Array.isArray(message.refused) ? message.refused : []) {
        const entry = this.entries.get(id as number);
        if (entry && entry.shard === shard) this.setStatus(id as number, 'refused');
      }
      return;
    }
    if (message.type === 'revoked') {
      for (const id of Array.isArray(message.itemIds) ? message.itemIds : []) {
        const entry = this.entries.get(id as number);
        if (entry && entry.shard === shard) this.setStatus(id as number, 'refused');
      }
    }
  }

  private ended(envelope: EndedEnvelope | null): void {
    const first = this.endedToken === undefined;
    this.endedToken = this.options.token();
    for (const shard of this.shards) {
      shard.socket.stop();
      shard.status = 'stopped';
      for (const id of shard.items) this.setStatus(id, 'ended');
    }
    if (first) this.options.onEnded?.(envelope);
  }

  /** A new login after the stream ended: every socket connects again. */
  private restart(): void {
    this.endedToken = undefined;
    for (const shard of this.shards) {
      for (const id of shard.items) this.setStatus(id, 'connecting');
      this.dirty.add(shard);
    }
  }

  private setStatus(itemId: number, status: ItemStatus): void {
    const entry = this.entries.get(itemId);
    if (entry && entry.snapshot.status !== status) this.update(entry, { ...entry.snapshot, status });
  }

  private update(entry: Entry, snapshot: ItemSnapshot): void {
    entry.snapshot = Object.freeze(snapshot);
    for (const watcher of [...entry.watchers]) watcher();
  }
}
