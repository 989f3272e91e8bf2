/**
 * The configuration check, as a compiler checks a program (docs/gateway-config.md, "The
 * check"): it reads whatever JSON it is given, never throws, and reports every problem it
 * finds, each naming the node and the field, with a catalogue key (zh and en). Errors stop a
 * push ("The configuration failed the check…"); warnings point at something that does nothing
 * and do not.
 *
 * Passes, in order: the shape and the node maximum (beyond it nothing else is read), each
 * node (id, type, name, settings), the links (the table of config-links.ts), the graph (what
 * must reach what), and the references to the company's data packages, items and fields,
 * looked up through what the caller passes (the server gives the company's; the editor may
 * give none, and those checks are then left to the server).
 */
import type { ErrorKey } from '../errors';
import { checkName } from '../validation';
import { isNodeType, type LinkEnd, linkRefusal } from './config-links';
import { checkNodeSettings } from './config-settings';
import type { GatewayNodeType } from './config-types';

/** Nodes one configuration may hold (seed point 5: "You have reached the maximum number of nodes created!"). */
export const MAX_GATEWAY_NODES = 64;
/** Links one configuration may hold: four per node. */
export const MAX_GATEWAY_LINKS = MAX_GATEWAY_NODES * 4;
/** Node ids: a letter, then letters, digits, `_` or `-`, 32 characters at most. */
export const NODE_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

export type ProblemSeverity = 'error' | 'warning';

export interface ConfigProblem {
  severity: ProblemSeverity;
  /** the node's id (as written, even when invalid); null for the configuration as a whole */
  node: string | null;
  /** a settings key, or `id`, `type`, `name`, `links`; null for the node as a whole */
  field: string | null;
  key: ErrorKey;
  params?: Record<string, string | number>;
  /** the link a link problem is about */
  link?: { from: string; to: string };
}

/** What the check may ask about the company's data: absent lookups skip those checks. */
export interface ConfigLookups {
  /** the data package with this id: null when the company has none; `parserValues` null when it has no parsing */
  packet?(id: number): { parserValues: readonly string[] | null } | null;
  /** whether the company's IoT data item (kind 13) has this field */
  field?(itemId: number, fieldKey: string): boolean;
}

interface Node {
  index: number;
  id: string;
  type: GatewayNodeType;
  name: string;
  /**
   * the settings that passed their own rules: the later passes read only these, so a field
   * already reported is not reported again through what depends on it
   */
  settings: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const label = (v: unknown, index: number): string =>
  typeof v === 'string' && v !== '' ? v.slice(0, 64) : `#${index + 1}`;

export function hasErrors(problems: readonly ConfigProblem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}

/** Every problem of a configuration; an empty list means it may be pushed. */
export function checkGatewayConfig(input: unknown, lookups: ConfigLookups = {}): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const error = (
    node: string | null,
    field: string | null,
    key: ErrorKey,
    params?: ConfigProblem['params'],
  ) => problems.push({ severity: 'error', node, field, key, ...(params ? { params } : {}) });
  const warn = (node: string | null, field: string | null, key: ErrorKey, params?: ConfigProblem['params']) =>
    problems.push({ severity: 'warning', node, field, key, ...(params ? { params } : {}) });

  if (!isObject(input) || !Array.isArray(input.nodes)) {
    error(null, 'nodes', 'configShapeInvalid');
    return problems;
  }
  const rawNodes: unknown[] = input.nodes;
  const rawLinks: unknown[] = Array.isArray(input.links) ? input.links : [];
  if (input.links !== undefined && !Array.isArray(input.links)) error(null, 'links', 'configShapeInvalid');
  if (rawNodes.length > MAX_GATEWAY_NODES) {
    error(null, 'nodes', 'maxNodes', { max: MAX_GATEWAY_NODES });
    return problems;
  }
  if (rawNodes.length === 0) warn(null, 'nodes', 'configEmpty');

  // pass 1: each node on its own
  const nodes: Node[] = [];
  const byId = new Map<string, Node>();
  const names = new Set<string>();
  for (const [index, raw] of rawNodes.entries()) {
    if (!isObject(raw)) {
      error(`#${index + 1}`, null, 'configShapeInvalid');
      continue;
    }
    const ref = label(raw.id, index);
    let idOk = typeof raw.id === 'string' && NODE_ID_PATTERN.test(raw.id);
    if (!idOk) error(ref, 'id', 'configNodeIdInvalid');
    else if (byId.has(raw.id as string)) {
      error(ref, 'id', 'configNodeIdTaken', { id: ref });
      idOk = false;
    }
    if (!isNodeType(raw.type)) {
      error(ref, 'type', 'configNodeTypeUnknown');
      continue;
    }
    const name = typeof raw.name === 'string' ? raw.name.trim() : '';
    const nameKey = checkName(name);
    if (nameKey) error(ref, 'name', nameKey);
    else if (names.has(name)) error(ref, 'name', 'configNodeNameTaken', { name });
    else names.add(name);
    const settings: Record<string, unknown> = isObject(raw.settings) ? { ...raw.settings } : {};
    for (const p of checkNodeSettings(raw.type, raw.settings)) {
      error(ref, settingField(p.field), p.key, p.params);
      delete settings[p.field];
    }
    const node: Node = { index, id: ref, type: raw.type, name: name || ref, settings };
    nodes.push(node);
    if (idOk) byId.set(ref, node);
  }

