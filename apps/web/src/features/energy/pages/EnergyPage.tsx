import {
  DatabaseOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  EnvironmentOutlined,
  PlusOutlined,
  SettingOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { ENERGY_DATA_KIND_INFO, type EnergyDataKind } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  DatePicker,
  Empty,
  Grid,
  Popconfirm,
  Select,
  Space,
  Spin,
  Table,
  Tag,
} from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import dayjs from 'dayjs';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { usePaging } from '../../../shared/paging';
import {
  type EnergyRecord,
  energyApi,
  energyKeys,
  type RecordSort,
  useRecords,
  useSites,
  useSummary,
} from '../api';
import { FactorsModal } from '../components/FactorsModal';
import { Figures } from '../components/Figures';
import { FillModal } from '../components/FillModal';
import { ImportModal } from '../components/ImportModal';
import { RecordModal } from '../components/RecordModal';
import { SitesModal } from '../components/SitesModal';
import { companyToday, DAY, formatNumber, kindOfPath, langOf, lastMonths, monthsBetween } from '../model';
import '../energy.css';

// ECharts is large: it loads with this chart only
const EnergyChart = lazy(() => import('../components/EnergyChart'));

/**
 * /energy/coal, /energy/gas, /energy/steamconsume, /energy/steamoutput: one view, its kind read
 * from the path it opened on. Each kind is its own view, kept with its own filters and page
 * while another tab shows: a kept view shares the one location, so it reads the path once.
 */
export default function EnergyPage() {
  const { pathname } = useLocation();
  const [kind] = useState(() => kindOfPath(pathname));
  return <EnergyView kind={kind} />;
}

type Dialog =
  | { type: 'record'; record: EnergyRecord | null }
  | { type: 'sites' | 'factors' | 'import' | 'fill' };

