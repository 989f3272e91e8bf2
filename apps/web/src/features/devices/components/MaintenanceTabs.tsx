/** The two tabs of maintenance: records of work done, and plans that come due. */
import { CheckOutlined, DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { MaintenanceKind } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Checkbox,
  DatePicker,
  Empty,
  Flex,
  Grid,
  Input,
  Popconfirm,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePaging } from '../../../shared/paging';
import { formatMinute } from '../../../shared/time';
import {
  deviceApi,
  deviceKeys,
  type MaintenancePlan,
  type MaintenanceRecord,
  type PlanQuery,
  type RecordQuery,
  useMaintenancePlans,
  useMaintenanceRecords,
} from '../api';
import { DeviceSelect, DoneModal, KindSelect, PlanModal, RecordModal } from './MaintenanceForms';

const DAY = 'YYYY-MM-DD';

function DeviceCell({ name, sn }: { name: string; sn: string }) {
  return (
    <Space orientation="vertical" size={0}>
      <span>{name}</span>
      <Typography.Text type="secondary" className="dv-mono dv-small">
        {sn}
      </Typography.Text>
    </Space>
  );
}

export function RecordsTab() {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const client = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty } = usePaging();
  const [deviceId, setDeviceId] = useState<number | undefined>();
  const [kind, setKind] = useState<MaintenanceKind | undefined>();
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<MaintenanceRecord | null | undefined>(undefined);
  // a phone shows the columns that matter, with icon actions, nothing to scroll sideways
  const wide = Grid.useBreakpoint().md === true;
  const query: RecordQuery = {
    deviceId,
    kind,
    from: range?.[0].format(DAY),
    to: range?.[1].format(DAY),
    keyword: keyword || undefined,
  };
  const records = useMaintenanceRecords(query, paging);
  const refresh = () => void client.invalidateQueries({ queryKey: deviceKeys.maintenance });

  const remove = async (row: MaintenanceRecord) => {
    try {
      const envelope = await deviceApi.deleteRecord(row.id);
      message.success(envelope.message);
      stepBackIfEmpty((await records.refetch()).data);
      refresh();
    } catch {
      // the http client showed why
    }
  };

  const columns: ColumnsType<MaintenanceRecord> = [
    { title: t('mnt.date', '维护日期'), dataIndex: 'date', width: 110 },
    {
      title: t('mnt.device', '设备'),
      key: 'device',
      width: 170,
      responsive: ['md'],
      render: (_, row) => <DeviceCell name={row.deviceName} sn={row.serialNumber} />,
    },
    {
      title: t('mnt.kind', '类型'),
      dataIndex: 'kind',
      width: 100,
      render: (value: MaintenanceKind, row) => (
        <Space size={4} wrap>
          <Tag color="blue">{t(`mntKind.${value}`, value)}</Tag>
          {row.planId ? <Tag>{t('mnt.fromPlan', '计划')}</Tag> : null}
        </Space>
      ),
    },
    {
      title: t('mnt.description', '工作内容'),
      dataIndex: 'description',
      ellipsis: { showTitle: true },
      render: (value: string, row) =>
        wide ? (
          value
        ) : (
          <Space orientation="vertical" size={0}>
            <span>{value}</span>
            <Typography.Text type="secondary" className="dv-small">
              {row.deviceName}
            </Typography.Text>
          </Space>
        ),
    },
    {
      title: t('mnt.performedBy', '执行人'),
      dataIndex: 'performedBy',
      width: 110,
      responsive: ['lg'],
      render: (value: string) => value || '—',
    },
    {
      title: t('mnt.cost', '费用（元）'),
      dataIndex: 'cost',
      width: 110,
      responsive: ['lg'],
      align: 'right',
      render: (value: number | null) => (value == null ? '—' : value.toFixed(2)),
    },
    {
      title: t('mnt.createdBy', '记录人'),
      key: 'createdBy',
      width: 140,
      responsive: ['xl'],
      render: (_, row) => (
        <Space orientation="vertical" size={0}>
          <span>{row.createdBy?.name ?? '—'}</span>
          <Typography.Text type="secondary" className="dv-small">
            {formatMinute(row.createdAt)}
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: wide ? 150 : 76,
      fixed: wide ? 'right' : undefined,
      render: (_, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            onClick={() => setEditing(row)}
            aria-label={t('common.edit', '编辑')}
          >
            {wide ? t('common.edit', '编辑') : null}
          </Button>
          <Popconfirm
            title={t('mnt.deleteRecord', '删除 {{date}} 的这条维护记录？', { date: row.date })}
            okText={t('common.delete', '删除')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel', '取消')}
            onConfirm={() => remove(row)}
          >
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('common.delete', '删除')}
              data-testid={`record-delete-${row.id}`}
            >
              {wide ? t('common.delete', '删除') : null}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const filtered = Boolean(deviceId || kind || range || keyword);
  return (
    <>
      <div className="dv-toolbar">
        <Flex gap={8} wrap className="dv-filters">
          <DeviceSelect
            allowClear
            className="dv-filter-wide"
            value={deviceId}
            onChange={(id) => {
              setDeviceId(id);
              reset();
            }}
            placeholder={t('mnt.allDevices', '全部设备')}
            testId="records-filter-device"
          />
          <KindSelect
            allowClear
            className="dv-filter"
            value={kind}
            placeholder={t('mnt.allKinds', '全部类型')}
            onChange={(k) => {
              setKind(k);
              reset();
            }}
            testId="records-filter-kind"
          />
          <DatePicker.RangePicker
            value={range}
            onChange={(value) => {
              setRange(value?.[0] && value[1] ? [value[0], value[1]] : null);
              reset();
            }}
          />
          <Input.Search
            allowClear
            className="dv-search"
            placeholder={t('mnt.search', '搜索工作内容或执行人')}
            onSearch={(value) => {
              setKeyword(value.trim());
              reset();
            }}
          />
        </Flex>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing(null)}
          data-testid="record-new"
        >
          {t('mnt.newRecord', '新增维护记录')}
        </Button>
      </div>
      <Table<MaintenanceRecord>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={records.data?.list ?? []}
        loading={records.isFetching && !records.data}
        pagination={pagination(records.data)}
        scroll={wide ? { x: 1000 } : undefined}
        onRow={(row) => ({ 'data-testid': `record-row-${row.id}` }) as never}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                filtered ? t('mnt.noMatch', '没有符合条件的记录') : t('mnt.noRecords', '还没有维护记录')
              }
            />
          ),
        }}
        data-testid="records-table"
      />
      <RecordModal record={editing} onClose={() => setEditing(undefined)} onSaved={refresh} />
    </>
  );
}

