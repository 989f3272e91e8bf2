/**
 * The canonical form of a configuration: what a gateway runs, written one way only, so its
 * SHA-256 (the configuration's hash, computed by the server with node:crypto) changes exactly
 * when what the gateway does changes. Moving a node on the canvas, reordering nodes or links,
 * or the order of keys in an object changes nothing.
 *
 * - nodes keep `id`, `type`, `name` and `settings`; editor-only data (`position` and anything
 *   else) is dropped; settings lose keys whose value is undefined;
 * - nodes are ordered by id, links by `from` then `to` (code-unit order, not the locale's);
 * - object keys are sorted at every level; the text is JSON without spaces.
 *
 * It never throws, whatever it is given: nodes and links that are not objects are dropped.
 */
import type { GatewayConfig, PushedParserValue } from './config-types';
import type { ParserValue } from './parser';

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Settings are flat; deeper than this (hostile input only) is written as null instead of recursing on. */
const MAX_DEPTH = 16;

/** JSON with keys sorted at every level; undefined values and functions are left out as JSON does. */
function sortedJson(value: unknown, depth = 0): string {
  if (depth > MAX_DEPTH) return 'null';
  if (Array.isArray(value)) {
    return `[${value.map((v) => (v === undefined ? 'null' : sortedJson(v, depth + 1))).join(',')}]`;
  }
  if (isObject(value)) {
    const parts: string[] = [];
    for (const key of Object.keys(value).sort(compare)) {
      const v = value[key];
      if (v === undefined || typeof v === 'function') continue;
      parts.push(`${JSON.stringify(key)}:${sortedJson(v, depth + 1)}`);
    }
    return `{${parts.join(',')}}`;
  }
  // numbers that JSON cannot hold (NaN, Infinity) become null, as JSON.stringify writes them
  return JSON.stringify(value) ?? 'null';
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The configuration as the gateway gets it: no editor data, stable order. */
export function canonicalConfig(config: unknown): GatewayConfig {
  const source = isObject(config) ? config : {};
  const nodes = (Array.isArray(source.nodes) ? source.nodes : []).filter(isObject).map((n) => ({
    id: text(n.id),
    type: text(n.type),
    name: text(n.name),
    settings: isObject(n.settings) ? n.settings : {},
  }));
  const links = (Array.isArray(source.links) ? source.links : [])
    .filter(isObject)
    .map((l) => ({ from: text(l.from), to: text(l.to) }));
  // ties (duplicate ids, only in configurations that fail the check) fall back to the whole text
  const keyed = nodes.map((n) => ({ n, json: sortedJson(n) }));
  keyed.sort((a, b) => compare(a.n.id, b.n.id) || compare(a.json, b.json));
  links.sort((a, b) => compare(a.from, b.from) || compare(a.to, b.to));
  return { nodes: keyed.map((k) => k.n), links } as unknown as GatewayConfig;
}

/** The text whose SHA-256 is the configuration's hash. */
export function canonicalConfigText(config: unknown): string {
  return sortedJson(canonicalConfig(config));
}

/**
 * The configuration with each serial packet's `frame` set from `frames` (by packet id) and any
 * frame of a packet without one removed, and each serial parser's `values` set from `parsers`
 * (by packet id; removed when absent): what is pushed. Positions are kept (the canonical form
 * drops them).
 */
export function withFrames(
  config: GatewayConfig,
  frames: ReadonlyMap<number, string>,
  parsers: ReadonlyMap<number, readonly ParserValue[]> = new Map(),
): GatewayConfig {
  return {
    ...config,
    nodes: config.nodes.map((node) => {
      if (node.type === 'serialParser') {
        const { values: _old, ...settings } = node.settings;
        const values = parsers.get(settings.packetId);
        return {
          ...node,
          settings: values == null ? settings : { ...settings, values: values.map(pushedValue) },
        };
      }
      if (node.type !== 'serialPacket') return node;
      const { frame: _old, ...settings } = node.settings;
      const frame = frames.get(settings.packetId);
      return { ...node, settings: frame == null ? settings : { ...settings, frame } };
    }),
  };
}

/** A parsing value as a gateway gets it: how to decode it (its item and field stay on the platform). */
export function pushedValue(value: ParserValue): PushedParserValue {
  const { itemId: _item, fieldKey: _field, ...decode } = value;
  return decode;
}

/** The configuration without packet frames and parser values: what is saved (both come from the definitions when pushed). */
export function withoutFrames(config: GatewayConfig): GatewayConfig {
  return withFrames(config, new Map());
}
