/**
 * A gateway's MQTT session (docs/device-protocol.md, "Identity and connection"): client id and
 * username = SN, password = secret, clean session, the last will on `up/status`; down topics
 * subscribed before anything is published; reconnection with doubling waits and jitter; and the
 * three ways a session ends (a goodbye, a closed socket, silence).
 */
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Scheduler, Task } from './scheduler';
import type { GatewayCounters, SimLog } from './types';

export const TOPIC_ROOT = 'smartdata/gw';

/**
 * How a session ends: `polite` publishes `{"online":false}` and disconnects (no will); `kill`
 * closes the socket without a word (the broker sees the close at once and publishes the will);
 * `silent` sends nothing more and leaves the socket open, as a box losing its power on a
 * cellular link: only the broker's keep-alive (1.5 × 30 s) notices, then the will.
 */
export type DropHow = 'polite' | 'kill' | 'silent';

export interface LinkOptions {
  url: string;
  keepalive?: number;
  backoff?: { minMs?: number; maxMs?: number };
  mqtt?: Partial<IClientOptions>;
}

export interface LinkHost {
  readonly sn: string;
  readonly secret: string;
  readonly scheduler: Scheduler;
  readonly counters: GatewayCounters;
  readonly log: SimLog;
  /** whether the gateway wants a session now (power on, network up, not stopped) */
  wanted(): boolean;
  /** the session is open and subscribed: time for the birth message */
  opened(): void;
  message(topic: string, payload: Buffer): void;
}

export class MqttLink {
  private client: MqttClient | null = null;
  private readonly halfOpen = new Set<MqttClient>();
  private attempts = 0;
  private reconnectTask: Task | null = null;
  private warned = false;
  /** subscribed to the down topics: publishing is possible */
  online = false;

  constructor(
    private readonly host: LinkHost,
    private readonly options: LinkOptions,
  ) {}

  topic(sub: string): string {
    return `${TOPIC_ROOT}/${this.host.sn}/${sub}`;
  }

  /** Opens a session unless one is open or unwanted. */
  connect(): void {
    if (this.client || !this.host.wanted()) return;
    this.cancelReconnect();
    const client = mqtt.connect(this.options.url, {
      clientId: this.host.sn,
      username: this.host.sn,
      password: this.host.secret,
      keepalive: this.options.keepalive ?? 30,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      queueQoSZero: false,
      will: {
        topic: this.topic('up/status'),
        payload: Buffer.from('{"online":false}'),
        qos: 1,
        retain: false,
      },
      ...this.options.mqtt,
    });
    this.client = client;
    client.on('connect', () => {
      if (this.client !== client) return;
      this.attempts = 0;
      this.warned = false;
      this.host.counters.connects += 1;
      // down topics first, so nothing the platform sends in answer to the birth is missed
      client.subscribe(this.topic('down/#'), { qos: 1 }, (error) => {
        if (this.client !== client || error) return;
        this.online = true;
        this.host.opened();
      });
    });
    client.on('message', (topic, payload) => {
      if (this.client === client) this.host.message(topic, payload);
    });
    client.on('error', (error) => {
      if (this.client !== client) return;
      if (!this.warned)
        this.host.log.warn(
          { sn: this.host.sn, err: error.message },
          'gateway: broker error (retrying with backoff)',
        );
      this.warned = true;
    });
    client.on('close', () => {
      if (this.client !== client) return;
      if (!this.online) this.host.counters.connectFailures += 1;
      this.client = null;
      this.online = false;
      client.end(true);
      this.scheduleReconnect();
    });
  }

  /** The network came back: try at once, backoff from the start. */
  reconnectNow(): void {
    this.attempts = 0;
    this.connect();
  }

  cancelReconnect(): void {
    this.reconnectTask?.cancel();
    this.reconnectTask = null;
  }

  private scheduleReconnect(): void {
    if (!this.host.wanted() || this.reconnectTask) return;
    const min = this.options.backoff?.minMs ?? 1_000;
    const max = this.options.backoff?.maxMs ?? 60_000;
    const wait = Math.min(max, min * 2 ** Math.min(this.attempts, 20));
    this.attempts += 1;
    // jitter: a fleet cut off at once does not come back in lockstep
    this.reconnectTask = this.host.scheduler.after(wait * (0.5 + Math.random() * 0.5), () => {
      this.reconnectTask = null;
      this.connect();
    });
  }

  /** Ends the session (see DropHow). */
  async drop(how: DropHow): Promise<void> {
    const client = this.client;
    this.cancelReconnect();
    if (!client) return;
    const wasOnline = this.online;
    this.client = null;
    this.online = false;
    if (how === 'polite' && wasOnline) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2_000);
        client.publish(this.topic('up/status'), '{"online":false}', { qos: 1 }, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      await new Promise<void>((resolve) => client.end(false, {}, () => resolve()));
    } else if (how === 'silent') {
      // mqtt.js would ping, then close the socket itself when no answer comes: stop it
      (client as unknown as { _destroyKeepaliveManager(): void })._destroyKeepaliveManager();
      client.stream.pause();
      client.stream.cork();
      // left to the broker: its keep-alive, or the take-over when the gateway comes back
      this.halfOpen.add(client);
      client.once('close', () => {
        this.halfOpen.delete(client);
        client.end(true);
      });
    } else {
      client.end(true);
    }
  }

  /** Closes sockets a silent drop left open (the gateway stops for good). */
  closeHalfOpen(): void {
    for (const client of this.halfOpen) client.end(true);
    this.halfOpen.clear();
  }

  /** Publishes on `<SN>/<sub>` when online; false when not (the message is dropped). */
  publish(sub: string, message: unknown, qos: 0 | 1): boolean {
    const client = this.client;
    if (!client || !this.online) return false;
    client.publish(this.topic(sub), JSON.stringify(message), { qos });
    return true;
  }

  /** Like publish, resolving once the broker has the message (QoS 1); false when it could not. */
  publishConfirmed(sub: string, message: unknown): Promise<boolean> {
    const client = this.client;
    if (!client || !this.online) return Promise.resolve(false);
    return new Promise((resolve) =>
      client.publish(this.topic(sub), JSON.stringify(message), { qos: 1 }, (error) => resolve(!error)),
    );
  }
}
