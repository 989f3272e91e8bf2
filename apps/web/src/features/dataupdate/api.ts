/** Calls of the data-update monitoring page (docs/data-update.md), all under cs_sditem_update. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import type { Page, Paging } from '../../shared/paging';

export const WINDOWS = [30, 60, 720, 1440] as const;
export type WindowMinutes = (typeof WINDOWS)[number];
export type MonitorState = 'ok' | 'late' | 'alarm';

export interface MonitorRow {
  id: number;
  kind: 'item' | 'device';
  itemId: number | null;
  deviceId: number | null;
  name: string;
  serialNumber: string | null;
  windowMinutes: number;
  lastUpdateAt: string | null;
  minutesSince: number | null;
  state: MonitorState;
  stateSince: string;
  alarmId: number | null;
  checkedAt: string | null;
  createdAt: string;
}

export interface MonitorFilters {
  state?: MonitorState;
  kind?: 'item' | 'device';
  keyword?: string;
  sort?: 'lateness' | 'name' | 'created';
}

export interface CandidateNode {
  id: number;
  parentId: number | null;
  type: string;
  name: string;
  itemId: number | null;
  watched: boolean;
}

export interface CandidateDevice {
  id: number;
  name: string;
  serialNumber: string;
  watched: boolean;
}

/** how often the list is read again while the page is open (the check runs once a minute) */
export const REFRESH_MS = 10_000;

export const dataUpdateKeys = {
  all: ['dataUpdate'] as const,
  list: (paging: Paging, filters: MonitorFilters) => ['dataUpdate', 'list', paging, filters] as const,
  candidates: ['dataUpdate', 'candidates'] as const,
};

const post = <T>(url: string, data: unknown) => request<T>({ method: 'POST', url, data });

export function useMonitors(paging: Paging, filters: MonitorFilters) {
  return useQuery({
    queryKey: dataUpdateKeys.list(paging, filters),
    queryFn: () => get<Page<MonitorRow>>('/cloudSurveillance/dataUpdate/list', { ...paging, ...filters }),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });
}

export function useCandidates(enabled: boolean) {
  return useQuery({
    queryKey: dataUpdateKeys.candidates,
    queryFn: () =>
      get<{ nodes: CandidateNode[]; devices: CandidateDevice[] }>('/cloudSurveillance/dataUpdate/candidates'),
    enabled,
  });
}

export const dataUpdateApi = {
  add: (body: { itemIds: number[]; deviceIds: number[]; windowMinutes: WindowMinutes }) =>
    post<{ added: number; existing: number; ids: number[] }>('/cloudSurveillance/dataUpdate/add', body),
  setWindow: (id: number, windowMinutes: WindowMinutes) =>
    post<MonitorRow>('/cloudSurveillance/dataUpdate/window', { id, windowMinutes }),
  remove: (ids: number[]) => post<null>('/cloudSurveillance/dataUpdate/delete', { ids }),
};
