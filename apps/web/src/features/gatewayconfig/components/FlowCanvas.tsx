import '@xyflow/react/dist/style.css';
import {
  type GatewayConfig,
  type GatewayNodeType,
  isNodeType,
  type Lang,
  linkRefusal,
  messageFor,
} from '@platform/domain';
import {
  Background,
  type Connection,
  Controls,
  type Edge,
  type FinalConnectionState,
  type OnEdgesChange,
  type OnNodesChange,
  ReactFlow,
  useReactFlow,
} from '@xyflow/react';
import { type DragEvent, useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { type FlowNode, GatewayNodeView } from './GatewayNodeView';
import { DRAG_TYPE } from './Palette';

const NODE_TYPES = { gateway: GatewayNodeView };

interface Props {
  nodes: FlowNode[];
  edges: Edge[];
  config: GatewayConfig;
  readOnly: boolean;
  onNodesChange: OnNodesChange<FlowNode>;
  onEdgesChange: OnEdgesChange;
  onConnect: (from: string, to: string) => void;
  /** a link the table refuses, with the reason in the person's language */
  onRefused: (reason: string) => void;
  onDropType: (type: GatewayNodeType, position: { x: number; y: number }) => void;
}

/**
 * The canvas. A link is checked against the link table while it is drawn (the handle under
 * the pointer shows whether it may be dropped there) and, when dropped where it may not go,
 * refused with the table's reason.
 */
export function FlowCanvas({
  nodes,
  edges,
  config,
  readOnly,
  onNodesChange,
  onEdgesChange,
  onConnect,
  onRefused,
  onDropType,
}: Props) {
  const { i18n } = useTranslation();
  const lang: Lang = i18n.language === 'en' ? 'en' : 'zh';
  const flow = useReactFlow();

  const refusal = useCallback(
    (from: string, to: string) => {
      const a = config.nodes.find((n) => n.id === from);
      const b = config.nodes.find((n) => n.id === to);
      if (!a || !b) return null;
      return linkRefusal(
        { id: a.id, type: a.type, settings: a.settings as never },
        { id: b.id, type: b.type, settings: b.settings as never },
        config.links,
      );
    },
    [config],
  );

  const isValidConnection = useCallback(
    (c: Edge | Connection) => refusal(c.source, c.target) === null,
    [refusal],
  );

  const connectEnd = useCallback(
    (_event: MouseEvent | TouchEvent, state: FinalConnectionState) => {
      if (state.isValid !== false || !state.fromNode || !state.toNode) return;
      // the link as it would run: from the output side to the input side
      const [from, to] =
        state.fromHandle?.type === 'target'
          ? [state.toNode.id, state.fromNode.id]
          : [state.fromNode.id, state.toNode.id];
      const why = refusal(from, to);
      if (why) onRefused(messageFor(why.key, lang, why.params));
    },
    [refusal, onRefused, lang],
  );

  const drop = (event: DragEvent) => {
    event.preventDefault();
    const type = event.dataTransfer.getData(DRAG_TYPE);
    if (!isNodeType(type) || readOnly) return;
    const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
    // the node's middle where it was dropped (a node is 180 × 44)
    onDropType(type, { x: Math.round(at.x - 90), y: Math.round(at.y - 22) });
  };

  return (
    <div className="gc-canvas" data-testid="gc-canvas">
      <ReactFlow<FlowNode, Edge>
        nodes={nodes}
        edges={edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={(c) => onConnect(c.source, c.target)}
        onConnectEnd={connectEnd}
        onDragOver={(e) => e.preventDefault()}
        onDrop={drop}
        isValidConnection={isValidConnection}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        edgesReconnectable={false}
        deleteKeyCode={readOnly ? null : ['Backspace', 'Delete']}
        fitView
        fitViewOptions={{ maxZoom: 1.1, padding: 0.2 }}
        minZoom={0.2}
      >
        <Background gap={20} />
        <Controls showInteractive={false} />
      </ReactFlow>
    </div>
  );
}
