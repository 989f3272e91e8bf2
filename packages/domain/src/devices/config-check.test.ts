import { describe, expect, it } from 'vitest';
import { CATALOGUE, messageFor } from '../errors';
import { checkGatewayConfig, hasErrors, MAX_GATEWAY_LINKS, MAX_GATEWAY_NODES } from './config-check';
import { FULL_LOOKUPS, fullConfig } from './config-fixtures';
import { CONFIG_TEMPLATE_IDS, configTemplate } from './config-templates';
import type { GatewayConfig, GatewayNode } from './config-types';

// biome-ignore lint/suspicious/noExplicitAny: tests reach into settings of every type
type Loose = { nodes: Array<Record<string, any>>; links: Array<{ from: string; to: string }> };

/** The full configuration changed by `change`, checked with the full lookups. */
function problems(change: (c: Loose) => void, lookups = FULL_LOOKUPS) {
  const config = structuredClone(fullConfig()) as unknown as Loose;
  change(config);
  return checkGatewayConfig(config, lookups).map((p) => ({
    severity: p.severity,
    node: p.node,
    field: p.field,
    key: p.key,
    ...(p.params ? { params: p.params } : {}),
  }));
}

const node = (c: Loose, id: string) => c.nodes.find((n) => n.id === id)!;
const set = (id: string, key: string, value: unknown) => (c: Loose) => {
  node(c, id).settings[key] = value;
};
const unset = (id: string, key: string) => (c: Loose) => {
  delete node(c, id).settings[key];
};
const rename = (id: string, name: string) => (c: Loose) => {
  node(c, id).name = name;
};
const unlink = (from: string, to: string) => (c: Loose) => {
  c.links = c.links.filter((l) => !(l.from === from && l.to === to));
};

describe('the configuration check: a configuration using all twelve node types', () => {
  it('passes with nothing to say, with and without lookups', () => {
    expect(checkGatewayConfig(fullConfig(), FULL_LOOKUPS)).toEqual([]);
    expect(checkGatewayConfig(fullConfig())).toEqual([]);
    expect(new Set(fullConfig().nodes.map((n) => n.type)).size).toBe(12);
  });

  it('every message key it can produce is in the catalogue with both languages', () => {
    for (const key of Object.keys(CATALOGUE).filter((k) => k.startsWith('config') || k.startsWith('link'))) {
      const entry = CATALOGUE[key as keyof typeof CATALOGUE];
      expect(entry.zh.length, key).toBeGreaterThan(0);
      expect(entry.en.length, key).toBeGreaterThan(0);
    }
  });
});