function EnergyView({ kind }: { kind: EnergyDataKind }) {
  const { t, i18n } = useTranslation('energy');
  const lang = langOf(i18n.language);
  const info = ENERGY_DATA_KIND_INFO[kind];
  const wide = Grid.useBreakpoint().md === true;
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty } = usePaging();
  const [[from, to], setRange] = useState<[string, string]>(() => lastMonths(12));
  const [siteId, setSiteId] = useState<number | undefined>();
  const [sort, setSort] = useState<{ sort?: RecordSort; order?: 'asc' | 'desc' }>({});
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [exporting, setExporting] = useState<'csv' | 'xlsx' | null>(null);
  const filter = { from, to, ...(siteId ? { siteId } : {}) };
  const query = { ...filter, ...paging, ...sort };
  const records = useRecords(kind, query);
  const summary = useSummary(kind, filter);
  const sites = useSites();
  const months = useMemo(() => monthsBetween(from, to), [from, to]);
  const unit = info.unit;
  const num = (v: number, d = 3) => formatNumber(v, lang, d);

  const remove = async (record: EnergyRecord) => {
    try {
      const envelope = await energyApi.removeRecord(kind, record.id);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: energyKeys.all });
      stepBackIfEmpty(queryClient.getQueryData(energyKeys.records(kind, query)));
    } catch {
      // the http client showed the server's message
    }
  };

  const exportAs = async (format: 'csv' | 'xlsx') => {
    setExporting(format);
    try {
      await energyApi.exportRecords(kind, filter, format, lang);
    } catch {
      // the download showed the server's message
    } finally {
      setExporting(null);
    }
  };

  const today = companyToday();
  const presets = [
    { label: t('range.thisMonth'), months: 1 },
    { label: t('range.last3'), months: 3 },
    { label: t('range.last12'), months: 12 },
  ].map(({ label, months: n }) => ({
    label,
    value: lastMonths(n, today).map((d) => dayjs(d)) as [dayjs.Dayjs, dayjs.Dayjs],
  }));
  presets.push({
    label: t('range.thisYear'),
    value: [dayjs(today).startOf('year'), dayjs(today).endOf('year')],
  });

  const period = (r: EnergyRecord) => (
    <span className="energy-number">
      {r.periodType === 'month' ? r.periodOn.slice(0, 7) : r.periodOn}
      <Tag className="energy-tag" color={r.periodType === 'month' ? 'blue' : 'default'}>
        {t(`periodType.${r.periodType}`)}
      </Tag>
    </span>
  );

  const actions = (r: EnergyRecord) => (
    <Space size={0} wrap>
      <Button
        type="link"
        size="small"
        icon={wide ? undefined : <EditOutlined />}
        onClick={() => setDialog({ type: 'record', record: r })}
        data-testid={`energy-edit-${r.id}`}
      >
        {t('common.edit')}
      </Button>
      <Popconfirm
        title={t('list.deleteConfirm', {
          site: r.siteName,
          period: r.periodType === 'month' ? r.periodOn.slice(0, 7) : r.periodOn,
        })}
        okText={t('common.delete')}
        okButtonProps={{ danger: true }}
        cancelText={t('common.cancel')}
        onConfirm={() => remove(r)}
      >
        <Button
          type="link"
          size="small"
          danger
          icon={wide ? undefined : <DeleteOutlined />}
          data-testid={`energy-delete-${r.id}`}
        >
          {t('common.delete')}
        </Button>
      </Popconfirm>
    </Space>
  );

  const sortOrder = (key: RecordSort) =>
    sort.sort === key ? (sort.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null;

  const wideColumns: ColumnsType<EnergyRecord> = [
    {
      title: t('fields.period'),
      key: 'periodOn',
      width: 170,
      sorter: true,
      sortOrder: sortOrder('periodOn'),
      render: (_, r) => period(r),
    },
    {
      title: t('fields.site'),
      key: 'site',
      dataIndex: 'siteName',
      ellipsis: true,
      sorter: true,
      sortOrder: sortOrder('site'),
    },
    {
      title: `${t('fields.quantity')} (${unit})`,
      key: 'quantity',
      dataIndex: 'quantity',
      width: 150,
      align: 'right',
      sorter: true,
      sortOrder: sortOrder('quantity'),
      render: (v: number) => <span className="energy-number">{num(v)}</span>,
    },
    {
      title: t('fields.tce'),
      key: 'tce',
      dataIndex: 'tce',
      width: 200,
      align: 'right',
      render: (v: number, r) => (
        <span className="energy-number" data-testid={`energy-tce-${r.id}`}>
          {num(v)}
        </span>
      ),
    },
    {
      title: t('fields.source'),
      key: 'source',
      dataIndex: 'source',
      width: 110,
      render: (v: string) => <Tag>{t(`source.${v}`)}</Tag>,
    },
    { title: t('fields.remark'), key: 'remark', dataIndex: 'remark', ellipsis: true },
    { title: t('common.actions'), key: 'actions', width: 150, fixed: 'right', render: (_, r) => actions(r) },
  ];
  const phoneColumns: ColumnsType<EnergyRecord> = [
    {
      title: t('list.record'),
      key: 'record',
      render: (_, r) => (
        <div className="energy-phone-cell">
          <div className="energy-phone-head">
            {period(r)}
            <Tag>{t(`source.${r.source}`)}</Tag>
          </div>
          <span>{r.siteName}</span>
          <span className="energy-number">
            {num(r.quantity)} {unit} · <span data-testid={`energy-tce-${r.id}`}>{num(r.tce)}</span> tce
          </span>
          {r.remark ? <span className="energy-muted">{r.remark}</span> : null}
          {actions(r)}
        </div>
      ),
    },
  ];

  const data = summary.data;
  const noSites = sites.data !== undefined && sites.data.length === 0;
  const emptyText = noSites ? t('list.noSites') : siteId ? t('list.noMatch') : t('list.empty');

  return (
    <div className="energy-page" data-testid={`energy-page-${kind}`}>
      <Card variant="borderless" className="energy-card">
        <PageHeader
          title={t(`kinds.${kind}.title`)}
          hint={t(`kinds.${kind}.hint`, { unit })}
          extra={
            <Space wrap>
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setDialog({ type: 'record', record: null })}
                data-testid="energy-add"
              >
                {t('form.add')}
              </Button>
              <Button
                icon={<DatabaseOutlined />}
                onClick={() => setDialog({ type: 'fill' })}
                data-testid="energy-fill"
              >
                {t('fill.open')}
              </Button>
              <Button
                icon={<UploadOutlined />}
                onClick={() => setDialog({ type: 'import' })}
                data-testid="energy-import"
              >
                {t('import.open')}
              </Button>
              <Button
                icon={<EnvironmentOutlined />}
                onClick={() => setDialog({ type: 'sites' })}
                data-testid="energy-sites"
              >
                {t('sites.open')}
              </Button>
              <Button
                icon={<SettingOutlined />}
                onClick={() => setDialog({ type: 'factors' })}
                data-testid="energy-factors"
              >
                {t('factors.open')}
              </Button>
            </Space>
          }
        />
        <div className="energy-toolbar">
          <Select
            className="energy-site-filter"
            allowClear
            placeholder={t('list.allSites')}
            value={siteId}
            loading={sites.isFetching}
            options={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
            onChange={(value?: number) => {
              setSiteId(value);
              reset();
            }}
            data-testid="energy-site-filter"
          />
          <DatePicker.RangePicker
            className="energy-range"
            value={[dayjs(from), dayjs(to)]}
            allowClear={false}
            presets={presets}
            onChange={(range) => {
              if (range?.[0] && range[1]) {
                setRange([range[0].format(DAY), range[1].format(DAY)]);
                reset();
              }
            }}
            data-testid="energy-range"
          />
          <Space wrap className="energy-export">
            {(['csv', 'xlsx'] as const).map((format) => (
              <Button
                key={format}
                icon={<DownloadOutlined />}
                loading={exporting === format}
                onClick={() => exportAs(format)}
                data-testid={`energy-export-${format}`}
              >
                {t('list.export', { format: format.toUpperCase() })}
              </Button>
            ))}
          </Space>
        </div>
        {summary.isError ? <LoadFailed onRetry={() => void summary.refetch()} /> : null}
        <Figures summary={data} unit={unit} loading={!data && summary.isFetching} lang={lang} />
        <Suspense fallback={<Spin className="energy-chart-loading" />}>
          {data && data.total.count === 0 && !summary.isFetching ? (
            <Empty
              className="energy-chart-empty"
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={emptyText}
            />
          ) : (
            <EnergyChart
              months={months}
              byMonth={data?.byMonth ?? []}
              quantityName={`${t('fields.quantity')} (${unit})`}
              tceName={t('fields.tce')}
            />
          )}
        </Suspense>
      </Card>
      <Card variant="borderless" className="energy-card" title={t('list.title')}>
        {records.isError ? <LoadFailed onRetry={() => void records.refetch()} /> : null}
        <Table<EnergyRecord>
          rowKey="id"
          size="middle"
          columns={wide ? wideColumns : phoneColumns}
          dataSource={records.data?.list ?? []}
          loading={records.isFetching}
          pagination={pagination(records.data)}
          scroll={wide ? { x: 960 } : undefined}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} /> }}
          onChange={(_, __, sorter) => {
            const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<EnergyRecord> | undefined;
            const key = s?.columnKey as RecordSort | undefined;
            setSort(s?.order && key ? { sort: key, order: s.order === 'ascend' ? 'asc' : 'desc' } : {});
          }}
          data-testid="energy-table"
        />
      </Card>
      <RecordModal
        kind={kind}
        open={dialog?.type === 'record'}
        editing={dialog?.type === 'record' ? dialog.record : null}
        sites={sites.data ?? []}
        onSites={() => setDialog({ type: 'sites' })}
        onClose={() => setDialog(null)}
      />
      <SitesModal open={dialog?.type === 'sites'} onClose={() => setDialog(null)} />
      <FactorsModal open={dialog?.type === 'factors'} onClose={() => setDialog(null)} />
      <ImportModal kind={kind} open={dialog?.type === 'import'} onClose={() => setDialog(null)} />
      <FillModal
        kind={kind}
        open={dialog?.type === 'fill'}
        sites={sites.data ?? []}
        onClose={() => setDialog(null)}
      />
    </div>
  );
}
