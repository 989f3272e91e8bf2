/**
 * Calls of the charts of data items (docs/charts.md): list, open, save, delete, draw (at most
 * `width` points per series, downsampled on the server), preview an unsaved configuration, and
 * export the drawn data as CSV or XLSX.
 */
import type { ChartConfig } from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, post, request } from '../../app/http/client';
import { downloadFile } from '../../app/http/download';

const BASE = '/smartdata/chart';

export interface ChartRow {
  id: number;
  itemId: number;
  name: string;
  type: string;
  updatedAt: string;
}

export interface ChartField {
  key: string;
  name: string;
  unit: string | null;
  type: number;
}

export interface ChartDetail {
  chart: ChartRow & { config: ChartConfig };
  item: { id: number; name: string; fields: ChartField[] };
  canEdit: boolean;
}

export interface SeriesData {
  field: string;
  name: string;
  unit: string | null;
  method: string;
  from: string | null;
  to: string | null;
  source: 'records' | 'rollups' | null;
  bucketS: number | null;
  points: Array<[number, number]>;
  value: number | null;
}

export interface ChartData {
  type: string;
  maxPoints: number;
  series: SeriesData[];
}

export const listCharts = (itemId: number) =>
  get<{ canEdit: boolean; list: ChartRow[] }>(`${BASE}/list`, { itemId });
export const getChart = (itemId: number, id: number) => get<ChartDetail>(`${BASE}/get`, { itemId, id });
export const chartData = (itemId: number, id: number, width: number) =>
  get<ChartData>(`${BASE}/data`, { itemId, id, width });
export const previewChart = (itemId: number, config: ChartConfig, width: number) =>
  post<ChartData>(`${BASE}/preview`, { itemId, config, width });

/** Saves and answers the envelope, so the page shows the server's success message. */
export const saveChart = (body: { itemId: number; id?: number; name: string; config: ChartConfig }) =>
  request<{ id: number }>({ method: 'POST', url: `${BASE}/save`, data: body });
export const deleteChart = (itemId: number, id: number) =>
  request<null>({ method: 'POST', url: `${BASE}/delete`, data: { itemId, id } });

export function exportChart(p: {
  itemId: number;
  id: number;
  name: string;
  format: 'csv' | 'xlsx';
  width: number;
}) {
  return downloadFile(
    `${BASE}/export`,
    { itemId: p.itemId, id: p.id, format: p.format, width: p.width },
    `${p.name}.${p.format}`,
  );
}

export function useChartList(itemId: number, enabled = true) {
  return useQuery({ queryKey: ['charts', itemId], queryFn: () => listCharts(itemId), enabled });
}

export function useChart(itemId: number, id: number) {
  return useQuery({
    queryKey: ['chart', itemId, id],
    queryFn: () => getChart(itemId, id),
    enabled: itemId > 0 && id > 0,
  });
}

/**
 * The drawn data at a width; `refreshMs` re-reads it (a live chart without a live hub to ride on).
 */
export function useChartData(itemId: number, id: number, width: number, refreshMs: number | false = false) {
  return useQuery({
    queryKey: ['chartData', itemId, id, width],
    queryFn: () => chartData(itemId, id, width),
    enabled: itemId > 0 && id > 0 && width > 0,
    placeholderData: keepPreviousData,
    refetchInterval: refreshMs,
  });
}
