/**
 * System maintenance → gateways (/systemMaintenance/systemgateway, system_gateway): every
 * registered gateway across companies, with search, filters, sort and paging; registering a
 * batch shows each secret once.
 */
import { PlusOutlined } from '@ant-design/icons';
import { GATEWAY_STATUSES, type GatewayStatus } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, Empty, Flex, Grid, Input, Select, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useBuiltRoutes } from '../../../app/router/context';
import { usePaging } from '../../../shared/paging';
import { formatMinute } from '../../../shared/time';
import { STATUS_COLORS } from '../../devices/components/DeviceBits';
import { FirmwareVersionsPanel } from '../../firmware/components/FirmwareVersionsPanel';
import {
  type GatewaySecret,
  type RegistryQuery,
  type RegistryRow,
  type RegistrySort,
  registryKeys,
  useRegistry,
} from '../api';
import { RegisterModal } from '../components/RegisterModal';
import { SecretsModal } from '../components/SecretsModal';
import '../../devices/devices.css';
import '../systemMaintenance.css';

const gatewayDetailPath = (id: number) => `/systemMaintenance/sysgatewaydetail/${id}`;

const time = (value: string | null) => (value ? formatMinute(value) : '—');

export default function GatewayRegistryPage() {
  const { t } = useTranslation('systemMaintenance');
  const { t: td } = useTranslation('devices');
  const { t: tr } = useTranslation();
  const { pathname } = useLocation();
  const routeTitle = useBuiltRoutes().find(pathname)?.entry.meta?.title;
  const client = useQueryClient();
  const { paging, pagination, reset } = usePaging(20);
  const [keyword, setKeyword] = useState('');
  const [bound, setBound] = useState<boolean | undefined>();
  const [online, setOnline] = useState<boolean | undefined>();
  const [status, setStatus] = useState<GatewayStatus | undefined>();
  const [sort, setSort] = useState<{ sort?: RegistrySort; order?: 'asc' | 'desc' }>({});
  const [registering, setRegistering] = useState(false);
  const [secrets, setSecrets] = useState<GatewaySecret[] | null>(null);
  const query: RegistryQuery = { keyword: keyword || undefined, bound, online, status, ...sort };
  const rows = useRegistry(query, paging);
  const wide = Grid.useBreakpoint().md === true;
  // the firmware versions are the registry's second tab (?tab=firmware survives a reload)
  const [search, setSearch] = useSearchParams();
  const tab = search.get('tab') === 'firmware' ? 'firmware' : 'gateways';
  const sorted = (key: RegistrySort) =>
    sort.sort === key ? (sort.order === 'asc' ? 'ascend' : 'descend') : null;
  const yesNo = (setter: (v: boolean | undefined) => void) => (value: 'true' | 'false' | undefined) => {
    setter(value === undefined ? undefined : value === 'true');
    reset();
  };

  const columns: ColumnsType<RegistryRow> = [
    {
      title: 'SN',
      dataIndex: 'serialNumber',
      key: 'serialNumber',
      width: 150,
      sorter: true,
      sortOrder: sorted('serialNumber'),
      render: (sn: string, row) => (
        <Flex vertical>
          <Link to={gatewayDetailPath(row.id)} className="dv-mono" data-testid={`registry-sn-${sn}`}>
            {sn}
          </Link>
          {wide ? null : (
            <Typography.Text type="secondary" className="dv-small">
              {row.company?.name ?? t('registry.unbound', '未绑定')}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      title: td('fields.model', '型号'),
      dataIndex: 'model',
      key: 'model',
      width: 100,
      responsive: ['md'],
      sorter: true,
      sortOrder: sorted('model'),
    },
    {
      title: td('fields.firmware', '固件版本'),
      dataIndex: 'firmware',
      width: 90,
      responsive: ['lg'],
      render: (v: string | null) => v ?? '—',
    },
    {
      title: t('registry.company', '所属公司'),
      key: 'company',
      ellipsis: true,
      responsive: ['md'],
      render: (_, row) =>
        row.company ? (
          row.company.name
        ) : (
          <Typography.Text type="secondary">{t('registry.unbound', '未绑定')}</Typography.Text>
        ),
    },
    {
      title: td('fields.online', '在线状态'),
      key: 'online',
      width: 90,
      render: (_, row) => (
        <Badge
          status={row.online ? 'success' : 'default'}
          text={row.online ? td('online.on', '在线') : td('online.off', '离线')}
        />
      ),
    },
    {
      title: td('fields.status', '运行状态'),
      dataIndex: 'status',
      width: 90,
      render: (value: GatewayStatus) => (
        <Tag color={STATUS_COLORS[value]}>{td(`status.${value}`, value)}</Tag>
      ),
    },
    {
      title: t('registry.registeredAt', '登记时间'),
      dataIndex: 'registeredAt',
      key: 'registeredAt',
      width: 124,
      responsive: ['xl'],
      sorter: true,
      sortOrder: sorted('registeredAt'),
      render: (value: string | null) => <span className="dv-small">{time(value)}</span>,
    },
    {
      title: t('registry.boundAt', '绑定时间'),
      dataIndex: 'boundAt',
      key: 'boundAt',
      width: 124,
      responsive: ['lg'],
      sorter: true,
      sortOrder: sorted('boundAt'),
      render: (value: string | null) => <span className="dv-small">{time(value)}</span>,
    },
    {
      title: td('fields.lastSeenAt', '最近通信'),
      dataIndex: 'lastSeenAt',
      key: 'lastSeenAt',
      width: 124,
      responsive: ['lg'],
      sorter: true,
      sortOrder: sorted('lastSeenAt'),
      render: (value: string | null) => <span className="dv-small">{time(value)}</span>,
    },
  ];

  const filtered = Boolean(keyword || bound !== undefined || online !== undefined || status);
  return (
    <Card
      variant="borderless"
      title={routeTitle ? tr(routeTitle) : t('registry.title', '网关登记')}
      data-testid="registry-page"
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          const next = new URLSearchParams(search);
          if (key === 'firmware') next.set('tab', 'firmware');
          else next.delete('tab');
          setSearch(next, { replace: true });
        }}
        destroyOnHidden
        items={[
          {
            key: 'gateways',
            label: t('firmware:admin.tabGateways'),
            children: (
              <>
                <div className="dv-toolbar">
                  <Flex gap={8} wrap className="dv-filters">
                    <Input.Search
                      className="dv-search"
                      allowClear
                      placeholder={t('registry.search', '搜索序列号、型号或公司')}
                      onSearch={(value) => {
                        setKeyword(value.trim());
                        reset();
                      }}
                      data-testid="registry-search"
                    />
                    <Select<'true' | 'false'>
                      allowClear
                      className="dv-filter"
                      placeholder={t('registry.binding', '绑定情况')}
                      onChange={yesNo(setBound)}
                      options={[
                        { value: 'true', label: t('registry.bound', '已绑定') },
                        { value: 'false', label: t('registry.unbound', '未绑定') },
                      ]}
                      data-testid="registry-filter-bound"
                    />
                    <Select<'true' | 'false'>
                      allowClear
                      className="dv-filter"
                      placeholder={td('fields.online', '在线状态')}
                      onChange={yesNo(setOnline)}
                      options={[
                        { value: 'true', label: td('online.on', '在线') },
                        { value: 'false', label: td('online.off', '离线') },
                      ]}
                    />
                    <Select<GatewayStatus>
                      allowClear
                      className="dv-filter"
                      placeholder={td('fields.status', '运行状态')}
                      onChange={(value) => {
                        setStatus(value);
                        reset();
                      }}
                      options={GATEWAY_STATUSES.map((s) => ({ value: s, label: td(`status.${s}`, s) }))}
                    />
                  </Flex>
                  <Button
                    type="primary"
                    icon={<PlusOutlined />}
                    onClick={() => setRegistering(true)}
                    data-testid="registry-register"
                  >
                    {t('registry.register', '登记网关')}
                  </Button>
                </div>
                <Table<RegistryRow>
                  rowKey="id"
                  size="middle"
                  columns={columns}
                  dataSource={rows.data?.list ?? []}
                  loading={rows.isFetching && !rows.data}
                  pagination={pagination(rows.data)}
                  scroll={wide ? { x: 1080 } : undefined}
                  onRow={(row) => ({ 'data-testid': `registry-row-${row.serialNumber}` }) as never}
                  onChange={(_p, _f, sorter) => {
                    const s = sorter as SorterResult<RegistryRow>;
                    const key = s.columnKey as RegistrySort | undefined;
                    setSort(
                      s.order && key ? { sort: key, order: s.order === 'ascend' ? 'asc' : 'desc' } : {},
                    );
                  }}
                  locale={{
                    emptyText: (
                      <Empty
                        image={Empty.PRESENTED_IMAGE_SIMPLE}
                        description={
                          filtered
                            ? t('registry.noMatch', '没有符合条件的网关')
                            : t('registry.empty', '还没有登记网关：点击“登记网关”录入出厂序列号')
                        }
                      />
                    ),
                  }}
                  data-testid="registry-table"
                />
                <RegisterModal
                  open={registering}
                  onClose={() => setRegistering(false)}
                  onRegistered={(created) => {
                    setRegistering(false);
                    setSecrets(created);
                    void client.invalidateQueries({ queryKey: registryKeys.all });
                  }}
                />
              </>
            ),
          },
          {
            key: 'firmware',
            label: <span data-testid="registry-tab-firmware">{t('firmware:admin.tabFirmware')}</span>,
            children: <FirmwareVersionsPanel />,
          },
        ]}
      />
      <SecretsModal
        secrets={secrets}
        title={t('secrets.registeredTitle', '已登记 {{n}} 个网关', { n: secrets?.length ?? 0 })}
        onClose={() => setSecrets(null)}
      />
    </Card>
  );
}
