import {
  appendCrc,
  configTemplate,
  decodeFrame,
  type GatewayConfig,
  normalizeValue,
  type ParserValue,
  parseHex,
  toHex,
  withFrames,
} from '@platform/domain';
import { describe, expect, it } from 'vitest';
import { defaultPorts, pollingConfig } from '../layouts';
import { checkConfig } from './check';
import { planConfig, readParserValue, telemetryRecords } from './plan';

const bytes = (hex: string) => parseHex(hex)!;

describe('reading parser values (domain-facts register vectors)', () => {
  it.each([
    ['41 20 00 00', 'float32', 'ABCD', 10],
    ['00 00 41 20', 'float32', 'CDAB', 10],
    ['20 41 00 00', 'float32', 'BADC', 10],
    ['00 00 20 41', 'float32', 'DCBA', 10],
    ['FF 38', 'int16', 'ABCD', -200],
    ['FF 38', 'uint16', 'ABCD', 65336],
    ['00 01 E2 40', 'uint32', 'ABCD', 123456],
    ['FF FE 1D C0', 'int32', 'ABCD', -123456],
  ] as const)('%s as %s %s is %d', (hex, format, order, value) => {
    // behind a Modbus header: address, function, byte count
    const frame = bytes(`01 03 04 ${hex}`);
    expect(readParserValue(frame, { name: 'v', offset: 3, format, order })).toBeCloseTo(value, 5);
  });

  it('scales, offsets, reads bits, and refuses a frame too short', () => {
    const frame = bytes('01 03 02 00 A5 00 00');
    expect(
      readParserValue(frame, { name: 't', offset: 3, format: 'uint16', scale: 0.1, add: -10 }),
    ).toBeCloseTo(6.5, 9);
    // 0x00A5: bits 0..7 from the least significant are 1,0,1,0,0,1,0,1
    expect(
      [0, 1, 2, 3, 4, 5, 6, 7].map((bit) =>
        readParserValue(frame, { name: 'b', offset: 3, format: 'bit', bit }),
      ),
    ).toEqual([1, 0, 1, 0, 0, 1, 0, 1]);
    expect(readParserValue(frame, { name: 'x', offset: 5, format: 'float32' })).toBeNull();
  });
});

describe('planning a configuration', () => {
  it('polls each packet linked to a COM node (either way), every intervalS or sampling period', () => {
    const { config } = pollingConfig(defaultPorts(), { intervalS: 2 });
    // one link the other way round
    const link = config.links.find((l) => l.from === 'p2_1')!;
    [link.from, link.to] = [link.to, link.from];
    config.nodes.push({
      id: 'lonely',
      type: 'serialPacket',
      name: 'x',
      settings: { packetId: 1, frame: '01 03 00 00 00 01 84 0A', samplingId: 2 },
    });
    const plan = planConfig(config);
    expect(plan.packets.map((p) => `${p.node}@${p.port}/${p.intervalMs}`)).toEqual([
      'p1_1@1/2000',
      'p1_2@1/2000',
      'p2_1@2/2000',
      'p2_2@2/2000',
    ]);
    expect(plan.raw).toBe(true);
    expect(plan.json).toBe(false);
    const fifteen = pollingConfig(defaultPorts(), { samplingId: 4 });
    expect(planConfig(fifteen.config).packets[0]!.intervalMs).toBe(15 * 60_000);
  });

  it('does not poll a port in the server role, and publishes raw frames without a publish node', () => {
    const { config } = pollingConfig(defaultPorts());
    (config.nodes.find((n) => n.id === 'com2')!.settings as { role: string }).role = 'server';
    config.nodes = config.nodes.filter((n) => n.type !== 'mqttPublish');
    const plan = planConfig(config);
    expect(plan.ports.get(2)!.polled).toBe(false);
    expect(plan.raw).toBe(true);
  });

  it('builds one telemetry record per item from the elements linked to the packet’s parser', () => {
    const ports = [{ port: 1, slaves: [{ kind: 'thSensor' as const, address: 1 }] }];
    const { config } = pollingConfig(ports, {
      telemetry: () => ({ itemId: 5, fields: { temperature: 'f1', humidity: 'f2' } }),
      raw: true,
    });
    config.nodes.push({ id: 'ts', type: 'timestamp', name: 'ts', settings: { format: 'epochMs' } });
    // a second item fed by the same parser
    config.nodes.push({
      id: 'other',
      type: 'element',
      name: 'dewPoint',
      settings: { name: 'dewPoint', itemId: 6, fieldKey: 'dp' },
    });
    config.links.push({ from: 'other', to: 'parser1_1' });
    const plan = planConfig(config as GatewayConfig);
    expect(plan.json).toBe(true);
    expect(plan.raw).toBe(true);
    expect(plan.tsFormat).toBe('epochMs');
    const packet = plan.packets[0]!;
    // 23.4 °C, 56.7 %RH, dew point 14.2 °C
    const answer = bytes('01 03 06 00 EA 02 37 00 8E 00 00');
    expect(telemetryRecords(packet, answer, 1234)).toEqual([
      { itemId: 5, ts: 1234, f1: 23.4, f2: 56.7 },
      { itemId: 6, ts: 1234, dp: 14.2 },
    ]);
  });
});

