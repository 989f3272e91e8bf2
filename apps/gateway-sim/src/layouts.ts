/**
 * Ready-made hardware and configurations: what is wired to a gateway when a fleet file does
 * not say, the packets that read each kind of slave (with the parser values that decode them),
 * and a polling configuration built from a gateway's ports, as the platform would push it.
 */

import { createHash } from 'node:crypto';
import type { GatewayConfig, GatewayNode, SamplingId } from '@platform/domain';
import { appendCrc, toHex } from '@platform/domain';
import type { ParserValue } from './config/plan';
import { DEFAULT_LINE, type PortSpec, type SlaveSpec } from './modbus/bus';
import { type SlaveKind, slaveModel } from './modbus/models';
import { registerCount } from './modbus/registers';
import { hash01, seedOf } from './modbus/signals';

/** A gateway from the factory: two RS-485 ports at 9600 8N1, two meters on one, two sensors on the other. */
export function defaultPorts(): PortSpec[] {
  return structuredClone(DEFAULT_PORTS) as PortSpec[];
}

/**
 * The same, one object shared by every gateway of a fleet that has no ports of its own (a
 * gateway never changes its ports; sharing them lets a fleet share one configuration too).
 */
export const DEFAULT_PORTS: readonly PortSpec[] = deepFreeze([
  {
    port: 1,
    slaves: [
      { kind: 'meter3p', address: 1 },
      { kind: 'meter1p', address: 2, order: 'CDAB' },
    ],
  },
  {
    port: 2,
    slaves: [
      { kind: 'thSensor', address: 1 },
      { kind: 'flowSensor', address: 2 },
    ],
  },
]);

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * `pollingConfig` for each distinct ports object, made once: gateways sharing their ports
 * (DEFAULT_PORTS) share one configuration object, and so one plan (see gateway.ts).
 */
export function sharedPollingConfig(
  options: PollingOptions,
): (sn: string, ports: PortSpec[]) => ReturnType<typeof pollingConfig> {
  const made = new WeakMap<object, ReturnType<typeof pollingConfig>>();
  return (_sn, ports) => {
    let config = made.get(ports);
    if (!config) {
      config = pollingConfig(ports, options);
      made.set(ports, config);
    }
    return config;
  };
}

/**
 * A 20-digit ICCID fixed by `seedText`: 8986 (China) 04, 13 digits, and the Luhn check digit
 * as on a real card.
 */
export function defaultIccid(seedText: string): string {
  const seed = seedOf(seedText);
  let digits = '898604';
  for (let i = 0; i < 13; i++) digits += Math.floor(hash01(seed, i) * 10);
  return digits + luhnDigit(digits);
}

export function luhnDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

/** Packet ids the simulator uses unless told otherwise: kind base + slave address. */
export const PACKET_ID_BASE: Record<SlaveKind, number> = {
  meter3p: 100,
  meter1p: 200,
  thSensor: 300,
  flowSensor: 400,
  pvInverter: 500,
};
export const defaultPacketId = (kind: SlaveKind, _port: number, address: number) =>
  PACKET_ID_BASE[kind] + address;

/** A packet reading a slave's measurement block, and how to decode its answer. */
export interface CataloguePacket {
  packetId: number;
  port: number;
  address: number;
  kind: SlaveKind;
  name: string;
  /** the request, CRC included (hex) */
  frame: string;
  /** the values of the answer (offsets from the frame's first byte) */
  values: Array<ParserValue & { unit: string; description: string }>;
}

/** The request reading the whole measurement block of `slave` with function 03. */
export function measurementPacket(
  slave: SlaveSpec,
  port: number,
  packetId = defaultPacketId(slave.kind, port, slave.address),
): CataloguePacket {
  const model = slaveModel(slave.kind, slave.order ?? 'ABCD');
  const points = model.registers.filter((r) => r.table === 'both');
  const start = Math.min(...points.map((p) => p.address));
  const end = Math.max(...points.map((p) => p.address + registerCount(p.type)));
  const count = end - start;
  const frame = toHex(appendCrc([slave.address, 0x03, start >> 8, start & 0xff, count >> 8, count & 0xff]));
  return {
    packetId,
    port,
    address: slave.address,
    kind: slave.kind,
    name: `${model.title} @${slave.address} (port ${port})`,
    frame,
    values: points.map((p) => ({
      name: p.name,
      // address, function code, byte count, then the registers
      offset: 3 + 2 * (p.address - start),
      format: p.type,
      ...(registerCount(p.type) === 2 ? { order: model.order } : {}),
      ...(p.scale === 1 ? {} : { scale: 1 / p.scale }),
      unit: p.unit,
      description: p.description,
    })),
  };
}

