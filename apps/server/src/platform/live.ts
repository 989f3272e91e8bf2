/**
 * Live fan-out: an in-process event bus that the ingest pipeline publishes every committed
 * record to, and the WebSocket endpoint `GET /general/smartdata/live?token=…` that relays the
 * records of the items a client subscribed to (level ≥ 1 on each item, checked when it
 * subscribes). Devices publish their changes of state and bind outcomes on a second channel,
 * per company (`GET /general/devicemanagement/device/live`). One process: the bus is enough;
 * several nodes would relay through the broker.
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

/** What a device page shows live of a gateway's state. */
export interface DeviceState {
  id: number;
  online: boolean;
  status: string;
  onlineAt: string | null;
  offlineAt: string | null;
  lastSeenAt: string | null;
  firmware: string | null;
  ports: unknown[];
}

export type DeviceEvent =
  /** a device of the company changed its online state, status, firmware or ports */
  | { type: 'device'; companyId: number; gatewayId: number; state: DeviceState }
  /** a bind request of the company ended or was bound */
  | {
      type: 'bind';
      companyId: number;
      gatewayId: number;
      requestId: string;
      /** who asked for it */
      userId: number | null;
      state: 'bound' | 'expired' | 'cancelled';
      deviceId: number | null;
    }
  /** a firmware upgrade of a device of the company moved (modules/firmware: its Upgrade view) */
  | {
      type: 'upgrade';
      companyId: number;
      gatewayId: number;
      upgrade: { state: string } & Record<string, unknown>;
    }
  /** a device joined or left the company (who may read what changed) */
  | { type: 'membership'; companyId: number; gatewayId: number }
  /** data moving through a device (its frames, decoded values, stored records): device views */
  | { type: 'flow'; companyId: number; gatewayId: number; flow: FlowEvent };

/** One decoded value of a frame: which parser value, what it read, where it is stored. */
export interface FlowValue {
  name: string;
  value: number | string | null;
  /** the catalogue key of why the value could not be read, when it could not */
  error: string | null;
  itemId: number | null;
  fieldKey: string | null;
}

/**
 * What the device views show live (docs/devices.md, "Device views"): a frame that arrived on a
 * port, decoded or refused (`result` is 'ok' or the frame counter it was counted under), and
 * a record of an item stored from the device.
 */
export type FlowEvent =
  | {
      kind: 'frame';
      at: string;
      port: number;
      packetId: number | null;
      bytes: number;
      result: string;
      values: FlowValue[];
    }
  | { kind: 'record'; at: string; itemId: number; ts: string; values: RecordValues };

export type DeviceListener = (event: DeviceEvent) => void;

export class LiveBus {
  /** listeners by item id */
  private readonly byItem = new Map<number, Set<LiveListener>>();
  /** device listeners by company id */
  private readonly byCompany = new Map<number, Set<DeviceListener>>();

  /** Calls `listener` with each later device event of the company; returns the unsubscribe. */
  subscribeDevices(companyId: number, listener: DeviceListener): () => void {
    const set = this.byCompany.get(companyId) ?? new Set<DeviceListener>();
    set.add(listener);
    this.byCompany.set(companyId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byCompany.get(companyId) === set) this.byCompany.delete(companyId);
    };
  }

  /** Delivers synchronously; a listener that throws does not stop the others. */
  publishDevice(event: DeviceEvent): void {
    const listeners = this.byCompany.get(event.companyId);
    if (!listeners) return;
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // a broken subscriber must not fail the gateway message that published
      }
    }
  }

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
