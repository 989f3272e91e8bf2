import { CONFIG_TEMPLATE_IDS, configTemplate, type GatewayConfig, type GatewayNode } from '@platform/domain';
import { describe, expect, it } from 'vitest';
import { defaultPorts, pollingConfig } from '../layouts';
import { checkConfig, MAX_NODES } from './check';

const good = () => pollingConfig(defaultPorts(), { intervalS: 10 }).config;
const withNode = (node: unknown): GatewayConfig => {
  const config = good();
  config.nodes.push(node as GatewayNode);
  return config;
};
const fields = (config: unknown, ports = [1, 2]) =>
  checkConfig(config, ports).map((e) => `${e.node}.${e.field}`);

describe('the gateway’s own configuration check', () => {
  it('accepts the configurations the simulator builds, JSON telemetry included', () => {
    expect(checkConfig(good(), [1, 2])).toEqual([]);
    const json = pollingConfig(defaultPorts(), {
      telemetry: () => ({ itemId: 3, fields: { temperature: 'f1' } }),
    });
    expect(checkConfig(json.config, [1, 2])).toEqual([]);
  });

  it('refuses what is not a configuration', () => {
    for (const bad of [null, 5, 'x', [], { nodes: [] }, { links: [] }, { nodes: {}, links: [] }])
      expect(fields(bad)).toEqual(['.config']);
    expect(fields({ nodes: Array.from({ length: MAX_NODES + 1 }, () => ({})), links: [] })).toEqual([
      '.nodes',
    ]);
  });

  it('names every broken COM setting and a port the gateway does not have', () => {
    const config = good();
    const com = config.nodes.find((n) => n.id === 'com1')!;
    com.settings = {
      port: 3,
      baudRate: 9601,
      dataBits: 9,
      stopBits: 3,
      parity: 5,
      role: 'master',
      answerTimeoutMs: 0,
    } as never;
    expect(fields(config)).toEqual([
      'com1.port',
      'com1.baudRate',
      'com1.dataBits',
      'com1.stopBits',
      'com1.parity',
      'com1.role',
      'com1.answerTimeoutMs',
    ]);
    expect(checkConfig(config, [1, 2])[0]!.message).toBe(
      'port 3 does not exist on this gateway (ports: 1, 2)',
    );
  });

  it('refuses two COM nodes for one port', () => {
    const config = good();
    const com = config.nodes.find((n) => n.id === 'com1')!;
    config.nodes.push({ ...com, id: 'com1b' } as GatewayNode);
    expect(checkConfig(config, [1, 2])).toEqual([
      { node: 'com1b', field: 'port', message: 'port 1 is already set by com1' },
    ]);
  });

  it('checks serial packets: frame present and hex, sampling, interval', () => {
    const packet = (settings: Record<string, unknown>) =>
      fields(
        withNode({
          id: 'p9',
          type: 'serialPacket',
          name: 'x',
          settings: { packetId: 9, samplingId: 1, frame: '01 03', ...settings },
        }),
      );
    expect(packet({})).toEqual([]);
    expect(packet({ frame: undefined })).toEqual(['p9.frame']);
    expect(packet({ frame: '01 03 ' })).toEqual(['p9.frame']);
    expect(packet({ frame: '0103' })).toEqual(['p9.frame']);
    expect(packet({ frame: Array(257).fill('00').join(' ') })).toEqual(['p9.frame']);
    expect(packet({ samplingId: 5 })).toEqual(['p9.samplingId']);
    expect(packet({ intervalS: 0 })).toEqual(['p9.intervalS']);
    expect(packet({ intervalS: Number.NaN })).toEqual(['p9.intervalS']);
    expect(packet({ packetId: -1, encoding: 'EBCDIC' })).toEqual(['p9.packetId', 'p9.encoding']);
  });

  it('checks the other node types', () => {
    expect(
      fields(
        withNode({
          id: 'n',
          type: 'network',
          name: 'n',
          settings: { mode: 'static', ip: '10.0.0.300', netmask: '255.255.255.0', gateway: '10.0.0.1' },
        }),
      ),
    ).toEqual(['n.ip']);
    expect(
      fields(
        withNode({
          id: 'm',
          type: 'mqttPublish',
          name: 'm',
          settings: { target: 'custom', qos: 2, format: 'xml' },
        }),
      ),
    ).toEqual(['m.topic', 'm.qos', 'm.format']);
    expect(
      fields(
        withNode({ id: 'e', type: 'element', name: 'e', settings: { name: 'v', itemId: 0, fieldKey: '' } }),
      ),
    ).toEqual(['e.itemId', 'e.fieldKey']);
    expect(
      fields(withNode({ id: 'pt', type: 'passthrough', name: 'p', settings: { port: 4, idleTimeoutS: 0 } })),
    ).toEqual(['pt.port', 'pt.idleTimeoutS']);
    expect(
      fields(
        withNode({
          id: 'h',
          type: 'httpRequest',
          name: 'h',
          settings: { method: 'PUT', url: 'ftp://x', intervalS: 0 },
        }),
      ),
    ).toEqual(['h.method', 'h.url', 'h.intervalS']);
    expect(
      fields(
        withNode({
          id: 'c',
          type: 'command',
          name: 'c',
          settings: { name: 'go', encoding: 'HEX', payload: 'zz' },
        }),
      ),
    ).toEqual(['c.payload']);
    expect(fields(withNode({ id: 't', type: 'timestamp', name: 't', settings: { format: 'unix' } }))).toEqual(
      ['t.format'],
    );
    expect(fields(withNode({ id: 'd', type: 'delay', name: 'd', settings: { ms: -1 } }))).toEqual(['d.ms']);
    expect(fields(withNode({ id: 'x', type: 'teleport', name: 'x', settings: {} }))).toEqual(['x.type']);
    expect(fields(withNode({ id: 'y', type: 'delay', name: 'y' }))).toEqual(['y.settings']);
    expect(fields(withNode({ id: '', type: 'delay', name: 'z', settings: { ms: 1 } }))).toEqual([
      `#${good().nodes.length}.id`,
    ]);
    expect(fields(withNode({ id: 'com1', type: 'delay', name: 'dup', settings: { ms: 1 } }))).toEqual([
      'com1.id',
    ]);
  });

  it('takes an MQTT subscribe node as the platform makes it: its own down/command needs no topic', () => {
    const subscribe = (settings: unknown) =>
      fields(withNode({ id: 's', type: 'mqttSubscribe', name: 's', settings }));
    expect(subscribe({ target: 'platform', qos: 1 })).toEqual([]);
    expect(
      subscribe({ target: 'custom', url: 'mqtt://broker.example:1883', topic: 'site/+/cmd', qos: 0 }),
    ).toEqual([]);
    expect(subscribe({ target: 'custom', qos: 0 })).toEqual(['s.url', 's.topic']);
    expect(subscribe({ target: 'elsewhere', qos: 2 })).toEqual(['s.target', 's.qos']);
  });

  it('accepts the platform’s starting templates once filled in (they pass the platform’s check)', () => {
    for (const id of CONFIG_TEMPLATE_IDS) {
      const config = configTemplate(id, { packetId: 7, values: [{ name: 'v', itemId: 3, fieldKey: 'f1' }] });
      // the platform fills each packet's frame from its definition when it pushes
      for (const node of config.nodes)
        if (node.type === 'serialPacket')
          node.settings = { ...node.settings, frame: '01 03 00 00 00 02 C4 0B' };
      expect(checkConfig(config, [1, 2]), id).toEqual([]);
    }
  });

  it('checks the values a parser decodes in JSON mode', () => {
    const parser = (values: unknown) =>
      fields(withNode({ id: 'pr', type: 'serialParser', name: 'p', settings: { packetId: 1, values } }));
    expect(parser([{ name: 'v', offset: 3, format: 'float32', order: 'CDAB', scale: 0.1 }])).toEqual([]);
    expect(parser('all')).toEqual(['pr.values']);
    expect(parser([{ name: 'v', offset: -1, format: 'float16', order: 'XYZW', bit: 16 }])).toEqual([
      'pr.values[0].offset',
      'pr.values[0].format',
      'pr.values[0].order',
      'pr.values[0].bit',
    ]);
  });

  it('refuses links to nodes that do not exist', () => {
    const config = good();
    config.links.push({ from: 'p1_1', to: 'com9' });
    expect(checkConfig(config, [1, 2])).toEqual([
      { node: 'p1_1', field: 'links', message: 'the link p1_1 → com9 names a node that does not exist' },
    ]);
    expect(fields({ nodes: [], links: [5] })).toEqual(['#0.links']);
  });
});
