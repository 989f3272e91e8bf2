import { DeleteOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Empty,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { usePaging } from '../../../shared/paging';
import { formatTime } from '../../../shared/time';
import {
  dataUpdateApi,
  dataUpdateKeys,
  type MonitorFilters,
  type MonitorRow,
  REFRESH_MS,
  useMonitors,
  WINDOWS,
  type WindowMinutes,
} from '../api';
import { AddMonitorModal } from '../components/AddMonitorModal';

const STATE_COLOURS = { ok: 'green', late: 'blue', alarm: 'red' } as const;

/** "3 minutes ago" in the page's language, from whole seconds up to days. */
export function ago(iso: string, now: number, lang: string): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const format = new Intl.RelativeTimeFormat(lang === 'en' ? 'en' : 'zh-CN', { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return format.format(seconds, 'second');
  if (abs < 3600) return format.format(Math.trunc(seconds / 60), 'minute');
  if (abs < 86_400) return format.format(Math.trunc(seconds / 3600), 'hour');
  return format.format(Math.trunc(seconds / 86_400), 'day');
}

/**
 * /cloudSurveillance/dataUpdate (cs_sditem_update): the watched data items and devices, their
 * window, last update and no-data state; add, change the window, remove. The list is read
 * again every REFRESH_MS while open (the server checks the monitors once per check period).
 */
export default function DataUpdatePage() {
  const { t, i18n } = useTranslation('dataupdate');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty } = usePaging(20);
  const [filters, setFilters] = useState<MonitorFilters>({});
  const [adding, setAdding] = useState(false);
  const [selected, setSelected] = useState<number[]>([]);
  const monitors = useMonitors(paging, filters);
  const refresh = () => queryClient.invalidateQueries({ queryKey: dataUpdateKeys.all });
  const filter = (change: MonitorFilters) => {
    setFilters((f) => ({ ...f, ...change }));
    reset();
  };
  const now = monitors.dataUpdatedAt || Date.now();
  const filtered = Boolean(filters.state || filters.kind || filters.keyword);
  const remove = async (ids: number[]) => {
    const res = await dataUpdateApi.remove(ids);
    message.success(res.message);
    setSelected((s) => s.filter((id) => !ids.includes(id)));
    await refresh();
    stepBackIfEmpty(queryClient.getQueryData(dataUpdateKeys.list(paging, filters)));
  };
  const changeWindow = async (row: MonitorRow, windowMinutes: WindowMinutes) => {
    const res = await dataUpdateApi.setWindow(row.id, windowMinutes);
    message.success(res.message);
    await refresh();
  };

  const empty = (
    <Empty
      data-testid="dataupdate-empty"
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        filtered ? (
          t('list.noMatch')
        ) : (
          <Space direction="vertical">
            <Typography.Text strong>{t('list.emptyTitle')}</Typography.Text>
            <Typography.Text type="secondary">{t('list.emptyText')}</Typography.Text>
          </Space>
        )
      }
    >
      {!filtered && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>
          {t('add.button')}
        </Button>
      )}
    </Empty>
  );

  return (
    <Card variant="borderless" data-testid="dataupdate-page">
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('list.search')}
          style={{ width: 220 }}
          aria-label={t('list.search')}
          onSearch={(v) => filter({ keyword: v.trim() || undefined })}
          data-testid="dataupdate-search"
        />
        <Select
          allowClear
          placeholder={t('fields.state')}
          style={{ width: 140 }}
          options={(['alarm', 'late', 'ok'] as const).map((s) => ({ value: s, label: t(`state.${s}`) }))}
          onChange={(state?: MonitorFilters['state']) => filter({ state })}
          data-testid="dataupdate-state-filter"
        />
        <Select
          allowClear
          placeholder={t('fields.kind')}
          style={{ width: 120 }}
          options={(['item', 'device'] as const).map((k) => ({ value: k, label: t(`kind.${k}`) }))}
          onChange={(kind?: MonitorFilters['kind']) => filter({ kind })}
        />
        <Select
          style={{ width: 160 }}
          value={filters.sort ?? 'lateness'}
          options={(['lateness', 'name', 'created'] as const).map((s) => ({
            value: s,
            label: t(`sort.${s}`),
          }))}
          onChange={(sort: MonitorFilters['sort']) => filter({ sort })}
          aria-label={t('sort.label')}
        />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setAdding(true)}
          data-testid="dataupdate-add"
        >
          {t('add.button')}
        </Button>
        <Popconfirm
          title={t('list.removeManyConfirm', { count: selected.length })}
          okText={t('common.remove')}
          cancelText={t('common.cancel')}
          okButtonProps={{ danger: true }}
          disabled={selected.length === 0}
          onConfirm={() => remove(selected)}
        >
          <Button danger icon={<DeleteOutlined />} disabled={selected.length === 0}>
            {t('list.removeMany', { count: selected.length })}
          </Button>
        </Popconfirm>
        <Tooltip title={t('list.refreshHint', { seconds: REFRESH_MS / 1000 })}>
          <Button icon={<ReloadOutlined spin={monitors.isFetching} />} onClick={() => refresh()}>
            {t('list.refresh')}
          </Button>
        </Tooltip>
        {monitors.dataUpdatedAt > 0 && (
          <Typography.Text type="secondary" data-testid="dataupdate-refreshed">
            {t('list.refreshed', {
              time: formatTime(monitors.dataUpdatedAt).slice(11),
              seconds: REFRESH_MS / 1000,
            })}
          </Typography.Text>
        )}
      </Space>
      <Table<MonitorRow>
        rowKey="id"
        loading={monitors.isLoading}
        dataSource={monitors.data?.list ?? []}
        pagination={pagination(monitors.data)}
        scroll={{ x: 960 }}
        locale={{ emptyText: monitors.isLoading ? ' ' : empty }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) }}
        columns={[
          {
            title: t('fields.name'),
            render: (_, r) => (
              <Space size={4} wrap>
                <Tag color={r.kind === 'item' ? 'blue' : 'purple'}>{t(`kind.${r.kind}`)}</Tag>
                <span>{r.name}</span>
                {r.serialNumber && <Typography.Text type="secondary">{r.serialNumber}</Typography.Text>}
              </Space>
            ),
          },
          {
            title: t('fields.window'),
            width: 150,
            render: (_, r) => (
              <Select
                size="small"
                style={{ width: 120 }}
                value={r.windowMinutes as WindowMinutes}
                aria-label={t('fields.window')}
                options={WINDOWS.map((w) => ({ value: w, label: t(`window.${w}`) }))}
                onChange={(w: WindowMinutes) => changeWindow(r, w)}
              />
            ),
          },
          {
            title: t('fields.lastUpdate'),
            render: (_, r) =>
              r.lastUpdateAt ? (
                <Space direction="vertical" size={0}>
                  <span>{formatTime(r.lastUpdateAt)}</span>
                  <Typography.Text type="secondary">
                    {ago(r.lastUpdateAt, now, i18n.language)}
                  </Typography.Text>
                </Space>
              ) : (
                <Typography.Text type="secondary">{t('list.never')}</Typography.Text>
              ),
          },
          {
            title: t('fields.state'),
            render: (_, r) => (
              <Space
                direction="vertical"
                size={0}
                data-testid={`dataupdate-state-${r.id}`}
                data-state={r.state}
              >
                <Tag color={STATE_COLOURS[r.state]}>{t(`state.${r.state}`)}</Tag>
                {r.state === 'alarm' && (
                  <Typography.Text type="danger">
                    {t('list.noDataSince', { time: formatTime(r.lastUpdateAt ?? r.createdAt) })}
                  </Typography.Text>
                )}
                {r.state === 'alarm' && r.alarmId !== null && (
                  <Link to="/cloudSurveillance/alertLog">{t('list.openAlarm', { id: r.alarmId })}</Link>
                )}
                {r.state === 'late' && (
                  <Typography.Text type="secondary">
                    {t('list.lateSince', { time: formatTime(r.createdAt) })}
                  </Typography.Text>
                )}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            width: 90,
            render: (_, r) => (
              <Popconfirm
                title={t('list.removeConfirm', { name: r.name })}
                okText={t('common.remove')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => remove([r.id])}
              >
                <Button type="link" danger>
                  {t('common.remove')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
      <AddMonitorModal open={adding} onClose={() => setAdding(false)} onAdded={() => void refresh()} />
    </Card>
  );
}
