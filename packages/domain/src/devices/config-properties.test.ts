import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../errors';
import { canonicalConfig, canonicalConfigText, withFrames, withoutFrames } from './config-canonical';
import { checkGatewayConfig, hasErrors } from './config-check';
import { FULL_LOOKUPS, fullConfig } from './config-fixtures';
import { LINK_RULES, linkRefusal } from './config-links';
import { GATEWAY_NODE_TYPES, type GatewayConfig, type GatewayNodeType } from './config-types';

/** Values the settings of any type might hold, right or wrong. */
const settingValue = fc.oneof(
  fc.constantFrom(
    0,
    1,
    2,
    3,
    8,
    9600,
    1.5,
    100,
    1000,
    'client',
    'server',
    'json',
    'raw',
    'platform',
    'custom',
  ),
  fc.constantFrom(
    'HEX',
    'ASCII',
    'dhcp',
    'static',
    '192.168.1.2',
    '255.255.255.0',
    'f1',
    'voltage',
    'a/b',
    '#',
  ),
  fc.constantFrom('mqtt://h:1883', 'https://x.example', '01 03', null, true, '', -1, 2 ** 31, Number.NaN),
  fc.string({ maxLength: 8 }),
  fc.integer(),
);
const SETTING_KEYS = [
  'port',
  'baudRate',
  'dataBits',
  'stopBits',
  'parity',
  'role',
  'answerTimeoutMs',
  'packetId',
  'samplingId',
  'frame',
  'mode',
  'ip',
  'netmask',
  'gateway',
  'target',
  'url',
  'topic',
  'qos',
  'format',
  'method',
  'intervalS',
  'ms',
  'encoding',
  'payload',
  'name',
  'itemId',
  'fieldKey',
  'idleTimeoutS',
];

/** Random graphs of 0-20 nodes with plausible and implausible settings and random links. */
const graph = fc
  .array(
    fc.record({
      type: fc.oneof(fc.constantFrom(...GATEWAY_NODE_TYPES), fc.constant('bogus')),
      name: fc.oneof(fc.constantFrom('A', 'B', 'C', ''), fc.string({ maxLength: 30 })),
      settings: fc.dictionary(fc.constantFrom(...SETTING_KEYS), settingValue, { maxKeys: 8 }),
      position: fc.record({ x: fc.integer(), y: fc.integer() }),
    }),
    { maxLength: 20 },
  )
  .chain((nodes) => {
    const ids = nodes.map((_, i) => `n${i}`);
    const id = ids.length ? fc.oneof(fc.constantFrom(...ids), fc.constant('ghost')) : fc.constant('ghost');
    return fc.record({
      nodes: fc.constant(nodes.map((n, i) => ({ id: ids[i]!, ...n }))),
      links: fc.array(fc.record({ from: id, to: id }), { maxLength: 40 }),
    });
  });

const lookups = fc.constantFrom(FULL_LOOKUPS, {});

