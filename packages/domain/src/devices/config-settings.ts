/**
 * The settings of each node type and their rules (docs/gateway-config.md, "Node types"). The
 * check reads settings as whatever JSON arrived, never trusting their types, and names the
 * field of every broken rule; the editor's forms use the same limits.
 */
import type { ErrorKey } from '../errors';
import { checkHexPacket, checkIp } from '../validation';
import {
  BAUD_RATES,
  DATA_BITS,
  ENCODINGS,
  type GatewayNodeType,
  HTTP_METHODS,
  MQTT_QOS,
  MQTT_TARGETS,
  NETWORK_MODES,
  PARITY,
  PORT_ROLES,
  PUBLISH_FORMATS,
  SAMPLING_MINUTES,
  STOP_BITS,
  TIMESTAMP_FORMATS,
} from './config-types';

/** Serial ports a gateway may have, numbered from 1 (the largest models have 16). */
export const MAX_COM_PORT = 16;
const INT32_MAX = 2 ** 31 - 1;

/** Ranges of the numeric settings, inclusive: the editor's inputs and the check share them. */
export const SETTING_RANGES = {
  port: [1, MAX_COM_PORT],
  answerTimeoutMs: [50, 10_000],
  /** packets: the simulator's and tests' polling override */
  packetIntervalS: [1, 86_400],
  httpIntervalS: [5, 86_400],
  delayMs: [10, 60_000],
  idleTimeoutS: [10, 3_600],
  id: [1, INT32_MAX],
} as const satisfies Record<string, readonly [number, number]>;

/** Longest texts, in characters. */
export const SETTING_LENGTHS = {
  topic: 200,
  url: 500,
  payload: 256,
  valueName: 25,
  commandName: 32,
} as const;

/** Field keys of data items (data/fields.ts). */
const FIELD_KEY = /^f[1-9]\d*$/;
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;
const IPV4 = /^\d+\.\d+\.\d+\.\d+$/;

/** Whether the text holds a control character (below U+0020, or DEL). */
function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

export interface SettingProblem {
  field: string;
  key: ErrorKey;
  params?: Record<string, string | number>;
}

type Settings = Record<string, unknown>;

/** Collects the problems of one node's settings. */
class Rules {
  readonly problems: SettingProblem[] = [];
  constructor(readonly s: Settings) {}

  private missing(field: string): boolean {
    const v = this.s[field];
    if (v === undefined || v === null || v === '') {
      this.problems.push({ field, key: 'configRequired' });
      return true;
    }
    return false;
  }

  int(field: string, [min, max]: readonly [number, number], optional = false): number | null {
    if (optional && (this.s[field] === undefined || this.s[field] === null)) return null;
    if (this.missing(field)) return null;
    const v = this.s[field];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.problems.push({ field, key: 'configIntRange', params: { min, max } });
      return null;
    }
    return v;
  }

  oneOf<T>(field: string, options: readonly T[], optional = false): T | null {
    if (optional && (this.s[field] === undefined || this.s[field] === null)) return null;
    if (this.missing(field)) return null;
    const v = this.s[field];
    if (!options.includes(v as T)) {
      this.problems.push({ field, key: 'configChoice', params: { options: options.join(', ') } });
      return null;
    }
    return v as T;
  }

  text(field: string, max: number): string | null {
    if (this.missing(field)) return null;
    const v = this.s[field];
    if (typeof v !== 'string') {
      this.problems.push({ field, key: 'configRequired' });
      return null;
    }
    if ([...v].length > max) {
      this.problems.push({ field, key: 'configTextTooLong', params: { max } });
      return null;
    }
    return v;
  }

  /** a text that must pass `rule` (a catalogue key when broken) */
  checked(field: string, max: number, rule: (v: string) => ErrorKey | null, optional = false): string | null {
    if (optional && (this.s[field] === undefined || this.s[field] === null || this.s[field] === ''))
      return null;
    const v = this.text(field, max);
    if (v == null) return null;
    const key = rule(v);
    if (key) {
      this.problems.push({ field, key });
      return null;
    }
    return v;
  }

  add(field: string, key: ErrorKey, params?: Record<string, string | number>): void {
    this.problems.push(params ? { field, key, params } : { field, key });
  }
}

/** An MQTT topic to publish to: no wildcards, not a broker's `$` topic, not empty. */
export function checkPublishTopic(topic: string): ErrorKey | null {
  if (topic === '' || topic.includes('+') || topic.includes('#') || topic.startsWith('$')) {
    return 'configTopicInvalid';
  }
  return hasControl(topic) ? 'configTopicInvalid' : null;
}

/** An MQTT topic filter: `+` stands for a whole level, `#` only as the whole last level. */
export function checkTopicFilter(filter: string): ErrorKey | null {
  if (filter === '' || filter.startsWith('$') || hasControl(filter)) return 'configFilterInvalid';
  const levels = filter.split('/');
  for (const [i, level] of levels.entries()) {
    if (level.includes('#') && (level !== '#' || i !== levels.length - 1)) return 'configFilterInvalid';
    if (level.includes('+') && level !== '+') return 'configFilterInvalid';
  }
  return null;
}

function urlWith(text: string, protocols: readonly string[]): URL | null {
  if (/\s/.test(text)) return null;
  try {
    const url = new URL(text);
    return protocols.includes(url.protocol) && url.hostname !== '' ? url : null;
  } catch {
    return null;
  }
}

export function checkHttpUrl(text: string): ErrorKey | null {
  return urlWith(text, ['http:', 'https:']) ? null : 'configUrlInvalid';
}