describe('settings of each node type', () => {
  it('COM: port, baud rate, data bits, stop bits, parity none 0 / odd 1 / even 2, role, answer time', () => {
    expect(problems(set('com1', 'baudRate', 9601))).toEqual([
      {
        severity: 'error',
        node: 'com1',
        field: 'baudRate',
        key: 'configChoice',
        params: { options: '1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200' },
      },
    ]);
    expect(problems(set('com1', 'parity', 3))).toMatchObject([
      { node: 'com1', field: 'parity', key: 'configChoice' },
    ]);
    expect(problems(set('com1', 'parity', 'even'))).toMatchObject([{ field: 'parity', key: 'configChoice' }]);
    for (const parity of [0, 1, 2]) expect(problems(set('com1', 'parity', parity))).toEqual([]);
    expect(problems(set('com1', 'dataBits', 9))).toMatchObject([{ field: 'dataBits', key: 'configChoice' }]);
    expect(problems(set('com1', 'stopBits', 1.5))).toEqual([]);
    expect(problems(set('com1', 'stopBits', 3))).toMatchObject([{ field: 'stopBits', key: 'configChoice' }]);
    expect(problems(set('com1', 'role', 'master'))).toMatchObject([{ field: 'role', key: 'configChoice' }]);
    expect(problems(set('com1', 'answerTimeoutMs', 49))).toMatchObject([
      { field: 'answerTimeoutMs', key: 'configIntRange', params: { min: 50, max: 10000 } },
    ]);
    expect(problems(set('com1', 'answerTimeoutMs', 100.5))).toMatchObject([{ key: 'configIntRange' }]);
    expect(problems(unset('com1', 'baudRate'))).toMatchObject([{ field: 'baudRate', key: 'configRequired' }]);
    expect(problems(set('com1', 'port', 17))).toMatchObject([
      { field: 'port', key: 'configIntRange', params: { min: 1, max: 16 } },
    ]);
  });

  it('COM: port numbers are unique; a packet is sent only on a client port', () => {
    expect(problems(set('com2', 'port', 1))).toEqual([
      { severity: 'error', node: 'com2', field: 'port', key: 'configPortTaken', params: { port: 1 } },
      // the passthrough of port 2 lost its port
      {
        severity: 'error',
        node: 'passthrough1',
        field: 'port',
        key: 'configPortMissing',
        params: { port: 2 },
      },
    ]);
    expect(problems(set('com1', 'role', 'server'))).toEqual([
      {
        severity: 'error',
        node: 'packet1',
        field: 'links',
        key: 'configPortRoleServer',
        params: { port: 1 },
      },
      {
        severity: 'error',
        node: 'packet2',
        field: 'links',
        key: 'configPortRoleServer',
        params: { port: 1 },
      },
    ]);
  });

  it('serial packet: data package, sampling id 1-4, encoding, frame by the hex rule', () => {
    expect(problems(set('packet1', 'samplingId', 5))).toMatchObject([
      { field: 'samplingId', key: 'configChoice' },
    ]);
    expect(problems(set('packet1', 'encoding', 'UTF8'))).toMatchObject([
      { field: 'encoding', key: 'configChoice' },
    ]);
    expect(problems(set('packet1', 'frame', '01 03 00 00 00 0A C5 CD'))).toEqual([]);
    for (const bad of ['01 03 00 00 00 0a ', ' 01 03', '01  03', '0103', '01 0G']) {
      expect(problems(set('packet1', 'frame', bad)), bad).toMatchObject([
        { field: 'frame', key: 'hexPacketInvalid' },
      ]);
    }
    expect(problems(set('packet1', 'packetId', 0))).toMatchObject([
      { field: 'packetId', key: 'configIntRange' },
    ]);
    expect(problems(set('packet1', 'intervalS', 0))).toMatchObject([
      { field: 'intervalS', key: 'configIntRange' },
    ]);
    expect(problems(set('packet1', 'intervalS', 5))).toEqual([]);
  });

  it('network: static addresses by the IP rule, a contiguous mask, a gateway in the subnet', () => {
    expect(problems(set('network1', 'ip', '192.168.1.256'))).toEqual([
      { severity: 'error', node: 'network1', field: 'ip', key: 'ipInvalid' },
    ]);
    expect(messageFor('ipInvalid', 'en')).toBe('Please enter a valid IPv4 or full IPv6 address');
    expect(problems(set('network1', 'ip', '2001:db8::1'))).toMatchObject([{ field: 'ip', key: 'ipInvalid' }]);
    expect(problems(set('network1', 'netmask', '255.0.255.0'))).toMatchObject([
      { field: 'netmask', key: 'configNetmaskInvalid' },
    ]);
    expect(problems(set('network1', 'netmask', '0.0.0.0'))).toMatchObject([{ key: 'configNetmaskInvalid' }]);
    expect(problems(set('network1', 'netmask', '255.255.0.0'))).toEqual([]);
    expect(problems(set('network1', 'gateway', '192.168.2.1'))).toMatchObject([
      { field: 'gateway', key: 'configGatewayOutsideSubnet' },
    ]);
    expect(problems(set('network1', 'gateway', '192.168.1.20'))).toMatchObject([
      { field: 'gateway', key: 'configGatewayIsSelf' },
    ]);
    expect(problems(set('network1', 'dns', 'dns.example'))).toMatchObject([
      { field: 'dns', key: 'ipInvalid' },
    ]);
    expect(problems(unset('network1', 'dns'))).toEqual([]);
    // DHCP needs no address, and whatever stayed behind is not read
    expect(
      problems((c) => {
        node(c, 'network1').settings = { mode: 'dhcp', ip: 'left over' };
      }),
    ).toEqual([]);
    const v6 = (c: Loose) => {
      node(c, 'network1').settings = {
        mode: 'static',
        ip: '2001:0db8:0000:0000:0000:0000:0000:0014',
        netmask: '64',
        gateway: '2001:0db8:0000:0000:0000:0000:0000:0001',
      };
    };
    expect(problems(v6)).toEqual([]);
    expect(
      problems((c) => {
        v6(c);
        node(c, 'network1').settings.netmask = '255.255.255.0';
      }),
    ).toMatchObject([{ field: 'netmask', key: 'configNetmaskInvalid' }]);
    expect(
      problems((c) => {
        v6(c);
        node(c, 'network1').settings.gateway = '192.168.1.1';
      }),
    ).toMatchObject([{ field: 'gateway', key: 'configGatewayOutsideSubnet' }]);
  });

  it('MQTT publish and subscribe: topics, filters, broker addresses, QoS', () => {
    for (const bad of ['plant/+/raw', 'plant/#', '$SYS/x', '', 'a\u0001b']) {
      expect(problems(set('raw1', 'topic', bad)), bad).toMatchObject([
        { field: 'topic', key: bad === '' ? 'configRequired' : 'configTopicInvalid' },
      ]);
    }
    expect(problems(set('raw1', 'topic', 'x'.repeat(201)))).toMatchObject([{ key: 'configTextTooLong' }]);
    for (const bad of [
      'http://broker:1883',
      'mqtt://broker',
      'mqtt://:1883',
      'mqtt://broker:1883/path',
      'broker:1883',
    ]) {
      expect(problems(set('raw1', 'url', bad)), bad).toMatchObject([
        { field: 'url', key: 'configBrokerUrlInvalid' },
      ]);
    }
    expect(problems(set('raw1', 'url', 'mqtts://10.0.0.5:8883'))).toEqual([]);
    expect(problems(set('raw1', 'qos', 2))).toMatchObject([{ field: 'qos', key: 'configChoice' }]);
    const custom = (topic: string) => (c: Loose) => {
      node(c, 'subscribe1').settings = { target: 'custom', url: 'mqtt://10.0.0.5:1883', topic, qos: 0 };
    };
    for (const good of ['plant/+/cmd', 'plant/#', '#', '+/+'])
      expect(problems(custom(good)), good).toEqual([]);
    for (const bad of ['plant/#/x', 'plant/a+', 'plant/##', '$SYS/#']) {
      expect(problems(custom(bad)), bad).toMatchObject([{ field: 'topic', key: 'configFilterInvalid' }]);
    }
  });

  it('HTTP request: http or https only, interval in range', () => {
    for (const bad of [
      'ftp://mes.example.com',
      'mes.example.com/ingest',
      'https://',
      'javascript:alert(1)',
      'http://a b',
    ]) {
      expect(problems(set('http1', 'url', bad)), bad).toMatchObject([
        { field: 'url', key: 'configUrlInvalid' },
      ]);
    }
    expect(problems(set('http1', 'url', 'http://10.0.0.8:8080/api?x=1'))).toEqual([]);
    expect(problems(set('http1', 'intervalS', 4))).toMatchObject([
      { field: 'intervalS', key: 'configIntRange', params: { min: 5, max: 86400 } },
    ]);
    expect(problems(set('http1', 'method', 'DELETE'))).toMatchObject([
      { field: 'method', key: 'configChoice' },
    ]);
  });

  it('delay, passthrough, timestamp: ranges and lists', () => {
    expect(problems(set('delay1', 'ms', 60001))).toMatchObject([{ field: 'ms', key: 'configIntRange' }]);
    expect(problems(set('delay1', 'ms', '100'))).toMatchObject([{ field: 'ms', key: 'configIntRange' }]);
    expect(problems(set('passthrough1', 'idleTimeoutS', 5))).toMatchObject([{ field: 'idleTimeoutS' }]);
    expect(problems(set('time1', 'format', 'unix'))).toMatchObject([
      { field: 'format', key: 'configChoice' },
    ]);
  });

  it('command: hex by the seed rule, or printable ASCII', () => {
    expect(problems(set('command1', 'payload', '01 06 00 01 00 03 98 0b'))).toEqual([]);
    expect(problems(set('command1', 'payload', '01 06 00 01 00 03 98 0B '))).toMatchObject([
      { field: 'payload', key: 'hexPacketInvalid' },
    ]);
    expect(
      problems((c) => {
        node(c, 'command1').settings = { name: 'reset', encoding: 'ASCII', payload: 'RESET\r\n' };
      }),
    ).toMatchObject([{ field: 'payload', key: 'configAsciiInvalid' }]);
    expect(
      problems((c) => {
        node(c, 'command1').settings = { name: 'reset', encoding: 'ASCII', payload: 'AT+RST' };
      }),
    ).toEqual([]);
    expect(problems(set('command1', 'payload', Array(257).fill('00').join(' ')))).toMatchObject([
      { key: 'configTextTooLong' },
    ]);
    // its name is what a message names to run it: required, unique among commands
    expect(problems(unset('command1', 'name'))).toEqual([
      { severity: 'error', node: 'command1', field: 'settings.name', key: 'configRequired' },
    ]);
    expect(
      problems((c) => {
        c.nodes.push({ ...node(c, 'command1'), id: 'command2', name: 'Reset again' });
        c.links.push({ from: 'subscribe1', to: 'command2' }, { from: 'command2', to: 'com2' });
      }),
    ).toEqual([
      {
        severity: 'error',
        node: 'command2',
        field: 'settings.name',
        key: 'configCommandNameTaken',
        params: { name: 'reset' },
      },
    ]);
  });

  it('element: bound to an item and a field of the company, reading a value its parser has', () => {
    expect(problems(set('element1', 'fieldKey', 'voltage'))).toMatchObject([
      { field: 'fieldKey', key: 'configFieldKeyInvalid' },
    ]);
    expect(problems(set('element1', 'fieldKey', 'f3'))).toEqual([
      {
        severity: 'error',
        node: 'element1',
        field: 'fieldKey',
        key: 'configItemFieldUnknown',
        params: { itemId: 5, field: 'f3' },
      },
    ]);
    expect(problems(set('element1', 'itemId', 6))).toMatchObject([
      { field: 'fieldKey', key: 'configItemFieldUnknown' },
    ]);
    expect(problems(unset('element1', 'itemId'))).toMatchObject([{ field: 'itemId', key: 'configRequired' }]);
    expect(problems(set('element1', 'name', 'power'))).toEqual([
      {
        severity: 'error',
        node: 'element1',
        field: 'settings.name',
        key: 'configElementValueUnknown',
        params: { id: 7, value: 'power' },
      },
    ]);
    expect(problems(set('element1', 'name', 'current'))).toEqual([]);
    // without lookups (the editor before the company's data is loaded) those are the server's to say
    expect(problems(set('element1', 'name', 'power'), {})).toEqual([]);
  });
});

