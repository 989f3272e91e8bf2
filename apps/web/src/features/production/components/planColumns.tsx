import { SCHEDULE_STATUSES, type ScheduleStatus } from '@platform/domain';
import { Input, Select, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ExportButton, type ExportColumn } from '../../../shared/ExportButton';
import { allPages } from '../../../shared/paging';
import type { Schedule } from '../api';
import { langOf, productionPaths, scheduleStatusLabel } from '../model';
import { PlanProgress } from './PlanProgress';
import { StatusTag } from './StatusTag';

/** A plan's number, leading to its process page. */
export function PlanNumber({ plan, testId }: { plan: Schedule; testId: string }) {
  return (
    <Link to={productionPaths.process(plan)} className="production-number" data-testid={testId}>
      {plan.number}
    </Link>
  );
}

function PlanProduct({ plan }: { plan: Schedule }) {
  return (
    <span className="production-product">
      <Typography.Text>{plan.categoryName}</Typography.Text>
      {plan.model ? <span className="production-muted">{plan.model}</span> : null}
    </span>
  );
}

function PlanDays({ plan }: { plan: Schedule }) {
  return (
    <span className="production-product production-number">
      <span>{plan.startOn}</span>
      <span>~ {plan.endOn}</span>
    </span>
  );
}

/**
 * The columns of a production plan on a wide screen, as the scheduling and the process list show
 * them: number (its link's test id made by `numberTestId`), product, the quantity when asked,
 * progress, line, days and status; all but progress sort on the server (the Table's onChange is
 * usePaging's onSort).
 */
export function planColumns(
  t: TFunction,
  { numberTestId, quantity = false }: { numberTestId: (plan: Schedule) => string; quantity?: boolean },
): ColumnsType<Schedule> {
  return [
    {
      title: t('fields.number'),
      key: 'number',
      sorter: true,
      width: 160,
      render: (_, plan) => <PlanNumber plan={plan} testId={numberTestId(plan)} />,
    },
    {
      title: t('fields.product'),
      key: 'product',
      sorter: true,
      width: 150,
      render: (_, plan) => <PlanProduct plan={plan} />,
    },
    ...(quantity
      ? ([
          {
            title: t('fields.quantity'),
            dataIndex: 'quantity',
            sorter: true,
            width: 70,
            align: 'right',
            render: (v: number) => <span className="production-number">{v}</span>,
          },
        ] satisfies ColumnsType<Schedule>)
      : []),
    {
      title: t('fields.progress'),
      key: 'progress',
      width: 220,
      render: (_, plan) => <PlanProgress plan={plan} />,
    },
    { title: t('fields.line'), dataIndex: 'line', sorter: true, width: 110, ellipsis: true },
    {
      title: t('fields.days'),
      key: 'days',
      sorter: true,
      width: 130,
      render: (_, plan) => <PlanDays plan={plan} />,
    },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      sorter: true,
      width: 100,
      render: (v: ScheduleStatus) => <StatusTag status={v} />,
    },
  ];
}

/**
 * The search and the status filter above a list of plans (each change starts again at page 1),
 * and the export of every plan they find.
 */
export function PlanFilters({
  keyword,
  status,
  onKeyword,
  onStatus,
  testPrefix,
  fileName,
}: {
  keyword: string;
  status: ScheduleStatus | undefined;
  onKeyword: (keyword: string) => void;
  onStatus: (status: ScheduleStatus | undefined) => void;
  testPrefix: string;
  /** the export's file name, before its time stamp */
  fileName: string;
}) {
  const { t, i18n } = useTranslation('production');
  const lang = langOf(i18n.language);
  const exportColumns: ExportColumn<Schedule>[] = [
    [t('fields.number'), (p) => p.number],
    [t('fields.product'), (p) => p.categoryName],
    [t('fields.model'), (p) => p.model],
    [t('fields.quantity'), (p) => p.quantity],
    [t('fields.recorded'), (p) => p.recorded],
    [t('fields.finished'), (p) => p.finished],
    [t('fields.line'), (p) => p.line],
    [t('fields.startOn'), (p) => p.startOn],
    [t('fields.endOn'), (p) => p.endOn],
    [t('fields.status'), (p) => scheduleStatusLabel(p.status, lang)],
  ];
  return (
    <div className="production-toolbar">
      <Input.Search
        className="production-search"
        allowClear
        placeholder={t('list.search')}
        onSearch={(value) => onKeyword(value.trim())}
        data-testid={`${testPrefix}-search`}
      />
      <Select<ScheduleStatus>
        className="production-filter"
        allowClear
        placeholder={t('list.allStatuses')}
        value={status}
        onChange={onStatus}
        options={SCHEDULE_STATUSES.map((s) => ({ value: s, label: scheduleStatusLabel(s, lang) }))}
        data-testid={`${testPrefix}-status-filter`}
      />
      <ExportButton<Schedule>
        load={() => allPages<Schedule>('/production/schedule/list', { keyword, status })}
        columns={exportColumns}
        fileName={fileName}
        testId={`${testPrefix}-export`}
      />
    </div>
  );
}
