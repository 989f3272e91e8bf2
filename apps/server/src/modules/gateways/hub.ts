/**
 * The server side of the device protocol (docs/device-protocol.md): one subscription to every
 * gateway's up topics (`smartdata/gw/+/up/#`), and a way to send on their down topics.
 *
 * Each message is accounted for (platform/mqtt-stats.ts, and the reasons below): a message
 * whose topic is not the protocol's, that is too large, not a JSON object, too deeply nested
 * or holding text no database can store (NUL, lone surrogates), of a kind nobody handles, or
 * of a serial number that is not registered, is dropped, counted and logged at debug level.
 * Nothing a gateway sends can crash the server or hold up another gateway.
 *
 * Modules plug in by kind (`app.gateways.onUp('firmware', handler)`), without touching this
 * file. The messages of one gateway are handled one at a time, in the order they came; each
 * gateway has a queue of its own, so a flood from one does not starve the others, and the
 * message is released to the broker's flow control only when handled, so the embedded broker
 * stops reading a flooding gateway's socket (platform/mqtt-flow.ts).
 */
import {
  GATEWAY_UP_FILTER,
  type GatewayDownKind,
  type GatewayUpKind,
  gatewayDownTopic,
  isStorableText,
  parseGatewayTopic,
} from '@platform/domain';
import { eq, sql } from 'drizzle-orm';
import { AccessCache } from '../../platform/access-cache';
import type { App } from '../../platform/context';
import type { MqttInbound } from '../../platform/mqtt';
import { type GatewayRow, gateways } from './tables';

/** What handlers know of the sending gateway (its state as of the last few seconds). */
export interface GatewayRef {
  id: number;
  serialNumber: string;
  /** the company it is bound to; null while unbound */
  companyId: number | null;
  boundAt: Date | null;
}

export interface UpMessage {
  gateway: GatewayRef;
  kind: GatewayUpKind;
  /** a JSON object (telemetry may also be an array) */
  payload: unknown;
  receivedAt: Date;
  qos: 0 | 1 | 2;
}

export type UpHandler = (message: UpMessage) => Promise<void> | void;

export const DROP_REASONS = [
  'topic',
  'tooLarge',
  'notJson',
  'badJson',
  'unknownGateway',
  'noHandler',
  'overloaded',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/** kinds that carry data in bulk: the largest payloads, and the first dropped under overload */
const BULK_KINDS: ReadonlySet<GatewayUpKind> = new Set(['telemetry', 'frame', 'passthrough']);
/** other kinds are small control messages */
export const CONTROL_PAYLOAD_MAX = 64 * 1024;
/** nesting deeper than this is no message of the protocol */
export const MAX_JSON_DEPTH = 16;
/**
 * a cached registry row is read again after this long at most; a binding or removal made on any
 * node ends it sooner, through the access epoch (migration 0031, platform/access-cache.ts)
 */
const REF_TTL_MS = 5 * 60_000;
/** last seen is written at most this often per gateway */
export const LAST_SEEN_EVERY_MS = 30_000;
/** last-seen times wait this long to be written together, in one statement */
const LAST_SEEN_FLUSH_MS = 2_000;

/**
 * Whether a parsed JSON value is no deeper than MAX_JSON_DEPTH and every string in it, keys
 * included, can be stored (walked without recursion: the value came from outside).
 */
export function storableJson(value: unknown): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (!isStorableText(v)) return false;
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MAX_JSON_DEPTH) return false;
    if (Array.isArray(v)) {
      for (const item of v) stack.push([item, depth + 1]);
      continue;
    }
    for (const [key, item] of Object.entries(v)) {
      if (!isStorableText(key)) return false;
      stack.push([item, depth + 1]);
    }
  }
  return true;
}

/** A gateway's registry row before and after a status message (or its connection ending) was merged. */
export interface StateChange {
  before: GatewayRow;
  after: GatewayRow;
}

export type StateListener = (change: StateChange) => Promise<void> | void;