describe('nodes: ids, types, names, the maximum', () => {
  it('ids are unique and well formed', () => {
    expect(
      problems((c) => {
        node(c, 'time1').id = 'publish1';
      }),
    ).toContainEqual({
      severity: 'error',
      node: 'publish1',
      field: 'id',
      key: 'configNodeIdTaken',
      params: { id: 'publish1' },
    });
    expect(
      problems((c) => {
        c.nodes.push({ id: '1abc', type: 'timestamp', name: 'T2', settings: { format: 'iso' } });
      }),
    ).toContainEqual({ severity: 'error', node: '1abc', field: 'id', key: 'configNodeIdInvalid' });
  });

  it('names are required, at most 25 characters (the seed rule), unique', () => {
    expect(problems(rename('com1', '  '))).toEqual([
      { severity: 'error', node: 'com1', field: 'name', key: 'nameRequired' },
    ]);
    expect(messageFor('nameRequired', 'en')).toBe('Please enter a name');
    expect(problems(rename('com1', '端'.repeat(26)))).toMatchObject([{ field: 'name', key: 'nameTooLong' }]);
    expect(problems(rename('com1', '端'.repeat(25)))).toEqual([]);
    expect(problems(rename('com2', 'COM1 '))).toEqual([
      {
        severity: 'error',
        node: 'com2',
        field: 'name',
        key: 'configNodeNameTaken',
        params: { name: 'COM1' },
      },
    ]);
  });

  it('an unknown type is named and its settings are not read', () => {
    expect(
      problems((c) => {
        c.nodes.push({ id: 'x1', type: 'modbus', name: 'X', settings: { anything: 1 } });
      }),
    ).toEqual([{ severity: 'error', node: 'x1', field: 'type', key: 'configNodeTypeUnknown' }]);
  });

  it(`stops at the node maximum (${MAX_GATEWAY_NODES}) with the seed's message`, () => {
    const at = (count: number): GatewayConfig => ({
      nodes: Array.from(
        { length: count },
        (_, i): GatewayNode => ({
          id: `t${i}`,
          type: 'timestamp',
          name: `T${i}`,
          settings: { format: 'iso' },
        }),
      ),
      links: [],
    });
    expect(hasErrors(checkGatewayConfig(at(MAX_GATEWAY_NODES)))).toBe(false);
    expect(checkGatewayConfig(at(MAX_GATEWAY_NODES + 1))).toEqual([
      { severity: 'error', node: null, field: 'nodes', key: 'maxNodes', params: { max: 64 } },
    ]);
    expect(messageFor('maxNodes', 'en')).toBe('You have reached the maximum number of nodes created!');
    expect(checkGatewayConfig(at(10_000))).toHaveLength(1);
  });
});

