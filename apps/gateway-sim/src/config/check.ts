/**
 * What a gateway checks in a configuration pushed to it before applying anything
 * (docs/device-protocol.md, "Configuration"): the shapes of config-types.ts, against what this
 * gateway has (its ports). The platform's own configuration check runs before a push; this is
 * the device's last line, so a configuration that slipped through (another platform version, a
 * hand-made push) is refused with errors naming the node and the field, and nothing changes.
 */
import {
  BAUD_RATES,
  CATALOGUE,
  checkHexPacket,
  checkIp,
  DATA_BITS,
  ENCODINGS,
  GATEWAY_NODE_TYPES,
  messageFor,
  normalizeValue,
  PORT_ROLES,
  SAMPLING_MINUTES,
  STOP_BITS,
  valueProblems,
} from '@platform/domain';
import { POINT_TYPES, WORD_ORDERS } from '../modbus/registers';

export interface ConfigError {
  /** the node's id ('' for the configuration as a whole) */
  node: string;
  field: string;
  message: string;
}

/** More nodes than any gateway of ours runs: a configuration this big is refused whole. */
export const MAX_NODES = 500;
/** A Modbus RTU frame is at most 256 bytes. */
export const MAX_FRAME_BYTES = 256;
export const MIN_INTERVAL_S = 0.05;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
const isNum = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
const isText = (v: unknown, max = 200): v is string =>
  typeof v === 'string' && v.length > 0 && v.length <= max && !v.includes('\u0000');
const oneOf = (v: unknown, list: readonly unknown[]) => list.includes(v);

/**
 * The errors of `config` for a gateway with `ports`; empty when it can be applied. Checks
 * every node, so a person sees all that is wrong at once.
 */
export function checkConfig(config: unknown, ports: readonly number[]): ConfigError[] {
  const errors: ConfigError[] = [];
  const fail = (node: string, field: string, message: string) => errors.push({ node, field, message });
  if (!isObj(config) || !Array.isArray(config.nodes) || !Array.isArray(config.links)) {
    fail('', 'config', 'a configuration is an object with nodes and links');
    return errors;
  }
  if (config.nodes.length > MAX_NODES) {
    fail('', 'nodes', `${config.nodes.length} nodes: at most ${MAX_NODES}`);
    return errors;
  }
  const ids = new Set<string>();
  const comByPort = new Map<number, string>();
  config.nodes.forEach((node: unknown, i: number) => {
    if (!isObj(node) || !isText(node.id, 64)) {
      fail(`#${i}`, 'id', 'a node needs an id (text, at most 64 characters)');
      return;
    }
    const id = node.id;
    if (ids.has(id)) fail(id, 'id', `the id ${id} is used by another node`);
    ids.add(id);
    if (!oneOf(node.type, GATEWAY_NODE_TYPES)) {
      fail(id, 'type', `unknown node type ${JSON.stringify(node.type)}`);
      return;
    }
    if (!isObj(node.settings)) {
      fail(id, 'settings', 'settings missing');
      return;
    }
    checkSettings(id, node.type as string, node.settings, ports, comByPort, fail);
  });
  config.links.forEach((link: unknown, i: number) => {
    if (!isObj(link) || typeof link.from !== 'string' || typeof link.to !== 'string') {
      fail(`#${i}`, 'links', 'a link is {from, to}');
      return;
    }
    if (!ids.has(link.from) || !ids.has(link.to))
      fail(link.from, 'links', `the link ${link.from} → ${link.to} names a node that does not exist`);
  });
  return errors;
}

