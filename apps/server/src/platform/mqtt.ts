/**
 * The MQTT side of the server, one interface over two adapters chosen at start-up:
 * - embedded (MQTT_URL unset): an aedes broker in this process on MQTT_PORT (default 1883;
 *   0 = an ephemeral port; a port in use falls back to an ephemeral one with a warning).
 *   The server subscribes in-process, so no socket or credentials are involved, and the
 *   broker refuses other clients' subscriptions that could see submission topics (their
 *   names carry keys) and their publishes that would fake results.
 * - external (MQTT_URL set): an MQTT client of that broker (Mosquitto, EMQX…). Several
 *   server nodes share one subscription (`$share/<group>/…`), so each message is handled
 *   once; the broker's own ACLs must keep `smartdata/submit/#` from other subscribers.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type AedesPublishPacket, type Client, type Subscription } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';

export type MqttHandler = (topic: string, payload: Buffer) => void;

export interface MqttTransport {
  kind: 'embedded' | 'external';
  /** the embedded broker's bound port; null for an external broker */
  port: number | null;
  subscribe(filter: string, handler: MqttHandler): Promise<void>;
  publish(topic: string, payload: string | Buffer, qos?: 0 | 1): Promise<void>;
  close(): Promise<void>;
}

export interface MqttOptions {
  url?: string;
  port: number;
  host: string;
  /** shared-subscription group of the server nodes on an external broker; '' = plain subscription */
  shareGroup: string;
  log: FastifyBaseLogger;
}

/** Topics only the server may subscribe to (their names carry submission keys). */
export const PROTECTED_PREFIXES = [
  ['smartdata', 'submit'],
  ['smartdata', 'result'],
] as const;

/**
 * Whether a client's subscription filter may match topics under `prefix/<key>`: exact
 * `smartdata/result/<key>` (no wildcard) is the one a device needs and is allowed.
 */
export function filterReachesKeys(
  filter: string,
  prefix: readonly string[],
  allowExactKey: boolean,
): boolean {
  const levels = filter.split('/');
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]!;
    if (level === '#') return true;
    if (i < prefix.length) {
      if (level !== '+' && level !== prefix[i]) return false;
      continue;
    }
    if (i === prefix.length) {
      if (levels.length !== prefix.length + 1) return false; // deeper topics carry no key
      if (level === '+') return true;
      // an exact key: allowed for results, and only when the levels above were exact too
      return !(allowExactKey && levels.slice(0, prefix.length).every((l) => l !== '+'));
    }
  }
  return false;
}

/** MQTT filter matching: `+` one level, `#` the rest. */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length || (f[i] !== '+' && f[i] !== t[i])) return false;
  }
  return f.length === t.length;
}

function mayClientSubscribe(filter: string): boolean {
  if (filterReachesKeys(filter, PROTECTED_PREFIXES[0], false)) return false;
  return !filterReachesKeys(filter, PROTECTED_PREFIXES[1], true);
}

async function listenOn(server: Server, host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * Packets written to a device in one turn of the event loop (a burst of answers and
 * acknowledgements) leave in one system call instead of one each: the socket is corked at the
 * first write of a turn and uncorked when the turn ends.
 */
const tuned = new WeakSet<Socket>();

function coalesceWrites(socket: Socket): void {
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  const write = socket.write.bind(socket);
  socket.write = ((...args: Parameters<Socket['write']>) => {
    if (!corked) {
      corked = true;
      socket.cork();
      setImmediate(uncork);
    }
    return write(...(args as [string]));
  }) as Socket['write'];
}

async function startEmbedded(options: MqttOptions): Promise<MqttTransport> {
  const broker = await Aedes.createBroker({
    authorizeSubscribe: (client: Client, sub: Subscription, callback) => {
      if (!mayClientSubscribe(sub.topic)) {
        options.log.warn({ clientId: client?.id }, 'MQTT subscription refused: it could see submission keys');
        callback(new Error('subscription refused'));
        return;
      }
      callback(null, sub);
    },
    authorizePublish: (_client, packet, callback) => {
      if (packet.topic.startsWith('smartdata/result/')) {
        callback(new Error('results are published by the server only'));
        return;
      }
      callback(null);
    },
  });
  // small packets both ways (a submission, its acknowledgement, its answer): without
  // TCP_NODELAY, Nagle's algorithm and delayed ACKs hold them up to ~40 ms
  const server = createServer({ noDelay: true }, (socket) => {
    coalesceWrites(socket);
    broker.handle(socket);
  });
  try {
    await listenOn(server, options.host, options.port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    options.log.warn(
      `MQTT port ${options.port} is in use (another broker?): the embedded broker takes an ephemeral port instead; set MQTT_PORT or MQTT_URL`,
    );
    await listenOn(server, options.host, 0);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  options.log.info(`MQTT broker listening on ${options.host}:${port}`);

  const delivered: Array<[string, (packet: AedesPublishPacket, cb: () => void) => void]> = [];
  return {
    kind: 'embedded',
    port,
    subscribe: (filter, handler) =>
      new Promise<void>((resolve) => {
        const deliver = (packet: AedesPublishPacket, cb: () => void) => {
          cb(); // handled asynchronously: the broker need not wait for the database
          handler(
            packet.topic,
            Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
          );
        };
        delivered.push([filter, deliver]);
        broker.subscribe(filter, deliver, resolve);
      }),
    publish: (topic, payload, qos = 1) =>
      new Promise<void>((resolve, reject) => {
        broker.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        );
      }),
    close: async () => {
      for (const [filter, deliver] of delivered) {
        await new Promise<void>((resolve) => broker.unsubscribe(filter, deliver, resolve));
      }
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function startExternal(options: MqttOptions & { url: string }): Promise<MqttTransport> {
  const client: MqttClient = await mqtt.connectAsync(options.url, {
    clientId: `smartdata-server-${randomBytes(6).toString('hex')}`,
    clean: true,
    reconnectPeriod: 2000,
  });
  client.on('error', (error) => options.log.warn({ err: error }, 'MQTT client error'));
  // answers are small packets: send them at once and a turn's worth together (see the
  // embedded broker), on every reconnect's new socket too
  const tune = () => {
    const socket = client.stream as Partial<Socket> | undefined;
    if (!socket?.setNoDelay || !socket.cork || tuned.has(socket as Socket)) return;
    tuned.add(socket as Socket);
    socket.setNoDelay(true);
    coalesceWrites(socket as Socket);
  };
  tune();
  client.on('connect', tune);
  const handlers: Array<{ filter: string; handler: MqttHandler }> = [];
  client.on('message', (topic, payload) => {
    for (const h of handlers) if (topicMatches(h.filter, topic)) h.handler(topic, payload);
  });
  options.log.info('MQTT client connected to the external broker');
  return {
    kind: 'external',
    port: null,
    subscribe: async (filter, handler) => {
      handlers.push({ filter, handler });
      const shared = options.shareGroup ? `$share/${options.shareGroup}/${filter}` : filter;
      await client.subscribeAsync(shared, { qos: 1 });
    },
    publish: async (topic, payload, qos = 1) => {
      await client.publishAsync(topic, payload, { qos });
    },
    close: async () => {
      await client.endAsync();
    },
  };
}

export async function startMqtt(options: MqttOptions): Promise<MqttTransport> {
  if (options.url) return startExternal({ ...options, url: options.url });
  return startEmbedded(options);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the MQTT broker (embedded) or client (external); null when MQTT is off */
    mqtt: MqttTransport | null;
  }
}
