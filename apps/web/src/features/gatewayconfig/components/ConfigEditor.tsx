import {
  type ConfigLookups,
  type ConfigProblem,
  type ConfigTemplateId,
  canonicalConfigText,
  checkGatewayConfig,
  configTemplate,
  ERROR_CODES,
  type GatewayConfig,
  type GatewayNode,
  type GatewayNodeType,
  type Lang,
  MAX_GATEWAY_NODES,
  messageFor,
} from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  applyEdgeChanges,
  applyNodeChanges,
  type Edge,
  type EdgeChange,
  type NodeChange,
  useReactFlow,
} from '@xyflow/react';
import { Alert, App, Button, Card, Grid, Tabs } from 'antd';
import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/http/client';
import { useSession } from '../../../app/store/session';
import {
  type CheckedProblem,
  type ConfigView,
  configApi,
  configKeys,
  type SaveResult,
  useConfig,
  useLookups,
} from '../api';
import { freeSpot, newNode, samePicture } from '../model';
import { EditorHeader } from './EditorHeader';
import { FlowCanvas } from './FlowCanvas';
import { type FlowNode, NodeProblemsContext } from './GatewayNodeView';
import { Palette } from './Palette';
import { ProblemList } from './ProblemList';
import { PushDialog } from './PushDialog';
import { type FocusRequest, SettingsPanel } from './SettingsPanel';
import { TemplatePicker } from './TemplatePicker';
import { VersionDrawer } from './VersionDrawer';

const edgeId = (from: string, to: string) => `${from}->${to}`;

function toFlow(config: GatewayConfig): { nodes: FlowNode[]; edges: Edge[] } {
  return {
    nodes: config.nodes.map((node, i) => {
      const { position, ...rest } = node;
      return {
        id: node.id,
        type: 'gateway',
        position: position ?? { x: 40 + (i % 4) * 220, y: 40 + Math.floor(i / 4) * 110 },
        data: { node: rest as GatewayNode },
      };
    }),
    edges: config.links.map((l) => ({ id: edgeId(l.from, l.to), source: l.from, target: l.to })),
  };
}

function fromFlow(nodes: FlowNode[], edges: Edge[]): GatewayConfig {
  return {
    nodes: nodes.map((n) => ({
      ...n.data.node,
      position: { x: Math.round(n.position.x), y: Math.round(n.position.y) },
    })),
    links: edges.map((e) => ({ from: e.source, to: e.target })),
  };
}

interface Props {
  deviceId: number;
  /** the DTU route: the DTU template comes first */
  dtu: boolean;
}

/**
 * The node editor of a gateway's configuration: palette, canvas, settings and problems. The
 * canvas holds the truth (nodes with their positions, links); the configuration is read from
 * it, checked live for the badges and the form, and by the server on Check, Save and Push.
 */
