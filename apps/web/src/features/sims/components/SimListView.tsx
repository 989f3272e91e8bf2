import {
  DownloadOutlined,
  EditOutlined,
  SwapOutlined,
  SyncOutlined,
  UploadOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Dropdown,
  Empty,
  Grid,
  Input,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePaging } from '../../../shared/paging';
import { formatMinute } from '../../../shared/time';
import {
  exportSims,
  type Side,
  type SimFilters,
  type SimRow,
  type SortField,
  simApi,
  simKeys,
  useSimList,
} from '../api';
import {
  CARRIER_TAG,
  carrierOptions,
  formatMb,
  langOf,
  STATE_TAG,
  simCarrierLabel,
  simPaths,
  simStateLabel,
  stateOptions,
} from '../model';
import { AssignModal } from './AssignModal';
import { EditSimModal } from './EditSimModal';
import { useSyncErrorLabel } from './labels';
import { SimImportModal } from './SimImportModal';
import { UsageBar } from './UsageBar';

const USAGE_CHOICES = [20, 40, 60, 80, 100];

/**
 * The SIM card list of either side: search (ICCID, number, gateway), filters (carrier, state,
 * moved, usage of at least X %), sort, paging; edit, import with its report, export. System
 * maintenance adds the company column, the stock filter, assignment and sync now.
 */
