import { DatabaseOutlined } from '@ant-design/icons';
import type { GatewayNode } from '@platform/domain';
import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { NODE_COLORS, NODE_ICONS } from '../../gatewayconfig/components/nodeIcons';
import { givesOutput, takesInput } from '../../gatewayconfig/model';
import type { FlowValue } from '../live';

export type Activity = 'idle' | 'lit' | 'bad';

export type FlowNodeData = {
  /** a node of the configuration, or a data item the device's values are stored in */
  node: GatewayNode | { id: string; type: 'item'; name: string; itemId: number };
  activity: Activity;
  /** a parser's last decoded values */
  values?: FlowValue[];
  /** a COM port's frames: decoded and refused since the counters began */
  counts?: { ok: number; bad: number };
  /** an item's records stored while watching */
  stored?: number;
};
export type FlowNode = Node<FlowNodeData, 'flow'>;

const ITEM_COLOR = '#13a8a8';

const shown = (v: FlowValue) =>
  v.value === null ? '—' : typeof v.value === 'number' ? String(Number(v.value.toPrecision(8))) : v.value;

/** A node of the data-flow view: the editor's icon and colour, lit while data passes, red for a refused frame. */
export function FlowNodeView({ data }: NodeProps<FlowNode>) {
  const { t } = useTranslation('deviceviews');
  const { t: tc } = useTranslation('gatewayconfig');
  const node = data.node;
  const isItem = node.type === 'item';
  const Icon = isItem ? DatabaseOutlined : NODE_ICONS[node.type];
  const color = isItem ? ITEM_COLOR : NODE_COLORS[node.type];
  return (
    <div
      className={`dv-node dv-node-${data.activity}`}
      style={{ borderLeftColor: color }}
      data-testid={`dv-node-${node.id}`}
      data-activity={data.activity}
    >
      {(isItem || takesInput(node.type)) && (
        <Handle type="target" position={Position.Left} className="dv-handle" />
      )}
      <div className="dv-node-head">
        <span className="dv-node-icon" style={{ color }}>
          <Icon />
        </span>
        <span className="dv-node-text">
          <span className="dv-node-name" title={node.name}>
            {node.name || node.id}
          </span>
          <span className="dv-node-type">{isItem ? t('flow.item') : tc(`types.${node.type}`)}</span>
        </span>
      </div>
      {data.counts && (
        <div className="dv-node-counts" data-testid={`dv-counts-${node.id}`}>
          <span className="dv-ok">{t('flow.ok', { count: data.counts.ok })}</span>
          <span className={data.counts.bad > 0 ? 'dv-bad' : 'dv-muted'} data-testid={`dv-bad-${node.id}`}>
            {t('flow.bad', { count: data.counts.bad })}
          </span>
        </div>
      )}
      {data.values && data.values.length > 0 && (
        <ul className="dv-node-values" data-testid={`dv-values-${node.id}`}>
          {data.values.slice(0, 6).map((v) => (
            <li key={v.name}>
              <span className="dv-value-name">{v.name}</span>
              <span className={v.error ? 'dv-bad' : 'dv-value'}>
                {v.error ? t('flow.unreadable') : shown(v)}
              </span>
            </li>
          ))}
        </ul>
      )}
      {data.stored !== undefined && data.stored > 0 && (
        <div className="dv-node-counts">
          <span className="dv-ok">{t('flow.stored', { count: data.stored })}</span>
        </div>
      )}
      {!isItem && givesOutput(node.type) && (
        <Handle type="source" position={Position.Right} className="dv-handle" />
      )}
    </div>
  );
}