/** A third-party broker: mqtt:// or mqtts://, a host and an explicit port. */
export function checkBrokerUrl(text: string): ErrorKey | null {
  const url = urlWith(text, ['mqtt:', 'mqtts:']);
  return url && url.port !== '' && (url.pathname === '' || url.pathname === '/')
    ? null
    : 'configBrokerUrlInvalid';
}

function ipv4Number(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** An IPv4 subnet mask (ones then zeros, as 255.255.255.0) or, for IPv6, a prefix length. */
export function checkNetmask(mask: string, ipv6: boolean): ErrorKey | null {
  if (ipv6) return /^(?:[1-9]\d?|1[01]\d|12[0-8])$/.test(mask) ? null : 'configNetmaskInvalid';
  if (!IPV4.test(mask) || checkIp(mask)) return 'configNetmaskInvalid';
  const n = ipv4Number(mask);
  const inverted = ~n >>> 0;
  // a contiguous mask inverted is 2^k - 1; 0.0.0.0 is no subnet
  return n !== 0 && (inverted & (inverted + 1)) === 0 ? null : 'configNetmaskInvalid';
}

function checkNetwork(r: Rules): void {
  const mode = r.oneOf('mode', NETWORK_MODES);
  if (mode !== 'static') return;
  const ip = r.checked('ip', 39, checkIp);
  const ipv6 = ip != null && !IPV4.test(ip);
  const mask = r.checked('netmask', 39, (v) => checkNetmask(v, ipv6));
  const gateway = r.checked('gateway', 39, checkIp);
  r.checked('dns', 39, checkIp, true);
  if (ip == null || mask == null || gateway == null) return;
  if (ipv6 !== !IPV4.test(gateway)) {
    r.add('gateway', 'configGatewayOutsideSubnet');
    return;
  }
  if (!ipv6) {
    const m = ipv4Number(mask);
    if ((ipv4Number(ip) & m) >>> 0 !== (ipv4Number(gateway) & m) >>> 0) {
      r.add('gateway', 'configGatewayOutsideSubnet');
    } else if (ip === gateway) {
      r.add('gateway', 'configGatewayIsSelf');
    }
  }
}

function checkMqtt(r: Rules, publish: boolean): void {
  const target = r.oneOf('target', MQTT_TARGETS);
  r.oneOf('qos', MQTT_QOS);
  if (publish) r.oneOf('format', PUBLISH_FORMATS);
  if (target !== 'custom') return;
  r.checked('url', SETTING_LENGTHS.url, checkBrokerUrl);
  r.checked('topic', SETTING_LENGTHS.topic, publish ? checkPublishTopic : checkTopicFilter);
}

function checkCommand(r: Rules): void {
  r.text('name', SETTING_LENGTHS.commandName);
  const encoding = r.oneOf('encoding', ENCODINGS);
  if (encoding === 'HEX') {
    // 256 bytes of hex: 3 characters each, less the last space
    r.checked('payload', SETTING_LENGTHS.payload * 3 - 1, checkHexPacket);
  } else if (encoding === 'ASCII') {
    r.checked('payload', SETTING_LENGTHS.payload, (v) =>
      PRINTABLE_ASCII.test(v) ? null : 'configAsciiInvalid',
    );
  }
}

const SETTINGS_RULES: Record<GatewayNodeType, (r: Rules) => void> = {
  com: (r) => {
    r.int('port', SETTING_RANGES.port);
    r.oneOf('baudRate', BAUD_RATES);
    r.oneOf('dataBits', DATA_BITS);
    r.oneOf('stopBits', STOP_BITS);
    r.oneOf('parity', Object.values(PARITY));
    r.oneOf('role', PORT_ROLES);
    r.int('answerTimeoutMs', SETTING_RANGES.answerTimeoutMs);
  },
  serialPacket: (r) => {
    r.int('packetId', SETTING_RANGES.id);
    r.oneOf(
      'samplingId',
      Object.keys(SAMPLING_MINUTES).map((k) => Number(k)),
    );
    r.oneOf('encoding', ENCODINGS, true);
    r.int('intervalS', SETTING_RANGES.packetIntervalS, true);
    r.checked('frame', SETTING_LENGTHS.payload * 3 - 1, checkHexPacket, true);
  },
  serialParser: (r) => {
    r.int('packetId', SETTING_RANGES.id);
  },
  network: checkNetwork,
  mqttPublish: (r) => checkMqtt(r, true),
  mqttSubscribe: (r) => checkMqtt(r, false),
  httpRequest: (r) => {
    r.oneOf('method', HTTP_METHODS);
    r.checked('url', SETTING_LENGTHS.url, checkHttpUrl);
    r.int('intervalS', SETTING_RANGES.httpIntervalS);
  },
  delay: (r) => {
    r.int('ms', SETTING_RANGES.delayMs);
  },
  command: checkCommand,
  element: (r) => {
    r.text('name', SETTING_LENGTHS.valueName);
    r.int('itemId', SETTING_RANGES.id);
    r.checked('fieldKey', 12, (v) => (FIELD_KEY.test(v) ? null : 'configFieldKeyInvalid'));
  },
  passthrough: (r) => {
    r.int('port', SETTING_RANGES.port);
    r.int('idleTimeoutS', SETTING_RANGES.idleTimeoutS);
  },
  timestamp: (r) => {
    r.oneOf('format', TIMESTAMP_FORMATS);
  },
};

/** The problems of one node's own settings, whatever their JSON types. */
export function checkNodeSettings(type: GatewayNodeType, settings: unknown): SettingProblem[] {
  const s =
    settings !== null && typeof settings === 'object' && !Array.isArray(settings)
      ? (settings as Settings)
      : {};
  const rules = new Rules(s);
  SETTINGS_RULES[type](rules);
  return rules.problems;
}
