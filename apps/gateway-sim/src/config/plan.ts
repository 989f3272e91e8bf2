/**
 * What a checked configuration makes the gateway do: which frames go out on which port how
 * often, and what it publishes (raw frames, JSON telemetry, or both).
 *
 * - A serial packet node linked to a COM node (either direction) is polled on that port every
 *   sampling period, or every `intervalS` when set. Ports whose COM node has the `server` role
 *   are not polled (the gateway answers on them).
 * - MQTT publish nodes with target `platform` choose the output: `raw` publishes frames on
 *   `up/frame`, `json` decodes values and publishes `up/telemetry`. With no such node the
 *   gateway publishes raw frames (what a gateway fresh from the factory does).
 * - A command node linked to the platform's MQTT subscribe node and to a COM node is what
 *   `down/command` `{"command": "<its name>"}` writes on that port: its payload as it is (HEX as
 *   bytes, so the frame carries its own CRC; ASCII as text).
 * - JSON telemetry: the serial parser node of the packet (same packetId) carries the values to
 *   decode (`values`), and each element node linked to the parser writes the value of its name
 *   into its item and field. The values are the packet's parsing definition as the platform
 *   pushes them (config-types.ts `PushedParserValue`, decoded with the domain's `decodeFrame`,
 *   exactly as the platform decodes raw frames), or the simulator's own shorter form
 *   (ParserValue below) that its ready-made configurations use.
 */
import type {
  ComSettings,
  GatewayConfig,
  GatewayNode,
  PushedParserValue,
  SerialPacketSettings,
} from '@platform/domain';
import { decodeFrame, parseHex, SAMPLING_MINUTES, toHex } from '@platform/domain';
import type { LineSettings } from '../modbus/bus';
import { decodeValue, type PointType, type WordOrder } from '../modbus/registers';

/**
 * One value a parser node decodes from an answer frame, as the platform fills it from the
 * packet's parsing definition when it pushes a configuration that publishes JSON telemetry
 * (not yet in config-types.ts: proposed in docs/device-protocol.md). `offset` counts bytes
 * from the first byte of the frame (the slave address); value = raw × scale + add.
 */
export interface ParserValue {
  name: string;
  offset: number;
  format: PointType | 'bit';
  order?: WordOrder;
  scale?: number;
  add?: number;
  /** for `bit`: which bit of the 16-bit register at `offset`, 0 = least significant */
  bit?: number;
}

export interface PortPlan {
  port: number;
  node: string;
  line: LineSettings;
  answerTimeoutMs: number;
  polled: boolean;
}

export interface ElementTarget {
  name: string;
  itemId: number;
  fieldKey: string;
}

export interface PacketPlan {
  node: string;
  packetId: number;
  port: number;
  frame: Uint8Array;
  intervalMs: number;
  /** JSON telemetry: what to decode and where each value goes */
  values: Array<ParserValue | PushedParserValue>;
  elements: ElementTarget[];
}

export interface RunPlan {
  ports: Map<number, PortPlan>;
  packets: PacketPlan[];
  raw: boolean;
  json: boolean;
  qos: 0 | 1;
  /** `ts` of telemetry records: ISO text or milliseconds (a timestamp node says which) */
  tsFormat: 'iso' | 'epochMs';
  /** passthrough sessions close after this idle time, per port */
  passthroughIdleMs: Map<number, number>;
  /** the command nodes the platform may name on down/command: the bytes each writes, and where */
  commands: Map<string, { port: number; bytes: Uint8Array }>;
}

export const DEFAULT_PASSTHROUGH_IDLE_MS = 60_000;

