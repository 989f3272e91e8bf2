/**
 * Units finished per day as bars, every day of the period on the axis, the days without output
 * too. ECharts comes with the charts feature's canvas, loaded only with this chart.
 */
import { useMemo } from 'react';
import EChart from '../../charts/components/EChart';

export default function OutputChart({
  days,
  byDay,
  name,
}: {
  /** every day of the period, YYYY-MM-DD */
  days: string[];
  byDay: Record<string, number>;
  /** the series' name (the tooltip's), and the chart's for screen readers */
  name: string;
}) {
  const option = useMemo(
    () => ({
      grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: {
        type: 'category',
        data: days,
        axisLabel: { hideOverlap: true, formatter: (day: string) => day.slice(5) },
        axisTick: { alignWithLabel: true },
      },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name, type: 'bar', color: '#1677ff', barMaxWidth: 28, data: days.map((day) => byDay[day] ?? 0) },
      ],
    }),
    [days, byDay, name],
  );
  return (
    <div className="production-chart">
      <EChart option={option} height="100%" testId="production-report-chart" label={name} />
    </div>
  );
}