describe('links: the table, drawn and saved alike', () => {
  it('refuses a link the table does not allow, naming what the source may feed', () => {
    expect(problems((c) => c.links.push({ from: 'element1', to: 'com1' }))).toEqual([
      {
        severity: 'error',
        node: 'element1',
        field: 'links',
        key: 'linkOutElement',
        params: { from: 'Voltage', to: 'COM1' },
      },
    ]);
    expect(problems((c) => c.links.push({ from: 'network1', to: 'publish1' }))).toMatchObject([
      { node: 'network1', key: 'linkOutNetwork' },
    ]);
    expect(problems((c) => c.links.push({ from: 'publish1', to: 'http1' }))).toMatchObject([
      { node: 'publish1', key: 'linkOutSink' },
    ]);
  });

  it('self, duplicate, dangling and raw/JSON mismatches', () => {
    expect(problems((c) => c.links.push({ from: 'delay1', to: 'delay1' }))).toMatchObject([
      { key: 'linkSelf' },
    ]);
    expect(problems((c) => c.links.push({ from: 'com1', to: 'parser1' }))).toMatchObject([
      { key: 'linkDuplicate' },
    ]);
    expect(problems((c) => c.links.push({ from: 'com1', to: 'gone' }))).toEqual([
      {
        severity: 'error',
        node: 'com1',
        field: 'links',
        key: 'configLinkUnknownNode',
        params: { id: 'gone' },
      },
    ]);
    expect(problems((c) => c.links.push({ from: 'com1', to: 'publish1' }))).toMatchObject([
      { node: 'com1', key: 'linkPublishNeedsRaw' },
    ]);
    expect(problems((c) => c.links.push({ from: 'time1', to: 'raw1' }))).toMatchObject([
      { node: 'time1', key: 'linkPublishNeedsJson' },
    ]);
  });

  it('one way out for packets, commands and delays; one way in for parsers and elements', () => {
    expect(problems((c) => c.links.push({ from: 'packet1', to: 'com2' }))).toMatchObject([
      { node: 'packet1', key: 'linkOneOutput' },
    ]);
    expect(
      problems((c) => {
        c.nodes.push({ id: 'parser2', type: 'serialParser', name: 'P2', settings: { packetId: 7 } });
        c.links.push({ from: 'com1', to: 'parser2' }, { from: 'parser2', to: 'element1' });
      }),
    ).toContainEqual(expect.objectContaining({ node: 'parser2', key: 'linkOneInput' }));
  });

  it('a passthrough links only to its own port, both ways', () => {
    expect(problems((c) => c.links.push({ from: 'com2', to: 'passthrough1' }))).toEqual([]);
    expect(problems((c) => c.links.push({ from: 'passthrough1', to: 'com1' }))).toMatchObject([
      { key: 'linkPassthroughPort' },
    ]);
  });

  it(`at most ${MAX_GATEWAY_LINKS} links`, () => {
    const links = Array.from({ length: MAX_GATEWAY_LINKS + 1 }, () => ({ from: 'a', to: 'b' }));
    expect(
      problems((c) => {
        c.links = links;
      }),
    ).toContainEqual({
      severity: 'error',
      node: null,
      field: 'links',
      key: 'configTooManyLinks',
      params: { max: MAX_GATEWAY_LINKS },
    });
  });
});

