/**
 * The embedded broker (aedes, in the server's process): the default of `npm start`.
 *
 * - CONNECT: username and password go to the principal registry; anonymous clients, wrong
 *   credentials and revoked keys are answered "not authorised". A client id held by another
 *   principal's connection is refused (taking it over would disconnect that client).
 * - PUBLISH and SUBSCRIBE: judged against the client's ACL (packages/domain mqtt/topics.ts);
 *   a refused publish closes the connection (MQTT 3.1.1 has no negative PUBACK), a refused
 *   subscription is answered 0x80.
 * - access changes (keys revoked, users disabled, memberships…, a gateway's secret replaced):
 *   every connected client's principal is checked again and those no longer allowed, or
 *   signed in with a credential replaced since, are disconnected.
 * - an address with too many failed CONNECTs in a minute is shut out for the rest of it
 *   (platform/mqtt-throttle.ts).
 * - the last connection of a principal ending, however it ends, is told to whoever listens
 *   (a gateway goes offline even without its will).
 * - the server's own subscriptions are in-process; their callback returns to the broker on the
 *   next tick, never synchronously: a synchronous return let the broker recurse through its
 *   queue until the stack overflowed under a burst.
 */
import { createServer } from 'node:net';
import { maySubscribe as aclMaySubscribe, mayPublish } from '@platform/domain';
import { Aedes, type AedesPublishPacket, type AuthenticateError, type Client } from 'aedes';
import type { MqttHandler, MqttOptions, MqttTransport } from './mqtt';
import { ClientFlow, coalesceWrites, dispatch, InboundGuard, listenOn } from './mqtt-flow';
import type { MqttPrincipal } from './mqtt-principals';
import { ConnectThrottle } from './mqtt-throttle';

interface Connection {
  principal: MqttPrincipal | null;
  flow: ClientFlow;
  address: string | undefined;
}

function refusal(returnCode: 2 | 3 | 5): AuthenticateError {
  const error = new Error('connection refused') as AuthenticateError;
  error.returnCode = returnCode;
  return error;
}