export function SimListView({ side }: { side: Side }) {
  const { t, i18n } = useTranslation('sims');
  const lang = langOf(i18n.language);
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const syncErrorLabel = useSyncErrorLabel();
  const wide = Grid.useBreakpoint().md === true;
  const { paging, pagination, reset } = usePaging(20);
  const [filters, setFilters] = useState<SimFilters>({});
  const [sort, setSort] = useState<{ field: SortField; order: 'asc' | 'desc' } | null>(null);
  const [editing, setEditing] = useState<SimRow | null>(null);
  const [importing, setImporting] = useState(false);
  const [assigning, setAssigning] = useState<number[] | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [syncing, setSyncing] = useState(false);
  const system = side === 'system';
  const query = {
    pageNum: paging.pageNum,
    pageSize: paging.pageSize,
    ...filters,
    ...(sort ? { sortField: sort.field, sortOrder: sort.order } : {}),
  };
  const cards = useSimList(side, query);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: simKeys.all });
  const filter = (change: Partial<SimFilters>) => {
    setFilters((f) => ({ ...f, ...change }));
    reset();
  };
  const filtered = Object.values(filters).some((v) => v !== undefined && v !== '');

  const download = async (format: 'csv' | 'xlsx') => {
    try {
      await exportSims(side, format, filters);
    } catch {
      // the download helper showed the error
    }
  };

  const syncNow = () =>
    modal.confirm({
      title: selected.length
        ? t('sync.confirmSelected', '立即向运营商同步所选的 {{count}} 张卡？', { count: selected.length })
        : t('sync.confirmAll', '立即向运营商同步全部 SIM 卡？'),
      content: t('sync.confirmHint', '将查询每张卡的状态和用量，卡多时需要一些时间。'),
      okText: t('common.ok', '确定'),
      cancelText: t('common.cancel', '取消'),
      onOk: async () => {
        setSyncing(true);
        try {
          const envelope = await simApi.sync(selected.length ? selected : undefined);
          const r = envelope.data;
          message.success(
            t('sync.done', '已同步 {{updated}} 张卡，{{failed}} 张未更新', {
              updated: r.updated,
              failed: r.failed,
            }),
          );
          refresh();
        } catch {
          // the http client showed the error
        } finally {
          setSyncing(false);
        }
      },
    });

  const sorter = (field: SortField) => ({
    sorter: true,
    sortOrder:
      sort?.field === field ? (sort.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null,
  });

  const columns: ColumnsType<SimRow> = [
    {
      title: 'ICCID',
      dataIndex: 'iccid',
      key: 'iccid',
      width: 200,
      fixed: wide ? 'left' : undefined,
      ...sorter('iccid'),
      render: (iccid: string, row) => (
        <div className="sim-iccid-cell">
          <Link to={simPaths.detail(side, row.id)} className="sim-mono" data-testid={`sim-link-${row.id}`}>
            {iccid}
          </Link>
          {row.moved ? (
            <Tooltip
              title={t('moved.tip', '{{at}} 从 {{from}} 移到 {{to}}', {
                at: formatMinute(row.moved.at),
                from: row.moved.from,
                to: row.moved.to,
              })}
            >
              <Tag color="warning" icon={<SwapOutlined />} className="sim-moved-tag" data-testid="sim-moved">
                {t('moved.tag', '已移动')}
              </Tag>
            </Tooltip>
          ) : null}
        </div>
      ),
    },
    ...(system
      ? [
          {
            title: t('fields.company', '公司'),
            key: 'company',
            width: 150,
            ...sorter('company'),
            render: (_: unknown, row: SimRow) =>
              row.company ? row.company.name : <Tag>{t('fields.stock', '平台库存')}</Tag>,
          },
        ]
      : []),
    {
      title: t('fields.carrier', '运营商'),
      dataIndex: 'carrier',
      key: 'carrier',
      width: 100,
      ...sorter('carrier'),
      render: (carrier: number) => <Tag color={CARRIER_TAG[carrier]}>{simCarrierLabel(carrier, lang)}</Tag>,
    },
    {
      title: t('fields.state', '状态'),
      dataIndex: 'state',
      key: 'state',
      width: 140,
      ...sorter('state'),
      render: (state: number, row) => (
        <Space size={4}>
          <Tag color={STATE_TAG[state]} className="sim-state-tag">
            {simStateLabel(state, lang)}
          </Tag>
          {row.syncError ? (
            <Tooltip title={syncErrorLabel(row.syncError)}>
              <WarningOutlined className="sim-warn" aria-label={syncErrorLabel(row.syncError)} />
            </Tooltip>
          ) : null}
        </Space>
      ),
    },
    {
      title: t('fields.usage', '本月用量'),
      key: 'usage',
      width: 180,
      ...sorter('usage'),
      render: (_, row) => <UsageBar usedMb={row.usedMb} planMb={row.planMb} percent={row.usagePercent} />,
    },
    {
      title: t('fields.plan', '套餐'),
      dataIndex: 'planMb',
      key: 'planMb',
      width: 90,
      ...sorter('planMb'),
      render: (plan: number | null) =>
        plan === null ? <span className="sim-muted">—</span> : formatMb(plan),
    },
    {
      title: t('fields.asOf', '用量截至'),
      dataIndex: 'usageAsOf',
      key: 'usageAsOf',
      width: 140,
      ...sorter('usageAsOf'),
      render: (at: string | null) => (at ? formatMinute(at) : <span className="sim-muted">—</span>),
    },
    {
      title: t('fields.gateway', '所在网关'),
      key: 'holder',
      width: 150,
      ...sorter('holder'),
      render: (_, row) =>
        row.holder ? (
          <span className="sim-mono">{row.holder.serialNumber}</span>
        ) : (
          <span className="sim-muted">{t('fields.noGateway', '未发现')}</span>
        ),
    },
    {
      title: t('fields.msisdn', '号码'),
      dataIndex: 'msisdn',
      key: 'msisdn',
      width: 140,
      render: (v) => v ?? '—',
    },
    {
      title: t('fields.notes', '备注'),
      dataIndex: 'notes',
      key: 'notes',
      ellipsis: true,
      render: (notes: string) => notes || <span className="sim-muted">—</span>,
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 90,
      fixed: wide ? 'right' : undefined,
      render: (_, row) => (
        <Button
          type="link"
          size="small"
          icon={<EditOutlined />}
          onClick={() => setEditing(row)}
          data-testid={`sim-edit-${row.id}`}
        >
          {t('common.edit', '编辑')}
        </Button>
      ),
    },
  ];

  // a phone gets two columns: the card with its tags, and its usage
  const phoneColumns: ColumnsType<SimRow> = [
    {
      title: 'ICCID',
      key: 'iccid',
      ...sorter('iccid'),
      render: (_, row) => (
        <div className="sim-phone-cell">
          <Link to={simPaths.detail(side, row.id)} className="sim-mono" data-testid={`sim-link-${row.id}`}>
            {row.iccid}
          </Link>
          <Space size={4} wrap>
            <Tag color={CARRIER_TAG[row.carrier]}>{simCarrierLabel(row.carrier, lang)}</Tag>
            <Tag color={STATE_TAG[row.state]}>{simStateLabel(row.state, lang)}</Tag>
            {row.moved ? (
              <Tag color="warning" icon={<SwapOutlined />} className="sim-moved-tag" data-testid="sim-moved">
                {t('moved.tag', '已移动')}
              </Tag>
            ) : null}
          </Space>
          <span className="sim-muted">
            {row.holder ? (
              <span className="sim-mono">{row.holder.serialNumber}</span>
            ) : (
              t('fields.noGateway', '未发现')
            )}
            {system ? ` · ${row.company ? row.company.name : t('fields.stock', '平台库存')}` : ''}
          </span>
        </div>
      ),
    },
    {
      title: t('fields.usage', '本月用量'),
      key: 'usage',
      width: 96,
      ...sorter('usage'),
      render: (_, row) => (
        <UsageBar usedMb={row.usedMb} planMb={row.planMb} percent={row.usagePercent} compact />
      ),
    },
  ];

  return (
    <div data-testid={system ? 'system-sim-list' : 'sim-list'}>
      <div className="sim-header">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {/* the menu's own words, from the route table */}
          {system ? t('menu.systemSim') : t('menu.simList')}
        </Typography.Title>
        <Space wrap size={8}>
          {system ? (
            <>
              <Button
                icon={<SwapOutlined />}
                disabled={selected.length === 0}
                onClick={() => setAssigning(selected)}
                data-testid="sim-assign-open"
              >
                {t('assign.open', '分配')}
                {selected.length ? ` (${selected.length})` : ''}
              </Button>
              <Button
                icon={<SyncOutlined spin={syncing} />}
                loading={syncing}
                onClick={syncNow}
                data-testid="sim-sync"
              >
                {t('sync.now', '立即同步')}
              </Button>
            </>
          ) : null}
          <Button icon={<UploadOutlined />} onClick={() => setImporting(true)} data-testid="sim-import-open">
            {t('import.open', '导入')}
          </Button>
          <Dropdown
            menu={{
              items: [
                { key: 'xlsx', label: 'Excel (XLSX)' },
                { key: 'csv', label: 'CSV' },
              ],
              onClick: ({ key }) => void download(key as 'csv' | 'xlsx'),
            }}
          >
            <Button icon={<DownloadOutlined />} data-testid="sim-export">
              {t('export.open', '导出')}
            </Button>
          </Dropdown>
        </Space>
      </div>
      <div className="sim-filters" data-testid="sim-filters">
        <Input.Search
          className="sim-search"
          allowClear
          placeholder={t('list.search', '搜索 ICCID、号码或网关序列号')}
          onSearch={(value) => filter({ keyword: value.trim() || undefined })}
          data-testid="sim-search"
        />
        <Select
          className="sim-filter"
          allowClear
          placeholder={t('fields.carrier', '运营商')}
          options={carrierOptions(lang)}
          value={filters.carrier}
          onChange={(carrier) => filter({ carrier })}
          data-testid="sim-filter-carrier"
        />
        <Select
          className="sim-filter"
          allowClear
          placeholder={t('fields.state', '状态')}
          options={stateOptions(lang)}
          value={filters.state}
          onChange={(state) => filter({ state })}
          data-testid="sim-filter-state"
        />
        <Select
          className="sim-filter"
          allowClear
          placeholder={t('filter.moved', '是否移动')}
          options={[
            { value: 'yes', label: t('filter.movedYes', '已移动') },
            { value: 'no', label: t('filter.movedNo', '未移动') },
          ]}
          value={filters.moved === undefined ? undefined : filters.moved ? 'yes' : 'no'}
          onChange={(v?: string) => filter({ moved: v === undefined ? undefined : v === 'yes' })}
          data-testid="sim-filter-moved"
        />
        <Select
          className="sim-filter"
          allowClear
          placeholder={t('filter.usage', '用量不低于')}
          options={USAGE_CHOICES.map((p) => ({
            value: p,
            label: t('filter.usageAtLeast', '用量 ≥ {{p}}%', { p }),
          }))}
          value={filters.usageMin}
          onChange={(usageMin) => filter({ usageMin })}
          data-testid="sim-filter-usage"
        />
        {system ? (
          <Select
            className="sim-filter"
            allowClear
            placeholder={t('filter.owner', '归属')}
            options={[
              { value: 'stock', label: t('fields.stock', '平台库存') },
              { value: 'assigned', label: t('filter.assigned', '已分配') },
            ]}
            value={filters.stock === undefined ? undefined : filters.stock ? 'stock' : 'assigned'}
            onChange={(v?: string) => filter({ stock: v === undefined ? undefined : v === 'stock' })}
            data-testid="sim-filter-stock"
          />
        ) : null}
      </div>
      <Table<SimRow>
        rowKey="id"
        size="middle"
        columns={wide ? columns : phoneColumns}
        dataSource={cards.data?.list ?? []}
        loading={cards.isFetching}
        pagination={pagination(cards.data)}
        scroll={wide ? { x: system ? 1520 : 1370 } : undefined}
        rowSelection={
          system
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys as number[]),
                preserveSelectedRowKeys: true,
              }
            : undefined
        }
        onChange={(_, __, sorter) => {
          const s = sorter as SorterResult<SimRow>;
          setSort(
            s.order
              ? { field: s.columnKey as SortField, order: s.order === 'ascend' ? 'asc' : 'desc' }
              : null,
          );
        }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                filtered
                  ? t('list.noMatch', '没有符合条件的 SIM 卡')
                  : system
                    ? t('list.emptySystem', '平台上还没有 SIM 卡，可通过“导入”添加到库存')
                    : t('list.empty', '暂无 SIM 卡，可通过“导入”添加')
              }
            />
          ),
        }}
        data-testid="sim-table"
      />
      <EditSimModal side={side} card={editing} onClose={() => setEditing(null)} onDone={refresh} />
      <SimImportModal side={side} open={importing} onClose={() => setImporting(false)} onDone={refresh} />
      {system ? (
        <AssignModal
          ids={assigning}
          onClose={() => setAssigning(null)}
          onDone={() => {
            setSelected([]);
            refresh();
          }}
        />
      ) : null}
    </div>
  );
}
