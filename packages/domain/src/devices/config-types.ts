/**
 * A gateway's configuration: a graph of nodes of the twelve types of seed point 3, as the node
 * editor saves it and as the platform pushes it to the gateway (docs/device-protocol.md,
 * "Configuration"). What the gateway needs to run is inside the graph: a serial packet node
 * carries its frame in hex, filled from its packet definition when the configuration is pushed,
 * so a gateway never asks the platform for definitions.
 *
 * The checks (settings, links, the node maximum) live beside this file (config-check.ts,
 * config-links.ts, docs/gateway-config.md); this one only names the shapes, which the editor,
 * the server and the simulator share.
 */

import type { ParserValue } from './parser';

export const GATEWAY_NODE_TYPES = [
  'com',
  'serialPacket',
  'serialParser',
  'network',
  'mqttPublish',
  'mqttSubscribe',
  'httpRequest',
  'delay',
  'command',
  'element',
  'passthrough',
  'timestamp',
] as const;
export type GatewayNodeType = (typeof GATEWAY_NODE_TYPES)[number];

/** Parity of a serial port (seed point 3): none 0, odd 1, even 2. */
export const PARITY = { none: 0, odd: 1, even: 2 } as const;
export type Parity = (typeof PARITY)[keyof typeof PARITY];

export const BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;
export const DATA_BITS = [5, 6, 7, 8] as const;
export const STOP_BITS = [1, 1.5, 2] as const;
/** Roles of seed point 3: the gateway polls the port (client, a Modbus master) or answers on it (server). */
export const PORT_ROLES = ['client', 'server'] as const;
export type PortRole = (typeof PORT_ROLES)[number];

/** Encodings of seed point 3. */
export const ENCODINGS = ['ASCII', 'HEX'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/**
 * Sampling frequency ids of seed point 3: 1 = 1 min, 2 = 5 min, 3 = 10 min, 4 = 15 min. The
 * second list the seed shows offers only 1 and 15 minutes (ids 1 and 4).
 */
export const SAMPLING_MINUTES = { 1: 1, 2: 5, 3: 10, 4: 15 } as const;
export type SamplingId = keyof typeof SAMPLING_MINUTES;
export const SAMPLING_IDS_SHORT: readonly SamplingId[] = [1, 4];

export interface ComSettings {
  /** the gateway's port number, 1-based */
  port: number;
  baudRate: number;
  dataBits: number;
  stopBits: number;
  parity: Parity;
  role: PortRole;
  /** how long the gateway waits for an answer to a packet, ms */
  answerTimeoutMs: number;
}

export interface SerialPacketSettings {
  /** the packet definition (Device communication → data packages) */
  packetId: number;
  /** filled from the definition when pushed: the bytes sent, CRC included where the definition appends one */
  frame?: string;
  encoding?: Encoding;
  samplingId: SamplingId;
  /**
   * Seconds between polls when set: overrides the sampling frequency. Only the simulator and
   * tests use it (people choose 1-15 minutes); the platform never offers it in the editor.
   */
  intervalS?: number;
}

export interface SerialParserSettings {
  /** parses the answers to this packet with its parsing definition */
  packetId: number;
  /**
   * The parsing definition's values (without their items: the elements say where each goes),
   * filled from the definition when pushed, so the gateway can decode the answers for JSON
   * telemetry; never saved (like a packet's frame).
   */
  values?: PushedParserValue[];
}

/** A value of a parsing definition as a gateway gets it: how to decode it, not where it is stored. */
export type PushedParserValue = Omit<ParserValue, 'itemId' | 'fieldKey'>;

export interface NetworkSettings {
  mode: (typeof NETWORK_MODES)[number];
  ip?: string;
  netmask?: string;
  gateway?: string;
  dns?: string;
}

export const NETWORK_MODES = ['dhcp', 'static'] as const;
export const MQTT_TARGETS = ['platform', 'custom'] as const;
export type MqttTarget = (typeof MQTT_TARGETS)[number];
export const MQTT_QOS = [0, 1] as const;
export const PUBLISH_FORMATS = ['json', 'raw'] as const;
export const HTTP_METHODS = ['POST', 'GET'] as const;
export const TIMESTAMP_FORMATS = ['iso', 'epochMs'] as const;

export interface MqttPublishSettings {
  /**
   * 'platform': the gateway's own up topics (`up/telemetry` for json, `up/frame` for raw);
   * 'custom': `topic` on the third-party broker at `url`
   */
  target: MqttTarget;
  /** mqtt:// or mqtts:// with host and port; custom target only */
  url?: string;
  topic?: string;
  qos: 0 | 1;
  /** what is published: decoded values as JSON telemetry, or the raw frames of a port */
  format: 'json' | 'raw';
}

export interface MqttSubscribeSettings {
  /** 'platform': the gateway's own `down/command`; 'custom': `topic` (a filter) at `url` */
  target: MqttTarget;
  url?: string;
  topic?: string;
  qos: 0 | 1;
}

export interface HttpRequestSettings {
  method: 'GET' | 'POST';
  /** http:// or https:// */
  url: string;
  /** the values that reached the node are sent this often */
  intervalS: number;
}

export interface DelaySettings {
  ms: number;
}

export interface CommandSettings {
  /** what a message on the subscribed topic names to run this command */
  name: string;
  encoding: Encoding;
  /** hex packet or ASCII text, as `encoding` says */
  payload: string;
}

export interface ElementSettings {
  /** the value of the parsing definition (of the parser it is linked from) it takes, by name */
  name: string;
  /** the kind-13 data item and field the value is stored in */
  itemId: number;
  fieldKey: string;
}

export interface PassthroughSettings {
  port: number;
  /** a session closes after this many idle seconds */
  idleTimeoutS: number;
}

export interface TimestampSettings {
  format: (typeof TIMESTAMP_FORMATS)[number];
}

export interface GatewayNodeSettings {
  com: ComSettings;
  serialPacket: SerialPacketSettings;
  serialParser: SerialParserSettings;
  network: NetworkSettings;
  mqttPublish: MqttPublishSettings;
  mqttSubscribe: MqttSubscribeSettings;
  httpRequest: HttpRequestSettings;
  delay: DelaySettings;
  command: CommandSettings;
  element: ElementSettings;
  passthrough: PassthroughSettings;
  timestamp: TimestampSettings;
}

export type GatewayNode = {
  [T in GatewayNodeType]: {
    /** unique in the configuration; errors name it */
    id: string;
    type: T;
    name: string;
    settings: GatewayNodeSettings[T];
    /** where the editor drew it; ignored by gateways */
    position?: { x: number; y: number };
  };
}[GatewayNodeType];

/**
 * A link carries data from one node to the next (a packet is sent on a port, a port's answers
 * go to a parser…). Which type may feed which: config-links.ts.
 */
export interface GatewayLink {
  from: string;
  to: string;
}

export interface GatewayConfig {
  nodes: GatewayNode[];
  links: GatewayLink[];
}