/** Every measurement packet of a gateway's ports. */
export function packetCatalogue(
  ports: PortSpec[],
  packetIdFor: (kind: SlaveKind, port: number, address: number) => number = defaultPacketId,
): CataloguePacket[] {
  return ports.flatMap((p) =>
    (p.slaves ?? []).map((s) => measurementPacket(s, p.port, packetIdFor(s.kind, p.port, s.address))),
  );
}

export interface PollingOptions {
  /** seconds between polls (sets intervalS on every packet); without it, the sampling frequency */
  intervalS?: number;
  samplingId?: SamplingId;
  /** read only the first N slaves of the gateway (a benchmark's one frame per gateway) */
  slaves?: number;
  packetIdFor?: (kind: SlaveKind, port: number, address: number) => number;
  /** publish JSON telemetry: the item and the field of each value of a packet (null: none) */
  telemetry?: (packet: CataloguePacket) => { itemId: number; fields: Record<string, string> } | null;
  /** also publish raw frames when publishing telemetry */
  raw?: boolean;
  qos?: 0 | 1;
  version?: number;
}

/**
 * A configuration that polls the measurement block of every slave on `ports` (ports set to the
 * buses' own line settings), as the platform would push it, with its version and hash.
 */
export function pollingConfig(
  ports: PortSpec[],
  options: PollingOptions = {},
): { version: number; hash: string; config: GatewayConfig } {
  const nodes: GatewayNode[] = [];
  const links: GatewayConfig['links'] = [];
  let budget = options.slaves ?? Number.POSITIVE_INFINITY;
  for (const port of ports) {
    const slaves = (port.slaves ?? []).slice(0, Math.max(0, budget));
    budget -= slaves.length;
    if (slaves.length === 0) continue;
    const com = `com${port.port}`;
    nodes.push({
      id: com,
      type: 'com',
      name: `COM${port.port}`,
      settings: {
        port: port.port,
        baudRate: port.baudRate ?? DEFAULT_LINE.baudRate,
        dataBits: port.dataBits ?? DEFAULT_LINE.dataBits,
        stopBits: port.stopBits ?? DEFAULT_LINE.stopBits,
        parity: port.parity ?? DEFAULT_LINE.parity,
        role: 'client',
        answerTimeoutMs: 1000,
      },
    });
    for (const slave of slaves) {
      const packet = measurementPacket(
        slave,
        port.port,
        (options.packetIdFor ?? defaultPacketId)(slave.kind, port.port, slave.address),
      );
      const id = `p${port.port}_${slave.address}`;
      nodes.push({
        id,
        type: 'serialPacket',
        name: packet.name,
        settings: {
          packetId: packet.packetId,
          frame: packet.frame,
          encoding: 'HEX',
          samplingId: options.samplingId ?? 1,
          ...(options.intervalS === undefined ? {} : { intervalS: options.intervalS }),
        },
      });
      links.push({ from: id, to: com });
      const target = options.telemetry?.(packet);
      if (!target) continue;
      const parser = `parser${port.port}_${slave.address}`;
      nodes.push({
        id: parser,
        type: 'serialParser',
        name: packet.name,
        settings: {
          packetId: packet.packetId,
          values: packet.values.map(({ unit: _u, description: _d, ...v }) => v),
        } as never,
      });
      links.push({ from: com, to: parser });
      for (const [name, fieldKey] of Object.entries(target.fields)) {
        const element = `el${port.port}_${slave.address}_${name}`;
        nodes.push({
          id: element,
          type: 'element',
          name,
          settings: { name, itemId: target.itemId, fieldKey },
        });
        links.push({ from: parser, to: element });
      }
    }
  }
  const json = options.telemetry !== undefined;
  const publishers: Array<'json' | 'raw'> = json ? (options.raw ? ['json', 'raw'] : ['json']) : ['raw'];
  for (const format of publishers)
    nodes.push({
      id: `publish_${format}`,
      type: 'mqttPublish',
      name: `platform ${format}`,
      settings: { target: 'platform', qos: options.qos ?? 0, format },
    });
  const config: GatewayConfig = { nodes, links };
  return { version: options.version ?? 1, hash: configHash(config), config };
}

/**
 * SHA-256 of the configuration's JSON with keys sorted: what the simulator uses for the
 * configurations it makes up (the platform computes the hash of what it pushes; the gateway
 * only compares hashes, it never recomputes one).
 */
export function configHash(config: unknown): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
