/**
 * The configuration screen editor (/editConfigurationTool/:deviceId and …1): a palette of
 * element types, the fixed canvas (drag, resize, select), a toolbar (undo/redo, copy, lock,
 * hide, layers, delete) and the property panel. It edits only under the lease; held by someone
 * else it is read-only with who and until when. Saving runs the domain's check first; a refusal
 * (the check's or the server's) selects the element it names and shows the message on its field.
 */
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  CopyOutlined,
  DeleteOutlined,
  DesktopOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  LockOutlined,
  RedoOutlined,
  SaveOutlined,
  UndoOutlined,
  UnlockOutlined,
  VerticalAlignBottomOutlined,
  VerticalAlignTopOutlined,
} from '@ant-design/icons';
import {
  addElement,
  checkScreenBody,
  emptyScreen,
  type History,
  historyOf,
  moveElementLayer,
  placeElement,
  record,
  redo,
  removeElement,
  SCREEN_ELEMENT_TYPES,
  type ScreenBody,
  type ScreenElementType,
  setElementFlag,
  undo,
} from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Grid, Result, Skeleton, Space, Tag, Tooltip, Typography } from 'antd';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../../app/http/client';
import { formatTime } from '../../../shared/time';
import { type ScreenView, screenApi, screenKeys, useScreen } from '../api';
import { EditCanvas } from '../components/EditCanvas';
import { ElementPanel } from '../components/ElementPanel';
import { copyElement, locate, type Problem, updateElement } from '../edit';
import { type LeaseState, leaseRefusal, useLease } from '../lease';
import { screenPaths } from '../paths';
import '../screens.css';

/** the palette: the types a person adds (a line is drawn as a pipe) */
const PALETTE: ScreenElementType[] = SCREEN_ELEMENT_TYPES.filter((t) => t !== 'line');
PALETTE.splice(2, 0, 'line');

function LeaseBanner({ state, onRetry }: { state: LeaseState; onRetry: () => void }) {
  const { t } = useTranslation('screens');
  const retry = (
    <Button size="small" onClick={onRetry} data-testid="lease-retry">
      {t('lease.retry', '重试')}
    </Button>
  );
  if (state.kind === 'held')
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="lease-held"
        title={t(
          'lease.held',
          '{{user}} 正在编辑此画面（若其未继续编辑，至 {{until}} 释放）。您现在只能查看。',
          {
            user: state.holder,
            until: state.expiresAt ? formatTime(state.expiresAt) : '?',
          },
        )}
        action={retry}
      />
    );
  if (state.kind === 'lost')
    return (
      <Alert
        type="error"
        showIcon
        data-testid="lease-lost"
        title={t('lease.lost', '您的编辑租约已结束（他人已开始编辑），修改无法保存。重新获取后可继续。')}
        action={retry}
      />
    );
  if (state.kind === 'failed')
    return <Alert type="error" showIcon data-testid="lease-failed" title={state.message} action={retry} />;
  return null;
}