describe('the graph: what must reach what', () => {
  it('a packet must reach a COM port, directly or through delays', () => {
    expect(problems(unlink('packet1', 'com1'))).toEqual([
      { severity: 'error', node: 'packet1', field: 'links', key: 'configPacketNoPort' },
      // the parser's packet is no longer sent on COM1
      {
        severity: 'error',
        node: 'parser1',
        field: 'packetId',
        key: 'configParserNoPacket',
        params: { id: 7 },
      },
    ]);
    expect(problems(unlink('delay1', 'com1'))).toEqual([
      { severity: 'error', node: 'packet2', field: 'links', key: 'configPacketNoPort' },
      { severity: 'warning', node: 'delay1', field: 'links', key: 'configDelayDangling' },
    ]);
  });

  it('delays in a loop are named in order', () => {
    expect(
      problems((c) => {
        c.nodes.push({ id: 'delay2', type: 'delay', name: 'D2', settings: { ms: 10 } });
        c.links = c.links.filter((l) => l.from !== 'delay1');
        c.links.push({ from: 'delay1', to: 'delay2' }, { from: 'delay2', to: 'delay1' });
      }),
    ).toEqual([
      { severity: 'error', node: 'packet2', field: 'links', key: 'configPacketNoPort' },
      {
        severity: 'error',
        node: 'delay1',
        field: 'links',
        key: 'configCycle',
        params: { nodes: 'Settle → D2' },
      },
    ]);
  });

  it('a parser needs a port and the packet it parses sent on that port, once', () => {
    expect(problems(unlink('com1', 'parser1'))).toMatchObject([
      { node: 'parser1', key: 'configParserNoPort' },
    ]);
    expect(problems(set('parser1', 'packetId', 8))).toEqual([
      {
        severity: 'error',
        node: 'parser1',
        field: 'packetId',
        key: 'configPacketNoParser',
        params: { id: 8 },
      },
      // and the element's value is no value of a package without parsing: not claimed twice
    ]);
    expect(problems(set('parser1', 'packetId', 9))).toEqual([
      {
        severity: 'error',
        node: 'parser1',
        field: 'packetId',
        key: 'configParserNoPacket',
        params: { id: 9 },
      },
      {
        severity: 'error',
        node: 'parser1',
        field: 'packetId',
        key: 'configPacketUnknown',
        params: { id: 9 },
      },
    ]);
    expect(
      problems((c) => {
        c.nodes.push({ id: 'parser2', type: 'serialParser', name: 'P2', settings: { packetId: 7 } });
        c.links.push({ from: 'com1', to: 'parser2' });
      }),
    ).toEqual([
      { severity: 'error', node: 'parser2', field: 'packetId', key: 'configParserTwice', params: { id: 7 } },
    ]);
  });

  it('an element needs its parser; publish and HTTP nodes need an input', () => {
    expect(problems(unlink('parser1', 'element1'))).toEqual([
      { severity: 'error', node: 'element1', field: 'links', key: 'configElementNoParser' },
    ]);
    expect(problems(unlink('com1', 'raw1'))).toEqual([
      { severity: 'error', node: 'raw1', field: 'links', key: 'configSinkNoInput' },
    ]);
    expect(problems(unlink('element1', 'http1'))).toEqual([
      { severity: 'error', node: 'http1', field: 'links', key: 'configSinkNoInput' },
    ]);
  });

  it('warns, without blocking a push, about nodes that do nothing', () => {
    const list = problems((c) => {
      c.links = c.links.filter((l) => l.from !== 'time1' && l.from !== 'subscribe1');
    });
    expect(list).toEqual([
      { severity: 'warning', node: 'time1', field: 'links', key: 'configNodeUnused' },
      { severity: 'warning', node: 'subscribe1', field: 'links', key: 'configNodeUnused' },
      { severity: 'warning', node: 'command1', field: 'links', key: 'configCommandNoTrigger' },
    ]);
    expect(hasErrors(checkGatewayConfig({ nodes: [], links: [] }))).toBe(false);
    expect(checkGatewayConfig({ nodes: [], links: [] })).toMatchObject([
      { key: 'configEmpty', severity: 'warning' },
    ]);
    const com3 = { ...fullConfig().nodes[1]!, id: 'com3', name: 'COM3' };
    expect(
      problems((c) => {
        c.nodes.push({ ...com3, settings: { ...com3.settings, port: 3 } });
      }),
    ).toEqual([{ severity: 'warning', node: 'com3', field: null, key: 'configPortIdle' }]);
    // a port used only for passthrough, or answering as a server, is not idle
    expect(
      problems((c) => {
        c.nodes.push({ ...com3, settings: { ...com3.settings, port: 3, role: 'server' } });
      }),
    ).toEqual([]);
  });

  it('lists problems configuration-first, then in the order of the nodes', () => {
    const list = checkGatewayConfig({
      nodes: [
        { id: 'b', type: 'delay', name: 'B', settings: {} },
        { id: 'a', type: 'com', name: 'A', settings: {} },
      ],
      links: [{ from: 'x', to: 'y' }],
    });
    const nodesInOrder = list.map((p) => p.node).filter((n, i, all) => all.indexOf(n) === i);
    expect(nodesInOrder).toEqual([null, 'b', 'a']);
  });
});