  const ofType = (type: GatewayNodeType) => nodes.filter((n) => n.type === type);
  const intSetting = (n: Node, key: string): number | null => {
    const v = n.settings[key];
    return typeof v === 'number' && Number.isInteger(v) ? v : null;
  };

  // ports: one COM node per port, passthrough on a port that exists, once per port
  const comByPort = new Map<number, Node>();
  for (const com of ofType('com')) {
    const port = intSetting(com, 'port');
    if (port == null) continue;
    if (comByPort.has(port)) {
      error(com.id, 'port', 'configPortTaken', { port });
      delete com.settings.port;
    } else comByPort.set(port, com);
  }
  const passthroughPorts = new Set<number>();
  for (const pt of ofType('passthrough')) {
    const port = intSetting(pt, 'port');
    if (port == null) continue;
    if (!comByPort.has(port)) error(pt.id, 'port', 'configPortMissing', { port });
    if (passthroughPorts.has(port)) error(pt.id, 'port', 'configPassthroughPortTaken', { port });
    passthroughPorts.add(port);
  }
  for (const extra of ofType('network').slice(1)) error(extra.id, null, 'configNetworkTwice');

  // pass 2: links
  if (rawLinks.length > MAX_GATEWAY_LINKS) {
    error(null, 'links', 'configTooManyLinks', { max: MAX_GATEWAY_LINKS });
    return sorted(problems, nodes);
  }
  const links: Array<{ from: Node; to: Node }> = [];
  const drawn: Array<{ from: string; to: string }> = [];
  for (const raw of rawLinks) {
    const from = isObject(raw) && typeof raw.from === 'string' ? byId.get(raw.from) : undefined;
    const to = isObject(raw) && typeof raw.to === 'string' ? byId.get(raw.to) : undefined;
    if (!from || !to) {
      const missing = isObject(raw) ? String((from ? raw.to : raw.from) ?? '').slice(0, 64) : '';
      problems.push({
        severity: 'error',
        node: from?.id ?? to?.id ?? null,
        field: 'links',
        key: 'configLinkUnknownNode',
        params: { id: missing },
      });
      continue;
    }
    const refusal = linkRefusal(end(from), end(to), drawn);
    drawn.push({ from: from.id, to: to.id });
    if (refusal) {
      problems.push({
        severity: 'error',
        node: from.id,
        field: 'links',
        key: refusal.key,
        params: { ...refusal.params, from: from.name, to: to.name },
        link: { from: from.id, to: to.id },
      });
      continue;
    }
    links.push({ from, to });
  }

  // pass 3: the graph, over the links the table allows
  const outOf = (n: Node) => links.filter((l) => l.from === n).map((l) => l.to);
  const into = (n: Node) => links.filter((l) => l.to === n).map((l) => l.from);

  /** the COM port a packet or command reaches through its delays, or null (a loop of delays, a dead end) */
  const portReached = (start: Node): Node | null => {
    const seen = new Set<Node>();
    let at: Node | undefined = start;
    while (at && !seen.has(at)) {
      seen.add(at);
      if (at.type === 'com') return at;
      at = outOf(at)[0];
    }
    return null;
  };

  const cycle = delayLoop(ofType('delay'), outOf);
  if (cycle) {
    error(cycle[0]!.id, 'links', 'configCycle', { nodes: cycle.map((n) => n.name).join(' → ') });
  }

  // which data packages are sent on which port; a port with a packet of no valid package id
  // cannot be judged by its parsers
  const sentOn = new Map<Node, Set<number>>();
  const packetsOn = new Set<Node>();
  const unsure = new Set<Node>();
  for (const packet of ofType('serialPacket')) {
    const com = portReached(packet);
    if (!com) {
      error(packet.id, 'links', 'configPacketNoPort');
      continue;
    }
    packetsOn.add(com);
    if (com.settings.role === 'server')
      error(packet.id, 'links', 'configPortRoleServer', { port: portOf(com) });
    const packetId = intSetting(packet, 'packetId');
    if (packetId != null) sentOn.set(com, (sentOn.get(com) ?? new Set()).add(packetId));
    else unsure.add(com);
  }
  const commandNames = new Set<string>();
  for (const command of ofType('command')) {
    const name = command.settings.name;
    if (typeof name === 'string') {
      if (commandNames.has(name)) error(command.id, settingField('name'), 'configCommandNameTaken', { name });
      commandNames.add(name);
    }
    if (!portReached(command)) error(command.id, 'links', 'configCommandNoPort');
    if (!into(command).some((n) => n.type === 'mqttSubscribe'))
      warn(command.id, 'links', 'configCommandNoTrigger');
  }
  for (const delay of ofType('delay')) {
    if (into(delay).length === 0 || outOf(delay).length === 0) warn(delay.id, 'links', 'configDelayDangling');
  }

