import {
  CopyOutlined,
  DeleteOutlined,
  DragOutlined,
  EditOutlined,
  FolderAddOutlined,
  LockOutlined,
  PlusOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import { type CabinNodeType, COPYABLE_NODE_TYPES, type ItemKind } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Breadcrumb, Button, Card, Dropdown, Grid, Input, Space, Tooltip, Typography } from 'antd';
import { type Key, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { docTemplateEditPath } from '../../doctemplates/paths';
import { meterPageOf, meterPaths } from '../../meters/paths';
import { reportPaths } from '../../reports/paths';
import { type CabinNode, cabinApi, cabinKeys, useCabinSearch, useCabinTree } from '../api';
import { can, descendants, errorText, openKindOf, pathOf, paths, sortNodes } from '../cabin';
import { CabinTree } from '../components/CabinTree';
import { EntryTable } from '../components/EntryTable';
import { NameModal } from '../components/NameModal';
import { NodeIcon } from '../components/NodeIcon';
import { PermissionModal } from '../components/PermissionEditor';
import { TargetModal } from '../components/TargetModal';
import '../datacabin.css';

type Dialog =
  | { kind: 'create'; type: CabinNodeType }
  | { kind: 'rename'; node: CabinNode }
  | { kind: 'move' | 'copy'; nodes: CabinNode[] }
  | { kind: 'permission'; node: CabinNode }
  | null;

/**
 * The data cabin (spec points 3 and 5): the directory tree, the entries of the chosen
 * directory, and the toolbar acting on the chosen entries. Every button follows the caller's
 * level on the nodes it acts on (`level` of each row).
 */
export default function DataCapsulePage() {
  const { t } = useTranslation('datacabin');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const screens = Grid.useBreakpoint();
  const tree = useCabinTree();
  const rows = tree.data ?? [];
  const [dirId, setDirId] = useState<number | null>(null);
  const [selectedKeys, setSelectedKeys] = useState<Key[]>([]);
  const [keyword, setKeyword] = useState('');
  const [searchText, setSearchText] = useState('');
  const search = useCabinSearch(keyword);
  const [dialog, setDialog] = useState<Dialog>(null);

  const byId = useMemo(() => new Map(rows.map((r) => [r.id, r])), [rows]);
  const currentDir = dirId == null ? null : (byId.get(dirId) ?? null);
  const entries = useMemo(
    () => (keyword ? (search.data ?? []) : sortNodes(rows.filter((r) => r.parentId === dirId))),
    [keyword, search.data, rows, dirId],
  );
  const selected = selectedKeys
    .map((key) => entries.find((e) => e.id === Number(key)) ?? byId.get(Number(key)))
    .filter((n): n is CabinNode => n != null);
  // the top of the tree takes the company default (read and write)
  const canCreate = currentDir ? can.write(currentDir.level) : true;
  const allAdmin = selected.every((n) => can.admin(n.level));

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: cabinKeys.all });
  };

  const run = async (action: () => Promise<{ message: string }>): Promise<boolean> => {
    try {
      const envelope = await action();
      message.success(envelope.message);
      await refresh();
      return true;
    } catch {
      return false; // the http client showed the error
    }
  };

  const goDir = (id: number | null) => {
    setDirId(id);
    setSelectedKeys([]);
    setKeyword('');
    setSearchText('');
  };

  const open = (node: CabinNode) => {
    if (node.type === 'docTemplate' || node.type === 'richTemplate') {
      navigate(docTemplateEditPath(node.id));
      return;
    }
    if (node.type === 'report') {
      navigate(reportPaths.view(node));
      return;
    }
    // a meter: its standard or virtual page (the meter says which)
    if (node.type === 'meter') {
      meterPageOf(node).then(navigate, () => undefined);
      return;
    }
    // a bound gateway: its configuration (the route table puts the editor under the cabin)
    if (node.type === 'device' && node.refId != null) {
      navigate(`/smartdata/device/deviceconfig/${node.refId}`);
      return;
    }
    switch (openKindOf(node.type)) {
      case 'directory':
        goDir(node.id);
        return;
      case 'dataItem':
        navigate(paths.records(node, node.parentId == null ? undefined : byId.get(node.parentId)));
        return;
      case 'importOnly':
        message.info(t('cabin.importOnly', '此类文件不能直接打开，请将其导入设备任务流程中使用。'));
        return;
      default:
        message.info(t('cabin.notYet', '此类型的功能暂未开放'));
    }
  };

  /** each action names itself when nothing is selected */
  const needSelection = (
    refusal: 'selectMoveObjects' | 'selectCopyObjects' | 'selectDeleteObjects',
  ): boolean => {
    if (selected.length > 0) return true;
    message.warning(errorText(refusal));
    return false;
  };

  const startCopy = () => {
    if (!needSelection('selectCopyObjects')) return;
    if (selected.some((n) => !COPYABLE_NODE_TYPES.includes(n.type))) {
      message.warning(errorText('copyOnlyDirAndItem'));
      return;
    }
    setDialog({ kind: 'copy', nodes: selected });
  };

  const startDelete = () => {
    if (!needSelection('selectDeleteObjects')) return;
    const below = descendants(
      rows,
      selected.map((n) => n.id),
    );
    const items = [...selected, ...below].filter((n) => n.type === 'dataItem').length;
    modal.confirm({
      title: t('cabin.deleteTitle', '确定删除以下 {{count}} 项吗？', { count: selected.length }),
      okText: t('common.delete', '删除'),
      okButtonProps: { danger: true, 'data-testid': 'cabin-delete-ok' } as never,
      cancelText: t('common.cancel', '取消'),
      width: 520,
      content: (
        <div data-testid="cabin-delete-confirm">
          <ul className="dc-delete-list">
            {selected.map((n) => (
              <li key={n.id}>
                <NodeIcon type={n.type} kind={n.kind} /> {n.name}
              </li>
            ))}
          </ul>
          {below.length > 0 && (
            <Typography.Paragraph type="secondary">
              {t('cabin.deleteBelow', '连同其中的 {{count}} 项：{{names}}', {
                count: below.length,
                names: below
                  .slice(0, 12)
                  .map((n) => n.name)
                  .join('、')
                  .concat(below.length > 12 ? '…' : ''),
              })}
            </Typography.Paragraph>
          )}
          {items > 0 && (
            <Typography.Text type="danger">
              {t('cabin.deleteRecords', '{{count}} 个数据项的全部数据记录将一并删除，且无法恢复。', {
                count: items,
              })}
            </Typography.Text>
          )}
        </div>
      ),
      onOk: async () => {
        if (await run(() => cabinApi.remove(selected.map((n) => n.id)))) setSelectedKeys([]);
      },
    });
  };

  const crumbs = pathOf(rows, dirId);
  const entryName = dialog?.kind === 'permission' ? dialog.node.name : '';

  const toolbar = (
    <div className="dc-toolbar">
      <Space wrap size={8}>
        <Tooltip title={canCreate ? undefined : t('cabin.needWrite', '需要读写权限')}>
          <Button
            icon={<FolderAddOutlined />}
            disabled={!canCreate}
            onClick={() => setDialog({ kind: 'create', type: 'directory' })}
            data-testid="cabin-new-directory"
          >
            {t('cabin.newDirectory', '新建目录')}
          </Button>
        </Tooltip>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          disabled={!canCreate}
          onClick={() => setDialog({ kind: 'create', type: 'dataItem' })}
          data-testid="cabin-new-item"
        >
          {t('cabin.newItem', '新建数据项')}
        </Button>
        <Button
          icon={<PlusOutlined />}
          disabled={!canCreate}
          onClick={() => setDialog({ kind: 'create', type: 'report' })}
          data-testid="cabin-new-report"
        >
          {t('reports:newReport', '新建报表')}
        </Button>
        <Dropdown
          disabled={!canCreate}
          trigger={['click']}
          menu={{
            items: [
              {
                key: '101',
                label: t('meters:cabin.newStandard', '标准电表'),
                'data-testid': 'cabin-new-meter-standard',
              },
              {
                key: '100',
                label: t('meters:cabin.newVirtual', '虚拟电表'),
                'data-testid': 'cabin-new-meter-virtual',
              },
            ] as never,
            onClick: ({ key }) => navigate(meterPaths.create(key === '100' ? 100 : 101, dirId)),
          }}
        >
          <Button icon={<ThunderboltOutlined />} disabled={!canCreate} data-testid="cabin-new-meter">
            {t('meters:cabin.newMeter', '新建电表')}
          </Button>
        </Dropdown>
        <Button
          icon={<EditOutlined />}
          disabled={selected.length !== 1 || !allAdmin}
          onClick={() => selected[0] && setDialog({ kind: 'rename', node: selected[0] })}
          data-testid="cabin-rename"
        >
          {t('cabin.rename', '重命名')}
        </Button>
        <Button
          icon={<DragOutlined />}
          disabled={!allAdmin}
          onClick={() => needSelection('selectMoveObjects') && setDialog({ kind: 'move', nodes: selected })}
          data-testid="cabin-move"
        >
          {t('cabin.move', '移动')}
        </Button>
        <Button icon={<CopyOutlined />} disabled={!allAdmin} onClick={startCopy} data-testid="cabin-copy">
          {t('cabin.copy', '复制')}
        </Button>
        <Button
          danger
          icon={<DeleteOutlined />}
          disabled={!allAdmin}
          onClick={startDelete}
          data-testid="cabin-delete"
        >
          {t('common.delete', '删除')}
        </Button>
        <Button
          icon={<LockOutlined />}
          disabled={selected.length > 1 || (selected.length === 1 ? !allAdmin : !currentDir)}
          onClick={() => {
            const node = selected[0] ?? currentDir;
            if (node) setDialog({ kind: 'permission', node });
          }}
          data-testid="cabin-permission"
        >
          {t('cabin.permission', '权限')}
        </Button>
      </Space>
      <Input.Search
        className="dc-search"
        allowClear
        value={searchText}
        onChange={(e) => {
          setSearchText(e.target.value);
          if (e.target.value === '') setKeyword('');
        }}
        placeholder={t('cabin.searchPlaceholder', '按名称搜索')}
        onSearch={(value) => {
          setKeyword(value.trim());
          setSelectedKeys([]);
        }}
        data-testid="cabin-search"
      />
    </div>
  );

  return (
    <Card variant="borderless" className="dc-page" data-testid="datacabin-page">
      {toolbar}
      <div className={screens.md ? 'dc-split' : 'dc-stack'}>
        <aside className="dc-side">
          <CabinTree rows={rows} loading={tree.isLoading} selected={dirId} onSelect={goDir} />
        </aside>
        <section className="dc-main">
          <div className="dc-crumbs">
            {keyword ? (
              <Typography.Text data-testid="cabin-search-title">
                {t('cabin.searchResults', '“{{keyword}}”的搜索结果', { keyword })}
              </Typography.Text>
            ) : (
              <Breadcrumb
                items={[
                  {
                    title: (
                      <Typography.Link onClick={() => goDir(null)}>
                        {t('cabin.root', '数据舱')}
                      </Typography.Link>
                    ),
                  },
                  ...crumbs.map((n) => ({
                    title: <Typography.Link onClick={() => goDir(n.id)}>{n.name}</Typography.Link>,
                  })),
                ]}
              />
            )}
          </div>
          <EntryTable
            rows={entries}
            loading={tree.isFetching || search.isFetching}
            searching={keyword !== ''}
            selectedKeys={selectedKeys}
            onSelectKeys={setSelectedKeys}
            onOpen={open}
            onRecords={open}
            onForm={(node) => navigate(paths.formPage(node))}
            onConfigure={(node) => navigate(paths.config(node))}
            emptyText={
              keyword
                ? t('cabin.noMatch', '没有名称包含“{{keyword}}”的条目', { keyword })
                : t('cabin.empty', '此目录还是空的。可新建目录或数据项。')
            }
          />
        </section>
      </div>

      <NameModal
        open={dialog?.kind === 'create' || dialog?.kind === 'rename'}
        mode={dialog?.kind === 'rename' ? 'rename' : 'create'}
        type={
          dialog?.kind === 'create' ? dialog.type : dialog?.kind === 'rename' ? dialog.node.type : 'directory'
        }
        initialName={dialog?.kind === 'rename' ? dialog.node.name : ''}
        where={currentDir?.name ?? t('cabin.root', '数据舱')}
        onClose={() => setDialog(null)}
        onSubmit={async ({ name, kind }: { name: string; kind?: ItemKind }) => {
          if (dialog?.kind === 'rename') {
            const node = dialog.node;
            return run(() => cabinApi.rename(node.id, name));
          }
          if (dialog?.kind === 'create') {
            const type = dialog.type;
            return run(() => cabinApi.create({ parentId: dirId, type, name, ...(kind ? { kind } : {}) }));
          }
          return false;
        }}
      />
      <TargetModal
        open={dialog?.kind === 'move' || dialog?.kind === 'copy'}
        action={dialog?.kind === 'copy' ? 'copy' : 'move'}
        rows={rows}
        moving={dialog?.kind === 'move' || dialog?.kind === 'copy' ? dialog.nodes : []}
        onClose={() => setDialog(null)}
        onSubmit={async (targetId) => {
          if (dialog?.kind !== 'move' && dialog?.kind !== 'copy') return false;
          const ids = dialog.nodes.map((n) => n.id);
          const ok = await run(() =>
            dialog.kind === 'move' ? cabinApi.move(ids, targetId) : cabinApi.copy(ids, targetId),
          );
          if (ok) setSelectedKeys([]);
          return ok;
        }}
      />
      <PermissionModal
        nodeId={dialog?.kind === 'permission' ? dialog.node.id : null}
        name={entryName}
        onClose={() => setDialog(null)}
      />
    </Card>
  );
}
