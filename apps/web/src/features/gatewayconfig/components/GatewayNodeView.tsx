import { CloseCircleFilled, ExclamationCircleFilled } from '@ant-design/icons';
import type { GatewayNode } from '@platform/domain';
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { givesOutput, takesInput } from '../model';
import { NODE_COLORS, NODE_ICONS } from './nodeIcons';

export type FlowNodeData = { node: GatewayNode };
export type FlowNode = Node<FlowNodeData, 'gateway'>;

/** Errors and warnings of each node id, from the live check: drawn as a badge on the node. */
export const NodeProblemsContext = createContext<ReadonlyMap<string, { errors: number; warnings: number }>>(
  new Map(),
);

/** One node on the canvas: its icon, name and type; an input on the left and an output on the right where the link table allows. */
export function GatewayNodeView({ data, selected }: NodeProps<FlowNode>) {
  const { t } = useTranslation('gatewayconfig');
  const node = data.node;
  const Icon = NODE_ICONS[node.type];
  const color = NODE_COLORS[node.type];
  const problems = useContext(NodeProblemsContext).get(node.id);
  return (
    <div
      className={`gc-node${selected ? ' gc-node-selected' : ''}${problems?.errors ? ' gc-node-error' : ''}`}
      style={{ borderLeftColor: color }}
      data-testid={`gc-node-${node.id}`}
      data-node-type={node.type}
    >
      {takesInput(node.type) && <Handle type="target" position={Position.Left} className="gc-handle" />}
      <span className="gc-node-icon" style={{ color }}>
        <Icon />
      </span>
      <span className="gc-node-text">
        <span className="gc-node-name" title={node.name}>
          {node.name || node.id}
        </span>
        <span className="gc-node-type">{t(`types.${node.type}`)}</span>
      </span>
      {problems?.errors ? (
        <CloseCircleFilled className="gc-node-badge gc-badge-error" aria-label="error" />
      ) : problems?.warnings ? (
        <ExclamationCircleFilled className="gc-node-badge gc-badge-warning" aria-label="warning" />
      ) : null}
      {givesOutput(node.type) && <Handle type="source" position={Position.Right} className="gc-handle" />}
    </div>
  );
}