  const parsed = new Map<Node, number>();
  const parsersOnPort = new Set<string>();
  for (const parser of ofType('serialParser')) {
    const com = into(parser).find((n) => n.type === 'com');
    const packetId = intSetting(parser, 'packetId');
    if (!com) {
      error(parser.id, 'links', 'configParserNoPort');
    } else if (packetId != null) {
      if (!sentOn.get(com)?.has(packetId) && !unsure.has(com)) {
        error(parser.id, 'packetId', 'configParserNoPacket', { id: packetId });
      }
      const key = `${com.id}\u0000${packetId}`;
      if (parsersOnPort.has(key)) error(parser.id, 'packetId', 'configParserTwice', { id: packetId });
      parsersOnPort.add(key);
    }
    if (packetId != null) parsed.set(parser, packetId);
  }

  for (const element of ofType('element')) {
    const parser = into(element).find((n) => n.type === 'serialParser');
    if (!parser) error(element.id, 'links', 'configElementNoParser');
    if (outOf(element).length === 0) warn(element.id, 'links', 'configNodeUnused');
    const packetId = parser ? parsed.get(parser) : undefined;
    const valueName = element.settings.name;
    if (lookups.packet && packetId != null && typeof valueName === 'string' && valueName !== '') {
      const values = lookups.packet(packetId)?.parserValues;
      if (values && !values.includes(valueName)) {
        error(element.id, settingField('name'), 'configElementValueUnknown', {
          id: packetId,
          value: valueName,
        });
      }
    }
    const itemId = intSetting(element, 'itemId');
    const fieldKey = element.settings.fieldKey;
    if (lookups.field && itemId != null && itemId > 0 && typeof fieldKey === 'string' && fieldKey !== '') {
      if (!lookups.field(itemId, fieldKey)) {
        error(element.id, 'fieldKey', 'configItemFieldUnknown', { itemId, field: fieldKey.slice(0, 16) });
      }
    }
  }
  for (const timestamp of ofType('timestamp')) {
    if (outOf(timestamp).length === 0) warn(timestamp.id, 'links', 'configNodeUnused');
  }
  for (const subscribe of ofType('mqttSubscribe')) {
    if (outOf(subscribe).length === 0) warn(subscribe.id, 'links', 'configNodeUnused');
  }
  for (const sink of [...ofType('mqttPublish'), ...ofType('httpRequest')]) {
    if (into(sink).length === 0) error(sink.id, 'links', 'configSinkNoInput');
  }
  for (const com of ofType('com')) {
    const port = intSetting(com, 'port');
    const used =
      packetsOn.has(com) ||
      ofType('command').some((c) => portReached(c) === com) ||
      (port != null && passthroughPorts.has(port));
    if (com.settings.role === 'client' && !used) warn(com.id, null, 'configPortIdle');
  }

  // references to the company's data packages
  if (lookups.packet) {
    for (const n of [...ofType('serialPacket'), ...ofType('serialParser')]) {
      const packetId = intSetting(n, 'packetId');
      if (packetId == null || packetId < 1) continue;
      const packet = lookups.packet(packetId);
      if (!packet) error(n.id, 'packetId', 'configPacketUnknown', { id: packetId });
      else if (n.type === 'serialParser' && packet.parserValues == null) {
        error(n.id, 'packetId', 'configPacketNoParser', { id: packetId });
      }
    }
  }
  return sorted(problems, nodes);
}

/**
 * The field a settings key is reported under: the key itself, except where it is also one of
 * the node's own fields (an element's and a command's `name`): `settings.name` then.
 */
export function settingField(key: string): string {
  return key === 'id' || key === 'type' || key === 'name' ? `settings.${key}` : key;
}

function end(n: Node): LinkEnd {
  return { id: n.id, type: n.type, settings: n.settings };
}

function portOf(com: Node): number | string {
  const port = com.settings.port;
  return typeof port === 'number' ? port : '?';
}

/** A loop of delays (the only nodes that may feed their own type), as its nodes in order. */
function delayLoop(delays: Node[], outOf: (n: Node) => Node[]): Node[] | null {
  const done = new Set<Node>();
  for (const start of delays) {
    const path: Node[] = [];
    const onPath = new Set<Node>();
    let at: Node | undefined = start;
    while (at && at.type === 'delay' && !done.has(at)) {
      if (onPath.has(at)) return path.slice(path.indexOf(at));
      onPath.add(at);
      path.push(at);
      at = outOf(at)[0];
    }
    for (const n of path) done.add(n);
  }
  return null;
}

/** Configuration-wide problems first, then by the node's place in the configuration. */
function sorted(problems: ConfigProblem[], nodes: Node[]): ConfigProblem[] {
  const order = new Map<string, number>();
  for (const n of nodes) if (!order.has(n.id)) order.set(n.id, n.index);
  const rank = (p: ConfigProblem) => (p.node == null ? -1 : (order.get(p.node) ?? Number.MAX_SAFE_INTEGER));
  return problems
    .map((p, i) => ({ p, i }))
    .sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i)
    .map(({ p }) => p);
}
