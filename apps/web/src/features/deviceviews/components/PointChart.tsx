/**
 * One chart of the points of one unit: a line per point through the buckets' averages, the
 * tooltip with the bucket's minimum and maximum when it holds more than one reading. ECharts is
 * loaded with this component only (the page imports it lazily).
 */
import { LineChart } from 'echarts/charts';
import { DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { formatTime } from '../../../shared/time';
import type { Bucket } from '../api';

echarts.use([LineChart, GridComponent, TooltipComponent, LegendComponent, DataZoomComponent, CanvasRenderer]);

/** the product's chart colours (the first of the 14 of seed point 9's display lists) */
const COLORS = ['#1677ff', '#52c41a', '#fa8c16', '#eb2f96', '#13c2c2', '#722ed1', '#fadb14', '#a0d911'];

export interface ChartLine {
  key: string;
  name: string;
  buckets: Bucket[];
}

interface Props {
  unit: string | null;
  lines: ChartLine[];
  fromMs: number;
  toMs: number;
  words: { min: string; max: string; readings: string };
  testId?: string;
}

const round = (v: number) => Number(v.toPrecision(6));

export default function PointChart({ unit, lines, fromMs, toMs, words, testId }: Props) {
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
    const byName = new Map(lines.map((l) => [l.name, l]));
    chart.current?.setOption(
      {
        color: COLORS,
        animation: false,
        grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
        legend: { type: 'scroll', top: 0, left: 0, right: 0 },
        tooltip: {
          trigger: 'axis',
          confine: true,
          formatter: (params: Array<{ seriesName: string; marker: string; dataIndex: number }>) => {
            const first = params[0];
            if (!first) return '';
            const head = byName.get(first.seriesName)?.buckets[first.dataIndex];
            const lines_ = params.map((p) => {
              const b = byName.get(p.seriesName)?.buckets[p.dataIndex];
              if (!b) return '';
              const range =
                b[4] > 1
                  ? ` <span style="color:#999">(${words.min} ${round(b[2])} · ${words.max} ${round(b[3])} · ${b[4]} ${words.readings})</span>`
                  : '';
              return `${p.marker}${escapeHtml(p.seriesName)}: <b>${round(b[1])}${unit ? ` ${escapeHtml(unit)}` : ''}</b>${range}`;
            });
            return [head ? formatTime(head[0]) : '', ...lines_].join('<br/>');
          },
        },
        xAxis: {
          type: 'time',
          min: fromMs,
          max: toMs,
          axisLabel: { hideOverlap: true, formatter: (value: number) => formatTime(value).slice(5, 16) },
        },
        yAxis: { type: 'value', scale: true, name: unit ?? '', nameTextStyle: { align: 'left' } },
        series: lines.map((l) => ({
          name: l.name,
          id: l.key,
          type: 'line',
          showSymbol: l.buckets.length < 60,
          symbolSize: 5,
          connectNulls: false,
          lineStyle: { width: 2 },
          data: l.buckets.map((b) => [b[0], b[1]]),
        })),
      },
      true,
    );
  }, [lines, unit, fromMs, toMs, words]);

  return (
    <div
      ref={host}
      className="dv-chart"
      data-testid={testId}
      data-points={lines.reduce((n, l) => n + l.buckets.length, 0)}
      role="img"
      aria-label={lines.map((l) => l.name).join(', ')}
    />
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