export async function startEmbedded(options: MqttOptions): Promise<MqttTransport> {
  const { principals, accessWatch, stats, log, limits } = options;
  const connections = new WeakMap<Client, Connection>();
  const principalOf = (client: Client | null | undefined) =>
    client ? (connections.get(client)?.principal ?? null) : null;
  /** connected (registered) clients by client id */
  const clients = new Map<string, Client>();
  /** authenticated connections by principal username */
  const byUsername = new Map<string, Set<Client>>();
  const goneListeners: Array<(principal: MqttPrincipal) => void> = [];
  const throttle = new ConnectThrottle(options.connectFailLimit);

  // re-check connected clients while there are any: the access watch polls the database only
  // while someone listens
  let unwatch: (() => void) | null = null;
  /** connections being authenticated or holding a principal */
  let watched = 0;
  const recheck = async () => {
    const held = [...clients.values()].filter((c) => principalOf(c));
    if (held.length === 0) return;
    const usernames = held.map((c) => principalOf(c)!.username);
    const [states, credentials] = await Promise.all([
      principals.states(usernames),
      principals.credentials(usernames),
    ]);
    for (const client of held) {
      const principal = principalOf(client)!;
      const replaced =
        principal.credential !== undefined && credentials.get(principal.username) !== principal.credential;
      if (states.get(principal.username) === 'allowed' && !replaced) continue;
      stats.add('disconnectedRevoked');
      log.info(
        { username: principal.username },
        replaced
          ? 'MQTT client disconnected: its credential was replaced'
          : 'MQTT client disconnected: its access ended',
      );
      client.close();
    }
  };
  const watch = () => {
    unwatch ??= accessWatch.onChange(recheck);
  };
  const unwatchIfIdle = () => {
    if (unwatch && watched === 0) {
      unwatch();
      unwatch = null;
    }
  };

  const broker = await Aedes.createBroker({
    // no broker-wide cap on messages being delivered: past it the broker queued every
    // message, so one client slow to read its answers held up every other client, and the
    // queue drained by recursion. Each client's own share is bounded instead (mqtt-flow.ts).
    concurrency: 0,
    // a client's packets before CONNACK (its CONNECT is being checked) beyond this close it
    queueLimit: 42,
    connectTimeout: 10_000,
    authenticate: (client, username, password, done) => {
      const refuse = (code: 2 | 3 | 5) => {
        stats.add('connectionsRefused');
        if (code === 5) throttle.failed(connections.get(client)?.address);
        done(refusal(code), false);
      };
      if (!username || !password) {
        refuse(5);
        return;
      }
      watched += 1;
      watch();
      // grants are read after the watch's baseline, so a change after this read is seen
      accessWatch
        .ready()
        .then(() => principals.authenticate(username, password.toString('utf8')))
        .then(
          (principal) => {
            if (!principal) return refuse(5);
            const holder = clients.get(client.id);
            if (holder && holder !== client && principalOf(holder)?.username !== principal.username)
              return refuse(2);
            const connection = connections.get(client);
            // gone while its credentials were checked (it pushed packets in behind its CONNECT)
            if (!connection || client.closed) return done(refusal(5), false);
            connection.principal = principal;
            // held until the socket closes (see the connection handler)
            watched += 1;
            let held = byUsername.get(principal.username);
            if (!held) {
              held = new Set();
              byUsername.set(principal.username, held);
            }
            held.add(client);
            done(null, true);
          },
          (error) => {
            log.error({ err: error }, 'MQTT authentication failed');
            refuse(3);
          },
        )
        .finally(() => {
          watched -= 1;
          unwatchIfIdle();
        });
    },
    authorizePublish: (client, packet, done) => {
      const principal = principalOf(client);
      if (!principal || !mayPublish(principal.acl, packet.topic)) {
        stats.add('publishesRefused');
        done(new Error('publish refused'));
        return;
      }
      // submissions are not kept for later subscribers
      packet.retain = false;
      done(null);
    },
    authorizeSubscribe: (client, sub, done) => {
      const principal = principalOf(client);
      if (!principal || !aclMaySubscribe(principal.acl, sub.topic)) {
        stats.add('subscriptionsRefused');
        done(null, null); // SUBACK 0x80, the client stays connected
        return;
      }
      done(null, sub);
    },
    // only what its ACL lets it read ever reaches a client
    authorizeForward: (client, packet) => {
      const principal = principalOf(client);
      if (!principal) return null;
      // the usual case, a client's own answer topic, without parsing it
      if (principal.acl.subscribe.includes(packet.topic)) return packet;
      return aclMaySubscribe(principal.acl, packet.topic) ? packet : null;
    },
  });
  broker.on('client', (client) => {
    clients.set(client.id, client);
  });
  broker.on('clientDisconnect', (client) => {
    if (clients.get(client.id) === client) clients.delete(client.id);
  });

  // small packets both ways (a submission, its acknowledgement, its answer): without
  // TCP_NODELAY, Nagle's algorithm and delayed ACKs hold them up to ~40 ms
  const server = createServer({ noDelay: true }, (socket) => {
    socket.on('error', () => {}); // reported by the broker's client; never crash on a reset
    // an address that failed too many CONNECTs costs nothing more this minute
    if (throttle.blocked(socket.remoteAddress)) {
      stats.add('connectionsThrottled');
      socket.destroy();
      return;
    }
    coalesceWrites(socket);
    const guard = new InboundGuard(socket, limits.maxPacketBytes, () => {
      stats.add('packetsTooLarge');
      log.warn({ remoteAddress: socket.remoteAddress }, 'MQTT packet over the size limit: connection closed');
    });
    const client = broker.handle(socket) as Client;
    const connection: Connection = {
      principal: null,
      flow: new ClientFlow(guard, limits),
      address: socket.remoteAddress,
    };
    connections.set(client, connection);
    socket.once('close', () => {
      const principal = connection.principal;
      if (!principal) return;
      watched -= 1;
      unwatchIfIdle();
      const held = byUsername.get(principal.username);
      held?.delete(client);
      if (held && held.size > 0) return;
      byUsername.delete(principal.username);
      for (const listener of goneListeners) {
        try {
          listener(principal);
        } catch (error) {
          log.error({ err: error }, 'an MQTT client-gone listener failed');
        }
      }
    });
  });
  try {
    await listenOn(server, options.host, options.port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    log.warn(
      `MQTT port ${options.port} is in use (another broker?): the embedded broker takes an ephemeral port instead; set MQTT_PORT or MQTT_URL`,
    );
    await listenOn(server, options.host, 0);
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  log.info(`MQTT broker listening on ${options.host}:${port}`);

  const subscribed: Array<[string, (packet: AedesPublishPacket, cb: () => void) => void]> = [];
  return {
    kind: 'embedded',
    port,
    stats,
    accounts: null,
    subscribe: (filter: string, handler: MqttHandler) =>
      new Promise<void>((resolve) => {
        const deliver = (packet: AedesPublishPacket, cb: () => void) => {
          process.nextTick(cb);
          const senderId = (packet as { clientId?: string }).clientId;
          const sender = senderId ? clients.get(senderId) : undefined;
          dispatch(
            options,
            handler,
            {
              topic: packet.topic,
              payload: Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
              qos: packet.qos,
            },
            (sender && connections.get(sender)?.flow) ?? null,
          );
        };
        subscribed.push([filter, deliver]);
        broker.subscribe(filter, deliver, resolve);
      }),
    listen: (filter, listener) =>
      new Promise<void>((resolve) => {
        const deliver = (packet: AedesPublishPacket, cb: () => void) => {
          process.nextTick(cb);
          try {
            listener(
              packet.topic,
              Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
            );
          } catch (error) {
            log.error({ err: error, topic: packet.topic }, 'an MQTT listener failed');
          }
        };
        subscribed.push([filter, deliver]);
        broker.subscribe(filter, deliver, resolve);
      }),
    publish: (topic, payload, qos = 1) =>
      new Promise<void>((resolve, reject) => {
        broker.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain: false, dup: false },
          (error) => (error ? reject(error) : resolve()),
        );
      }),
    onClientGone: (listener) => {
      goneListeners.push(listener);
    },
    isConnected: (username) => (byUsername.get(username)?.size ?? 0) > 0,
    close: async () => {
      unwatch?.();
      unwatch = null;
      for (const [filter, deliver] of subscribed) {
        await new Promise<void>((resolve) => broker.unsubscribe(filter, deliver, resolve));
      }
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
