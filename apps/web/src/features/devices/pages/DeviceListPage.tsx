/**
 * The company's devices (/devicemanagement/devicelist, dm_list; /devicecommunication/device,
 * cd_device: one page, two menus): search, filters, sort and paging on the server; a table on
 * wide screens, cards below 992 px; rows follow the live socket; binding, editing, unbinding,
 * and the detail drawer (`?device=<id>`).
 */
import { CloudDownloadOutlined, LinkOutlined, PlusOutlined } from '@ant-design/icons';
import { GATEWAY_STATUSES, type GatewayStatus } from '@platform/domain';
import {
  Badge,
  Button,
  Card,
  Empty,
  Flex,
  Grid,
  Input,
  Select,
  Space,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router-dom';
import { useBuiltRoutes } from '../../../app/router/context';
import { useSession } from '../../../app/store/session';
import { usePaging } from '../../../shared/paging';
import { formatMinute } from '../../../shared/time';
import { BatchUpgradeModal } from '../../firmware/components/BatchUpgradeModal';
import { type DeviceQuery, type DeviceRow, type DeviceSort, useDevices } from '../api';
import { BindModal } from '../components/BindModal';
import { DeviceActions } from '../components/DeviceActions';
import { DevicePictureView, OnlineCell, StatusTag } from '../components/DeviceBits';
import { DeviceCards } from '../components/DeviceCards';
import { DeviceDrawer } from '../components/DeviceDrawer';
import { EditDeviceModal } from '../components/EditDeviceModal';
import { type BindEvent, type DeviceStateEvent, useDeviceLive } from '../live';
import '../devices.css';

/** how long a row a live event changed stays marked */
const LIVE_MARK_MS = 4000;

export default function DeviceListPage() {
  const { t } = useTranslation('devices');
  const { t: tr } = useTranslation();
  const { pathname } = useLocation();
  const { find } = useBuiltRoutes();
  const { user } = useSession();
  const wide = Grid.useBreakpoint().lg === true;
  const [params, setParams] = useSearchParams();
  const { paging, pagination, reset, stepBackIfEmpty } = usePaging();
  const [keyword, setKeyword] = useState('');
  const [online, setOnline] = useState<boolean | undefined>();
  const [status, setStatus] = useState<GatewayStatus | undefined>();
  const [sort, setSort] = useState<{ sort?: DeviceSort; order?: 'asc' | 'desc' }>({});
  const [editing, setEditing] = useState<DeviceRow | null>(null);
  const [binding, setBinding] = useState(false);
  const [bindEvent, setBindEvent] = useState<BindEvent | null>(null);
  const [live, setLive] = useState<ReadonlySet<number>>(new Set());
  // gateways ticked for a batch firmware upgrade (kept across pages of the list)
  const [ticked, setTicked] = useState<DeviceRow[]>([]);
  const [batchOf, setBatchOf] = useState<DeviceRow[] | null>(null);
  const timers = useRef(new Map<number, number>());

  const query: DeviceQuery = {
    keyword: keyword || undefined,
    online,
    status,
    ...sort,
  };
  const devices = useDevices(query, paging);
  const filtered = Boolean(keyword || online !== undefined || status);
  const deviceParam = Number(params.get('device'));
  const openId = Number.isInteger(deviceParam) && deviceParam > 0 ? deviceParam : null;
  // binding needs a directory of the data cabin to put the device in
  const canPickDirectory = user?.menuCode.includes('sd_capsule') ?? false;

  const mark = useCallback((id: number) => {
    setLive((current) => new Set(current).add(id));
    window.clearTimeout(timers.current.get(id));
    timers.current.set(
      id,
      window.setTimeout(() => {
        timers.current.delete(id);
        setLive((current) => {
          const next = new Set(current);
          next.delete(id);
          return next;
        });
      }, LIVE_MARK_MS),
    );
  }, []);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) window.clearTimeout(timer);
    };
  }, []);

  const { connected } = useDeviceLive((event: DeviceStateEvent | BindEvent) => {
    if (event.type === 'device') mark(event.id);
    else setBindEvent(event);
  });

  const openDevice = (device: { id: number }) => {
    const next = new URLSearchParams(params);
    next.set('device', String(device.id));
    setParams(next);
  };
  const closeDevice = () => {
    const next = new URLSearchParams(params);
    next.delete('device');
    setParams(next);
  };

  const rows = devices.data?.list ?? [];
  const actions = (device: DeviceRow, compact = false) => (
    <DeviceActions
      device={device}
      compact={compact}
      onDetail={openDevice}
      onEdit={setEditing}
      onUnbound={async () => stepBackIfEmpty((await devices.refetch()).data)}
    />
  );

  const sorted = (key: DeviceSort) =>
    sort.sort === key ? (sort.order === 'asc' ? 'ascend' : 'descend') : null;

  const when = (value: string) => <span className="dv-small">{formatMinute(value)}</span>;

  // fits a 1440 px screen without scrolling sideways: name and serial number share a column,
  // as do model and firmware
  const columns: ColumnsType<DeviceRow> = [
    {
      // the pictures speak for themselves: no header to squeeze into the column
      title: <span className="dv-sr-only">{t('fields.pictureShort', '图片')}</span>,
      key: 'picture',
      width: 60,
      render: (_, device) => <DevicePictureView picture={device.picture} size={40} />,
    },
    {
      title: t('fields.device', '设备'),
      dataIndex: 'name',
      key: 'name',
      width: 170,
      sorter: true,
      sortOrder: sorted('name'),
      render: (name: string, device) => (
        <Space orientation="vertical" size={0}>
          <Typography.Link
            onClick={() => openDevice(device)}
            data-testid={`device-name-${device.serialNumber}`}
          >
            {name}
          </Typography.Link>
          <Typography.Text type="secondary" className="dv-mono dv-small">
            {device.serialNumber}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('fields.modelFirmware', '型号 / 固件'),
      key: 'model',
      width: 110,
      render: (_, device) => (
        <Space orientation="vertical" size={0}>
          <span>{device.model || '—'}</span>
          <Typography.Text type="secondary" className="dv-small">
            {device.firmware ?? '—'}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('fields.address', '安装地址'),
      dataIndex: 'address',
      key: 'address',
      ellipsis: { showTitle: true },
      render: (address: string) => address || '—',
    },
    {
      title: t('fields.online', '在线状态'),
      key: 'lastSeenAt',
      width: 140,
      sorter: true,
      sortOrder: sorted('lastSeenAt'),
      render: (_, device) => <OnlineCell device={device} />,
    },
    {
      title: t('fields.status', '运行状态'),
      dataIndex: 'status',
      key: 'status',
      width: 96,
      sorter: true,
      sortOrder: sorted('status'),
      render: (_, device) => <StatusTag device={device} />,
    },
    {
      title: t('fields.firstBoundAt', '首次绑定时间'),
      key: 'boundAt',
      width: 110,
      sorter: true,
      sortOrder: sorted('boundAt'),
      render: (_, device) => (
        <Tooltip
          title={
            device.boundAt && device.boundAt !== device.firstBoundAt
              ? t('fields.reboundAt', '本次绑定：{{time}}', { time: formatMinute(device.boundAt) })
              : null
          }
        >
          {when(device.firstBoundAt)}
        </Tooltip>
      ),
    },
    {
      title: t('fields.updatedAt', '更新时间'),
      dataIndex: 'updatedAt',
      key: 'updatedAt',
      width: 110,
      sorter: true,
      sortOrder: sorted('updatedAt'),
      render: when,
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: 180,
      fixed: 'right',
      render: (_, device) => actions(device),
    },
  ];

  const emptyText = filtered ? (
    <span data-testid="device-empty-filtered">{t('list.noMatch', '没有符合条件的设备')}</span>
  ) : (
    <Flex vertical align="center" gap={8} data-testid="device-empty">
      <Typography.Text strong>{t('list.emptyTitle', '还没有设备')}</Typography.Text>
      <ol className="dv-empty-steps">
        <li>{t('list.emptyStep1', '给网关通电并接入网络，等它的在线指示灯亮起；')}</li>
        <li>{t('list.emptyStep2', '点击“绑定设备”，选择数据舱目录，输入网关铭牌上的序列号并起个名字；')}</li>
        <li>{t('list.emptyStep3', '在倒计时结束前按下网关上的绑定按钮，设备就会出现在这里。')}</li>
      </ol>
      {canPickDirectory ? (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setBinding(true)}>
          {t('list.bind', '绑定设备')}
        </Button>
      ) : null}
    </Flex>
  );

  const title = find(pathname)?.entry.meta?.title;

  return (
    <Card
      variant="borderless"
      title={
        <Space size={10}>
          {title ? tr(title) : t('list.title', '设备列表')}
          <Tooltip
            title={connected ? t('list.liveOn', '实时更新中') : t('list.liveOff', '实时连接断开，正在重连')}
          >
            <Badge
              status={connected ? 'processing' : 'default'}
              text={<span className="dv-small">{t('list.live', '实时')}</span>}
              data-testid="device-live"
              data-live={connected ? 'on' : 'off'}
            />
          </Tooltip>
        </Space>
      }
      data-testid="device-list-page"
    >
      <div className="dv-toolbar">
        <Flex gap={8} wrap className="dv-filters">
          <Input.Search
            className="dv-search"
            allowClear
            placeholder={t('list.search', '搜索序列号、名称或地址')}
            onSearch={(value) => {
              setKeyword(value.trim());
              reset();
            }}
            data-testid="device-search"
          />
          <Select<'true' | 'false'>
            allowClear
            className="dv-filter"
            placeholder={t('fields.online', '在线状态')}
            value={online === undefined ? undefined : online ? 'true' : 'false'}
            onChange={(value) => {
              setOnline(value === undefined ? undefined : value === 'true');
              reset();
            }}
            options={[
              { value: 'true', label: t('online.on', '在线') },
              { value: 'false', label: t('online.off', '离线') },
            ]}
            data-testid="device-filter-online"
          />
          <Select<GatewayStatus>
            allowClear
            className="dv-filter"
            placeholder={t('fields.status', '运行状态')}
            value={status}
            onChange={(value) => {
              setStatus(value);
              reset();
            }}
            options={GATEWAY_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`, s) }))}
            data-testid="device-filter-status"
          />
        </Flex>
        <Flex gap={8} wrap>
          {wide ? (
            <Tooltip title={ticked.length === 0 ? t('batch.select', { ns: 'firmware' }) : null}>
              <Button
                icon={<CloudDownloadOutlined />}
                disabled={ticked.length === 0}
                onClick={() => setBatchOf(ticked)}
                data-testid="device-batch-upgrade"
              >
                {t('batch.button', { ns: 'firmware' })}
                {ticked.length > 0 ? ` (${ticked.length})` : ''}
              </Button>
            </Tooltip>
          ) : null}
          <Tooltip
            title={
              canPickDirectory
                ? null
                : t('list.bindNeedsCabin', '绑定设备需要选择数据舱目录，请联系管理员开通数据舱权限')
            }
          >
            <Button
              type="primary"
              icon={<LinkOutlined />}
              disabled={!canPickDirectory}
              onClick={() => setBinding(true)}
              data-testid="device-bind"
            >
              {t('list.bind', '绑定设备')}
            </Button>
          </Tooltip>
        </Flex>
      </div>
      {wide ? (
        <Table<DeviceRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={rows}
          loading={devices.isFetching && !devices.data}
          pagination={pagination(devices.data)}
          scroll={{ x: 1100 }}
          rowClassName={(device) => (live.has(device.id) ? 'dv-row-live' : '')}
          rowSelection={{
            selectedRowKeys: ticked.map((d) => d.id),
            preserveSelectedRowKeys: true,
            onChange: (_keys, selected) => setTicked(selected.filter(Boolean)),
            getCheckboxProps: (device) => ({ 'aria-label': device.serialNumber }) as never,
          }}
          onRow={(device) => ({ 'data-testid': `device-row-${device.serialNumber}` }) as never}
          onChange={(_pagination, _filters, sorter) => {
            const s = sorter as SorterResult<DeviceRow>;
            const key = s.columnKey as DeviceSort | undefined;
            setSort(s.order && key ? { sort: key, order: s.order === 'ascend' ? 'asc' : 'desc' } : {});
          }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} /> }}
          data-testid="device-table"
        />
      ) : (
        <DeviceCards
          rows={rows}
          loading={devices.isFetching && !devices.data}
          total={devices.data?.total ?? 0}
          pageNum={paging.pageNum}
          pageSize={paging.pageSize}
          onPage={(pageNum, pageSize) => pagination(devices.data).onChange?.(pageNum, pageSize)}
          live={live}
          empty={emptyText}
          actions={(device) => actions(device, true)}
          onOpen={openDevice}
        />
      )}
      <DeviceDrawer deviceId={openId} listPath={pathname} onClose={closeDevice} onEdit={setEditing} />
      <EditDeviceModal device={editing} onClose={() => setEditing(null)} />
      <BatchUpgradeModal devices={batchOf} onClose={() => setBatchOf(null)} />
      <BindModal
        open={binding}
        bindEvent={bindEvent}
        live={connected}
        onClose={() => setBinding(false)}
        onBound={(deviceId) => {
          if (deviceId != null) mark(deviceId);
        }}
      />
    </Card>
  );
}
