/**
 * An ECharts canvas for an option, resized with its box. The chart types and components of the
 * charts feature are registered here only, so ECharts loads with the pages that draw charts.
 */
import { BarChart, GaugeChart, HeatmapChart, LineChart, PieChart, ScatterChart } from 'echarts/charts';
import {
  CalendarComponent,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { type MutableRefObject, useEffect, useRef } from 'react';

echarts.use([
  LineChart,
  BarChart,
  PieChart,
  GaugeChart,
  ScatterChart,
  HeatmapChart,
  GridComponent,
  TooltipComponent,
  LegendComponent,
  DataZoomComponent,
  VisualMapComponent,
  CalendarComponent,
  CanvasRenderer,
]);

export type ChartInstance = echarts.ECharts;

interface Props {
  option: Record<string, unknown>;
  height: number | string;
  /** the instance, for the PNG export (getDataURL) */
  instanceRef?: MutableRefObject<ChartInstance | null>;
  testId?: string;
  label?: string;
  points?: number;
}

export default function EChart({ option, height, instanceRef, testId, label, points }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartInstance | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const instance = echarts.init(host.current);
    chart.current = instance;
    if (instanceRef) instanceRef.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(host.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
      if (instanceRef) instanceRef.current = null;
    };
  }, [instanceRef]);

  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);

  return (
    <div
      ref={host}
      style={{ width: '100%', height }}
      data-testid={testId}
      data-points={points}
      role="img"
      aria-label={label}
    />
  );
}

/** The chart as a PNG data URL on a white background, twice the screen's pixels. */
export function pngOf(instance: ChartInstance): string {
  return instance.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' });
}