export class GatewayHub {
  readonly #handlers = new Map<GatewayUpKind, UpHandler>();
  readonly #stateListeners: StateListener[] = [];
  readonly #queues = new Map<string, Promise<void>>();
  readonly #refs: AccessCache<GatewayRef | null>;
  readonly #seen = new Map<number, number>();
  /** last-seen times not written yet, by gateway id */
  readonly #unseen = new Map<number, Date>();
  #seenTimer: NodeJS.Timeout | null = null;
  readonly drops: Record<DropReason, number> = Object.fromEntries(DROP_REASONS.map((r) => [r, 0])) as Record<
    DropReason,
    number
  >;
  #maxPayload = 1024 * 1024;

  constructor(private readonly app: App) {
    this.#refs = new AccessCache(app.accessWatch, REF_TTL_MS, 50_000);
  }

  /** Handles every later up message of this kind (one handler per kind). */
  onUp(kind: GatewayUpKind, handler: UpHandler): void {
    if (this.#handlers.has(kind)) throw new Error(`a handler of gateway ${kind} messages twice`);
    this.#handlers.set(kind, handler);
  }

  /**
   * Tests only: puts `handler` in place of the module's handler of this kind (the dispatcher's
   * own tests watch what reaches a kind, whichever module handles it in the product).
   */
  replaceUpForTest(kind: GatewayUpKind, handler: UpHandler): void {
    this.#handlers.set(kind, handler);
  }

  /**
   * Calls `listener` after each merge of a gateway's status (online or offline, firmware,
   * ports, configuration…), in the gateway's queue: the firmware upgrade watches the version a
   * birth message names here.
   */
  onState(listener: StateListener): void {
    this.#stateListeners.push(listener);
  }

  /** Tells the state listeners; one that fails is logged and does not stop the others. */
  async emitState(change: StateChange): Promise<void> {
    for (const listener of this.#stateListeners) {
      try {
        await listener(change);
      } catch (error) {
        this.app.log.error({ err: error, sn: change.after.serialNumber }, 'a gateway state listener failed');
      }
    }
  }

  /** Publishes `payload` as JSON to the gateway's `down/<kind>`. */
  async send(serialNumber: string, kind: GatewayDownKind, payload: unknown, qos: 0 | 1 = 1): Promise<void> {
    const mqtt = this.app.mqtt;
    if (!mqtt) throw new Error('MQTT is off: nothing can be sent to a gateway');
    await mqtt.publish(gatewayDownTopic(serialNumber, kind), JSON.stringify(payload), qos);
  }

  /**
   * Runs `work` in the gateway's queue, after its messages received so far: for work about a
   * gateway that must not overtake or be overtaken by its messages (its connection ending).
   */
  run(serialNumber: string, work: () => Promise<void>): Promise<void> {
    const previous = this.#queues.get(serialNumber) ?? Promise.resolve();
    const next = previous.then(work).catch((error) => {
      this.app.mqtt?.stats.add('gatewayFailed');
      this.app.log.error({ err: error, sn: serialNumber }, 'gateway work failed');
    });
    this.#queues.set(serialNumber, next);
    void next.finally(() => {
      if (this.#queues.get(serialNumber) === next) this.#queues.delete(serialNumber);
    });
    return next;
  }

  /** Forgets what is cached of a gateway (its binding changed, it was removed). */
  forget(serialNumber: string): void {
    this.#refs.forget(serialNumber);
  }

  /**
   * The registered gateway of a serial number, or null: kept until a binding, secret or
   * registration changes on any node (the access epoch), read again after REF_TTL_MS at most.
   */
  ref(serialNumber: string): Promise<GatewayRef | null> {
    // bounded: an attacker cannot fill it with serial numbers (only registered ones connect)
    return this.#refs.get(serialNumber, async () => {
      const [row] = await this.app.db
        .select({
          id: gateways.id,
          serialNumber: gateways.serialNumber,
          companyId: gateways.companyId,
          boundAt: gateways.boundAt,
        })
        .from(gateways)
        .where(eq(gateways.serialNumber, serialNumber));
      return row ?? null;
    });
  }

