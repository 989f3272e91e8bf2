/**
 * Which node may feed which (docs/gateway-config.md, "Links"). A link carries something from
 * one node to the next; the table below is the whole of what a gateway understands, so the
 * editor refuses any other link while it is drawn and the check refuses it in a saved
 * configuration, with the same words.
 *
 * | from | may feed | what travels |
 * |---|---|---|
 * | serial packet | COM, delay | the packet's bytes, sent on the port (after the delay) |
 * | command | COM, delay | the command's bytes, written to the port |
 * | delay | COM, delay | what reached it, held back `ms` milliseconds |
 * | COM | serial parser, passthrough, MQTT publish (raw) | the port's answers |
 * | passthrough | COM (its own port) | bytes from the COM debug page |
 * | serial parser | element | the decoded values |
 * | element | MQTT publish (json), HTTP request | one value, bound to an item and field |
 * | timestamp | MQTT publish (json), HTTP request | the time of the reading |
 * | MQTT subscribe | command | a message that triggers the command |
 * | network, MQTT publish, HTTP request | nothing | (network is the gateway's own address; the other two send out) |
 *
 * Cardinality: a packet, a command and a delay go to one place only; a parser listens to one
 * port; an element takes its value from one parser.
 */
import type { ErrorKey } from '../errors';
import { GATEWAY_NODE_TYPES, type GatewayNodeType } from './config-types';

export const LINK_RULES: Readonly<Record<GatewayNodeType, readonly GatewayNodeType[]>> = {
  serialPacket: ['com', 'delay'],
  command: ['com', 'delay'],
  delay: ['com', 'delay'],
  com: ['serialParser', 'passthrough', 'mqttPublish'],
  passthrough: ['com'],
  serialParser: ['element'],
  element: ['mqttPublish', 'httpRequest'],
  timestamp: ['mqttPublish', 'httpRequest'],
  mqttSubscribe: ['command'],
  network: [],
  mqttPublish: [],
  httpRequest: [],
};

/** Types whose nodes have at most one outgoing link. */
export const SINGLE_OUTPUT: readonly GatewayNodeType[] = ['serialPacket', 'command', 'delay'];
/** Types whose nodes have at most one incoming link. */
export const SINGLE_INPUT: readonly GatewayNodeType[] = ['serialParser', 'element'];

/** The sentence saying what a node of this type may feed, shown when a link is refused. */
export const LINK_OUT_KEYS: Readonly<Record<GatewayNodeType, ErrorKey>> = {
  serialPacket: 'linkOutSerialPacket',
  command: 'linkOutCommand',
  delay: 'linkOutDelay',
  com: 'linkOutCom',
  passthrough: 'linkOutPassthrough',
  serialParser: 'linkOutSerialParser',
  element: 'linkOutElement',
  timestamp: 'linkOutTimestamp',
  mqttSubscribe: 'linkOutMqttSubscribe',
  network: 'linkOutNetwork',
  mqttPublish: 'linkOutSink',
  httpRequest: 'linkOutSink',
};

export function isNodeType(value: unknown): value is GatewayNodeType {
  return typeof value === 'string' && (GATEWAY_NODE_TYPES as readonly string[]).includes(value);
}

/** What the link rules need to know of a node. */
export interface LinkEnd {
  id: string;
  type: GatewayNodeType;
  /** settings read by the rules: a publish node's `format`, a COM's and a passthrough's `port` */
  settings?: { format?: unknown; port?: unknown };
}

export interface LinkRefusal {
  key: ErrorKey;
  params?: Record<string, string | number>;
}

/**
 * Why `from` may not feed `to`, or null when it may. `links` are the links already drawn (the
 * new one not among them); the editor calls this as a link is drawn, the check for every link.
 */
export function linkRefusal(
  from: LinkEnd,
  to: LinkEnd,
  links: ReadonlyArray<{ from: string; to: string }>,
): LinkRefusal | null {
  if (from.id === to.id) return { key: 'linkSelf' };
  if (!LINK_RULES[from.type].includes(to.type)) return { key: LINK_OUT_KEYS[from.type] };
  if (links.some((l) => l.from === from.id && l.to === to.id)) return { key: 'linkDuplicate' };
  if (to.type === 'mqttPublish') {
    const format = to.settings?.format;
    if (from.type === 'com' && format !== 'raw') return { key: 'linkPublishNeedsRaw' };
    if (from.type !== 'com' && format === 'raw') return { key: 'linkPublishNeedsJson' };
  }
  if (
    (from.type === 'passthrough' && to.type === 'com') ||
    (from.type === 'com' && to.type === 'passthrough')
  ) {
    const [a, b] = [from.settings?.port, to.settings?.port];
    // a port not known yet (not typed, or refused by its own rule) is judged once it is
    if (typeof a === 'number' && typeof b === 'number' && a !== b) return { key: 'linkPassthroughPort' };
  }
  if (SINGLE_OUTPUT.includes(from.type) && links.some((l) => l.from === from.id)) {
    return { key: 'linkOneOutput' };
  }
  if (SINGLE_INPUT.includes(to.type) && links.some((l) => l.to === to.id)) return { key: 'linkOneInput' };
  return null;
}
