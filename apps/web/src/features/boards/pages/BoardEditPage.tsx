/**
 * The designer page (editBoard, editBlankBoard full screen, boardConfig: start from a template).
 * Undo/redo, copy, lock, hide, layer order, delete, save with the version loaded: a save
 * refused as stale (someone saved meanwhile) keeps the edits on screen and offers to reload.
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
  addWidget,
  type BoardBody,
  builtInTemplate,
  copyWidget,
  DATA_PERMISSION,
  ERROR_CODES,
  type History,
  historyOf,
  moveLayer,
  placeWidgets,
  record,
  redo,
  removeWidget,
  setConfig,
  setFlag,
  undo,
  WIDGET_TYPES,
  type WidgetType,
} from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Result, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../../../app/http/client';
import { type BoardView, boardApi, boardKeys, useBoard } from '../api';
import { Designer } from '../components/Designer';
import { BoardDataProvider } from '../components/data';
import { PropertyPanel } from '../components/PropertyPanel';
import { showBoardPath } from '../paths';
import '../boards.css';

function Editor({ board, startFrom }: { board: BoardView; startFrom: BoardBody | null }) {
  const { t } = useTranslation('boards');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [history, setHistory] = useState<History<BoardBody>>(() => historyOf(startFrom ?? board.body));
  const [saved, setSaved] = useState<BoardBody | null>(startFrom ? null : board.body);
  const [version, setVersion] = useState(board.version);
  const [selected, setSelected] = useState<string | null>(board.selectedWidget);
  const [saving, setSaving] = useState(false);
  const body = history.present;
  const widget = body.widgets.find((w) => w.id === selected) ?? null;
  const readOnly = board.level < DATA_PERMISSION.write;
  const dirty = body !== saved;

  const edit = useCallback(
    (change: (b: BoardBody) => BoardBody) => setHistory((h) => record(h, change(h.present))),
    [],
  );
  /** the selection is remembered on the server for saved widgets only (a new one, after the save) */
  const remember = (id: string | null, body: BoardBody | null) => {
    if (readOnly && id === null) return;
    if (id === null || body?.widgets.some((x) => x.id === id))
      boardApi.select(board.id, id).catch(() => undefined);
  };
  const select = (id: string | null) => {
    if (id === selected) return;
    setSelected(id);
    remember(id, saved);
  };
  const add = (type: WidgetType) => {
    let id = '';
    edit((b) => {
      const added = addWidget(b, type);
      id = added.id;
      return added.body;
    });
    if (id) select(id);
  };

  const save = async () => {
    setSaving(true);
    try {
      const envelope = await boardApi.save({ id: board.id, version, body });
      message.success(envelope.message);
      setVersion(envelope.data.version);
      setSaved(body);
      remember(selected, body);
      void queryClient.invalidateQueries({ queryKey: boardKeys.list });
    } catch (error) {
      if (error instanceof ApiError && error.code === ERROR_CODES.CONFLICT) {
        modal.confirm({
          title: t('designer.staleTitle', '看板已被他人修改'),
          content: t('designer.staleText', '您的修改未保存。重新加载将显示对方保存的版本，并丢弃您的修改。'),
          okText: t('designer.reload', '重新加载'),
          cancelText: t('designer.keepEditing', '继续编辑'),
          onOk: async () => {
            await queryClient.invalidateQueries({ queryKey: boardKeys.one(board.id) });
          },
        });
      }
    } finally {
      setSaving(false);
    }
  };

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || (e.target as HTMLElement)?.closest('input, textarea')) return;
      if (e.key === 'z' && !e.shiftKey) {
        e.preventDefault();
        setHistory(undo);
      } else if (e.key === 'y' || (e.key === 'z' && e.shiftKey)) {
        e.preventDefault();
        setHistory(redo);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const w = widget;
  const tool = (key: string, title: string, icon: React.ReactNode, action: () => void, disabled = false) => (
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
    <div className="board-designer" data-testid="board-designer">
      <div className="designer-toolbar">
        <Space wrap size={4}>
          <Typography.Text strong className="designer-name">
            {board.name}
          </Typography.Text>
          <Tag>
            {body.mode === 'grid'
              ? t('mode.grid', '网格')
              : `${t('mode.canvas', '大屏')} ${body.width}×${body.height}`}
          </Tag>
          {dirty ? <Tag color="orange">{t('designer.unsaved', '未保存')}</Tag> : null}
        </Space>
        <Space wrap size={4}>
          {tool(
            'undo',
            t('designer.undo', '撤销'),
            <UndoOutlined />,
            () => setHistory(undo),
            history.past.length === 0,
          )}
          {tool(
            'redo',
            t('designer.redo', '重做'),
            <RedoOutlined />,
            () => setHistory(redo),
            history.future.length === 0,
          )}
          {tool(
            'copy',
            t('designer.copy', '复制'),
            <CopyOutlined />,
            () => {
              let id: string | null = null;
              edit((b) => {
                const copied = copyWidget(b, w!.id);
                id = copied.id;
                return copied.body;
              });
              if (id) select(id);
            },
            !w,
          )}
          {tool(
            'lock',
            w?.locked ? t('designer.unlock', '解锁') : t('designer.lock', '锁定'),
            w?.locked ? <UnlockOutlined /> : <LockOutlined />,
            () => edit((b) => setFlag(b, w!.id, 'locked', !w!.locked)),
            !w,
          )}
          {tool(
            'hide',
            w?.hidden ? t('designer.show', '显示') : t('designer.hide', '隐藏'),
            w?.hidden ? <EyeOutlined /> : <EyeInvisibleOutlined />,
            () => edit((b) => setFlag(b, w!.id, 'hidden', !w!.hidden)),
            !w,
          )}
          {tool(
            'front',
            t('designer.front', '置于顶层'),
            <VerticalAlignTopOutlined />,
            () => edit((b) => moveLayer(b, w!.id, 'front')),
            !w,
          )}
          {tool(
            'forward',
            t('designer.forward', '上移一层'),
            <ArrowUpOutlined />,
            () => edit((b) => moveLayer(b, w!.id, 'forward')),
            !w,
          )}
          {tool(
            'backward',
            t('designer.backward', '下移一层'),
            <ArrowDownOutlined />,
            () => edit((b) => moveLayer(b, w!.id, 'backward')),
            !w,
          )}
          {tool(
            'back',
            t('designer.back', '置于底层'),
            <VerticalAlignBottomOutlined />,
            () => edit((b) => moveLayer(b, w!.id, 'back')),
            !w,
          )}
          {tool(
            'delete',
            t('designer.delete', '删除组件'),
            <DeleteOutlined />,
            () => {
              edit((b) => removeWidget(b, w!.id));
              select(null);
            },
            !w,
          )}
          <Button onClick={() => navigate(showBoardPath(board.id))} data-testid="designer-preview">
            {t('designer.display', '显示')}
          </Button>
          <Button
            type="primary"
            icon={<SaveOutlined />}
            loading={saving}
            disabled={readOnly}
            onClick={save}
            data-testid="designer-save"
          >
            {t('designer.save', '保存')}
          </Button>
        </Space>
      </div>
      {readOnly ? (
        <Alert
          type="info"
          showIcon
          title={t('designer.readOnly', '您对此看板只有查看权限，不能保存修改。')}
        />
      ) : null}
      <div className="designer-body">
        <div className="designer-palette" data-testid="designer-palette">
          <Typography.Text type="secondary">{t('designer.add', '添加组件')}</Typography.Text>
          {WIDGET_TYPES.map((type) => (
            <Button
              key={type}
              block
              onClick={() => add(type)}
              disabled={readOnly}
              data-testid={`add-${type}`}
            >
              {t(`types.${type}`, type)}
            </Button>
          ))}
        </div>
        <div className="designer-stage">
          <BoardDataProvider body={body} load={() => boardApi.data(board.id)}>
            <Designer
              body={body}
              selected={selected}
              onSelect={select}
              onPlace={(rects) => edit((b) => placeWidgets(b, rects))}
            />
          </BoardDataProvider>
          {body.widgets.length === 0 ? (
            <div className="designer-empty">{t('designer.empty', '从左侧添加组件开始设计看板')}</div>
          ) : null}
        </div>
        <div className="designer-side">
          <PropertyPanel
            body={body}
            widget={widget}
            onWidget={(config) => edit((b) => setConfig(b, widget!.id, config as never))}
            onBoard={(change) => edit((b) => ({ ...b, ...change }))}
          />
        </div>
      </div>
    </div>
  );
}

export default function BoardEditPage() {
  const { t } = useTranslation('boards');
  const params = useParams();
  const id = Number(params.boardId);
  const board = useBoard(id);
  if (board.isLoading) return <Spin style={{ margin: 48 }} />;
  if (!board.data) return <Result status="404" title={t('show.missing', '看板不存在或无权查看')} />;
  const template = params.templateCode ? (builtInTemplate(params.templateCode)?.body ?? null) : null;
  // the editor keeps its own state; only a reload from the server (after a stale save) restarts it
  return <Editor key={`${board.data.id}-${board.data.version}`} board={board.data} startFrom={template} />;
}
