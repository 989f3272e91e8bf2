/**
 * Calls of the SIM card pages (docs/sim-cards.md). Both sides speak the same shapes: the
 * company's cards under /devicecommunication/sim (cd_sim), every card under /system/sim
 * (system_sim), which adds the company, assignment, sync now and suspend / resume.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AxiosProgressEvent } from 'axios';
import { get, request } from '../../app/http/client';
import { downloadFile } from '../../app/http/download';
import type { Page } from '../../shared/paging';

export type Side = 'company' | 'system';

export const BASE: Record<Side, string> = {
  company: '/devicecommunication/sim',
  system: '/system/sim',
};

export interface SimRow {
  id: number;
  iccid: string;
  msisdn: string | null;
  carrier: number;
  state: number;
  planMb: number | null;
  usedMb: number | null;
  usagePercent: number | null;
  usageAsOf: string | null;
  notes: string;
  holder: { serialNumber: string; since: string | null; seenAt: string | null } | null;
  moved: { from: string; to: string; at: string } | null;
  syncedAt: string | null;
  syncError: 'unknownToCarrier' | 'carrierFailed' | null;
  company?: { id: number; name: string } | null;
}

export interface SimDetail extends SimRow {
  createdAt: string;
  assignedAt: string | null;
  usage: Array<{ asOf: string; usedMb: number; state: number }>;
  sightings: Array<{ serialNumber: string; firstSeen: string; lastSeen: string }>;
  lastMove: {
    from: string;
    to: string;
    at: string;
    acknowledgedAt: string | null;
    acknowledgedBy: string | null;
  } | null;
}

export type SortField =
  | 'iccid'
  | 'carrier'
  | 'state'
  | 'planMb'
  | 'usedMb'
  | 'usage'
  | 'usageAsOf'
  | 'holder'
  | 'createdAt'
  | 'company';

export interface SimFilters {
  keyword?: string;
  carrier?: number;
  state?: number;
  moved?: boolean;
  usageMin?: number;
  companyId?: number;
  stock?: boolean;
}

export interface SimQuery extends SimFilters {
  pageNum: number;
  pageSize: number;
  sortField?: SortField;
  sortOrder?: 'asc' | 'desc';
}

export interface ImportResult {
  total: number;
  inserted: number;
  updated: number;
  rejected: Array<{ row: number; column: string; message: string }>;
}

export const simKeys = {
  all: ['sims'] as const,
  list: (side: Side, query: SimQuery) => ['sims', side, 'list', query] as const,
  detail: (side: Side, id: number, days: number) => ['sims', side, 'detail', id, days] as const,
  companies: (keyword: string) => ['sims', 'companies', keyword] as const,
};

/** Query values without the empty ones (an empty keyword is no filter). */
function clean<T extends object>(query: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));
}

export function useSimList(side: Side, query: SimQuery) {
  return useQuery({
    queryKey: simKeys.list(side, query),
    queryFn: () => get<Page<SimRow>>(`${BASE[side]}/list`, clean(query)),
    placeholderData: keepPreviousData,
  });
}

export function useSimDetail(side: Side, id: number, days: number) {
  return useQuery({
    queryKey: simKeys.detail(side, id, days),
    queryFn: () => get<SimDetail>(`${BASE[side]}/detail`, { id, days }),
    enabled: Number.isInteger(id) && id > 0,
    placeholderData: keepPreviousData,
  });
}

export function useCompanyChoices(keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: simKeys.companies(keyword),
    queryFn: () => get<Array<{ id: number; name: string }>>('/system/sim/companies', clean({ keyword })),
    enabled,
    staleTime: 30_000,
  });
}

const post = <T>(url: string, data: unknown) => request<T>({ method: 'POST', url, data });

export const simApi = {
  update: (side: Side, body: { id: number; planMb?: number | null; notes?: string }) =>
    post<null>(`${BASE[side]}/update`, body),
  acknowledgeMove: (side: Side, id: number) => post<null>(`${BASE[side]}/acknowledgeMove`, { id }),
  assign: (ids: number[], companyId: number | null) =>
    post<{ changed: number }>('/system/sim/assign', { ids, companyId }),
  sync: (ids?: number[]) =>
    request<{ cards: number; updated: number; failed: number }>({
      method: 'POST',
      url: '/system/sim/sync',
      data: ids ? { ids } : {},
      // every card of the platform may take a while with a real carrier
      timeout: 300_000,
    }),
  setState: (id: number, action: 'suspend' | 'resume') =>
    post<{ state: number }>('/system/sim/setState', { id, action }),
  import: (side: Side, file: File, onProgress: (percent: number) => void) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return request<ImportResult>({
      method: 'POST',
      url: `${BASE[side]}/import`,
      data: form,
      timeout: 300_000,
      onUploadProgress: (event: AxiosProgressEvent) => {
        if (event.total) onProgress(Math.round((event.loaded / event.total) * 100));
      },
    });
  },
};

export function exportSims(side: Side, format: 'csv' | 'xlsx', filters: SimFilters): Promise<void> {
  return downloadFile(`${BASE[side]}/export`, { format, ...clean(filters) }, `sims.${format}`);
}

export function downloadSimTemplate(side: Side, format: 'csv' | 'xlsx'): Promise<void> {
  return downloadFile(`${BASE[side]}/template`, { format }, `sims-template.${format}`);
}