function DueCell({ plan }: { plan: MaintenancePlan }) {
  const { t } = useTranslation('devices');
  const text =
    plan.daysLeft < 0
      ? t('mnt.overdueDays', '已逾期 {{n}} 天', { n: -plan.daysLeft })
      : plan.daysLeft === 0
        ? t('mnt.dueToday', '今天到期')
        : t('mnt.daysLeft', '{{n}} 天后到期', { n: plan.daysLeft });
  return (
    <Space orientation="vertical" size={0}>
      <span data-testid="plan-next-due-value">{plan.nextDue}</span>
      {plan.overdue ? (
        <Tag color="error" data-testid="plan-overdue">
          {text}
        </Tag>
      ) : (
        <Typography.Text type={plan.daysLeft <= 3 ? 'warning' : 'secondary'} className="dv-small">
          {text}
        </Typography.Text>
      )}
    </Space>
  );
}

export function PlansTab() {
  const { t } = useTranslation('devices');
  const { message } = App.useApp();
  const client = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty } = usePaging();
  const [deviceId, setDeviceId] = useState<number | undefined>();
  const [overdue, setOverdue] = useState(false);
  const [editing, setEditing] = useState<MaintenancePlan | null | undefined>(undefined);
  const [doing, setDoing] = useState<MaintenancePlan | null>(null);
  const wide = Grid.useBreakpoint().md === true;
  const query: PlanQuery = { deviceId, overdue: overdue || undefined };
  const plans = useMaintenancePlans(query, paging);
  const refresh = () => void client.invalidateQueries({ queryKey: deviceKeys.maintenance });

  const remove = async (row: MaintenancePlan) => {
    try {
      const envelope = await deviceApi.deletePlan(row.id);
      message.success(envelope.message);
      stepBackIfEmpty((await plans.refetch()).data);
      refresh();
    } catch {
      // the http client showed why
    }
  };

  const columns: ColumnsType<MaintenancePlan> = [
    {
      title: t('mnt.title', '计划名称'),
      dataIndex: 'title',
      width: wide ? 150 : undefined,
      ellipsis: { showTitle: true },
      render: (title: string, row) =>
        wide ? (
          title
        ) : (
          <Space orientation="vertical" size={0}>
            <span>{title}</span>
            <Typography.Text type="secondary" className="dv-small">
              {row.deviceName}
            </Typography.Text>
          </Space>
        ),
    },
    {
      title: t('mnt.device', '设备'),
      key: 'device',
      width: 170,
      responsive: ['md'],
      render: (_, row) => <DeviceCell name={row.deviceName} sn={row.serialNumber} />,
    },
    {
      title: t('mnt.interval', '周期（天）'),
      dataIndex: 'intervalDays',
      width: 96,
      responsive: ['lg'],
      render: (n: number) => t('mnt.every', '每 {{n}} 天', { n }),
    },
    {
      title: t('mnt.nextDue', '下次到期'),
      key: 'nextDue',
      width: 150,
      render: (_, row) => <DueCell plan={row} />,
    },
    {
      title: t('mnt.assignee', '负责人'),
      key: 'assignee',
      width: 100,
      responsive: ['lg'],
      render: (_, row) => row.assignee?.name ?? '—',
    },
    {
      title: t('mnt.lastDone', '上次完成'),
      dataIndex: 'lastDoneOn',
      width: 110,
      responsive: ['xl'],
      render: (value: string | null) => value ?? '—',
    },
    {
      title: t('mnt.note', '备注'),
      dataIndex: 'note',
      ellipsis: { showTitle: true },
      responsive: ['xl'],
      render: (v: string) => v || '—',
    },
    {
      title: t('common.actions', '操作'),
      key: 'actions',
      width: wide ? 210 : 96,
      fixed: wide ? 'right' : undefined,
      render: (_, row) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            icon={<CheckOutlined />}
            onClick={() => setDoing(row)}
            aria-label={t('mnt.done', '完成')}
            data-testid={`plan-done-${row.id}`}
          >
            {wide ? t('mnt.done', '完成') : null}
          </Button>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            onClick={() => setEditing(row)}
            aria-label={t('common.edit', '编辑')}
          >
            {wide ? t('common.edit', '编辑') : null}
          </Button>
          <Popconfirm
            title={t('mnt.deletePlan', '删除计划“{{title}}”？已有的维护记录会保留。', { title: row.title })}
            okText={t('common.delete', '删除')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel', '取消')}
            onConfirm={() => remove(row)}
          >
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('common.delete', '删除')}
              data-testid={`plan-delete-${row.id}`}
            >
              {wide ? t('common.delete', '删除') : null}
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <>
      <div className="dv-toolbar">
        <Flex gap={8} wrap align="center" className="dv-filters">
          <DeviceSelect
            allowClear
            className="dv-filter-wide"
            value={deviceId}
            onChange={(id) => {
              setDeviceId(id);
              reset();
            }}
            placeholder={t('mnt.allDevices', '全部设备')}
            testId="plans-filter-device"
          />
          <Checkbox
            checked={overdue}
            onChange={(e) => {
              setOverdue(e.target.checked);
              reset();
            }}
            data-testid="plans-filter-overdue"
          >
            {t('mnt.onlyOverdue', '只看逾期')}
          </Checkbox>
        </Flex>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => setEditing(null)}
          data-testid="plan-new"
        >
          {t('mnt.newPlan', '新增维护计划')}
        </Button>
      </div>
      <Table<MaintenancePlan>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={plans.data?.list ?? []}
        loading={plans.isFetching && !plans.data}
        pagination={pagination(plans.data)}
        scroll={wide ? { x: 1040 } : undefined}
        rowClassName={(row) => (row.overdue ? 'dv-overdue' : '')}
        onRow={(row) =>
          ({ 'data-testid': `plan-row-${row.id}`, 'data-overdue': String(row.overdue) }) as never
        }
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={
                deviceId || overdue
                  ? t('mnt.noMatch', '没有符合条件的记录')
                  : t('mnt.noPlans', '还没有维护计划：为设备定一个周期，到期会在这里提醒')
              }
            />
          ),
        }}
        data-testid="plans-table"
      />
      <PlanModal plan={editing} onClose={() => setEditing(undefined)} onSaved={refresh} />
      <DoneModal plan={doing} onClose={() => setDoing(null)} onSaved={refresh} />
    </>
  );
}
