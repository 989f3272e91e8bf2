/**
 * Energy per day or month as bars stacked by time-of-use period (sharp, peak, flat, valley);
 * without a tariff, one bar of the period's energy. A period with no energy is a gap.
 */
import { TOU_PERIODS } from '@platform/domain';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import EChart from '../../charts/components/EChart';
import type { EnergyPeriod } from '../api';
import { TOU_COLORS } from '../format';

export default function EnergyChart({ periods }: { periods: EnergyPeriod[] }) {
  const { t } = useTranslation('meters');
  const option = useMemo(() => {
    const split = periods.some((p) => p.tou != null);
    const series = split
      ? TOU_PERIODS.map((period) => ({
          name: t(`tou.${period}`),
          type: 'bar',
          stack: 'energy',
          color: TOU_COLORS[period],
          barMaxWidth: 28,
          data: periods.map((p) => (p.tou ? Math.round(p.tou[period] * 100) / 100 : null)),
        }))
      : [
          {
            name: t('energy.kWh', '电量'),
            type: 'bar',
            color: '#1677ff',
            barMaxWidth: 28,
            data: periods.map((p) => p.kWh),
          },
        ];
    return {
      grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
      legend: { top: 0 },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: {
        type: 'category',
        data: periods.map((p) => p.label),
        axisLabel: { hideOverlap: true },
        axisTick: { alignWithLabel: true },
      },
      yAxis: { type: 'value', name: 'kWh', nameTextStyle: { align: 'left' } },
      series,
    };
  }, [periods, t]);
  return (
    <div className="meter-chart">
      <EChart option={option} height="100%" testId="meter-energy-chart" label={t('energy.title', '电量')} />
    </div>
  );
}
