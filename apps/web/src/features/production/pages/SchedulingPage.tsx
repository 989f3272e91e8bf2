import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import type { ScheduleStatus } from '@platform/domain';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Grid, Popconfirm, Space, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { usePaging } from '../../../shared/paging';
import { type OwnProduct, productionApi, productionKeys, type Schedule, useSchedules } from '../api';
import { emptyLocale } from '../components/EmptyText';
import { PlanProgress } from '../components/PlanProgress';
import { PlanFilters, PlanNumber, planColumns } from '../components/planColumns';
import { ScheduleActions } from '../components/ScheduleActions';
import { ScheduleModal } from '../components/ScheduleModal';
import { StatusTag } from '../components/StatusTag';
import { canDelete, canEdit } from '../model';
import '../production.css';

/**
 * /productionManagement/scheduling (pm_scheduling): the company's production plans, latest start
 * first, searched by number, line or product and filtered by status; a plan is planned, edited,
 * started, finished, cancelled and deleted here, and its number leads to its process page.
 */
export default function SchedulingPage() {
  const { t } = useTranslation('production');
  const wide = Grid.useBreakpoint().md === true;
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const { paging, pagination, reset, stepBackIfEmpty, onSort } = usePaging();
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<ScheduleStatus | undefined>();
  const [editing, setEditing] = useState<{ plan: Schedule | null } | null>(null);
  const query = { ...paging, keyword, status };
  const schedules = useSchedules(query);
  const rows = schedules.data?.list ?? [];

  const known = useMemo<OwnProduct[]>(
    () => rows.map((r) => ({ id: r.categoryId, name: r.categoryName, model: r.model })),
    [rows],
  );

  const remove = async (plan: Schedule) => {
    try {
      const envelope = await productionApi.remove(plan.id);
      message.success(envelope.message);
      await queryClient.invalidateQueries({ queryKey: productionKeys.all });
      stepBackIfEmpty(queryClient.getQueryData(productionKeys.schedules(query)));
    } catch {
      // the http client showed the server's message
    }
  };

  const actions = (plan: Schedule) => (
    <Space size={0} wrap>
      <ScheduleActions plan={plan} testKey={plan.id} link />
      {canEdit(plan) ? (
        <Button
          type="link"
          size="small"
          icon={wide ? undefined : <EditOutlined />}
          onClick={() => setEditing({ plan })}
          data-testid={`production-edit-${plan.id}`}
        >
          {t('common.edit')}
        </Button>
      ) : null}
      {canDelete(plan) ? (
        <Popconfirm
          title={t('list.deleteConfirm', { number: plan.number })}
          okText={t('common.delete')}
          okButtonProps={{ danger: true }}
          cancelText={t('common.cancel')}
          onConfirm={() => remove(plan)}
        >
          <Button
            type="link"
            size="small"
            danger
            icon={wide ? undefined : <DeleteOutlined />}
            data-testid={`production-delete-${plan.id}`}
          >
            {t('common.delete')}
          </Button>
        </Popconfirm>
      ) : null}
    </Space>
  );

  const wideColumns: ColumnsType<Schedule> = [
    ...planColumns(t, { numberTestId: (plan) => `production-number-${plan.id}`, quantity: true }),
    {
      title: t('common.actions'),
      key: 'actions',
      width: 170,
      fixed: 'right',
      render: (_, plan) => actions(plan),
    },
  ];
  const phoneColumns: ColumnsType<Schedule> = [
    {
      title: t('list.plan'),
      key: 'plan',
      render: (_, plan) => (
        <div className="production-phone-cell">
          <div className="production-phone-head">
            <PlanNumber plan={plan} testId={`production-number-${plan.id}`} />
            <StatusTag status={plan.status} />
          </div>
          <span>
            {plan.categoryName}
            {plan.model ? <span className="production-muted"> · {plan.model}</span> : null}
          </span>
          <span className="production-muted">
            {plan.line} · {plan.startOn} ~ {plan.endOn}
          </span>
          <PlanProgress plan={plan} />
          {actions(plan)}
        </div>
      ),
    },
  ];

  return (
    <Card variant="borderless" data-testid="production-scheduling">
      <PageHeader
        title={t('menu.productionScheduling')}
        hint={t('list.hint')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing({ plan: null })}
            data-testid="production-add"
          >
            {t('form.add')}
          </Button>
        }
      />
      <PlanFilters
        keyword={keyword}
        fileName={t('menu.productionScheduling')}
        status={status}
        onKeyword={(value) => {
          setKeyword(value);
          reset();
        }}
        onStatus={(value) => {
          setStatus(value);
          reset();
        }}
        testPrefix="production"
      />
      {schedules.isError ? <LoadFailed onRetry={() => void schedules.refetch()} /> : null}
      <Table<Schedule>
        onChange={onSort}
        rowKey="id"
        size="middle"
        columns={wide ? wideColumns : phoneColumns}
        dataSource={rows}
        loading={schedules.isFetching}
        pagination={pagination(schedules.data)}
        scroll={wide ? { x: 1080 } : undefined}
        locale={emptyLocale(keyword || status ? t('list.noMatch') : t('list.empty'))}
        data-testid="production-table"
      />
      <ScheduleModal
        open={editing !== null}
        editing={editing?.plan ?? null}
        known={known}
        onClose={() => setEditing(null)}
      />
    </Card>
  );
}
