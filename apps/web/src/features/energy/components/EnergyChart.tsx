/**
 * The range month by month: the quantity in the kind's unit as bars, its tce as a line on the
 * right axis, every month of the range on the axis, the empty ones too (a gap, not a zero).
 */
import { useMemo } from 'react';
import EChart from '../../charts/components/EChart';

export default function EnergyChart({
  months,
  byMonth,
  quantityName,
  tceName,
}: {
  /** every month of the range, YYYY-MM */
  months: string[];
  byMonth: Array<{ month: string; quantity: number; tce: number }>;
  quantityName: string;
  tceName: string;
}) {
  const option = useMemo(() => {
    const of = new Map(byMonth.map((m) => [m.month, m]));
    return {
      grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
      legend: { top: 0, data: [quantityName, tceName] },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: {
        type: 'category',
        data: months,
        axisLabel: { hideOverlap: true },
        axisTick: { alignWithLabel: true },
      },
      yAxis: [
        { type: 'value', splitLine: { show: true } },
        { type: 'value', splitLine: { show: false } },
      ],
      series: [
        {
          name: quantityName,
          type: 'bar',
          color: '#1677ff',
          barMaxWidth: 28,
          data: months.map((m) => of.get(m)?.quantity ?? null),
        },
        {
          name: tceName,
          type: 'line',
          yAxisIndex: 1,
          color: '#fa8c16',
          symbolSize: 6,
          data: months.map((m) => of.get(m)?.tce ?? null),
        },
      ],
    };
  }, [months, byMonth, quantityName, tceName]);
  return (
    <div className="energy-chart">
      <EChart option={option} height="100%" testId="energy-chart" label={quantityName} />
    </div>
  );
}
