/**
 * The data-flow view's graph: the running configuration's nodes where the editor drew them
 * (in columns by type when it did not), its links, and the data items the device's values are
 * stored in, drawn to the right with a link from the parser or element that feeds each. Which
 * links a frame lights: from the port's packets to the port, and from the port to the parsers
 * of the frame's packet.
 */
import type { GatewayConfig, GatewayNode, GatewayNodeType } from '@platform/domain';
import type { DevicePoint } from './api';

const COLUMN: Record<GatewayNodeType, number> = {
  serialPacket: 0,
  command: 0,
  mqttSubscribe: 0,
  network: 0,
  delay: 0,
  passthrough: 0,
  com: 1,
  serialParser: 2,
  element: 3,
  timestamp: 3,
  mqttPublish: 4,
  httpRequest: 4,
};
const COLUMN_W = 260;
const ROW_H = 120;

export interface GraphNode {
  id: string;
  position: { x: number; y: number };
  node: GatewayNode | { id: string; type: 'item'; name: string; itemId: number };
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  /** to an item: drawn dashed (a binding, not a link of the configuration) */
  binding: boolean;
}

export const itemNodeId = (itemId: number) => `item:${itemId}`;

export function buildGraph(
  config: GatewayConfig,
  points: DevicePoint[],
): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const rows = new Map<number, number>();
  const placed = config.nodes.every((n) => n.position)
    ? config.nodes.map((n) => ({ id: n.id, position: n.position!, node: n }))
    : config.nodes.map((n) => {
        const column = COLUMN[n.type];
        const row = rows.get(column) ?? 0;
        rows.set(column, row + 1);
        return { id: n.id, position: { x: column * COLUMN_W, y: row * ROW_H }, node: n };
      });
  const right = Math.max(0, ...placed.map((n) => n.position.x)) + COLUMN_W + 40;
  const top = Math.min(0, ...placed.map((n) => n.position.y));
  const nodes: GraphNode[] = [...placed];
  const edges: GraphEdge[] = config.links.map((l) => ({
    id: `${l.from}->${l.to}`,
    source: l.from,
    target: l.to,
    binding: false,
  }));
  const ids = new Set(config.nodes.map((n) => n.id));
  const items = new Map<number, string>();
  for (const p of points) if (!items.has(p.itemId)) items.set(p.itemId, p.itemName);
  [...items].forEach(([itemId, name], i) => {
    nodes.push({
      id: itemNodeId(itemId),
      position: { x: right, y: top + i * ROW_H },
      node: { id: itemNodeId(itemId), type: 'item', name, itemId },
    });
  });
  const seen = new Set<string>();
  for (const p of points)
    for (const s of p.sources) {
      const id = `${s.nodeId}->${itemNodeId(p.itemId)}`;
      if (!ids.has(s.nodeId) || seen.has(id)) continue;
      seen.add(id);
      edges.push({ id, source: s.nodeId, target: itemNodeId(p.itemId), binding: true });
    }
  return { nodes, edges };
}

/** The nodes and links a frame of `packetId` on `port` passes: packets → COM → parsers. */
export function framepath(
  config: GatewayConfig,
  port: number,
  packetId: number | null,
): { nodes: Set<string>; edges: Set<string> } {
  const nodes = new Set<string>();
  const edges = new Set<string>();
  const byId = new Map(config.nodes.map((n) => [n.id, n]));
  const coms = config.nodes.filter((n) => n.type === 'com' && n.settings.port === port).map((n) => n.id);
  for (const com of coms) {
    nodes.add(com);
    for (const l of config.links) {
      const from = byId.get(l.from);
      const to = byId.get(l.to);
      if (l.to === com && from && (from.type !== 'serialPacket' || from.settings.packetId === packetId)) {
        nodes.add(from.id);
        edges.add(`${l.from}->${l.to}`);
      }
      if (l.from === com && to?.type === 'serialParser' && to.settings.packetId === packetId) {
        nodes.add(to.id);
        edges.add(`${l.from}->${l.to}`);
      }
    }
  }
  return { nodes, edges };
}