describe('hostile shapes', () => {
  it('names the problem instead of throwing', () => {
    expect(checkGatewayConfig(null)).toEqual([
      { severity: 'error', node: null, field: 'nodes', key: 'configShapeInvalid' },
    ]);
    expect(checkGatewayConfig({ nodes: 'x' })).toMatchObject([{ key: 'configShapeInvalid' }]);
    expect(checkGatewayConfig({ nodes: [], links: 3 })).toContainEqual(
      expect.objectContaining({ field: 'links', key: 'configShapeInvalid' }),
    );
    expect(checkGatewayConfig({ nodes: [7, null], links: [] })).toMatchObject([
      { node: '#1', key: 'configShapeInvalid' },
      { node: '#2', key: 'configShapeInvalid' },
    ]);
    const proto = JSON.parse('{"id":"c","type":"com","name":"C","settings":{"__proto__":{"port":1}}}');
    expect(checkGatewayConfig({ nodes: [proto], links: [] })).toContainEqual(
      expect.objectContaining({ field: 'port', key: 'configRequired' }),
    );
  });
});

describe('templates', () => {
  it('the Modbus meter on COM1 passes once its package and values are chosen', () => {
    const config = configTemplate('modbusMeter', {
      lang: 'en',
      packetId: 7,
      values: [
        { name: 'voltage', itemId: 5, fieldKey: 'f1' },
        { name: 'current', itemId: 5, fieldKey: 'f2' },
      ],
    });
    expect(checkGatewayConfig(config, FULL_LOOKUPS)).toEqual([]);
    expect(config.nodes.map((n) => n.type)).toEqual([
      'serialPacket',
      'com',
      'serialParser',
      'element',
      'element',
      'timestamp',
      'mqttPublish',
    ]);
  });

  it('as it opens, only the choices left to the person are asked for', () => {
    const keys = checkGatewayConfig(configTemplate('modbusMeter')).map(
      (p) => `${p.node}.${p.field}:${p.key}`,
    );
    expect(keys).toEqual([
      'packet1.packetId:configRequired',
      'parser1.packetId:configRequired',
      'element1.settings.name:configRequired',
      'element1.itemId:configRequired',
      'element1.fieldKey:configRequired',
    ]);
  });

  it('every template has unique ids and names and links the table allows', () => {
    for (const id of CONFIG_TEMPLATE_IDS) {
      for (const lang of ['zh', 'en'] as const) {
        const list = checkGatewayConfig(configTemplate(id, { lang, packetId: 8 }), FULL_LOOKUPS);
        expect(
          list.filter((p) => p.field === 'links' || p.field === 'name' || p.field === 'id'),
          `${id} ${lang}`,
        ).toEqual([]);
      }
    }
    expect(checkGatewayConfig(configTemplate('dtu', { packetId: 8 }), FULL_LOOKUPS)).toEqual([]);
    expect(checkGatewayConfig(configTemplate('remoteCommand'), FULL_LOOKUPS)).toEqual([]);
  });
});
