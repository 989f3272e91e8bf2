/**
 * What the MQTT side of this node did since it started, for operators: every submission
 * received is answered OK, refused with an answer, or (QoS 0 under overload only) dropped and
 * counted here; every gateway message handled, dropped or failed; connections and packets the
 * broker refused are counted too. A log line per
 * interval when anything moved, and GET /general/mqtt/stats (system maintenance).
 */
import type { FastifyBaseLogger } from 'fastify';

export interface MqttCounters {
  /** submissions that reached the server */
  received: number;
  /** answered with code 0 (stored) */
  answeredOk: number;
  /** answered with an error (bad record, invalid key, overload…) */
  refused: number;
  /** QoS 0 submissions dropped under overload, unanswered */
  dropped: number;
  /** CONNECTs refused: anonymous, wrong credentials, revoked (embedded broker) */
  connectionsRefused: number;
  /** clients disconnected because their access ended (revoked key, disabled user…) */
  disconnectedRevoked: number;
  /** publishes refused by the ACL (the client is disconnected) */
  publishesRefused: number;
  /** subscriptions refused by the ACL (answered 0x80) */
  subscriptionsRefused: number;
  /** connections closed for a packet above the size limit */
  packetsTooLarge: number;
  /** connections closed at once: their address failed too many CONNECTs (embedded broker) */
  connectionsThrottled: number;
  /** gateway messages (smartdata/gw/<SN>/up/…) that reached the server */
  gatewayReceived: number;
  /** gateway messages handled */
  gatewayHandled: number;
  /** gateway messages dropped: not JSON, too large, unknown kind or gateway, no handler, overload */
  gatewayDropped: number;
  /** gateway messages whose handler failed (logged) */
  gatewayFailed: number;
}

const ZERO: MqttCounters = {
  received: 0,
  answeredOk: 0,
  refused: 0,
  dropped: 0,
  connectionsRefused: 0,
  disconnectedRevoked: 0,
  publishesRefused: 0,
  subscriptionsRefused: 0,
  packetsTooLarge: 0,
  connectionsThrottled: 0,
  gatewayReceived: 0,
  gatewayHandled: 0,
  gatewayDropped: 0,
  gatewayFailed: 0,
};

/** at most one overload warning per this many milliseconds */
const DROP_LOG_MS = 10_000;

export class MqttStats {
  readonly counters: MqttCounters = { ...ZERO };
  readonly since = new Date();
  /** submissions received and not yet answered or dropped, and their payload bytes */
  pending = { messages: 0, bytes: 0 };
  #lastLogged: MqttCounters = { ...ZERO };
  #timer: NodeJS.Timeout | null = null;
  #dropsSinceWarning = 0;
  #lastDropWarning = 0;

  constructor(private readonly log: FastifyBaseLogger) {}

  add(counter: keyof MqttCounters, n = 1): void {
    this.counters[counter] += n;
  }

  /** A QoS 0 submission dropped under overload: counted, and logged at most every 10 s. */
  drop(): void {
    this.counters.dropped += 1;
    this.#dropsSinceWarning += 1;
    const now = Date.now();
    if (now - this.#lastDropWarning >= DROP_LOG_MS) {
      this.log.warn(
        { dropped: this.#dropsSinceWarning, pending: this.pending },
        `MQTT overload: ${this.#dropsSinceWarning} QoS 0 submission(s) dropped unanswered since the last warning`,
      );
      this.#dropsSinceWarning = 0;
      this.#lastDropWarning = now;
    }
  }

  /** Logs the counters' increase every `intervalMs` when something moved (0 = never). */
  startLogging(intervalMs: number): void {
    if (intervalMs <= 0 || this.#timer) return;
    this.#timer = setInterval(() => this.logInterval(intervalMs), intervalMs);
    this.#timer.unref();
  }

  logInterval(intervalMs: number): void {
    const delta = Object.fromEntries(
      Object.entries(this.counters).map(([k, v]) => [k, v - this.#lastLogged[k as keyof MqttCounters]]),
    ) as unknown as MqttCounters;
    if (Object.values(delta).every((v) => v === 0)) return;
    this.#lastLogged = { ...this.counters };
    this.log.info(
      { mqtt: delta, pending: this.pending },
      `MQTT in the last ${Math.round(intervalMs / 1000)} s: ${delta.received} received, ${delta.answeredOk} answered OK, ${delta.refused} refused, ${delta.dropped} dropped, ${delta.connectionsRefused} connections refused; gateways: ${delta.gatewayReceived} received, ${delta.gatewayDropped} dropped, ${delta.gatewayFailed} failed`,
    );
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}
