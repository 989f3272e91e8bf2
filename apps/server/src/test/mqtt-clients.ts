/**
 * MQTT clients for tests: a polite one (mqtt.js) and a raw socket that writes whatever packets
 * it is given, as fast as it is given them, without waiting for anything (an attacker).
 */
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import mqttPacket, { type Packet } from 'mqtt-packet';

export interface Credentials {
  username: string;
  key: string;
}

export function connectAs(
  url: string,
  who: Credentials | null,
  options: IClientOptions = {},
): Promise<MqttClient> {
  return mqtt.connectAsync(url, {
    clientId: `test-${randomBytes(4).toString('hex')}`,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    ...(who ? { username: who.username, password: who.key } : {}),
    ...options,
  });
}

/** The CONNACK return code a connection attempt gets (0 = accepted; the client is closed again). */
export async function connackCode(
  url: string,
  who: Credentials | null,
  options: IClientOptions = {},
): Promise<number> {
  try {
    const client = await connectAs(url, who, options);
    await client.endAsync(true);
    return 0;
  } catch (error) {
    const code = (error as { code?: number }).code;
    if (typeof code === 'number') return code;
    throw error;
  }
}

/** Resolves once `client` is disconnected by the other side (or rejects after `ms`). */
export function disconnected(client: MqttClient, ms = 15_000): Promise<void> {
  if (!client.connected) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the client was not disconnected')), ms);
    client.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export function encode(packet: Packet): Buffer {
  return mqttPacket.generate(packet);
}

export function connectPacket(
  who: Credentials | null,
  clientId = `raw-${randomBytes(4).toString('hex')}`,
): Buffer {
  return encode({
    cmd: 'connect',
    protocolId: 'MQTT',
    protocolVersion: 4,
    clean: true,
    clientId,
    keepalive: 60,
    ...(who ? { username: who.username, password: Buffer.from(who.key) } : {}),
  });
}

export function publishPacket(topic: string, payload: string, qos: 0 | 1, messageId = 1): Buffer {
  return encode({
    cmd: 'publish',
    topic,
    payload,
    qos,
    retain: false,
    dup: false,
    ...(qos > 0 ? { messageId } : {}),
  });
}

/** A socket speaking raw MQTT: everything it receives is parsed and kept. */
export class RawClient {
  readonly socket: net.Socket;
  readonly received: Packet[] = [];
  closed = false;
  readonly #closed: Promise<void>;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    parser.on('packet', (packet) => {
      this.received.push(packet);
      this.onPacket?.(packet);
    });
    parser.on('error', () => socket.destroy());
    socket.on('data', (chunk) => parser.parse(chunk));
    socket.on('error', () => {});
    this.#closed = new Promise((resolve) => {
      socket.once('close', () => {
        this.closed = true;
        resolve();
      });
    });
  }

  /** called for each packet as it arrives */
  onPacket: ((packet: Packet) => void) | null = null;

  static connect(port: number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.setNoDelay(true);
      socket.once('connect', () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes and resolves once the bytes were handed to the kernel (or the socket closed). */
  write(data: Buffer): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.write(data, () => resolve());
    });
  }

  closedWithin(ms: number): Promise<boolean> {
    return Promise.race([
      this.#closed.then(() => true),
      new Promise<boolean>((r) => setTimeout(() => r(false), ms)),
    ]);
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The SUBACK return codes of a subscription (128 = refused; mqtt.js throws on it). */
export async function granted(client: MqttClient, filter: string, qos: 0 | 1 = 1): Promise<number[]> {
  try {
    return (await client.subscribeAsync(filter, { qos })).map((g) => g.qos);
  } catch (error) {
    const packet = (error as { packet?: { granted?: Array<number | { reasonCode?: number }> } }).packet;
    if (!packet?.granted) throw error;
    return packet.granted.map((g) => (typeof g === 'number' ? g : (g.reasonCode ?? -1)));
  }
}