function checkSettings(
  id: string,
  type: string,
  s: Obj,
  ports: readonly number[],
  comByPort: Map<number, string>,
  fail: (node: string, field: string, message: string) => void,
): void {
  const portList = ports.length > 0 ? ports.join(', ') : 'none';
  switch (type) {
    case 'com': {
      if (!isInt(s.port, 1, 64) || !ports.includes(s.port)) {
        fail(
          id,
          'port',
          `port ${JSON.stringify(s.port)} does not exist on this gateway (ports: ${portList})`,
        );
      } else if (comByPort.has(s.port)) {
        fail(id, 'port', `port ${s.port} is already set by ${comByPort.get(s.port)}`);
      } else comByPort.set(s.port, id);
      if (!oneOf(s.baudRate, BAUD_RATES))
        fail(id, 'baudRate', `baud rate must be one of ${BAUD_RATES.join(', ')}`);
      if (!oneOf(s.dataBits, DATA_BITS))
        fail(id, 'dataBits', `data bits must be one of ${DATA_BITS.join(', ')}`);
      if (!oneOf(s.stopBits, STOP_BITS))
        fail(id, 'stopBits', `stop bits must be one of ${STOP_BITS.join(', ')}`);
      if (!oneOf(s.parity, [0, 1, 2])) fail(id, 'parity', 'parity must be 0 (none), 1 (odd) or 2 (even)');
      if (!oneOf(s.role, PORT_ROLES)) fail(id, 'role', `role must be one of ${PORT_ROLES.join(', ')}`);
      if (!isInt(s.answerTimeoutMs, 10, 60_000))
        fail(id, 'answerTimeoutMs', 'answer timeout must be 10-60000 ms');
      return;
    }
    case 'serialPacket': {
      if (!isInt(s.packetId, 1, Number.MAX_SAFE_INTEGER))
        fail(id, 'packetId', 'packetId must be a positive integer');
      if (typeof s.frame !== 'string' || s.frame.length === 0) fail(id, 'frame', 'the frame is missing');
      else if (checkHexPacket(s.frame) !== null) fail(id, 'frame', CATALOGUE.hexPacketInvalid.en);
      else if ((s.frame.length + 1) / 3 > MAX_FRAME_BYTES)
        fail(id, 'frame', `at most ${MAX_FRAME_BYTES} bytes`);
      if (!oneOf(s.samplingId, Object.keys(SAMPLING_MINUTES).map(Number)))
        fail(id, 'samplingId', 'samplingId must be 1, 2, 3 or 4');
      if (s.intervalS !== undefined && !isNum(s.intervalS, MIN_INTERVAL_S, 86_400))
        fail(id, 'intervalS', `intervalS must be ${MIN_INTERVAL_S}-86400 seconds`);
      if (s.encoding !== undefined && !oneOf(s.encoding, ENCODINGS))
        fail(id, 'encoding', 'encoding must be ASCII or HEX');
      return;
    }
    case 'serialParser': {
      if (!isInt(s.packetId, 1, Number.MAX_SAFE_INTEGER))
        fail(id, 'packetId', 'packetId must be a positive integer');
      if (s.values !== undefined) checkParserValues(id, s.values, fail);
      return;
    }
    case 'mqttPublish': {
      if (!oneOf(s.target, ['platform', 'custom'])) fail(id, 'target', 'target must be platform or custom');
      if (s.target === 'custom' && !isText(s.topic, 256)) fail(id, 'topic', 'a custom target needs a topic');
      if (!oneOf(s.qos, [0, 1])) fail(id, 'qos', 'qos must be 0 or 1');
      if (!oneOf(s.format, ['json', 'raw'])) fail(id, 'format', 'format must be json or raw');
      return;
    }
    case 'mqttSubscribe': {
      // as config-types.ts has it: 'platform' is the gateway's own down/command (no topic),
      // 'custom' a topic filter on a broker of its own
      if (!oneOf(s.target, ['platform', 'custom'])) fail(id, 'target', 'target must be platform or custom');
      if (s.target === 'custom') {
        if (typeof s.url !== 'string' || !/^mqtts?:\/\/[^\s/]+/.test(s.url) || s.url.length > 2048)
          fail(id, 'url', 'a custom target needs an mqtt:// or mqtts:// url');
        if (!isText(s.topic, 256)) fail(id, 'topic', 'a custom target needs a topic');
      }
      if (!oneOf(s.qos, [0, 1])) fail(id, 'qos', 'qos must be 0 or 1');
      return;
    }
    case 'network': {
      if (!oneOf(s.mode, ['dhcp', 'static'])) fail(id, 'mode', 'mode must be dhcp or static');
      if (s.mode === 'static') {
        for (const field of ['ip', 'netmask', 'gateway'] as const)
          if (typeof s[field] !== 'string' || checkIp(s[field] as string) !== null)
            fail(id, field, CATALOGUE.ipInvalid.en);
        if (s.dns !== undefined && (typeof s.dns !== 'string' || checkIp(s.dns) !== null))
          fail(id, 'dns', CATALOGUE.ipInvalid.en);
      }
      return;
    }
    case 'httpRequest': {
      if (!oneOf(s.method, ['GET', 'POST'])) fail(id, 'method', 'method must be GET or POST');
      if (typeof s.url !== 'string' || !/^https?:\/\/[^\s]+$/.test(s.url) || s.url.length > 2048)
        fail(id, 'url', 'the url must be http:// or https://');
      if (!isNum(s.intervalS, 1, 86_400)) fail(id, 'intervalS', 'intervalS must be 1-86400 seconds');
      return;
    }
    case 'delay': {
      if (!isInt(s.ms, 0, 3_600_000)) fail(id, 'ms', 'delay must be 0-3600000 ms');
      return;
    }
    case 'command': {
      if (!isText(s.name, 64)) fail(id, 'name', 'the name is missing');
      if (!oneOf(s.encoding, ENCODINGS)) fail(id, 'encoding', 'encoding must be ASCII or HEX');
      if (typeof s.payload !== 'string' || (s.encoding === 'HEX' && checkHexPacket(s.payload) !== null))
        fail(id, 'payload', CATALOGUE.hexPacketInvalid.en);
      return;
    }
    case 'element': {
      if (!isText(s.name, 64)) fail(id, 'name', 'the name is missing');
      if (!isInt(s.itemId, 1, Number.MAX_SAFE_INTEGER))
        fail(id, 'itemId', 'itemId must be a positive integer');
      if (!isText(s.fieldKey, 64)) fail(id, 'fieldKey', 'the field key is missing');
      return;
    }
    case 'passthrough': {
      if (!isInt(s.port, 1, 64) || !ports.includes(s.port))
        fail(
          id,
          'port',
          `port ${JSON.stringify(s.port)} does not exist on this gateway (ports: ${portList})`,
        );
      if (!isNum(s.idleTimeoutS, 1, 86_400)) fail(id, 'idleTimeoutS', 'idleTimeoutS must be 1-86400 seconds');
      return;
    }
    case 'timestamp': {
      if (!oneOf(s.format, ['iso', 'epochMs'])) fail(id, 'format', 'format must be iso or epochMs');
      return;
    }
  }
}

