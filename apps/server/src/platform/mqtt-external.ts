/**
 * An external broker (MQTT_URL): the server is one client of it, with its own credentials
 * (MQTT_URL's user and password). Several server nodes share one subscription
 * (`$share/<group>/…`), so each message is handled once.
 *
 * The broker enforces who may connect and what each client may do:
 * - MQTT_BROKER_AUTH=dynsec (Mosquitto 2.0): the server provisions one account per principal
 *   through the dynamic-security plugin (platform/mqtt-dynsec.ts) and keeps them in line with
 *   access changes;
 * - MQTT_BROKER_AUTH=http (EMQX): the broker asks the server on every CONNECT and
 *   PUBLISH/SUBSCRIBE (POST /general/mqtt/auth and /general/mqtt/acl).
 * At start-up the server tries to connect without credentials: a broker that lets it in
 * would let anyone write as any key, so the server refuses to start on it unless
 * MQTT_INSECURE_BROKER=true (throwaway test brokers).
 */
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { topicMatches } from '@platform/domain';
import mqtt, { type MqttClient } from 'mqtt';
import type { MqttHandler, MqttOptions, MqttTransport } from './mqtt';
import { DynsecAdmin, prepareDynsec } from './mqtt-dynsec';
import { coalesceWrites, dispatch } from './mqtt-flow';

const PROBE_TIMEOUT_MS = 5_000;

/** The broker's address without credentials. */
export function brokerAddress(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}

/**
 * Whether the broker lets a client in without credentials: true, false, or null when the
 * attempt neither succeeded nor was refused (unreachable, timed out).
 */
export async function acceptsAnonymous(url: string): Promise<boolean | null> {
  return new Promise<boolean | null>((resolve) => {
    const probe = mqtt.connect(brokerAddress(url), {
      clientId: `smartdata-probe-${randomBytes(6).toString('hex')}`,
      reconnectPeriod: 0,
      connectTimeout: PROBE_TIMEOUT_MS,
    });
    const finish = (answer: boolean | null) => {
      clearTimeout(timer);
      probe.removeAllListeners();
      probe.on('error', () => {});
      probe.end(true);
      resolve(answer);
    };
    const timer = setTimeout(() => finish(null), PROBE_TIMEOUT_MS + 1_000);
    probe.on('connect', () => finish(true));
    probe.on('error', (error) => {
      const code = (error as { code?: number }).code;
      // CONNACK 4 (bad user name or password) / 5 (not authorised), or v5 reason codes
      finish(code === 4 || code === 5 || code === 134 || code === 135 ? false : null);
    });
    probe.on('close', () => finish(null));
  });
}

const tuned = new WeakSet<Socket>();

export async function startExternal(options: MqttOptions & { url: string }): Promise<MqttTransport> {
  const { log, stats } = options;
  const anonymous = await acceptsAnonymous(options.url);
  const insecure = anonymous === true;
  if (insecure && !options.insecureBroker) {
    throw new Error(
      'The MQTT broker at MQTT_URL accepts clients without credentials: anyone could write as any submission key. Configure its authentication (docs/mqtt-broker.md), or set MQTT_INSECURE_BROKER=true for a throwaway test broker.',
    );
  }
  if (insecure) {
    log.warn(
      '!!! The MQTT broker accepts anonymous clients (MQTT_INSECURE_BROKER=true): anyone who reaches it can submit as any key and read every answer. Never use it in production. !!!',
    );
  } else if (anonymous === null) {
    log.warn(
      'Could not check whether the MQTT broker refuses anonymous clients; it must (docs/mqtt-broker.md)',
    );
  }

  const serverUsername = decodeURIComponent(new URL(options.url).username);
  const useDynsec = options.brokerAuth === 'dynsec' && !insecure;
  if (useDynsec) {
    if (!serverUsername)
      throw new Error(
        'MQTT_URL carries no user name: the server needs the dynamic-security admin account it was given',
      );
    await prepareDynsec(
      (clientId) => mqtt.connectAsync(options.url, { clientId, reconnectPeriod: 0, connectTimeout: 10_000 }),
      serverUsername,
      stats,
      log,
    );
  }
  const client: MqttClient = await mqtt.connectAsync(options.url, {
    clientId: `smartdata-server-${randomBytes(6).toString('hex')}`,
    clean: true,
    reconnectPeriod: 2000,
  });
  client.on('error', (error) => log.warn({ err: error.message }, 'MQTT client error'));
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
  const listeners: Array<{ filter: string; listener: (topic: string, payload: Buffer) => void }> = [];
  client.on('message', (topic, payload, packet) => {
    for (const h of handlers) {
      if (topicMatches(h.filter, topic))
        dispatch(options, h.handler, { topic, payload, qos: packet.qos }, null);
    }
    for (const l of listeners) {
      if (!topicMatches(l.filter, topic)) continue;
      try {
        l.listener(topic, payload);
      } catch (error) {
        log.error({ err: error, topic }, 'an MQTT listener failed');
      }
    }
  });

  let dynsec: DynsecAdmin | null = null;
  let unwatch: (() => void) | null = null;
  if (useDynsec) {
    dynsec = new DynsecAdmin(client, serverUsername, options.principals, stats, log);
    await dynsec.listen();
    const admin = dynsec;
    const reconcile = () =>
      admin
        .reconcile()
        .catch((error) => log.error({ err: error }, 'could not bring MQTT broker accounts in line'));
    unwatch = options.accessWatch.onChange(reconcile);
    await options.accessWatch.ready();
    // each kind a module registers: accounts of principals that ended while the server was
    // away go, and those the broker lacks are reported
    options.principals.onRegister((kind) => {
      void reconcile().then(async () => {
        const missing = await admin.missingAccounts(kind).catch(() => []);
        if (missing.length > 0)
          log.warn(
            { kind: kind.kind, count: missing.length },
            `${missing.length} MQTT principal(s) of kind ${kind.kind} have no account on the broker (created before it was configured, or while it was unreachable): they work over HTTP only; new keys get accounts`,
          );
      });
    });
  }
  log.info(
    `MQTT client connected to the external broker (${dynsec ? 'dynamic security' : options.brokerAuth})`,
  );

  return {
    kind: 'external',
    port: null,
    stats,
    accounts: dynsec,
    subscribe: async (filter, handler) => {
      handlers.push({ filter, handler });
      const shared = options.shareGroup ? `$share/${options.shareGroup}/${filter}` : filter;
      const granted = await client.subscribeAsync(shared, { qos: 1 });
      if (granted.some((g) => g.qos === 128))
        throw new Error(`the MQTT broker refused the server's subscription to ${shared}`);
    },
    listen: async (filter, listener) => {
      listeners.push({ filter, listener });
      // every node hears every message: no shared subscription here
      const granted = await client.subscribeAsync(filter, { qos: 0 });
      if (granted.some((g) => g.qos === 128))
        throw new Error(`the MQTT broker refused the server's subscription to ${filter}`);
    },
    publish: async (topic, payload, qos = 1) => {
      await client.publishAsync(topic, payload, { qos });
    },
    // the broker does not tell its clients' comings and goings: a gateway's will does
    onClientGone: () => {},
    isConnected: () => null,
    close: async () => {
      unwatch?.();
      dynsec?.close();
      await client.endAsync();
    },
  };
}
