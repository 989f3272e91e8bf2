/**
 * The editor's model: a gateway configuration (packages/domain devices/config-types.ts) and
 * the small pure helpers the canvas needs: new nodes with sensible settings, ids, names, which
 * sides of a node take links. The configuration itself stays the one source of truth; React
 * Flow's nodes and edges are drawn from it.
 */
import {
  canonicalConfigText,
  type GatewayConfig,
  type GatewayNode,
  type GatewayNodeType,
  LINK_RULES,
  NAME_MAX_LENGTH,
} from '@platform/domain';

/** Short id prefixes: `com1`, `packet2`… (ids are what problems and the gateway name). */
const ID_PREFIX: Record<GatewayNodeType, string> = {
  com: 'com',
  serialPacket: 'packet',
  serialParser: 'parser',
  network: 'network',
  mqttPublish: 'publish',
  mqttSubscribe: 'subscribe',
  httpRequest: 'http',
  delay: 'delay',
  command: 'command',
  element: 'element',
  passthrough: 'passthrough',
  timestamp: 'time',
};

/** Whether some type may feed this one: the node gets an input handle. */
export function takesInput(type: GatewayNodeType): boolean {
  return Object.values(LINK_RULES).some((targets) => targets.includes(type));
}

/** Whether this type may feed another: the node gets an output handle. */
export function givesOutput(type: GatewayNodeType): boolean {
  return LINK_RULES[type].length > 0;
}

function comPorts(config: GatewayConfig): number[] {
  return config.nodes.flatMap((n) =>
    n.type === 'com' && typeof n.settings.port === 'number' ? [n.settings.port] : [],
  );
}

/** Settings a new node starts with: valid where a sensible value exists, empty where the person must choose. */
export function defaultSettings(type: GatewayNodeType, config: GatewayConfig): GatewayNode['settings'] {
  const ports = comPorts(config);
  switch (type) {
    case 'com': {
      let port = 1;
      while (ports.includes(port)) port++;
      return {
        port,
        baudRate: 9600,
        dataBits: 8,
        stopBits: 1,
        parity: 0,
        role: 'client',
        answerTimeoutMs: 1000,
      };
    }
    case 'serialPacket':
      return { samplingId: 1 } as GatewayNode['settings'];
    case 'serialParser':
      return {} as GatewayNode['settings'];
    case 'network':
      return { mode: 'dhcp' };
    case 'mqttPublish':
      return { target: 'platform', qos: 1, format: 'json' };
    case 'mqttSubscribe':
      return { target: 'platform', qos: 1 };
    case 'httpRequest':
      return { method: 'POST', url: '', intervalS: 60 };
    case 'delay':
      return { ms: 100 };
    case 'command':
      return { name: '', encoding: 'HEX', payload: '' };
    case 'element':
      return {} as GatewayNode['settings'];
    case 'passthrough':
      return { port: ports[0] ?? 1, idleTimeoutS: 300 };
    case 'timestamp':
      return { format: 'epochMs' };
  }
}

/** The first free id of the type's prefix. */
export function nextId(type: GatewayNodeType, config: GatewayConfig): string {
  const taken = new Set(config.nodes.map((n) => n.id));
  let i = 1;
  while (taken.has(`${ID_PREFIX[type]}${i}`)) i++;
  return `${ID_PREFIX[type]}${i}`;
}

/** `COM2` for a COM on port 2, otherwise the type's name and the first free number. */
export function nextName(
  type: GatewayNodeType,
  typeName: string,
  settings: GatewayNode['settings'],
  config: GatewayConfig,
): string {
  const taken = new Set(config.nodes.map((n) => n.name.trim()));
  if (type === 'com' && 'port' in settings && !taken.has(`COM${settings.port}`)) return `COM${settings.port}`;
  const base = [...typeName].slice(0, NAME_MAX_LENGTH - 3).join('');
  let i = 1;
  while (taken.has(`${base}${i}`)) i++;
  return `${base}${i}`;
}

/** A new node of `type` at `position`. */
export function newNode(
  type: GatewayNodeType,
  typeName: string,
  config: GatewayConfig,
  position: { x: number; y: number },
): GatewayNode {
  const settings = defaultSettings(type, config);
  return {
    id: nextId(type, config),
    type,
    name: nextName(type, typeName, settings, config),
    settings,
    position,
  } as GatewayNode;
}

/** A free spot for a node added without dragging: below the lowest node. */
export function freeSpot(config: GatewayConfig): { x: number; y: number } {
  if (config.nodes.length === 0) return { x: 40, y: 40 };
  const lowest = Math.max(...config.nodes.map((n) => n.position?.y ?? 0));
  const column = config.nodes.length % 4;
  return { x: 40 + column * 220, y: lowest + (column === 0 ? 110 : 0) };
}

export function withNode(config: GatewayConfig, node: GatewayNode): GatewayConfig {
  return { ...config, nodes: [...config.nodes, node] };
}

/** The configuration without the node and its links. */
export function withoutNode(config: GatewayConfig, id: string): GatewayConfig {
  return {
    nodes: config.nodes.filter((n) => n.id !== id),
    links: config.links.filter((l) => l.from !== id && l.to !== id),
  };
}

export function replaceNode(config: GatewayConfig, id: string, next: GatewayNode): GatewayConfig {
  const nodes = config.nodes.map((n) => (n.id === id ? next : n));
  // a renamed id keeps its links
  const links =
    next.id === id
      ? config.links
      : config.links.map((l) => ({
          from: l.from === id ? next.id : l.from,
          to: l.to === id ? next.id : l.to,
        }));
  return { nodes, links };
}

/** Whether two configurations do the same on a gateway (positions and order aside). */
export function sameContent(a: GatewayConfig, b: GatewayConfig): boolean {
  return canonicalConfigText(a) === canonicalConfigText(b);
}

/** Whether anything the person sees changed, positions included (what a save would keep). */
export function samePicture(a: GatewayConfig, b: GatewayConfig): boolean {
  if (!sameContent(a, b)) return false;
  const where = (c: GatewayConfig) =>
    JSON.stringify(
      c.nodes
        .map((n) => [n.id, Math.round(n.position?.x ?? 0), Math.round(n.position?.y ?? 0)])
        .sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
  return where(a) === where(b);
}
