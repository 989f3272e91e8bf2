/**
 * Live fan-out: an event bus that the ingest pipeline publishes every committed record to,
 * and the WebSocket endpoint `GET /general/smartdata/live?token=…` that relays the records of
 * the items a client subscribed to (level ≥ 1 on each item, checked when it subscribes).
 * Devices publish their changes of state and bind outcomes on a second channel, per company
 * (`GET /general/devicemanagement/device/live`). Any other module may have a channel of its
 * own, per company: `bus.channel<AlarmEvent>('alarms')` gives `publish(event)` and
 * `subscribe(companyId, listener)` (an event is JSON with a `companyId`).
 *
 * One node (the embedded default): delivery is in-process and synchronous. Several nodes
 * (an external broker): every event published here is also handed to the relay
 * (platform/live-relay.ts), which sends it through the broker to the other nodes, whose
 * buses deliver it to their own listeners (`deliver`, never relayed again). The node that
 * published delivers it once, locally, and ignores its own copy coming back.
 */
import type { RecordValues } from '@platform/domain';

export interface LiveRecord {
  id: number;
  ts: string;
  values: RecordValues;
  source: string;
}

export interface LiveEvent extends ChannelEvent {
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

/** An event of a channel: JSON, of one company. */
export interface ChannelEvent {
  companyId: number;
}

/** the records channel (by item) and the devices channel (by company) */
export const RECORDS_CHANNEL = 'records';
export const DEVICES_CHANNEL = 'devices';

/** A channel name: a topic level of the relay (letters, digits, `-`, `_`). */
const CHANNEL_NAME = /^[a-z][a-z0-9_-]{0,39}$/i;

/** Hands an event published on this node to the other nodes (platform/live-relay.ts). */
export type LiveRelayOut = (channel: string, event: ChannelEvent) => void;

/** A channel of per-company events. */
export interface LiveChannel<E extends ChannelEvent> {
  /** delivers here at once and, with a relay, on every other node */
  publish(event: E): void;
  /** calls `listener` with each later event of the company; returns the unsubscribe */
  subscribe(companyId: number, listener: (event: E) => void): () => void;
}

export class LiveBus {
  /** listeners by item id */
  private readonly byItem = new Map<number, Set<LiveListener>>();
  /** per-company listeners by channel, then company id (devices included) */
  private readonly byChannel = new Map<string, Map<number, Set<(event: ChannelEvent) => void>>>();
  private relay: LiveRelayOut | null = null;

  /** From now on every event published on this node is also handed to `out`. */
  setRelay(out: LiveRelayOut | null): void {
    this.relay = out;
  }

  /** A channel of per-company events, by name (the same name on every node). */
  channel<E extends ChannelEvent>(name: string): LiveChannel<E> {
    if (!CHANNEL_NAME.test(name) || name === RECORDS_CHANNEL) throw new Error(`live channel name ${name}`);
    return {
      publish: (event) => this.emit(name, event),
      subscribe: (companyId, listener) =>
        this.subscribeCompany(name, companyId, listener as (event: ChannelEvent) => void),
    };
  }

  /** Calls `listener` with each later device event of the company; returns the unsubscribe. */
  subscribeDevices(companyId: number, listener: DeviceListener): () => void {
    return this.subscribeCompany(DEVICES_CHANNEL, companyId, listener as (event: ChannelEvent) => void);
  }

  /** Delivers synchronously; a listener that throws does not stop the others. */
  publishDevice(event: DeviceEvent): void {
    this.emit(DEVICES_CHANNEL, event);
  }

  /**
   * Delivers an event that another node published, to this node's listeners only (the
   * relay's way in): never handed to the relay again.
   */
  deliver(channel: string, event: ChannelEvent): void {
    if (channel === RECORDS_CHANNEL) {
      const listeners = this.byItem.get((event as LiveEvent).itemId);
      if (!listeners) return;
      for (const listener of [...listeners]) {
        try {
          listener(event as LiveEvent);
        } catch {
          // a broken subscriber must not fail the writer that published
        }
      }
      return;
    }
    const listeners = this.byChannel.get(channel)?.get(event.companyId);
    if (!listeners) return;
    for (const listener of [...listeners]) {
      try {
        listener(event);
      } catch {
        // a broken subscriber must not fail the gateway message that published
      }
    }
  }

  private emit(channel: string, event: ChannelEvent): void {
    this.deliver(channel, event);
    if (!this.relay) return;
    try {
      this.relay(channel, event);
    } catch {
      // the relay reports its own failures; the publisher's work is done
    }
  }

  private subscribeCompany(
    channel: string,
    companyId: number,
    listener: (event: ChannelEvent) => void,
  ): () => void {
    let byCompany = this.byChannel.get(channel);
    if (!byCompany) {
      byCompany = new Map();
      this.byChannel.set(channel, byCompany);
    }
    const set = byCompany.get(companyId) ?? new Set();
    set.add(listener);
    byCompany.set(companyId, set);
    return () => {
      set.delete(listener);
      if (set.size === 0 && byCompany.get(companyId) === set) byCompany.delete(companyId);
    };
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
    this.emit(RECORDS_CHANNEL, event);
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
