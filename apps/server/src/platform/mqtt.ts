/**
 * The MQTT side of the server, one interface over two adapters chosen at start-up:
 * - embedded (MQTT_URL unset): an aedes broker in this process on MQTT_PORT
 *   (platform/mqtt-embedded.ts). It authenticates every client through the principal
 *   registry (platform/mqtt-principals.ts) and enforces each client's ACL itself.
 * - external (MQTT_URL set): an MQTT client of that broker (platform/mqtt-external.ts). The
 *   broker enforces the same rules: on Mosquitto the server keeps one dynamic-security account
 *   per principal (platform/mqtt-dynsec.ts); EMQX asks the server through HTTP hooks
 *   (modules/mqtt/routes.ts). The server refuses to start against a broker that lets anonymous
 *   clients in, unless told that it is a throwaway test broker.
 *
 * The broker is an input from the internet: packets have a maximum size, each client a
 * bounded number of submissions in flight (the embedded broker stops reading its socket
 * beyond it), and past the server-wide budget a submission is answered at once with a refusal,
 * or, at QoS 0, dropped and counted (platform/mqtt-stats.ts), never lost silently.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AccessWatch } from './access-watch';
import { startEmbedded } from './mqtt-embedded';
import { startExternal } from './mqtt-external';
import type { FlowLimits } from './mqtt-flow';
import type { MqttPrincipal, MqttPrincipals } from './mqtt-principals';
import type { MqttStats } from './mqtt-stats';

export interface MqttInbound {
  topic: string;
  payload: Buffer;
  qos: 0 | 1 | 2;
  /** the server is over its pending budget: answer at once without work, or drop at QoS 0 */
  overloaded: boolean;
}

/** Handles one message; resolves once it is answered (or dropped). */
export type MqttHandler = (message: MqttInbound) => Promise<void>;

/** Accounts the server keeps on an external broker (Mosquitto's dynamic security). */
export interface BrokerAccounts {
  /** creates or updates a principal's account; the password is known only at this moment */
  put(principal: MqttPrincipal, password: string): Promise<void>;
  /** deletes it; a client connected with it is disconnected */
  remove(username: string): Promise<void>;
}

export interface MqttTransport {
  kind: 'embedded' | 'external';
  /** the embedded broker's bound port; null for an external broker */
  port: number | null;
  stats: MqttStats;
  /** set when the server provisions accounts on the broker; null when the broker asks the server */
  accounts: BrokerAccounts | null;
  subscribe(filter: string, handler: MqttHandler): Promise<void>;
  publish(topic: string, payload: string | Buffer, qos?: 0 | 1): Promise<void>;
  /**
   * Every message on `filter`, on this node: a plain subscription (never shared between the
   * server nodes as `subscribe`'s are) outside the submission flow, for the nodes' own
   * topics (the live relay, platform/live-relay.ts).
   */
  listen(filter: string, listener: (topic: string, payload: Buffer) => void): Promise<void>;
  /**
   * Calls `listener` when the last connection of a principal ends, however it ends (the
   * embedded broker sees every connection; an external broker relies on the client's will,
   * so there it is never called).
   */
  onClientGone(listener: (principal: MqttPrincipal) => void): void;
  /** whether a client of `username` is connected now; null when this side cannot know (external) */
  isConnected(username: string): boolean | null;
  close(): Promise<void>;
}

export type BrokerAuth = 'dynsec' | 'http';

export interface MqttOptions {
  url?: string;
  port: number;
  host: string;
  /** shared-subscription group of the server nodes on an external broker; '' = plain subscription */
  shareGroup: string;
  /** how an external broker authenticates clients */
  brokerAuth: BrokerAuth;
  /** an external broker that lets anonymous clients in is accepted (tests only) */
  insecureBroker: boolean;
  limits: FlowLimits;
  /** failed CONNECTs per client address per minute before the address is shut out (embedded; 0 = off) */
  connectFailLimit: number;
  principals: MqttPrincipals;
  accessWatch: AccessWatch;
  stats: MqttStats;
  log: FastifyBaseLogger;
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
