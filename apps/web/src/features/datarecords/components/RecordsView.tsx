import {
  ClearOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FilterOutlined,
  FormOutlined,
  KeyOutlined,
  NodeIndexOutlined,
  PlusOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Dropdown, Empty, Grid, Popconfirm, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Page } from '../../../shared/paging';
import { usePaging } from '../../../shared/paging';
import { fromPickerValue } from '../../../shared/time';
import { ZoneHint } from '../../../shared/ZoneHint';
import { type DataItem, type DataRecord, drApi, drKeys, type RecordQuery, useRecords } from '../api';
import { exportRecords } from '../download';
import { fieldLabel, formatTs } from '../format';
import { useLiveRecords } from '../live';
import { ApiKeysDrawer } from './ApiKeysDrawer';
import { ClearDataModal } from './ClearDataModal';
import { FilterPanel, type FilterState } from './FilterPanel';
import { ImportModal } from './ImportModal';
import { RecordFormModal } from './RecordFormModal';
import { ValueCell } from './ValueCell';

const HIGHLIGHT_MS = 4000;

interface RecordsViewProps {
  item: DataItem;
  /** child records page: only records under this parent record */
  parentId?: number;
  /** where a record's child-records link goes (none on the child page itself) */
  childPath?: (record: DataRecord) => string;
  /** the form entry page of a form item (kind 11) */
  formPath?: string;
  /** extra per-row actions of other features (e.g. the "document" link of bound templates) */
  rowActions?: (record: DataRecord) => ReactNode;
  title: ReactNode;
}

interface Sort {
  field: string;
  order: 'asc' | 'desc';
}

/**
 * The records of one item: paged, sorted by time or any field, filtered; add / edit / delete,
 * clear, import, export, submission keys; new records arrive live (WebSocket) and are put on
 * top of page 1 with a short highlight when the list shows the newest first unfiltered,
 * otherwise the page just refreshes.
 */
