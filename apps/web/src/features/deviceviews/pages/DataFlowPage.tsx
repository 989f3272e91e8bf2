import '@xyflow/react/dist/style.css';
import { Background, Controls, type Edge, ReactFlow } from '@xyflow/react';
import { Alert, Card, Empty, Result, Spin, Table, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { formatTime } from '../../../shared/time';
import { useFlow } from '../api';
import { DeviceHeader } from '../components/DeviceHeader';
import { type Activity, type FlowNode, FlowNodeView } from '../components/FlowNodeView';
import { buildGraph, framepath, itemNodeId } from '../graph';
import { type DeviceOnline, type FlowEvent, type FlowValue, useDeviceFlow } from '../live';
import '../deviceviews.css';

const NODE_TYPES = { flow: FlowNodeView };
/** how long a node or link stays lit after data passed */
const LIT_MS = 1500;
const RECENT = 12;

interface Recent {
  key: number;
  at: string;
  port: number;
  bytes: number;
  result: string;
}

/**
 * /dataflow/:deviceId/:deviceType/:deviceName — the configuration the device runs, drawn
 * read-only, with data moving through it live: a frame arriving lights the packet → COM → parser
 * links of its port and packet (red when refused, with the port's count of refused frames),
 * the parser shows the values it decoded, a stored record pulses the data item. Whether the
 * gateway is online follows its state.
 */
export default function DataFlowPage() {
  const { t } = useTranslation('deviceviews');
  const id = Number(useParams().deviceId);
  const view = useFlow(id);
  const config = view.data?.config ?? null;
  const [online, setOnline] = useState<boolean | null>(null);
  const [lit, setLit] = useState<Map<string, { until: number; bad: boolean }>>(new Map());
  const [values, setValues] = useState<Map<string, FlowValue[]>>(new Map());
  const [counts, setCounts] = useState<Map<number, { ok: number; bad: number }>>(new Map());
  const [stored, setStored] = useState<Map<number, number>>(new Map());
  const [recent, setRecent] = useState<Recent[]>([]);
  const [now, setNow] = useState(Date.now());

  useEffect(() => {
    if (!view.data) return;
    setCounts(new Map(view.data.ports.map((p) => [p.port, { ok: p.stored, bad: p.bad }])));
  }, [view.data]);

  const light = useCallback((ids: Iterable<string>, bad: boolean) => {
    const until = Date.now() + LIT_MS;
    setLit((before) => {
      const next = new Map(before);
      for (const key of ids) next.set(key, { until, bad });
      return next;
    });
    setNow(Date.now());
  }, []);

  const onFlow = useCallback(
    (event: FlowEvent | DeviceOnline) => {
      if (event.type === 'device') {
        setOnline(event.online);
        return;
      }
      if (!config) return;
      if (event.kind === 'record') {
        light([itemNodeId(event.itemId)], false);
        setStored((before) => new Map(before).set(event.itemId, (before.get(event.itemId) ?? 0) + 1));
        return;
      }
      const bad = event.result !== 'ok';
      const path = framepath(config, event.port, event.packetId);
      light([...path.nodes, ...path.edges], bad);
      setCounts((before) => {
        const c = before.get(event.port) ?? { ok: 0, bad: 0 };
        return new Map(before).set(event.port, bad ? { ...c, bad: c.bad + 1 } : { ...c, ok: c.ok + 1 });
      });
      if (!bad)
        setValues((before) => {
          const next = new Map(before);
          const onPath = config.nodes.filter((n) => path.nodes.has(n.id));
          // decoded on the gateway: on its parser; raw frames decoded by the platform: on the port
          const parsers = onPath.filter((n) => n.type === 'serialParser');
          for (const n of parsers.length > 0 ? parsers : onPath.filter((n) => n.type === 'com'))
            next.set(n.id, event.values);
          return next;
        });
      setRecent((before) =>
        [
          {
            key: Date.now() + Math.random(),
            at: event.at,
            port: event.port,
            bytes: event.bytes,
            result: event.result,
          },
          ...before,
        ].slice(0, RECENT),
      );
    },
    [config, light],
  );
  const { watching } = useDeviceFlow(id, onFlow, view.data != null);

  // lit nodes go dark again
  const anyLit = [...lit.values()].some((l) => l.until > now);
  useEffect(() => {
    if (!anyLit) return;
    const timer = window.setInterval(() => setNow(Date.now()), 300);
    return () => window.clearInterval(timer);
  }, [anyLit]);

  const graph = useMemo(
    () => (config ? buildGraph(config, view.data?.points ?? []) : null),
    [config, view.data],
  );
  const activityOf = useCallback(
    (key: string): Activity => {
      const l = lit.get(key);
      return l && l.until > now ? (l.bad ? 'bad' : 'lit') : 'idle';
    },
    [lit, now],
  );
  const nodes: FlowNode[] = useMemo(
    () =>
      (graph?.nodes ?? []).map((g) => ({
        id: g.id,
        type: 'flow' as const,
        position: g.position,
        draggable: false,
        connectable: false,
        data: {
          node: g.node,
          activity: activityOf(g.id),
          ...(g.node.type === 'com' ? { counts: counts.get(g.node.settings.port) ?? { ok: 0, bad: 0 } } : {}),
          ...(g.node.type === 'serialParser' || g.node.type === 'com'
            ? { values: values.get(g.id) ?? [] }
            : {}),
          ...(g.node.type === 'item' ? { stored: stored.get(g.node.itemId) ?? 0 } : {}),
        },
      })),
    [graph, activityOf, counts, values, stored],
  );
  const edges: Edge[] = useMemo(
    () =>
      (graph?.edges ?? []).map((e) => {
        const activity = e.binding ? activityOf(e.target) : activityOf(e.id);
        return {
          id: e.id,
          source: e.source,
          target: e.target,
          animated: activity !== 'idle',
          className: `dv-edge dv-edge-${activity}${e.binding ? ' dv-edge-binding' : ''}`,
        };
      }),
    [graph, activityOf],
  );

  if (!Number.isInteger(id) || id <= 0) return <Result status="404" title={t('common.badLink')} />;
  if (view.isLoading)
    return (
      <div className="dv-loading" data-testid="dv-loading">
        <Spin />
      </div>
    );
  if (!view.data) return <Result status="404" title={t('common.notFound')} />;
  const data = view.data;

  return (
    <Card variant="borderless" className="dv-page" data-testid="dv-flow-page">
      <DeviceHeader
        title={t('flow.title')}
        device={data.device}
        online={online ?? data.device.online}
        version={data.version}
        extra={
          config && (
            <Tag color={watching ? 'processing' : 'default'} data-testid="dv-live">
              {watching ? t('flow.live') : t('chart.connecting')}
            </Tag>
          )
        }
      />
      {data.hidden > 0 && (
        <Alert className="dv-note" type="info" showIcon title={t('common.hidden', { count: data.hidden })} />
      )}
      {!config ? (
        <Empty description={t('flow.noConfig')} data-testid="dv-no-config" className="dv-empty" />
      ) : (
        <>
          <Typography.Paragraph type="secondary" className="dv-small dv-legend">
            {t('flow.legend')}
          </Typography.Paragraph>
          <div className="dv-canvas" data-testid="dv-canvas">
            <ReactFlow<FlowNode, Edge>
              nodes={nodes}
              edges={edges}
              nodeTypes={NODE_TYPES}
              nodesDraggable={false}
              nodesConnectable={false}
              elementsSelectable={false}
              edgesReconnectable={false}
              deleteKeyCode={null}
              fitView
              fitViewOptions={{ maxZoom: 1, padding: 0.15 }}
              minZoom={0.2}
            >
              <Background gap={20} />
              <Controls showInteractive={false} />
            </ReactFlow>
          </div>
          <Table<Recent>
            className="dv-recent"
            size="small"
            rowKey="key"
            pagination={false}
            dataSource={recent}
            data-testid="dv-recent"
            locale={{
              emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('flow.waiting')} />,
            }}
            title={() => t('flow.recent')}
            columns={[
              { title: t('flow.time'), dataIndex: 'at', render: (at: string) => formatTime(at) },
              { title: t('flow.port'), dataIndex: 'port', render: (port: number) => `COM${port}` },
              { title: t('flow.bytes'), dataIndex: 'bytes' },
              {
                title: t('flow.result'),
                dataIndex: 'result',
                render: (result: string) => (
                  <Tag color={result === 'ok' ? 'success' : 'error'}>{t(`results.${result}`, result)}</Tag>
                ),
              },
            ]}
          />
        </>
      )}
    </Card>
  );
}