/** The values a parser node decodes in JSON telemetry mode (see plan.ts, ParserValue). */
function checkParserValues(
  id: string,
  values: unknown,
  fail: (node: string, field: string, message: string) => void,
): void {
  if (!Array.isArray(values) || values.length > 200) {
    fail(id, 'values', 'values is a list of at most 200 values');
    return;
  }
  values.forEach((v: unknown, i: number) => {
    const field = `values[${i}]`;
    if (!isObj(v) || !isText(v.name, 64)) {
      fail(id, field, 'a value needs a name');
      return;
    }
    if ('valueType' in v) {
      // the platform's form (its parsing definition's values): the platform's own rules
      for (const problem of valueProblems(normalizeValue(v), null))
        fail(id, `${field}.${problem.field}`, messageFor(problem.key, 'en', problem.params));
      return;
    }
    if (!isInt(v.offset, 0, MAX_FRAME_BYTES - 1))
      fail(id, `${field}.offset`, 'offset is a byte position in the frame');
    if (!oneOf(v.format, [...POINT_TYPES, 'bit']))
      fail(id, `${field}.format`, `format must be one of ${[...POINT_TYPES, 'bit'].join(', ')}`);
    if (v.order !== undefined && !oneOf(v.order, WORD_ORDERS))
      fail(id, `${field}.order`, 'order must be ABCD, CDAB, BADC or DCBA');
    if (v.scale !== undefined && !isNum(v.scale, -1e12, 1e12))
      fail(id, `${field}.scale`, 'scale must be a number');
    if (v.add !== undefined && !isNum(v.add, -1e12, 1e12)) fail(id, `${field}.add`, 'add must be a number');
    if (v.bit !== undefined && !isInt(v.bit, 0, 15)) fail(id, `${field}.bit`, 'bit must be 0-15');
  });
}