export function RecordsView({ item, parentId, childPath, formPath, rowActions, title }: RecordsViewProps) {
  const { t } = useTranslation('datarecords');
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  // phones: nothing pinned, or the time and action columns alone would fill the screen
  const pinColumns = Grid.useBreakpoint().md === true;
  const { paging, pagination, reset, stepBackIfEmpty } = usePaging(20);
  const [sort, setSort] = useState<Sort>({ field: 'ts', order: 'desc' });
  const [filter, setFilter] = useState<FilterState>({ filters: [], range: null });
  const [showFilter, setShowFilter] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<DataRecord | 'new' | null>(null);
  const [clearing, setClearing] = useState(false);
  const [importing, setImporting] = useState(false);
  const [keysOpen, setKeysOpen] = useState(false);
  const [fresh, setFresh] = useState<Set<number>>(new Set());
  const timers = useRef<number[]>([]);
  const canWrite = item.level >= 2;
  const canAdmin = item.level >= 3;

  const query: RecordQuery = {
    itemId: item.id,
    ...paging,
    sortField: sort.field,
    sortOrder: sort.order,
    from: filter.range ? fromPickerValue(filter.range[0]) : undefined,
    to: filter.range ? fromPickerValue(filter.range[1]) : undefined,
    filters: filter.filters,
    parentId,
  };
  const records = useRecords(query);
  const queryRef = useRef(query);
  queryRef.current = query;

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const id of pending) window.clearTimeout(id);
    };
  }, []);

  const refresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: drKeys.recordsAll(item.id) }),
    [queryClient, item.id],
  );

  const onLive = useCallback(
    (incoming: DataRecord[]) => {
      const q = queryRef.current;
      // live records do not say whose children they are: a child page just reloads its page
      if (q.parentId !== undefined) {
        refresh();
        return;
      }
      const mine = incoming;
      const newestFirst = q.sortField === 'ts' && q.sortOrder === 'desc';
      const unfiltered = !q.filters?.length && !q.from && !q.to;
      if (q.pageNum !== 1 || !newestFirst || !unfiltered) {
        refresh();
        return;
      }
      const ordered = [...mine].sort((a, b) => b.ts.localeCompare(a.ts));
      queryClient.setQueryData<Page<DataRecord>>(drKeys.records(q), (old) => {
        if (!old) return old;
        const known = new Set(old.list.map((r) => r.id));
        const added = ordered.filter((r) => !known.has(r.id));
        return {
          ...old,
          list: [...added, ...old.list].slice(0, old.pageSize),
          total: old.total + added.length,
        };
      });
      const ids = ordered.map((r) => r.id);
      setFresh((old) => new Set([...old, ...ids]));
      timers.current.push(
        window.setTimeout(() => {
          setFresh((old) => {
            const next = new Set(old);
            for (const id of ids) next.delete(id);
            return next;
          });
        }, HIGHLIGHT_MS),
      );
    },
    [queryClient, refresh],
  );
  const live = useLiveRecords(item.id, onLive);

  const removeIds = async (ids: number[]) => {
    try {
      const envelope = await drApi.remove(item.id, ids);
      message.success(envelope.message);
      setSelected((old) => old.filter((id) => !ids.includes(id)));
      const page = await records.refetch();
      stepBackIfEmpty(page.data);
    } catch {
      // the http client showed the error
    }
  };

  const confirmBulkDelete = () =>
    modal.confirm({
      title: t('records.bulkDeleteConfirm', '确定删除选中的 {{count}} 条数据吗？', {
        count: selected.length,
      }),
      content: t('records.deleteHint', '删除后无法恢复。'),
      okText: t('common.delete', '删除'),
      okButtonProps: { danger: true, 'data-testid': 'bulk-delete-ok' },
      cancelText: t('common.cancel', '取消'),
      onOk: () => removeIds([...selected]),
    });

  const doExport = async (format: 'csv' | 'xlsx') => {
    try {
      await exportRecords({
        itemId: item.id,
        itemName: item.name,
        format,
        from: query.from,
        to: query.to,
        filters: query.filters,
      });
    } catch {
      // the http client showed the error
    }
  };

  const sortOrderOf = (key: string) =>
    sort.field === key ? (sort.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null;

  const actionsWidth = (childPath ? 190 : 130) + (rowActions ? 80 : 0);
  const columns: ColumnsType<DataRecord> = [
    {
      title: (
        <>
          {t('records.time', '时间')}
          <ZoneHint />
        </>
      ),
      dataIndex: 'ts',
      key: 'ts',
      width: 175,
      fixed: pinColumns ? 'left' : undefined,
      sorter: true,
      sortOrder: sortOrderOf('ts'),
      render: (ts: string) => formatTs(ts),
    },
    ...item.fields.map((field) => ({
      title:
        field.type === 4 ? (
          <>
            {fieldLabel(field)}
            <ZoneHint />
          </>
        ) : (
          fieldLabel(field)
        ),
      key: field.key,
      sorter: field.type !== 8 && field.type !== 9,
      sortOrder: sortOrderOf(field.key),
      width: field.type === 6 ? 240 : field.type === 4 ? 175 : 140,
      align: [10, 1, 2].includes(field.type) ? ('right' as const) : undefined,
      render: (_: unknown, row: DataRecord) => <ValueCell field={field} value={row.values[field.key]} />,
    })),
    {
      title: t('records.source', '来源'),
      dataIndex: 'source',
      key: 'source',
      width: 90,
      render: (source: string) => <Tag>{t(`sources.${source}`, source)}</Tag>,
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: actionsWidth,
      fixed: pinColumns ? 'right' : undefined,
      render: (_: unknown, row: DataRecord) => (
        <Space size={0}>
          {childPath ? (
            <Tooltip title={t('records.childrenHint', '查看子表数据')}>
              <Link to={childPath(row)} data-testid={`record-children-${row.id}`} className="dr-link">
                <NodeIndexOutlined /> {t('records.children', '子表数据')}
              </Link>
            </Tooltip>
          ) : null}
          {rowActions?.(row)}
          {canWrite ? (
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => setEditing(row)}
              data-testid={`record-edit-${row.id}`}
            >
              {t('common.edit', '编辑')}
            </Button>
          ) : null}
          {canWrite ? (
            <Popconfirm
              title={t('records.deleteConfirm', '确定删除这条数据吗？')}
              okText={t('common.ok', '确定')}
              okButtonProps={{ danger: true }}
              cancelText={t('common.cancel', '取消')}
              onConfirm={() => removeIds([row.id])}
            >
              <Button
                type="link"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('common.delete', '删除')}
                data-testid={`record-delete-${row.id}`}
              />
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];

  const scrollX =
    175 +
    90 +
    actionsWidth +
    item.fields.reduce((sum, f) => sum + (f.type === 6 ? 240 : f.type === 4 ? 175 : 140), 0);

  return (
    <div data-testid="records-view">
      <div className="dr-header">
        <div className="dr-title">{title}</div>
        <Tooltip
          title={
            live.connected
              ? t('live.onHint', '新数据将实时出现在第一页')
              : t('live.offHint', '实时连接已断开，正在重连…')
          }
        >
          <span data-testid="live-indicator" data-live={live.connected ? 'on' : 'off'}>
            <Badge
              status={live.connected ? 'processing' : 'default'}
              color={live.connected ? 'green' : undefined}
              text={live.connected ? t('live.on', '实时') : t('live.off', '离线')}
            />
          </span>
        </Tooltip>
      </div>
      <div className="dr-toolbar">
        <Space wrap size={8}>
          {canWrite ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="record-add"
            >
              {t('records.add', '新增数据')}
            </Button>
          ) : null}
          {formPath && canWrite ? (
            <Link to={formPath}>
              <Button icon={<FormOutlined />}>{t('records.formEntry', '表单填报')}</Button>
            </Link>
          ) : null}
          {canWrite ? (
            <Button
              danger
              icon={<DeleteOutlined />}
              disabled={!selected.length}
              onClick={confirmBulkDelete}
              data-testid="record-bulk-delete"
            >
              {t('records.bulkDelete', '批量删除')}
              {selected.length ? ` (${selected.length})` : ''}
            </Button>
          ) : null}
          <Button
            icon={<FilterOutlined />}
            type={showFilter || filter.filters.length || filter.range ? 'primary' : 'default'}
            ghost={Boolean(showFilter || filter.filters.length || filter.range)}
            onClick={() => setShowFilter((v) => !v)}
            data-testid="record-filter-toggle"
          >
            {t('filter.title', '筛选')}
            {filter.filters.length ? ` (${filter.filters.length})` : ''}
          </Button>
        </Space>
        <Space wrap size={8}>
          <Dropdown
            menu={{
              items: [
                { key: 'csv', label: 'CSV', onClick: () => void doExport('csv') },
                { key: 'xlsx', label: 'Excel (XLSX)', onClick: () => void doExport('xlsx') },
              ],
            }}
          >
            <Button icon={<DownloadOutlined />} data-testid="record-export">
              {t('records.export', '导出')}
            </Button>
          </Dropdown>
          {canWrite ? (
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="record-import">
              {t('records.import', '导入')}
            </Button>
          ) : null}
          <Button icon={<KeyOutlined />} onClick={() => setKeysOpen(true)} data-testid="record-keys">
            {t('keys.title', '接口密钥')}
          </Button>
          {canAdmin && parentId === undefined ? (
            <Button
              danger
              icon={<ClearOutlined />}
              onClick={() => setClearing(true)}
              data-testid="record-clear"
            >
              {t('clear.title', '清空数据')}
            </Button>
          ) : null}
        </Space>
      </div>
      {showFilter ? (
        <FilterPanel
          fields={item.fields}
          onApply={(state) => {
            setFilter(state);
            reset();
          }}
        />
      ) : null}
      <Table<DataRecord>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={records.data?.list ?? []}
        loading={records.isFetching && !records.data}
        pagination={{
          ...pagination(records.data),
          showTotal: (total) => t('records.total', '共 {{total}} 条', { total }),
        }}
        scroll={{ x: scrollX }}
        rowSelection={
          canWrite
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }
            : undefined
        }
        rowClassName={(row) => (fresh.has(row.id) ? 'dr-row-live' : '')}
        onRow={(row) => ({ 'data-testid': `record-row-${row.id}` }) as object}
        onChange={(_p, _f, sorter, extra) => {
          if (extra.action !== 'sort') return;
          const one = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<DataRecord> | undefined;
          const key = one?.order ? String(one.columnKey) : 'ts';
          setSort({ field: key, order: one?.order === 'ascend' ? 'asc' : 'desc' });
          reset();
        }}
        locale={{
          emptyText: (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('records.empty', '暂无数据')} />
          ),
        }}
        data-testid="records-table"
      />
      <RecordFormModal
        itemId={item.id}
        fields={item.fields}
        target={editing}
        parentId={parentId}
        onClose={() => setEditing(null)}
        onDone={refresh}
      />
      <ClearDataModal
        itemId={item.id}
        itemName={item.name}
        open={clearing}
        onClose={() => setClearing(false)}
        onDone={() => {
          setSelected([]);
          reset();
          refresh();
        }}
      />
      <ImportModal
        itemId={item.id}
        itemName={item.name}
        fields={item.fields}
        open={importing}
        onClose={() => setImporting(false)}
        onDone={refresh}
      />
      <ApiKeysDrawer
        open={keysOpen}
        onClose={() => setKeysOpen(false)}
        itemId={item.id}
        fields={item.fields}
      />
    </div>
  );
}