  /** Subscribes to every gateway's up topics; call once every module has registered its handlers. */
  async attach(): Promise<void> {
    const mqtt = this.app.mqtt;
    if (!mqtt) return;
    this.#maxPayload = this.app.config.mqttMaxPacketBytes;
    await mqtt.subscribe(GATEWAY_UP_FILTER, (message) => this.#receive(message));
  }

  #drop(reason: DropReason, detail: Record<string, unknown>): Promise<void> {
    this.drops[reason] += 1;
    this.app.mqtt?.stats.add('gatewayDropped');
    this.app.log.debug({ ...detail, reason }, 'gateway message dropped');
    return Promise.resolve();
  }

  #receive(message: MqttInbound): Promise<void> {
    this.app.mqtt?.stats.add('gatewayReceived');
    const parsed = parseGatewayTopic(message.topic);
    if (parsed?.direction !== 'up') return this.#drop('topic', { topic: message.topic.slice(0, 128) });
    const { sn, kind } = parsed;
    if (message.overloaded && BULK_KINDS.has(kind)) return this.#drop('overloaded', { sn, kind });
    const max = BULK_KINDS.has(kind) ? this.#maxPayload : CONTROL_PAYLOAD_MAX;
    if (message.payload.length > max)
      return this.#drop('tooLarge', { sn, kind, bytes: message.payload.length });
    return this.run(sn, () => this.#handle(sn, kind, message));
  }

  async #handle(sn: string, kind: GatewayUpKind, message: MqttInbound): Promise<void> {
    const receivedAt = new Date();
    const gateway = await this.ref(sn);
    if (!gateway) return this.#drop('unknownGateway', { sn, kind });
    let payload: unknown;
    try {
      payload = JSON.parse(message.payload.toString('utf8'));
    } catch {
      return this.#drop('notJson', { sn, kind });
    }
    const shaped =
      typeof payload === 'object' && payload !== null && (!Array.isArray(payload) || kind === 'telemetry');
    if (!shaped || !storableJson(payload)) return this.#drop('badJson', { sn, kind });
    this.#touch(gateway.id, receivedAt);
    const handler = this.#handlers.get(kind);
    if (!handler) return this.#drop('noHandler', { sn, kind });
    try {
      await handler({ gateway, kind, payload, receivedAt, qos: message.qos });
      this.app.mqtt?.stats.add('gatewayHandled');
    } catch (error) {
      this.app.mqtt?.stats.add('gatewayFailed');
      this.app.log.warn({ err: error, sn, kind }, 'a gateway message handler failed');
    }
  }

  /**
   * Last seen, written at most every LAST_SEEN_EVERY_MS per gateway, the gateways' times of the
   * last LAST_SEEN_FLUSH_MS in one statement (10,000 gateways would otherwise be 333 updates a
   * second).
   */
  #touch(gatewayId: number, at: Date): void {
    const last = this.#seen.get(gatewayId) ?? 0;
    if (at.getTime() - last < LAST_SEEN_EVERY_MS) return;
    this.#seen.set(gatewayId, at.getTime());
    if (this.#seen.size > 50_000) this.#seen.clear();
    this.#unseen.set(gatewayId, at);
    this.#seenTimer ??= setTimeout(() => void this.flushLastSeen(), LAST_SEEN_FLUSH_MS);
    this.#seenTimer.unref();
  }

  /** Writes the last-seen times waiting (at once when the server stops). */
  async flushLastSeen(): Promise<void> {
    if (this.#seenTimer) clearTimeout(this.#seenTimer);
    this.#seenTimer = null;
    if (this.#unseen.size === 0) return;
    const ids = [...this.#unseen.keys()];
    const ats = ids.map((id) => this.#unseen.get(id)!.toISOString());
    this.#unseen.clear();
    try {
      await this.app.db.execute(sql`
        UPDATE ${gateways} SET last_seen_at = v.at
        FROM unnest(${`{${ids.join(',')}}`}::int[], ${`{${ats.join(',')}}`}::timestamptz[]) AS v(id, at)
        WHERE ${gateways.id} = v.id AND (${gateways.lastSeenAt} IS NULL OR ${gateways.lastSeenAt} < v.at)`);
    } catch (error) {
      this.app.log.warn({ err: error }, 'could not record when the gateways were last seen');
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the device protocol's dispatcher (modules/gateways/hub.ts) */
    gateways: GatewayHub;
  }
}