export function ConfigEditor({ deviceId, dtu }: Props) {
  const { t, i18n } = useTranslation('gatewayconfig');
  const lang: Lang = i18n.language === 'en' ? 'en' : 'zh';
  const { message, notification, modal } = App.useApp();
  const queryClient = useQueryClient();
  const flow = useReactFlow();
  const { user } = useSession();
  const phone = Grid.useBreakpoint().md !== true;
  const view = useConfig(deviceId, 10_000);
  const lookups = useLookups(deviceId);

  const [nodes, setNodes] = useState<FlowNode[]>([]);
  const [edges, setEdges] = useState<Edge[]>([]);
  const [loaded, setLoaded] = useState<number | null>(null);
  const [baseline, setBaseline] = useState<GatewayConfig>({ nodes: [], links: [] });
  const [baseVersion, setBaseVersion] = useState<number | null>(null);
  const [focus, setFocus] = useState<FocusRequest | null>(null);
  const [checked, setChecked] = useState<{ problems: CheckedProblem[]; text: string } | null>(null);
  const [tab, setTab] = useState<'settings' | 'problems'>('settings');
  const [viewing, setViewing] = useState<{ version: number; config: GatewayConfig } | null>(null);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [busy, setBusy] = useState<'save' | 'check' | 'push' | null>(null);
  const [pushId, setPushId] = useState<number | null>(null);
  const [draftBeforeViewing, setDraftBeforeViewing] = useState<GatewayConfig | null>(null);

  const load = useCallback(
    (config: GatewayConfig, version: number | null) => {
      const next = toFlow(config);
      setNodes(next.nodes);
      setEdges(next.edges);
      setBaseline(config);
      setBaseVersion(version);
      setChecked(null);
      window.setTimeout(() => flow.fitView({ maxZoom: 1.1, padding: 0.2 }), 50);
    },
    [flow],
  );

  // the first answer fills the canvas; later refetches do not overwrite the person's work
  useEffect(() => {
    if (view.data && loaded !== deviceId) {
      load(view.data.config, view.data.head?.version ?? null);
      setLoaded(deviceId);
    }
  }, [view.data, loaded, deviceId, load]);

  const config = useMemo(() => fromFlow(nodes, edges), [nodes, edges]);
  const shown = viewing?.config ?? config;
  const dirty = !viewing && !samePicture(config, baseline);
  const data: ConfigView | undefined = view.data;
  const editable = (data?.device.level ?? 0) >= 2;
  const readOnly = !editable || phone || viewing != null;

  const lookupFns = useMemo<ConfigLookups>(() => {
    const packages = new Map((lookups.data?.packages ?? []).map((p) => [p.id, p]));
    const fields = new Set(
      (lookups.data?.items ?? []).flatMap((i) => i.fields.map((f) => `${i.id}:${f.key}`)),
    );
    return lookups.data
      ? { packet: (id) => packages.get(id) ?? null, field: (itemId, key) => fields.has(`${itemId}:${key}`) }
      : {};
  }, [lookups.data]);
  const deferred = useDeferredValue(shown);
  const live = useMemo(() => checkGatewayConfig(deferred, lookupFns), [deferred, lookupFns]);
  const byNode = useMemo(() => {
    const map = new Map<string, { errors: number; warnings: number }>();
    for (const p of live) {
      if (!p.node) continue;
      const entry = map.get(p.node) ?? { errors: 0, warnings: 0 };
      if (p.severity === 'error') entry.errors++;
      else entry.warnings++;
      map.set(p.node, entry);
    }
    return map;
  }, [live]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const selected = nodes.find((n) => n.selected)?.data.node ?? null;
  const selectedShown = viewing
    ? (viewing.config.nodes.find((n) => n.id === selected?.id) ?? null)
    : selected;

  const select = (id: string | null) => {
    setNodes((ns) => ns.map((n) => (n.selected === (n.id === id) ? n : { ...n, selected: n.id === id })));
    if (id) window.setTimeout(() => flow.fitView({ nodes: [{ id }], duration: 300, maxZoom: 1.1 }), 30);
  };

  const addNode = (type: GatewayNodeType, position?: { x: number; y: number }) => {
    if (config.nodes.length >= MAX_GATEWAY_NODES) {
      message.error(messageFor('maxNodes', lang));
      return;
    }
    const node = newNode(type, t(`types.${type}`), config, position ?? freeSpot(config));
    const { position: at, ...rest } = node;
    setNodes((ns) => [
      ...ns.map((n) => (n.selected ? { ...n, selected: false } : n)),
      { id: node.id, type: 'gateway', position: at!, data: { node: rest as GatewayNode }, selected: true },
    ]);
    setTab('settings');
    // added by a click, it lands below the others: bring it into view
    if (!position) window.setTimeout(() => flow.fitView({ maxZoom: 1, padding: 0.15, duration: 150 }), 30);
  };

  const changeNode = (next: GatewayNode) =>
    setNodes((ns) => ns.map((n) => (n.id === next.id ? { ...n, data: { node: next } } : n)));
  const deleteNode = (id: string) => {
    setNodes((ns) => ns.filter((n) => n.id !== id));
    setEdges((es) => es.filter((e) => e.source !== id && e.target !== id));
  };
  const link = (from: string, to: string) =>
    setEdges((es) =>
      es.some((e) => e.id === edgeId(from, to))
        ? es
        : [...es, { id: edgeId(from, to), source: from, target: to }],
    );
  const unlink = (from: string, to: string) => setEdges((es) => es.filter((e) => e.id !== edgeId(from, to)));

  const pickProblem = (p: ConfigProblem) => {
    if (p.node && config.nodes.some((n) => n.id === p.node)) {
      select(p.node);
      setTab('settings');
      setFocus({ field: p.field, nonce: Date.now() });
    }
  };

  const runCheck = async () => {
    setBusy('check');
    try {
      const answer = await configApi.check(deviceId, config);
      setChecked({ problems: answer.data.problems, text: canonicalConfigText(config) });
      setTab('problems');
    } catch {
      // the client has shown why
    } finally {
      setBusy(null);
    }
  };

  const reload = async () => {
    const fresh = await view.refetch();
    if (!fresh.data) return;
    load(fresh.data.config, fresh.data.head?.version ?? null);
    message.success(t('editor.reloaded'));
  };

  /** a refused save or push: a conflict offers to reload, anything else is shown as the server said */
  const failed = (error: unknown) => {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === ERROR_CODES.CONFLICT) {
      modal.confirm({
        title: t('editor.conflictTitle'),
        content: <span data-testid="gc-conflict">{error.message}</span>,
        okText: t('editor.reload'),
        cancelText: t('editor.keepEditing'),
        onOk: reload,
      });
      return;
    }
    notification.error({
      title: t('http.tip', { ns: 'app', defaultValue: '提示' }),
      description: error.message,
    });
  };

  const saved = (result: SaveResult, content: GatewayConfig) => {
    setBaseline(content);
    setBaseVersion(result.version);
    void queryClient.invalidateQueries({ queryKey: configKeys.all });
  };

  const save = async () => {
    setBusy('save');
    try {
      const answer = await configApi.save(deviceId, baseVersion, config);
      saved(answer.data, config);
      message.success(
        answer.data.created
          ? t('editor.saved', { version: answer.data.version })
          : t('editor.savedLayout', { version: answer.data.version }),
      );
    } catch (error) {
      failed(error);
    } finally {
      setBusy(null);
    }
  };

  const push = async () => {
    setBusy('push');
    const pushed = config;
    try {
      const answer = await configApi.push(deviceId, baseVersion, pushed);
      saved(answer.data.saved, pushed);
      setPushId(answer.data.push.id);
    } catch (error) {
      failed(error);
      // a push refused after its save (the check failed, a push still waits) kept the
      // configuration as the latest version: the editor goes on from there
      const fresh = await view.refetch();
      const head = fresh.data?.head;
      if (
        head &&
        head.version !== baseVersion &&
        canonicalConfigText(fresh.data!.config) === canonicalConfigText(pushed)
      ) {
        setBaseline(pushed);
        setBaseVersion(head.version);
      }
    } finally {
      setBusy(null);
    }
  };

  const restore = async (version: number) => {
    try {
      const answer = await configApi.restore(deviceId, version, baseVersion);
      const restored = await configApi.version(deviceId, answer.data.version);
      load(restored.config, answer.data.version);
      setViewing(null);
      setHistoryOpen(false);
      message.success(t('history.restored', { from: version, version: answer.data.version }));
      void queryClient.invalidateQueries({ queryKey: configKeys.all });
    } catch (error) {
      failed(error);
    }
  };

  const viewVersion = async (version: number) => {
    const answer = await configApi.version(deviceId, version);
    setViewing({ version, config: answer.config });
    setHistoryOpen(false);
    const next = toFlow(answer.config);
    setNodes(next.nodes);
    setEdges(next.edges);
    window.setTimeout(() => flow.fitView({ maxZoom: 1.1, padding: 0.2 }), 50);
  };
  const backToEdit = () => {
    // viewing replaced the canvas: back to what was there (saved or not)
    const keep = draftBeforeViewing;
    setViewing(null);
    const next = toFlow(keep ?? baseline);
    setNodes(next.nodes);
    setEdges(next.edges);
  };
  const applyTemplate = (id: ConfigTemplateId) => {
    const apply = () => {
      const next = toFlow(configTemplate(id, { lang }));
      setNodes(next.nodes);
      setEdges(next.edges);
      setChecked(null);
      window.setTimeout(() => flow.fitView({ maxZoom: 1.1, padding: 0.2 }), 50);
    };
    if (config.nodes.length === 0) apply();
    else modal.confirm({ title: t('editor.templateReplace'), onOk: apply });
  };

  if (!data) return null;
  const canPush = user?.menuCode.some((code) => code === 'dm_list' || code === 'cd_device') === true;
  const stale = checked != null && checked.text !== canonicalConfigText(config);

  return (
    <Card variant="borderless" className="gc-page" data-testid="gc-editor">
      <EditorHeader
        view={data}
        dtu={dtu}
        dirty={dirty}
        baseVersion={baseVersion}
        busy={busy}
        readOnly={readOnly}
        editable={editable}
        canPush={canPush}
        viewingVersion={viewing?.version ?? null}
        onCheck={runCheck}
        onSave={save}
        onPush={push}
        onHistory={() => setHistoryOpen(true)}
        onTemplate={applyTemplate}
        onBackToEdit={backToEdit}
      />
      {!editable && <Alert type="info" showIcon title={t('editor.readOnly')} className="gc-note" />}
      {editable && phone && (
        <Alert type="info" showIcon title={t('editor.phoneReadOnly')} className="gc-note" />
      )}
      {viewing && (
        <Alert
          type="warning"
          showIcon
          className="gc-note"
          data-testid="gc-viewing"
          title={t('history.viewing', { version: viewing.version })}
          action={
            <Button size="small" onClick={backToEdit}>
              {t('history.backToEdit')}
            </Button>
          }
        />
      )}
      <NodeProblemsContext.Provider value={byNode}>
        <div className={`gc-body${phone ? ' gc-body-phone' : ''}`}>
          {!readOnly && (
            <Palette onAdd={(type) => addNode(type)} count={config.nodes.length} max={MAX_GATEWAY_NODES} />
          )}
          <div className="gc-canvas-wrap">
            <FlowCanvas
              nodes={nodes}
              edges={edges}
              config={shown}
              readOnly={readOnly}
              onNodesChange={(changes: NodeChange<FlowNode>[]) =>
                setNodes((ns) =>
                  applyNodeChanges(readOnly ? changes.filter((c) => c.type !== 'remove') : changes, ns),
                )
              }
              onEdgesChange={(changes: EdgeChange[]) =>
                setEdges((es) =>
                  applyEdgeChanges(readOnly ? changes.filter((c) => c.type !== 'remove') : changes, es),
                )
              }
              onConnect={link}
              onRefused={(reason) => message.warning(t('editor.linkRefused', { reason }))}
              onDropType={addNode}
            />
            {!readOnly && config.nodes.length === 0 && <TemplatePicker dtu={dtu} onPick={applyTemplate} />}
          </div>
          <div className="gc-side">
            <Tabs
              activeKey={tab}
              onChange={(key) => setTab(key as 'settings' | 'problems')}
              items={[
                {
                  key: 'settings',
                  label: t('editor.settings'),
                  children: (
                    <SettingsPanel
                      node={selectedShown}
                      config={shown}
                      lookups={lookups.data}
                      problems={live.filter((p) => p.node === selectedShown?.id)}
                      readOnly={readOnly}
                      focus={focus}
                      onChange={changeNode}
                      onDelete={deleteNode}
                      onLink={link}
                      onUnlink={unlink}
                    />
                  ),
                },
                {
                  key: 'problems',
                  label: (
                    <span data-testid="gc-tab-problems">
                      {t('check.title')}
                      {checked ? ` (${checked.problems.length})` : ''}
                    </span>
                  ),
                  children: (
                    <ProblemList
                      problems={checked?.problems ?? null}
                      config={shown}
                      stale={stale}
                      onPick={pickProblem}
                    />
                  ),
                },
              ]}
            />
          </div>
        </div>
      </NodeProblemsContext.Provider>
      <VersionDrawer
        deviceId={deviceId}
        open={historyOpen}
        headVersion={data.head?.version ?? null}
        canRestore={editable && !phone}
        onClose={() => setHistoryOpen(false)}
        onView={(version) => {
          if (!viewing) setDraftBeforeViewing(config);
          void viewVersion(version);
        }}
        onRestore={restore}
      />
      <PushDialog deviceId={deviceId} pushId={pushId} onClose={() => setPushId(null)} />
    </Card>
  );
}
