import { TOU_PERIODS } from '@platform/domain';
import { Alert, Card, DatePicker, Empty, Segmented, Skeleton, Statistic, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../../shared/LoadFailed';
import { pickerNow } from '../../../shared/time';
import { type EnergyPeriod, useEnergy } from '../api';
import { kWh, num, yuan } from '../format';
import { IssueList } from './IssueList';

const EnergyChart = lazy(() => import('./EnergyChart'));

type Grain = 'day' | 'month';

function defaultRange(grain: Grain): [Dayjs, Dayjs] {
  const today = pickerNow();
  return grain === 'day'
    ? [today.subtract(29, 'day').startOf('day'), today.startOf('day')]
    : [today.subtract(11, 'month').startOf('month'), today.startOf('month')];
}

/**
 * A meter's energy per day or month over a chosen range (the company's calendar): totals, the
 * bars by time-of-use period, and the periods as a table with their cost.
 */
export function EnergyPanel({ meterId }: { meterId: number }) {
  const { t } = useTranslation('meters');
  const [grain, setGrain] = useState<Grain>('day');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => defaultRange('day'));
  const format = grain === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM';
  const energy = useEnergy(meterId, grain, range[0].format(format), range[1].format(format));
  const data = energy.data;
  const split = data?.total.tou != null;

  const columns: ColumnsType<EnergyPeriod> = [
    {
      title: grain === 'day' ? t('energy.day', '日期') : t('energy.month', '月份'),
      dataIndex: 'label',
      fixed: 'left',
    },
    {
      title: t('energy.kWh', '电量'),
      dataIndex: 'kWh',
      align: 'right',
      render: (v: number | null) => kWh(v),
    },
    ...(split
      ? TOU_PERIODS.map((period) => ({
          title: t(`tou.${period}`),
          key: period,
          align: 'right' as const,
          render: (_: unknown, p: EnergyPeriod) => num(p.tou?.[period]),
        }))
      : []),
    {
      title: t('energy.cost', '电费'),
      dataIndex: 'totalCents',
      align: 'right',
      render: (v: number | null) => yuan(v),
    },
  ];

  return (
    <Card
      title={t('energy.title', '电量')}
      className="meter-card"
      data-testid="meter-energy"
      extra={
        <Segmented<Grain>
          value={grain}
          onChange={(g) => {
            setGrain(g);
            setRange(defaultRange(g));
          }}
          options={[
            { value: 'day', label: t('energy.byDay', '按日') },
            { value: 'month', label: t('energy.byMonth', '按月') },
          ]}
          data-testid="meter-grain"
        />
      }
    >
      <div className="meter-toolbar">
        <DatePicker.RangePicker
          picker={grain === 'day' ? 'date' : 'month'}
          value={range}
          allowClear={false}
          className="meter-range"
          disabledDate={(d) => d.isAfter(dayjs().add(1, 'day'))}
          onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
          data-testid="meter-range"
        />
      </div>
      {energy.isError ? (
        <LoadFailed onRetry={() => energy.refetch()} />
      ) : !data ? (
        <Skeleton active />
      ) : (
        <>
          <div className="meter-figures" data-testid="meter-energy-figures">
            <Statistic title={t('energy.total', '合计电量')} value={kWh(data.total.kWh)} />
            <Statistic title={t('energy.totalCost', '合计电费')} value={yuan(data.total.totalCents)} />
            {split &&
              TOU_PERIODS.map((period) => (
                <Statistic key={period} title={t(`tou.${period}`)} value={kWh(data.total.tou?.[period])} />
              ))}
          </div>
          {!split && (
            <Alert
              type="info"
              showIcon
              className="meter-alert"
              title={t('energy.noTou', '公司还没有设置分时电价时段，电量未按尖峰平谷拆分。')}
            />
          )}
          <IssueList issues={data.issues} />
          {data.periods.every((p) => p.kWh == null) ? (
            <Empty description={t('energy.empty', '这段时间没有读数')} />
          ) : (
            <Suspense fallback={<div className="meter-chart" />}>
              <EnergyChart periods={data.periods} />
            </Suspense>
          )}
          <Table<EnergyPeriod>
            rowKey="label"
            size="small"
            columns={columns}
            dataSource={[...data.periods].reverse()}
            pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
            scroll={{ x: 'max-content' }}
            data-testid="meter-energy-table"
          />
        </>
      )}
    </Card>
  );
}
