/**
 * A small stand-in for the platform's side of the device protocol, for tests: it hears every
 * gateway's up topics and publishes on their down topics, and lets a test wait for a message.
 */
import mqtt, { type MqttClient } from 'mqtt';
import { TOPIC_ROOT } from '../gateway';

export interface UpMessage {
  sn: string;
  /** after `up/`: status, frame, bind… */
  sub: string;
  message: Record<string, unknown>;
  /** order of arrival */
  seq: number;
}

export class PlatformStandIn {
  readonly messages: UpMessage[] = [];
  private waiters = new Set<() => void>();

  private constructor(private readonly client: MqttClient) {
    client.on('message', (topic, payload) => {
      const match = /^smartdata\/gw\/([^/]+)\/up\/(.+)$/.exec(topic);
      if (!match) return;
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(payload.toString('utf8'));
      } catch {
        message = { unparsable: payload.toString('utf8') };
      }
      this.messages.push({ sn: match[1]!, sub: match[2]!, message, seq: this.messages.length });
      for (const wake of this.waiters) wake();
    });
  }

  static async connect(url: string): Promise<PlatformStandIn> {
    const client = await mqtt.connectAsync(url, {
      clientId: `platform-${process.pid}-${Date.now()}`,
      reconnectPeriod: 0,
    });
    await client.subscribeAsync(`${TOPIC_ROOT}/+/up/#`, { qos: 1 });
    return new PlatformStandIn(client);
  }

  /** A position in the messages: waitFor(…, mark) looks only at what came after it. */
  mark(): number {
    return this.messages.length;
  }

  /** Messages of `sn` on `sub` (from `since`). */
  of(sn: string, sub: string, since = 0): Array<Record<string, unknown>> {
    return this.messages.filter((m) => m.seq >= since && m.sn === sn && m.sub === sub).map((m) => m.message);
  }

  /**
   * The first message of `sn` on `sub` (from `since`) that `match` accepts; rejects after
   * `timeoutMs` naming what arrived instead.
   */
  waitFor(
    sn: string,
    sub: string,
    match: (message: Record<string, unknown>) => boolean = () => true,
    options: { since?: number; timeoutMs?: number } = {},
  ): Promise<Record<string, unknown>> {
    const since = options.since ?? 0;
    const find = () =>
      this.messages.find((m) => m.seq >= since && m.sn === sn && m.sub === sub && match(m.message));
    return new Promise((resolve, reject) => {
      const found = find();
      if (found) return resolve(found.message);
      const wake = () => {
        const hit = find();
        if (!hit) return;
        clearTimeout(timer);
        this.waiters.delete(wake);
        resolve(hit.message);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        const seen = this.of(sn, sub, since).map((m) => JSON.stringify(m));
        reject(
          new Error(
            `no matching ${sub} from ${sn} within ${options.timeoutMs ?? 20_000} ms; got: ${seen.slice(-5).join(' | ') || 'nothing'}`,
          ),
        );
      }, options.timeoutMs ?? 20_000);
      this.waiters.add(wake);
    });
  }

  /** Publishes `message` on `smartdata/gw/<sn>/down/<sub>`. */
  async send(sn: string, sub: string, message: unknown, qos: 0 | 1 = 1): Promise<void> {
    const payload =
      typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message);
    await this.client.publishAsync(`${TOPIC_ROOT}/${sn}/down/${sub}`, payload, { qos });
  }

  async close(): Promise<void> {
    await this.client.endAsync(true);
  }
}
