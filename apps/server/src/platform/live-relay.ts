/**
 * Live fan-out across server nodes (ARCHITECTURE.md: "live fan-out via the MQTT broker, so
 * every node sees every event"). With an external broker (MQTT_URL), every event published
 * on a node's live bus (records, device events, any module's channel) is also published on
 * `smartdata/internal/live/<channel>` as `{"o": <node id>, "e": <event>}`; every node listens
 * to `smartdata/internal/live/#` with a plain subscription (not the nodes' shared one, so each
 * node hears each event) and delivers what other nodes sent to its own sockets. A node
 * ignores its own events coming back: it delivered them locally when they were published,
 * so nothing arrives twice.
 *
 * QoS 0, in order per publishing node: a live event is a hint to redraw, never the record of
 * anything (the database is); a node that loses the broker for a moment misses what was sent
 * meanwhile, as a browser that loses its socket does, and both read afresh on reconnect.
 *
 * The topics are the server nodes' own: no device or submission key may publish or subscribe
 * there (packages/domain `reachesInternal`, enforced by the embedded broker, the HTTP hooks
 * and the roles the server gives accounts on Mosquitto, whose default is deny).
 *
 * A records event larger than MAX_RELAY_BYTES is split into several (the broker's packet
 * limit is 1 MB; a big import commits thousands of records in one event).
 */
import { randomBytes } from 'node:crypto';
import { LIVE_RELAY_FILTER, LIVE_RELAY_TOPIC_PREFIX } from '@platform/domain';
import type { FastifyBaseLogger } from 'fastify';
import { type ChannelEvent, type LiveBus, type LiveEvent, RECORDS_CHANNEL } from './live';

/** the largest payload one relayed event takes before it is split (records events) */
export const MAX_RELAY_BYTES = 256 * 1024;

/** What the relay needs of the MQTT side (platform/mqtt.ts). */
export interface RelayTransport {
  publish(topic: string, payload: string | Buffer, qos?: 0 | 1): Promise<void>;
  listen(filter: string, listener: (topic: string, payload: Buffer) => void): Promise<void>;
}

export interface LiveRelay {
  /** this node's id in the relayed messages */
  nodeId: string;
  /** events sent, received from other nodes, and dropped (unreadable, failed to send) */
  counts: { sent: number; received: number; dropped: number };
  stop(): void;
}

/** The payloads one event is relayed as: one, or a records event split to fit. */
export function relayPayloads(nodeId: string, channel: string, event: ChannelEvent): string[] {
  const text = JSON.stringify({ o: nodeId, e: event });
  if (Buffer.byteLength(text) <= MAX_RELAY_BYTES || channel !== RECORDS_CHANNEL) return [text];
  const records = (event as LiveEvent).records;
  if (!Array.isArray(records) || records.length < 2) return [text];
  const half = Math.ceil(records.length / 2);
  return [
    ...relayPayloads(nodeId, channel, { ...event, records: records.slice(0, half) } as LiveEvent),
    ...relayPayloads(nodeId, channel, { ...event, records: records.slice(half) } as LiveEvent),
  ];
}

function channelOf(topic: string): string | null {
  if (!topic.startsWith(LIVE_RELAY_TOPIC_PREFIX)) return null;
  const channel = topic.slice(LIVE_RELAY_TOPIC_PREFIX.length);
  return channel && !channel.includes('/') ? channel : null;
}

/** Relays `bus` through the broker; resolves once this node listens. */
export async function startLiveRelay(
  bus: LiveBus,
  transport: RelayTransport,
  log: FastifyBaseLogger,
  nodeId = randomBytes(9).toString('base64url'),
): Promise<LiveRelay> {
  const counts = { sent: 0, received: 0, dropped: 0 };
  let stopped = false;
  await transport.listen(LIVE_RELAY_FILTER, (topic, payload) => {
    if (stopped) return;
    const channel = channelOf(topic);
    let message: { o?: unknown; e?: unknown };
    try {
      message = JSON.parse(payload.toString('utf8')) as typeof message;
    } catch {
      counts.dropped++;
      return;
    }
    if (message.o === nodeId) return;
    const event = message.e as ChannelEvent | undefined;
    if (!channel || typeof event !== 'object' || event === null || !Number.isSafeInteger(event.companyId)) {
      counts.dropped++;
      return;
    }
    counts.received++;
    bus.deliver(channel, event);
  });
  let failures = 0;
  bus.setRelay((channel, event) => {
    if (stopped) return;
    for (const payload of relayPayloads(nodeId, channel, event)) {
      counts.sent++;
      transport.publish(`${LIVE_RELAY_TOPIC_PREFIX}${channel}`, payload, 0).catch((error) => {
        counts.dropped++;
        // one line per burst of failures, not one per event
        if (failures++ % 1000 === 0)
          log.warn({ err: error, failures }, 'a live event could not be relayed to the other server nodes');
      });
    }
  });
  log.info({ nodeId }, 'live events are relayed to the other server nodes through the MQTT broker');
  return {
    nodeId,
    counts,
    stop: () => {
      stopped = true;
      bus.setRelay(null);
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the relay of live events to the other nodes (external broker); null on one node */
    liveRelay: LiveRelay | null;
  }
}