describe('the check on random input', () => {
  it('never throws on any JSON, and every problem has a catalogue key', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        for (const p of checkGatewayConfig(input, FULL_LOOKUPS)) expect(CATALOGUE[p.key]).toBeDefined();
        for (const p of checkGatewayConfig({ nodes: [input], links: [input] })) {
          expect(CATALOGUE[p.key]).toBeDefined();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('random graphs: never throws, problems name nodes of the graph, keys exist in both languages', () => {
    fc.assert(
      fc.property(graph, lookups, (config, lk) => {
        const problems = checkGatewayConfig(config, lk);
        const ids = new Set(config.nodes.map((n) => n.id));
        for (const p of problems) {
          expect(CATALOGUE[p.key].en.length).toBeGreaterThan(0);
          expect(['error', 'warning']).toContain(p.severity);
          if (p.node != null) expect(ids.has(p.node) || /^#\d+$/.test(p.node)).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a link the editor refuses as it is drawn is a problem of the saved configuration', () => {
    fc.assert(
      fc.property(graph, (config) => {
        const problems = checkGatewayConfig(config);
        const types = new Map(config.nodes.map((n) => [n.id, n.type]));
        const drawn: Array<{ from: string; to: string }> = [];
        for (const link of config.links) {
          const from = types.get(link.from);
          const to = types.get(link.to);
          if (!from || !to || from === 'bogus' || to === 'bogus') continue;
          const settingsOf = (id: string) => config.nodes.find((n) => n.id === id)!.settings;
          const refusal = linkRefusal(
            { id: link.from, type: from as GatewayNodeType, settings: settingsOf(link.from) },
            { id: link.to, type: to as GatewayNodeType, settings: settingsOf(link.to) },
            drawn,
          );
          drawn.push(link);
          // only refusals that do not depend on a setting the check found wrong first
          if (
            refusal &&
            !['linkPassthroughPort', 'linkPublishNeedsRaw', 'linkPublishNeedsJson'].includes(refusal.key)
          ) {
            expect(problems.some((p) => p.key === refusal.key && p.node === link.from)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the table is what linkRefusal applies: a type absent from a row is refused with that row’s sentence', () => {
    for (const from of GATEWAY_NODE_TYPES) {
      for (const to of GATEWAY_NODE_TYPES) {
        const refusal = linkRefusal(
          { id: 'a', type: from, settings: { format: from === 'com' ? 'raw' : 'json', port: 1 } },
          { id: 'b', type: to, settings: { format: from === 'com' ? 'raw' : 'json', port: 1 } },
          [],
        );
        expect(refusal === null, `${from} → ${to}`).toBe(LINK_RULES[from].includes(to));
      }
    }
  });
});

describe('the canonical form and the hash', () => {
  const shuffled = <T>(list: T[], seed: number[]) =>
    list
      .map((v, i) => ({ v, k: seed[i % seed.length]! + i / 1000 }))
      .sort((a, b) => a.k - b.k)
      .map(({ v }) => v);

  it('ignores positions, the order of nodes, links and keys', () => {
    fc.assert(
      fc.property(
        graph,
        fc.array(fc.integer(), { minLength: 1, maxLength: 10 }),
        fc.array(fc.record({ x: fc.double(), y: fc.double() }), { minLength: 1 }),
        (config, seed, positions) => {
          const moved = {
            nodes: shuffled(config.nodes, seed).map((n, i) => ({
              settings: Object.fromEntries(Object.entries(n.settings).reverse()),
              position: positions[i % positions.length],
              name: n.name,
              type: n.type,
              id: n.id,
            })),
            links: shuffled(config.links, seed.reverse()),
          };
          expect(canonicalConfigText(moved)).toBe(canonicalConfigText(config));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('changes when anything a gateway does changes', () => {
    const base = canonicalConfigText(fullConfig());
    const changed = fullConfig();
    (changed.nodes[1]!.settings as { baudRate: number }).baudRate = 19200;
    expect(canonicalConfigText(changed)).not.toBe(base);
    const renamed = fullConfig();
    renamed.nodes[0]!.name = 'WAN';
    expect(canonicalConfigText(renamed)).not.toBe(base);
    const relinked = fullConfig();
    relinked.links.pop();
    expect(canonicalConfigText(relinked)).not.toBe(base);
  });

  it('is a fixed point and drops editor data', () => {
    fc.assert(
      fc.property(fc.oneof(graph, fc.jsonValue()), (config) => {
        const text = canonicalConfigText(config);
        expect(canonicalConfigText(JSON.parse(text))).toBe(text);
        expect(text).not.toContain('"position"');
      }),
      { numRuns: 300 },
    );
  });

  it('reads as expected on a small configuration', () => {
    const config: GatewayConfig = {
      nodes: [
        { id: 't', type: 'timestamp', name: 'T', settings: { format: 'iso' }, position: { x: 1, y: 2 } },
        {
          id: 'c',
          type: 'delay',
          name: 'D',
          settings: { ms: 10, extra: undefined } as never,
          position: { x: 3, y: 4 },
        },
      ],
      links: [
        { from: 't', to: 'c' },
        { from: 'c', to: 't' },
      ],
    };
    expect(canonicalConfigText(config)).toBe(
      '{"links":[{"from":"c","to":"t"},{"from":"t","to":"c"}],"nodes":[{"id":"c","name":"D","settings":{"ms":10},"type":"delay"},{"id":"t","name":"T","settings":{"format":"iso"},"type":"timestamp"}]}',
    );
    expect(canonicalConfig(config).nodes.map((n) => n.id)).toEqual(['c', 't']);
  });

  it('frames: filled by package id for the push, stripped for saving', () => {
    const filled = withFrames(fullConfig(), new Map([[7, '01 03 00 00 00 02 C4 0B']]));
    const packets = filled.nodes.filter((n) => n.type === 'serialPacket');
    expect(packets.map((n) => (n.settings as { frame?: string }).frame)).toEqual([
      '01 03 00 00 00 02 C4 0B',
      undefined,
    ]);
    expect(hasErrors(checkGatewayConfig(filled, FULL_LOOKUPS))).toBe(false);
    expect(canonicalConfigText(withoutFrames(filled))).toBe(canonicalConfigText(fullConfig()));
    expect(canonicalConfigText(filled)).not.toBe(canonicalConfigText(fullConfig()));
  });
});