describe('the parsing values the platform pushes (JSON telemetry of a platform-made configuration)', () => {
  // the platform's starting template "Modbus meter on COM1", with the values its push fills in
  const config = (values: unknown[]): GatewayConfig => {
    const made = configTemplate('modbusMeter', {
      packetId: 7,
      values: [
        { name: '电压', itemId: 5, fieldKey: 'f1' },
        { name: '状态', itemId: 5, fieldKey: 'f2' },
      ],
    });
    const frames = new Map([[7, toHex(appendCrc(parseHex('01 03 00 00 00 03')!))]]);
    const parsers = new Map([[7, values as ParserValue[]]]);
    return withFrames(made, frames, parsers);
  };
  const voltage = normalizeValue({
    name: '电压',
    offset: 0,
    length: 4,
    valueType: 'decimal',
    format: 'float',
    order: 'CDAB',
    decimals: 1,
    itemId: 5,
    fieldKey: 'f1',
  });
  const flag = normalizeValue({
    name: '状态',
    offset: 4,
    length: 2,
    valueType: 'integer',
    format: 'bit',
    bit: 3,
    itemId: 5,
    fieldKey: 'f2',
  });
  // 220.54 as float32 CDAB (43 5C 8A 3D → 8A 3D 43 5C), then 0x0008 (bit 3 set)
  const answer = toHex(appendCrc(parseHex('01 03 06 8A 3D 43 5C 00 08')!));

  it('are what the gateway gets: how to decode, not where the values are stored', () => {
    const parser = config([voltage, flag]).nodes.find((n) => n.type === 'serialParser')!;
    const values = (parser.settings as { values: Array<Record<string, unknown>> }).values;
    expect(values.map((v) => v.name)).toEqual(['电压', '状态']);
    for (const v of values) {
      expect(v).not.toHaveProperty('itemId');
      expect(v).not.toHaveProperty('fieldKey');
    }
    expect(checkConfig(config([voltage, flag]), [1])).toEqual([]);
  });

  it('decodes the answer as the platform decodes a raw frame, into the elements’ fields', () => {
    const packet = planConfig(config([voltage, flag])).packets[0]!;
    expect(telemetryRecords(packet, bytes(answer), 't')).toEqual([{ itemId: 5, ts: 't', f1: 220.5, f2: 1 }]);
    const platform = decodeFrame(
      answer,
      { frame: '01 03 00 00 00 03', appendCrc: true },
      { values: [voltage, flag] },
    );
    expect(platform.values.map((v) => (v.ok ? v.value : null))).toEqual([220.5, 1]);
  });

  it('sends nothing for an answer the platform would refuse (bad CRC)', () => {
    const packet = planConfig(config([voltage, flag])).packets[0]!;
    const broken = bytes(answer);
    broken[broken.length - 1] = broken.at(-1)! ^ 0xff;
    expect(telemetryRecords(packet, broken, 't')).toEqual([]);
  });

  it('refuses a pushed value the platform would refuse, naming it', () => {
    const bad = { ...voltage, format: 'float', length: 3 };
    expect(checkConfig(config([bad, flag]), [1]).map((e) => `${e.node}.${e.field}`)).toEqual([
      'parser1.values[0].length',
    ]);
  });
});
