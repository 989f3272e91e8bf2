/**
 * The configuration screen editor itself, whatever the drawing is for: a palette of element
 * types, the fixed canvas (drag, resize, select), a toolbar (undo/redo, copy, lock, hide,
 * layers, delete, save) and the property panel binding elements to the `points` given. A
 * device's screen (pages/ScreenEditPage.tsx) and a device-family template (features/flowcharts)
 * both draw with it; what is drawn over, who may edit and how it is stored stay with the page.
 *
 * Saving runs the domain's check first; a refusal (the check's, or the server's naming
 * `body.elements[i]…` thrown by `onSave`) selects the element it names and shows the message on
 * its field. `onSave` answers whether the drawing is now stored (false: the page said why).
 */
import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  CopyOutlined,
  DeleteOutlined,
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
import { Alert, App, Button, Space, Tag, Tooltip, Typography } from 'antd';
import {
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/http/client';
import type { ScreenPoint } from '../api';
import { copyElement, locate, type Problem, updateElement } from '../edit';
import '../screens.css';
import { EditCanvas } from './EditCanvas';
import { ElementPanel } from './ElementPanel';

/** the palette: the types a person adds (a line is drawn as a pipe) */
const PALETTE: ScreenElementType[] = SCREEN_ELEMENT_TYPES.filter((t) => t !== 'line');
PALETTE.splice(2, 0, 'line');

/** What a page may do to the drawing from outside the editor. */
export interface ScreenEditorHandle {
  /** the drawing as it is now */
  body(): ScreenBody;
  /**
   * A change applied to the drawing and to every step of its undo history alike (a renaming
   * of its bindings, say), so undoing never brings back what the change replaced.
   */
  rewrite(change: (b: ScreenBody) => ScreenBody): void;
}

export interface ScreenEditorProps {
  /** the drawing the editor opens with */
  initial: ScreenBody;
  /** whether `initial` is what is stored (a new drawing starts unsaved) */
  stored: boolean;
  /** what an element may be bound to */
  points: ScreenPoint[];
  /** what a switch may send; null: any name (a device-family template, mapped per device) */
  commands: string[] | null;
  readOnly: boolean;
  /** the toolbar's head: the title, then `subtitle`, the size, `tags`, unsaved, `status` */
  title: ReactNode;
  subtitle?: ReactNode;
  tags?: ReactNode;
  status?: ReactNode;
  /** buttons before the save button */
  actions?: ReactNode;
  /** alerts under the toolbar (who holds the editor, say) */
  banner?: ReactNode;
  /** changes kept outside the drawing (a form beside it): counted for "unsaved" and leaving */
  extraDirty?: boolean;
  onDirty?: (dirty: boolean) => void;
  /** stores the checked drawing; throws to refuse (an ApiError naming a field selects it) */
  onSave: (body: ScreenBody) => Promise<boolean>;
  /** what the canvas draws in place of the drawing (same elements and places: words filled in, say) */
  preview?: (body: ScreenBody) => ScreenBody;
  /** data-lease of the editor's root, when the page has a lease */
  lease?: string;
  handle?: Ref<ScreenEditorHandle>;
}

export function ScreenEditor({
  initial,
  stored,
  points,
  commands,
  readOnly,
  title,
  subtitle,
  tags,
  status,
  actions,
  banner,
  extraDirty = false,
  onDirty,
  onSave,
  preview,
  lease,
  handle,
}: ScreenEditorProps) {
  const { t } = useTranslation('screens');
  const { message } = App.useApp();
  const [history, setHistory] = useState<History<ScreenBody>>(() => historyOf(initial));
  const [saved, setSaved] = useState<ScreenBody | null>(stored ? initial : null);
  const [selected, setSelected] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saving, setSaving] = useState(false);
  const body = history.present;
  const element = body.elements.find((e) => e.id === selected) ?? null;
  const dirty = body !== saved;
  const drawn = useMemo(() => (preview ? preview(body) : body), [preview, body]);

  useImperativeHandle(
    handle,
    () => ({
      body: () => body,
      rewrite: (change) => {
        const mapped = new Map<ScreenBody, ScreenBody>();
        const map = (b: ScreenBody) => {
          const known = mapped.get(b);
          if (known) return known;
          const next = change(b);
          mapped.set(b, next);
          return next;
        };
        setHistory((h) => ({ past: h.past.map(map), present: map(h.present), future: h.future.map(map) }));
        // the stored drawing is renamed too: a rewrite alone is no drawing change
        setSaved((s) => (s ? map(s) : s));
      },
    }),
    [body],
  );

  useEffect(() => {
    onDirty?.(dirty);
  }, [dirty, onDirty]);

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
    if (readOnly) return;
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
      if (await onSave(checked.body)) {
        setSaved(body);
        setProblem(null);
      }
    } catch (error) {
      if (error instanceof ApiError && (error.data as { field?: string } | null)?.field) {
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
  const unsaved = dirty || extraDirty;
  useEffect(() => {
    if (!unsaved || readOnly) return;
    const onBefore = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBefore);
    return () => window.removeEventListener('beforeunload', onBefore);
  }, [unsaved, readOnly]);

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
    <div className="scr-editor" data-testid="screen-editor" data-lease={lease}>
      <div className="scr-toolbar">
        <Space wrap size={4}>
          <Typography.Text strong>{title}</Typography.Text>
          {subtitle ? <Typography.Text type="secondary">{subtitle}</Typography.Text> : null}
          <Tag>
            {body.width}×{body.height}
          </Tag>
          {tags}
          {unsaved ? (
            <Tag color="orange" data-testid="screen-unsaved">
              {t('edit.unsaved', '未保存')}
            </Tag>
          ) : null}
          {status}
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
          {actions}
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
      {banner}
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
            body={drawn}
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
            points={points}
            commands={commands}
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