function Editor({ view, deviceId }: { view: ScreenView; deviceId: number }) {
  const { t } = useTranslation('screens');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const lease = useLease(deviceId, view.canEdit);
  const initial = view.screen?.body ?? emptyScreen();
  const [history, setHistory] = useState<History<ScreenBody>>(() => historyOf(initial));
  const [saved, setSaved] = useState<ScreenBody | null>(view.screen ? initial : null);
  const [selected, setSelected] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saving, setSaving] = useState(false);
  const body = history.present;
  const element = body.elements.find((e) => e.id === selected) ?? null;
  const readOnly = lease.state.kind !== 'mine';
  const dirty = body !== saved;

  const edit = useCallback(
    (change: (b: ScreenBody) => ScreenBody) => setHistory((h) => record(h, change(h.present))),
    [],
  );
  const add = (type: ScreenElementType) => {
    const n = body.elements.length % 10;
    const added = addElement(body, type, { x: 40 + n * 30, y: 40 + n * 30 });
    setHistory((h) => record(h, added.body));
    setSelected(added.id);
  };

  /** the message under the field (`inline`, else `text`), the whole `text` in the banner and toast */
  const refuse = (field: string, text: string, inline?: string) => {
    const where = locate(body, field);
    setProblem({ ...where, message: inline ?? text, summary: text });
    setSelected(where.elementId);
    message.error(text);
  };

  /** a path inside an element as a person reads it: `rules[1].value2` → 规则 2 · 到 */
  const pathLabel = (path: string) => {
    const names: Record<string, string> = {
      value: t('rules.from', '从'),
      value2: t('rules.to', '到'),
    };
    const rule = /^rules\[(\d+)\]\.?(\w*)/.exec(path);
    if (!rule) return path;
    const nth = t('rules.nth', { n: Number(rule[1]) + 1, defaultValue: `#${Number(rule[1]) + 1}` });
    return rule[2] ? `${nth} · ${names[rule[2]] ?? rule[2]}` : nth;
  };

  const reasonText = (reason: string) => {
    const known: Record<string, string> = {
      'not below value': t('reason.notBelow', '不能小于起始值'),
      'greater than min': t('reason.aboveMin', '必须大于最小值'),
      'at least one effect': t('reason.effect', '至少设置一项效果'),
      required: t('reason.required', '必填'),
      format: t('reason.format', '格式不正确'),
      duplicate: t('reason.duplicate', '重复'),
      reserved: t('reason.reserved', '不能使用协议保留的指令'),
    };
    return known[reason] ?? reason;
  };

  const save = async () => {
    if (lease.state.kind !== 'mine') return;
    const checked = checkScreenBody(body);
    if (!checked.ok) {
      const where = locate(body, checked.field);
      const target = body.elements.find((x) => x.id === where.elementId);
      // the element is selected and its field marked: the message names the element, not a path
      refuse(
        checked.field,
        t('check.invalid', '{{what}}：{{reason}}', {
          what: target
            ? `${t(`types.${target.type}`, target.type)} ${target.id} · ${pathLabel(where.path)}`
            : checked.field,
          reason: reasonText(checked.reason),
        }),
        reasonText(checked.reason),
      );
      return;
    }
    setSaving(true);
    try {
      const envelope = await screenApi.save(deviceId, lease.state.leaseId, checked.body);
      message.success(envelope.message || t('save.done', '已保存'));
      setSaved(body);
      setProblem(null);
      void queryClient.invalidateQueries({ queryKey: screenKeys.one(deviceId) });
    } catch (error) {
      const refusal = leaseRefusal(error);
      if (refusal?.kind === 'lost' || refusal?.kind === 'held') {
        lease.lose();
        message.error((error as Error).message);
      } else if (error instanceof ApiError && (error.data as { field?: string } | null)?.field) {
        refuse((error.data as { field: string }).field, error.message);
      } else {
        message.error((error as Error).message);
      }
    } finally {
      setSaving(false);
    }
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, [contenteditable]')) return;
      if (e.ctrlKey || e.metaKey) {
        if (e.key === 'z' && !e.shiftKey) {
          e.preventDefault();
          setHistory(undo);
        } else if (e.key === 'y' || (e.key === 'z' && e.shiftKey)) {
          e.preventDefault();
          setHistory(redo);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // leaving with unsaved edits: the browser asks first
  useEffect(() => {
    if (!dirty || readOnly) return;
    const onBefore = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBefore);
    return () => window.removeEventListener('beforeunload', onBefore);
  }, [dirty, readOnly]);

  const e = element;
  const tool = (key: string, title: string, icon: ReactNode, action: () => void, disabled = false) => (
    <Tooltip title={title} key={key}>
      <Button
        icon={icon}
        onClick={action}
        disabled={disabled || readOnly}
        aria-label={title}
        data-testid={`tool-${key}`}
      />
    </Tooltip>
  );

  return (
    <div className="scr-editor" data-testid="screen-editor" data-lease={lease.state.kind}>
      <div className="scr-toolbar">
        <Space wrap size={4}>
          <Typography.Text strong>{t('edit.title', '编辑组态')}</Typography.Text>
          <Typography.Text type="secondary">{view.device.name}</Typography.Text>
          <Tag>
            {body.width}×{body.height}
          </Tag>
          {view.screen ? (
            <Tag>v{view.screen.version}</Tag>
          ) : (
            <Tag color="blue">{t('edit.new', '新画面')}</Tag>
          )}
          {dirty ? <Tag color="orange">{t('edit.unsaved', '未保存')}</Tag> : null}
          {lease.state.kind === 'mine' ? (
            <Tag color="green" data-testid="lease-mine">
              {t('lease.mine', '编辑中')}
            </Tag>
          ) : null}
        </Space>
        <Space wrap size={4}>
          {tool(
            'undo',
            t('edit.undo', '撤销'),
            <UndoOutlined />,
            () => setHistory(undo),
            history.past.length === 0,
          )}
          {tool(
            'redo',
            t('edit.redo', '重做'),
            <RedoOutlined />,
            () => setHistory(redo),
            history.future.length === 0,
          )}
          {tool(
            'copy',
            t('edit.copy', '复制'),
            <CopyOutlined />,
            () => {
              const copied = copyElement(body, e!.id);
              if (!copied.id) return;
              setHistory((h) => record(h, copied.body));
              setSelected(copied.id);
            },
            !e,
          )}
          {tool(
            'lock',
            e?.locked ? t('edit.unlock', '解锁') : t('edit.lock', '锁定'),
            e?.locked ? <UnlockOutlined /> : <LockOutlined />,
            () => edit((b) => setElementFlag(b, e!.id, 'locked', !e!.locked)),
            !e,
          )}
          {tool(
            'hide',
            e?.hidden ? t('edit.show', '显示') : t('edit.hide', '隐藏'),
            e?.hidden ? <EyeOutlined /> : <EyeInvisibleOutlined />,
            () => edit((b) => setElementFlag(b, e!.id, 'hidden', !e!.hidden)),
            !e,
          )}
          {tool(
            'front',
            t('edit.front', '置于顶层'),
            <VerticalAlignTopOutlined />,
            () => edit((b) => moveElementLayer(b, e!.id, 'front')),
            !e,
          )}
          {tool(
            'forward',
            t('edit.forward', '上移一层'),
            <ArrowUpOutlined />,
            () => edit((b) => moveElementLayer(b, e!.id, 'forward')),
            !e,
          )}
          {tool(
            'backward',
            t('edit.backward', '下移一层'),
            <ArrowDownOutlined />,
            () => edit((b) => moveElementLayer(b, e!.id, 'backward')),
            !e,
          )}
          {tool(
            'back',
            t('edit.back', '置于底层'),
            <VerticalAlignBottomOutlined />,
            () => edit((b) => moveElementLayer(b, e!.id, 'back')),
            !e,
          )}
          {tool(
            'delete',
            t('edit.delete', '删除元素'),
            <DeleteOutlined />,
            () => {
              edit((b) => removeElement(b, e!.id));
              setSelected(null);
            },
            !e || e.locked,
          )}
          <Button
            icon={<DesktopOutlined />}
            onClick={() => navigate(screenPaths.show(deviceId))}
            data-testid="screen-show-link"
          >
            {t('edit.display', '查看画面')}
          </Button>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={saving}
            disabled={readOnly}
            onClick={save}
            data-testid="screen-save"
          >
            {t('edit.save', '保存')}
          </Button>
        </Space>
      </div>
      {!view.canEdit ? (
        <Alert
          type="info"
          showIcon
          data-testid="screen-no-write"
          title={t('edit.noWrite', '您对此设备只有查看权限，不能编辑组态。')}
        />
      ) : (
        <LeaseBanner state={lease.state} onRetry={() => void lease.retry()} />
      )}
      {problem ? (
        <Alert
          type="error"
          showIcon
          closable={{ onClose: () => setProblem(null) }}
          data-testid="screen-problem"
          title={problem.summary ?? problem.message}
        />
      ) : null}
      <div className="scr-edit-body">
        <div className="scr-palette" data-testid="screen-palette">
          <Typography.Text type="secondary">{t('edit.add', '添加元素')}</Typography.Text>
          {PALETTE.map((type) => (
            <Button
              key={type}
              block
              size="small"
              onClick={() => add(type)}
              disabled={readOnly}
              data-testid={`add-${type}`}
            >
              {t(`types.${type}`, type)}
            </Button>
          ))}
        </div>
        <div className="scr-stage">
          <EditCanvas
            body={body}
            selected={selected}
            readOnly={readOnly}
            onSelect={setSelected}
            onPlace={(id, rect) => edit((b) => placeElement(b, id, rect))}
          />
          {body.elements.length === 0 ? (
            <div className="scr-empty">{t('edit.empty', '从左侧添加元素开始设计组态画面')}</div>
          ) : null}
        </div>
        <div className="scr-side">
          <ElementPanel
            body={body}
            element={element}
            points={view.points}
            commands={view.commands}
            problem={problem}
            disabled={readOnly}
            onBody={(change) => edit((b) => ({ ...b, ...change }))}
            onElement={(change) => edit((b) => updateElement(b, element!.id, change))}
            onPlace={(rect) => edit((b) => placeElement(b, element!.id, rect))}
          />
        </div>
      </div>
    </div>
  );
}

export default function ScreenEditPage() {
  const { t } = useTranslation('screens');
  const navigate = useNavigate();
  const deviceId = Number(useParams().deviceId);
  const screens = Grid.useBreakpoint();
  const screen = useScreen(deviceId);
  if (screen.isLoading) return <Skeleton active className="scr-page" />;
  if (!screen.data)
    return (
      <Result
        status="404"
        title={t('show.missing', '设备不存在或您无权查看')}
        extra={<Button onClick={() => screen.refetch()}>{t('common.retry', '重试')}</Button>}
      />
    );
  if (screens.md === false)
    return (
      <Result
        status="info"
        title={t('edit.narrow', '编辑组态需要更宽的屏幕')}
        subTitle={t('edit.narrowHint', '请在电脑上编辑；在手机上可以查看画面。')}
        data-testid="screen-edit-narrow"
        extra={
          <Button type="primary" onClick={() => navigate(screenPaths.show(deviceId))}>
            {t('edit.display', '查看画面')}
          </Button>
        }
      />
    );
  // the editor keeps its own state from the screen it opened with
  return <Editor view={screen.data} deviceId={deviceId} />;
}
