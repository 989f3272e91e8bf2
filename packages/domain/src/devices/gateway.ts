/**
 * A gateway's identity and its MQTT topics (docs/device-protocol.md, "Identity" and "Topics").
 *
 * - The serial number (SN) is public: it is printed on the box, it is the gateway's MQTT
 *   username and client id, and it names the gateway's topics. 6-32 characters A-Z and 0-9;
 *   typed in lower case it is taken as upper case, but on the wire only the upper-case form
 *   is the gateway's.
 * - The secret (`gws_` + 43 base64url characters, 256 random bits) is the MQTT password only.
 * - A gateway publishes under `smartdata/gw/<SN>/up/…` and subscribes under
 *   `smartdata/gw/<SN>/down/…`, its own SN only.
 *
 * A submission key's username is `key-<id>`: lower case and a hyphen, which no serial number
 * holds, so the two kinds of MQTT client can never be taken for one another.
 */
import type { TopicAcl } from '../mqtt/topics';

export const SERIAL_NUMBER_MIN = 6;
export const SERIAL_NUMBER_MAX = 32;
const SERIAL_NUMBER = /^[A-Z0-9]{6,32}$/;

/** Whether `text` is a serial number as it is on the wire (upper case, nothing around it). */
export function isSerialNumber(text: unknown): text is string {
  return typeof text === 'string' && SERIAL_NUMBER.test(text);
}

/**
 * The serial number a person typed: surrounding spaces dropped, lower case taken as upper
 * case; null when it is not one.
 */
export function normalizeSerialNumber(text: string | null | undefined): string | null {
  if (typeof text !== 'string') return null;
  const sn = text.trim().toUpperCase();
  return isSerialNumber(sn) ? sn : null;
}

/** 'serialNumberInvalid' when the typed text is no serial number (the catalogue key), else null. */
export function checkSerialNumber(text: string | null | undefined): 'serialNumberInvalid' | null {
  return normalizeSerialNumber(text) === null ? 'serialNumberInvalid' : null;
}

export const GATEWAY_SECRET_PREFIX = 'gws_';
/** 32 random bytes in base64url, without padding */
export const GATEWAY_SECRET_BODY_LENGTH = 43;
export const GATEWAY_SECRET_LENGTH = GATEWAY_SECRET_PREFIX.length + GATEWAY_SECRET_BODY_LENGTH;
const GATEWAY_SECRET = /^gws_[A-Za-z0-9_-]{43}$/;

/** Whether `text` has the shape of a gateway secret (says nothing of whether it is right). */
export function isGatewaySecretShape(text: unknown): text is string {
  return typeof text === 'string' && GATEWAY_SECRET.test(text);
}

/** The root of every gateway topic. */
export const GATEWAY_TOPIC_ROOT = 'smartdata/gw';

/** What a gateway publishes, under `smartdata/gw/<SN>/up/<kind>`. */
export const GATEWAY_UP_KINDS = [
  'status',
  'telemetry',
  'frame',
  'bind',
  'firmware',
  'config',
  'passthrough',
  'event',
] as const;
export type GatewayUpKind = (typeof GATEWAY_UP_KINDS)[number];

/** What the platform sends, under `smartdata/gw/<SN>/down/<kind>` (`config/commit` has two levels). */
export const GATEWAY_DOWN_KINDS = [
  'bind',
  'firmware',
  'config',
  'config/commit',
  'passthrough',
  'command',
] as const;
export type GatewayDownKind = (typeof GATEWAY_DOWN_KINDS)[number];

const UP_KINDS: ReadonlySet<string> = new Set(GATEWAY_UP_KINDS);
const DOWN_KINDS: ReadonlySet<string> = new Set(GATEWAY_DOWN_KINDS);

export function isGatewayUpKind(kind: unknown): kind is GatewayUpKind {
  return typeof kind === 'string' && UP_KINDS.has(kind);
}

export function isGatewayDownKind(kind: unknown): kind is GatewayDownKind {
  return typeof kind === 'string' && DOWN_KINDS.has(kind);
}

/** `smartdata/gw/<SN>/up/<kind>` */
export function gatewayUpTopic(sn: string, kind: GatewayUpKind): string {
  return `${GATEWAY_TOPIC_ROOT}/${sn}/up/${kind}`;
}

/** `smartdata/gw/<SN>/down/<kind>` */
export function gatewayDownTopic(sn: string, kind: GatewayDownKind): string {
  return `${GATEWAY_TOPIC_ROOT}/${sn}/down/${kind}`;
}

/** What the platform subscribes to: every gateway's up topics. */
export const GATEWAY_UP_FILTER = `${GATEWAY_TOPIC_ROOT}/+/up/#`;
/** What the platform publishes to: every gateway's down topics. */
export const GATEWAY_DOWN_FILTER = `${GATEWAY_TOPIC_ROOT}/+/down/#`;

export type ParsedGatewayTopic =
  | { sn: string; direction: 'up'; kind: GatewayUpKind }
  | { sn: string; direction: 'down'; kind: GatewayDownKind };

/**
 * The serial number, direction and kind a topic names, or null when it is no gateway topic
 * of the protocol (another root, an SN that is not one, an unknown kind, extra levels).
 */
export function parseGatewayTopic(topic: string): ParsedGatewayTopic | null {
  if (typeof topic !== 'string' || topic.length > 128) return null;
  const prefix = `${GATEWAY_TOPIC_ROOT}/`;
  if (!topic.startsWith(prefix)) return null;
  const [sn, direction, ...rest] = topic.slice(prefix.length).split('/');
  if (!isSerialNumber(sn) || rest.length === 0) return null;
  const kind = rest.join('/');
  if (direction === 'up' && isGatewayUpKind(kind)) return { sn, direction, kind };
  if (direction === 'down' && isGatewayDownKind(kind)) return { sn, direction, kind };
  return null;
}

/** A gateway publishes under its own up topics and reads its own down topics, nothing else. */
export function gatewayAcl(sn: string): TopicAcl {
  return {
    publish: [`${GATEWAY_TOPIC_ROOT}/${sn}/up/#`],
    subscribe: [`${GATEWAY_TOPIC_ROOT}/${sn}/down/#`],
  };
}
