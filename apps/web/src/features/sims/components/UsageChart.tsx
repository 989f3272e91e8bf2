/**
 * The usage readings of a card over time as a line (ECharts, loaded only with this chart),
 * with the plan as a dashed line: a monthly figure climbs through the month and falls back at
 * the start of the next.
 */
import type { Lang } from '@platform/domain';
import { LineChart } from 'echarts/charts';
import { GridComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { formatMinute } from '../../../shared/time';
import { formatMb } from '../model';

echarts.use([LineChart, GridComponent, TooltipComponent, MarkLineComponent, CanvasRenderer]);

const WORDS = {
  zh: { used: '本月已用', plan: '套餐' },
  en: { used: 'Used this month', plan: 'Plan' },
} as const;

/** The next round number up (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 times a power of ten). */
function niceCeil(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].find((m) => m * power >= value) ?? 10;
  return step * power;
}

export default function UsageChart({
  readings,
  planMb,
  lang,
}: {
  readings: Array<{ asOf: string; usedMb: number }>;
  planMb: number | null;
  lang: Lang;
}) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const instance = echarts.init(host.current);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(host.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const words = WORDS[lang];
    const dataMax = Math.max(0, ...readings.map((r) => r.usedMb));
    const inGb = Math.max(dataMax, planMb ?? 0) >= 2048;
    chart.current?.setOption(
      {
        grid: { left: 8, right: 24, top: 24, bottom: 8, containLabel: true },
        tooltip: {
          trigger: 'axis',
          valueFormatter: (value: unknown) => formatMb(Number(value)),
          axisPointer: { label: { formatter: (p: { value: unknown }) => formatMinute(Number(p.value)) } },
        },
        xAxis: {
          type: 'time',
          axisLabel: { hideOverlap: true, formatter: (value: number) => formatMinute(value).slice(5, 10) },
        },
        yAxis: {
          type: 'value',
          // one unit along the axis: GB once the figures reach 2 GB
          axisLabel: {
            formatter: (value: number) =>
              inGb ? `${Math.round((value / 1024) * 100) / 100} GB` : `${Math.round(value)} MB`,
          },
          // the plan's line stays in sight when the card used less than it
          max: planMb && planMb > dataMax ? niceCeil(planMb * 1.1) : undefined,
        },
        series: [
          {
            name: words.used,
            type: 'line',
            showSymbol: false,
            smooth: false,
            areaStyle: { opacity: 0.12 },
            lineStyle: { width: 2 },
            color: '#1677ff',
            data: readings.map((r) => [Date.parse(r.asOf), r.usedMb]),
            markLine: planMb
              ? {
                  silent: true,
                  symbol: 'none',
                  lineStyle: { type: 'dashed', color: '#f5222d' },
                  label: { formatter: `${words.plan} ${formatMb(planMb)}`, position: 'insideEndTop' },
                  data: [{ yAxis: planMb }],
                }
              : undefined,
          },
        ],
      },
      true,
    );
  }, [readings, planMb, lang]);

  return (
    <div
      ref={host}
      className="sim-chart"
      data-testid="sim-usage-chart"
      role="img"
      aria-label={WORDS[lang].used}
    />
  );
}
