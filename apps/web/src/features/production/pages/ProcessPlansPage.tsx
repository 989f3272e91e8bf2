import { SCHEDULE_STATUSES, type ScheduleStatus } from '@platform/domain';
import { Card, Input, Select, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { usePaging } from '../../../shared/paging';
import { type Schedule, useSchedules } from '../api';
import { emptyLocale } from '../components/EmptyText';
import { PlanProgress } from '../components/PlanProgress';
import { StatusTag } from '../components/StatusTag';
import { langOf, productionPaths, scheduleStatusLabel } from '../model';
import '../production.css';

/**
 * /productionManagement/process (pm_process): the company's production plans to open the process
 * of, searched and filtered as in the scheduling but changed nowhere here. A person who records
 * units without planning (pm_process, not pm_scheduling) reaches a plan this way.
 */
export default function ProcessPlansPage() {
  const { t, i18n } = useTranslation('production');
  const lang = langOf(i18n.language);
  const { paging, pagination, reset } = usePaging();
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<ScheduleStatus | undefined>();
  const schedules = useSchedules({ ...paging, keyword, status });

  const columns: ColumnsType<Schedule> = [
    {
      title: t('fields.number'),
      key: 'number',
      width: 160,
      render: (_, plan) => (
        <Link
          to={productionPaths.process(plan)}
          className="production-number"
          data-testid={`production-open-${plan.id}`}
        >
          {plan.number}
        </Link>
      ),
    },
    {
      title: t('fields.product'),
      key: 'product',
      width: 150,
      render: (_, plan) => (
        <span className="production-product">
          <Typography.Text>{plan.categoryName}</Typography.Text>
          {plan.model ? <span className="production-muted">{plan.model}</span> : null}
        </span>
      ),
    },
    {
      title: t('fields.progress'),
      key: 'progress',
      width: 220,
      render: (_, plan) => <PlanProgress plan={plan} />,
    },
    { title: t('fields.line'), dataIndex: 'line', width: 100, ellipsis: true },
    {
      title: t('fields.days'),
      key: 'days',
      width: 120,
      render: (_, plan) => (
        <span className="production-product production-number">
          <span>{plan.startOn}</span>
          <span>~ {plan.endOn}</span>
        </span>
      ),
    },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      width: 90,
      render: (v: ScheduleStatus) => <StatusTag status={v} />,
    },
  ];

  return (
    <Card variant="borderless" data-testid="production-process-plans">
      <PageHeader title={t('menu.productionProcessPlans')} hint={t('process.plansHint')} />
      <div className="production-toolbar">
        <Input.Search
          className="production-search"
          allowClear
          placeholder={t('list.search')}
          onSearch={(value) => {
            setKeyword(value.trim());
            reset();
          }}
          data-testid="production-plans-search"
        />
        <Select<ScheduleStatus>
          className="production-filter"
          allowClear
          placeholder={t('list.allStatuses')}
          value={status}
          onChange={(value) => {
            setStatus(value);
            reset();
          }}
          options={SCHEDULE_STATUSES.map((s) => ({ value: s, label: scheduleStatusLabel(s, lang) }))}
          data-testid="production-plans-status-filter"
        />
      </div>
      {schedules.isError ? <LoadFailed onRetry={() => void schedules.refetch()} /> : null}
      <Table<Schedule>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={schedules.data?.list ?? []}
        loading={schedules.isFetching}
        pagination={pagination(schedules.data)}
        scroll={{ x: 840 }}
        locale={emptyLocale(keyword || status ? t('list.noMatch') : t('process.plansEmpty'))}
        data-testid="production-plans-table"
      />
    </Card>
  );
}
