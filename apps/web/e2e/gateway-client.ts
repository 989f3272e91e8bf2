/**
 * A gateway as the browser tests need one: an MQTT client in the test process signed in with
 * the gateway's serial number and secret (docs/device-protocol.md), with its last will, that
 * publishes its birth message, records what the platform sends it on `down/…`, and presses its
 * bind button (publishes `up/bind`) when the test says so.
 */
import mqtt, { type MqttClient } from 'mqtt';

export interface PortHealth {
  port: number;
  ok: boolean;
  error?: string;
}

export interface DownMessage {
  kind: string;
  payload: Record<string, unknown>;
}

export class TestGateway {
  readonly received: DownMessage[] = [];
  private client: MqttClient | null = null;

  constructor(
    readonly url: string,
    readonly sn: string,
    private secret: string,
  ) {}

  private topic(direction: 'up' | 'down', kind: string): string {
    return `smartdata/gw/${this.sn}/${direction}/${kind}`;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** Connects (with the will the protocol names) and publishes the birth message. */
  async connect(
    birth: {
      firmware?: string;
      model?: string;
      ports?: PortHealth[];
      iccid?: string;
      configVersion?: number;
    } = {},
  ): Promise<void> {
    const client = await mqtt.connectAsync(this.url, {
      clientId: this.sn,
      username: this.sn,
      password: this.secret,
      reconnectPeriod: 0,
      connectTimeout: 15_000,
      keepalive: 30,
      clean: true,
      will: {
        topic: this.topic('up', 'status'),
        payload: Buffer.from(JSON.stringify({ online: false })),
        qos: 1,
        retain: false,
      },
    });
    this.client = client;
    client.on('message', (topic, payload) => {
      const kind = topic.split('/down/')[1] ?? topic;
      try {
        this.received.push({ kind, payload: JSON.parse(payload.toString()) as Record<string, unknown> });
      } catch {
        this.received.push({ kind, payload: { raw: payload.toString() } });
      }
    });
    await client.subscribeAsync(this.topic('down', '#'), { qos: 1 });
    await this.status({
      online: true,
      model: 'SDG-200',
      firmware: '1.2.0',
      ports: [{ port: 1, ok: true }],
      ...birth,
    });
  }

  /** A status message (a birth, or a change of ports). */
  async status(payload: Record<string, unknown>): Promise<void> {
    await this.client!.publishAsync(this.topic('up', 'status'), JSON.stringify(payload), { qos: 1 });
  }

  async publish(kind: string, payload: unknown): Promise<void> {
    await this.client!.publishAsync(this.topic('up', kind), JSON.stringify(payload), { qos: 1 });
  }

  /** The bind requests the platform sent (down/bind with an expiry), oldest first. */
  bindRequests(): Array<{ requestId: string; expiresAt: string }> {
    return this.received
      .filter((m) => m.kind === 'bind' && typeof m.payload.expiresAt === 'string')
      .map((m) => m.payload as { requestId: string; expiresAt: string });
  }

  /** Waits for a down message matching `test` (polling, generous deadline). */
  async waitFor(test: (m: DownMessage) => boolean, timeoutMs = 30_000): Promise<DownMessage> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.find(test);
      if (found) return found;
      if (Date.now() > until)
        throw new Error(`gateway ${this.sn} received no such message: ${JSON.stringify(this.received)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The person at the gateway presses its bind button: confirms the latest request. */
  async pressBindButton(): Promise<string> {
    const request = (await this.waitFor((m) => m.kind === 'bind' && typeof m.payload.expiresAt === 'string'))
      .payload as { requestId: string };
    const latest = this.bindRequests().at(-1) ?? request;
    await this.publish('bind', { requestId: latest.requestId });
    return latest.requestId;
  }

  /** Drops the connection without a goodbye: the broker sees it end (and sends the will). */
  async disconnect(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) await client.endAsync(true);
  }
}
