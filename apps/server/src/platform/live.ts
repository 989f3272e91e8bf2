/**
 * Live fan-out: an in-process event bus that the ingest pipeline publishes every committed
 * record to, and the WebSocket endpoint `GET /general/smartdata/live?token=…` that relays the
 * records of the items a client subscribed to (level ≥ 1 on each item, checked when it
 * subscribes). One process: the bus is enough; several nodes would relay through the broker.
 */
import type { RecordValues } from '@platform/domain';

export interface LiveRecord {
  id: number;
  ts: string;
  values: RecordValues;
  source: string;
}

export interface LiveEvent {
  companyId: number;
  itemId: number;
  records: LiveRecord[];
}

export type LiveListener = (event: LiveEvent) => void;

export class LiveBus {
  /** listeners by item id */
  private readonly byItem = new Map<number, Set<LiveListener>>();

  /** Calls `listener` with each later event of these items; returns the unsubscribe. */
  subscribe(itemIds: Iterable<number>, listener: LiveListener): () => void {
    const ids = [...new Set(itemIds)];
    for (const id of ids) {
      const set = this.byItem.get(id) ?? new Set<LiveListener>();
      set.add(listener);
      this.byItem.set(id, set);
    }
    return () => {
      for (const id of ids) {
        const set = this.byItem.get(id);
        if (!set) continue;
        set.delete(listener);
        if (set.size === 0) this.byItem.delete(id);
      }
    };
  }

  /** Delivers synchronously; a listener that throws does not stop the others. */
  publish(event: LiveEvent): void {
    const listeners = this.byItem.get(event.itemId);
    if (!listeners) return;
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // a broken subscriber must not fail the writer that published
      }
    }
  }

  listenerCount(itemId: number): number {
    return this.byItem.get(itemId)?.size ?? 0;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** committed records, for live subscribers */
    live: LiveBus;
  }
}
