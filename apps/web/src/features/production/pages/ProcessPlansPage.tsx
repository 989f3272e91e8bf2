import type { ScheduleStatus } from '@platform/domain';
import { Card, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/LoadFailed';
import { PageHeader } from '../../../shared/PageHeader';
import { usePaging } from '../../../shared/paging';
import { type Schedule, useSchedules } from '../api';
import { emptyLocale } from '../components/EmptyText';
import { PlanFilters, planColumns } from '../components/planColumns';
import '../production.css';

/**
 * /productionManagement/process (pm_process): the company's production plans to open the process
 * of, searched and filtered as in the scheduling but changed nowhere here. A person who records
 * units without planning (pm_process, not pm_scheduling) reaches a plan this way.
 */
export default function ProcessPlansPage() {
  const { t } = useTranslation('production');
  const { paging, pagination, reset, onSort } = usePaging();
  const [keyword, setKeyword] = useState('');
  const [status, setStatus] = useState<ScheduleStatus | undefined>();
  const schedules = useSchedules({ ...paging, keyword, status });

  const columns = planColumns(t, { numberTestId: (plan) => `production-open-${plan.id}` });

  return (
    <Card variant="borderless" data-testid="production-process-plans">
      <PageHeader title={t('menu.productionProcessPlans')} hint={t('process.plansHint')} />
      <PlanFilters
        keyword={keyword}
        fileName={t('menu.productionProcessPlans')}
        status={status}
        onKeyword={(value) => {
          setKeyword(value);
          reset();
        }}
        onStatus={(value) => {
          setStatus(value);
          reset();
        }}
        testPrefix="production-plans"
      />
      {schedules.isError ? <LoadFailed onRetry={() => void schedules.refetch()} /> : null}
      <Table<Schedule>
        onChange={onSort}
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