/** The plan of a configuration that passed checkConfig. */
export function planConfig(config: GatewayConfig): RunPlan {
  const byId = new Map<string, GatewayNode>(config.nodes.map((n) => [n.id, n]));
  const neighbours = new Map<string, GatewayNode[]>();
  for (const link of config.links) {
    const from = byId.get(link.from);
    const to = byId.get(link.to);
    if (!from || !to) continue;
    if (!neighbours.has(from.id)) neighbours.set(from.id, []);
    if (!neighbours.has(to.id)) neighbours.set(to.id, []);
    neighbours.get(from.id)!.push(to);
    neighbours.get(to.id)!.push(from);
  }
  const linked = (node: GatewayNode, type: GatewayNode['type']) =>
    (neighbours.get(node.id) ?? []).filter((n) => n.type === type);

  const ports = new Map<number, PortPlan>();
  const passthroughIdleMs = new Map<number, number>();
  let raw = false;
  let json = false;
  let publishers = 0;
  let qos: 0 | 1 = 0;
  let tsFormat: 'iso' | 'epochMs' = 'iso';
  for (const node of config.nodes) {
    if (node.type === 'com') {
      const s: ComSettings = node.settings;
      ports.set(s.port, {
        port: s.port,
        node: node.id,
        line: { baudRate: s.baudRate, dataBits: s.dataBits, stopBits: s.stopBits, parity: s.parity },
        answerTimeoutMs: s.answerTimeoutMs,
        polled: s.role === 'client',
      });
    } else if (node.type === 'mqttPublish' && node.settings.target === 'platform') {
      publishers += 1;
      if (node.settings.format === 'json') json = true;
      else raw = true;
      if (node.settings.qos === 1) qos = 1;
    } else if (node.type === 'timestamp') {
      tsFormat = node.settings.format;
    } else if (node.type === 'passthrough') {
      passthroughIdleMs.set(node.settings.port, node.settings.idleTimeoutS * 1000);
    }
  }
  if (publishers === 0) raw = true;

  const parsers = config.nodes.filter((n) => n.type === 'serialParser');
  const packets: PacketPlan[] = [];
  for (const node of config.nodes) {
    if (node.type !== 'serialPacket') continue;
    const s: SerialPacketSettings = node.settings;
    const frame = s.frame ? parseHex(s.frame) : null;
    if (!frame) continue;
    const intervalMs =
      s.intervalS !== undefined ? s.intervalS * 1000 : SAMPLING_MINUTES[s.samplingId] * 60_000;
    const parser = parsers.find((p) => p.settings.packetId === s.packetId);
    const values = (
      (parser?.settings as { values?: Array<ParserValue | PushedParserValue> } | undefined)?.values ?? []
    ).slice();
    const elements: ElementTarget[] = parser
      ? linked(parser, 'element').map((e) => {
          const es = e.settings as { name: string; itemId: number; fieldKey: string };
          return { name: es.name, itemId: es.itemId, fieldKey: es.fieldKey };
        })
      : [];
    for (const com of linked(node, 'com')) {
      const port = (com.settings as ComSettings).port;
      packets.push({ node: node.id, packetId: s.packetId, port, frame, intervalMs, values, elements });
    }
  }
  const commands = new Map<string, { port: number; bytes: Uint8Array }>();
  for (const node of config.nodes) {
    if (node.type !== 'command') continue;
    const fromPlatform = linked(node, 'mqttSubscribe').some(
      (n) => n.type === 'mqttSubscribe' && n.settings.target === 'platform',
    );
    const com = linked(node, 'com')[0];
    if (!fromPlatform || !com) continue;
    const { name, encoding, payload } = node.settings;
    const bytes = encoding === 'HEX' ? parseHex(payload) : new TextEncoder().encode(payload);
    if (bytes) commands.set(name, { port: (com.settings as ComSettings).port, bytes });
  }
  return { ports, packets, raw, json, qos, tsFormat, passthroughIdleMs, commands };
}

/** The value `spec` reads from `frame`, or null when the frame is too short for it. */
export function readParserValue(frame: Uint8Array, spec: ParserValue): number | null {
  const size = spec.format === 'bit' || spec.format.endsWith('16') ? 2 : 4;
  if (spec.offset + size > frame.length) return null;
  const bytes = frame.subarray(spec.offset, spec.offset + size);
  const raw =
    spec.format === 'bit'
      ? (((bytes[0]! << 8) | bytes[1]!) >> (spec.bit ?? 0)) & 1
      : decodeValue(spec.format, bytes, spec.order ?? 'ABCD');
  if (!Number.isFinite(raw)) return null;
  return raw * (spec.scale ?? 1) + (spec.add ?? 0);
}

/** A value in the platform's form (a parsing definition's): it has a length and a value type. */
export function isPushedValue(value: ParserValue | PushedParserValue): value is PushedParserValue {
  return 'valueType' in value && typeof value.length === 'number';
}

/** Telemetry records of one answer: one per item, each element's value in its field. */
export function telemetryRecords(
  packet: PacketPlan,
  frame: Uint8Array,
  ts: string | number,
): Array<Record<string, unknown>> {
  const pushed = packet.values.filter(isPushedValue);
  // the platform's values decoded as the platform decodes them; an answer it would refuse
  // (bad CRC, wrong length, an exception) gives none
  const decoded = new Map<string, number>();
  if (pushed.length > 0) {
    const result = decodeFrame(
      frame,
      { frame: toHex(packet.frame), appendCrc: false },
      { values: pushed.map((v) => ({ ...v, itemId: null, fieldKey: null })) },
    );
    if (!result.frameError)
      for (const v of result.values) if (v.ok && typeof v.value === 'number') decoded.set(v.name, v.value);
  }
  const byItem = new Map<number, Record<string, unknown>>();
  for (const element of packet.elements) {
    const spec = packet.values.find((v) => v.name === element.name);
    if (!spec) continue;
    let value: number | null;
    if (isPushedValue(spec)) value = decoded.get(spec.name) ?? null;
    else {
      value = readParserValue(frame, spec);
      // float32 carries about 7 significant digits: do not publish the binary noise after them
      if (value !== null) value = Number(value.toPrecision(spec.format === 'float32' ? 7 : 15));
    }
    if (value === null) continue;
    let record = byItem.get(element.itemId);
    if (!record) {
      record = { itemId: element.itemId, ts };
      byItem.set(element.itemId, record);
    }
    record[element.fieldKey] = value;
  }
  return [...byItem.values()];
}
