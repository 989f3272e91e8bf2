/**
 * ChartView: a stored chart of a data item, loaded and drawn by itself. For pages, the dialog
 * and the board widgets.
 *
 * Props
 *   chartId   the chart's id (charts table)
 *   itemId    the data item it belongs to (the server checks the caller's read permission on it)
 *   height    the drawing's height: pixels or any CSS length (default 360); the width is the
 *             box's, sent to the server, which answers at most that many points per series
 *   live      keep the drawing current while shown: the data is read again when the item's
 *             live records arrive (the app's live hub, one subscription per item however many
 *             charts show it; at most one read per LIVE_GAP_MS), and every `refreshMs` so
 *             relative ranges (today, this month) move on without records too
 *   refreshMs the re-read period of a live chart (default 30 s)
 *   instanceRef  receives the ECharts instance (PNG export with getDataURL)
 *   onLoaded  called with the chart's detail (name, item, config, canEdit) once it is loaded
 *
 * States: a spinner while loading, the server's message when refused or gone, an empty state
 * when the item has no data in the range. ECharts loads with this component: import it lazily
 * from pages that should not carry it.
 */

import { MAX_CHART_WIDTH, MIN_CHART_WIDTH } from '@platform/domain';
import { Alert, Spin } from 'antd';
import { type MutableRefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../app/http/client';
import { useItemRecords } from '../../../app/live';
import { type ChartDetail, useChart, useChartData } from '../api';
import ChartBody from './ChartBody';
import type { ChartInstance } from './EChart';

export interface ChartViewProps {
  chartId: number;
  itemId: number;
  height?: number | string;
  live?: boolean;
  refreshMs?: number;
  instanceRef?: MutableRefObject<ChartInstance | null>;
  onLoaded?: (detail: ChartDetail) => void;
}

/** a live chart reads its data again at most this often */
const LIVE_GAP_MS = 2_000;

/** widths are rounded to steps of 50 px so a resize does not re-read the data at every pixel */
const STEP = 50;

/** The box's width in pixels, rounded down to a step, within the server's bounds. */
export function useBoxWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => {
      const w = Math.floor(el.getBoundingClientRect().width / STEP) * STEP;
      setWidth(Math.min(MAX_CHART_WIDTH, Math.max(MIN_CHART_WIDTH, w || STEP)));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [box, width];
}

export default function ChartView({
  chartId,
  itemId,
  height = 360,
  live = false,
  refreshMs = 30_000,
  instanceRef,
  onLoaded,
}: ChartViewProps) {
  const { t } = useTranslation('charts');
  const [box, width] = useBoxWidth();
  const detail = useChart(itemId, chartId);
  const data = useChartData(itemId, chartId, width, live ? refreshMs : false);
  const lastRead = useRef(0);
  const refetch = data.refetch;
  useItemRecords(
    itemId,
    () => {
      // records can come many a second: one read at most per LIVE_GAP_MS
      const now = Date.now();
      if (now - lastRead.current < LIVE_GAP_MS) return;
      lastRead.current = now;
      void refetch();
    },
    live,
  );

  useEffect(() => {
    if (detail.data) onLoaded?.(detail.data);
  }, [detail.data, onLoaded]);

  const error = detail.error ?? data.error;
  let body: React.ReactNode;
  if (error) {
    body = (
      <Alert type="warning" showIcon message={error instanceof ApiError ? error.message : t('view.failed')} />
    );
  } else if (!detail.data || !data.data) {
    body = (
      <div style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <Spin />
      </div>
    );
  } else {
    body = (
      <ChartBody
        config={detail.data.chart.config}
        series={data.data.series}
        height={height}
        instanceRef={instanceRef}
      />
    );
  }
  return (
    <div ref={box} style={{ width: '100%' }} data-testid="chart-view" data-chart-id={chartId}>
      {body}
    </div>
  );
}
