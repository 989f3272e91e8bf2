/**
 * Calls of the energy data pages under /general/energy: each kind's records, figures, import
 * and export under /energy/{path} (its page's code), the sites and coal factors the pages share.
 */
import {
  type CoalFactors,
  ENERGY_DATA_KIND_INFO,
  type EnergyDataKind,
  type EnergyFillMode,
  type EnergyPeriodType,
  type EnergyRecordSource,
  type EnergySiteType,
} from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type Envelope, get, request } from '../../app/http/client';
import { downloadFile } from '../../app/http/download';
import type { Page, Paging } from '../../shared/paging';

export interface EnergySite {
  id: number;
  name: string;
  type: EnergySiteType;
  remark: string;
  records: number;
}

export interface EnergyRecord {
  id: number;
  siteId: number;
  siteName: string;
  periodType: EnergyPeriodType;
  /** the day, or the first day of the month */
  periodOn: string;
  quantity: number;
  tce: number;
  source: EnergyRecordSource;
  remark: string;
  createdAt: string;
  updatedAt: string;
}

export interface Change {
  absolute: number;
  percent: number | null;
}

export interface Figure {
  quantity: number;
  tce: number;
  count: number;
}

export interface EnergySummary {
  unit: string;
  factor: number;
  total: Figure;
  previous: Figure & { from: string; to: string; change: Change };
  lastYear: Figure & { from: string; to: string; change: Change };
  byMonth: Array<{ month: string; quantity: number; tce: number }>;
  bySite: Array<{ siteId: number; siteName: string; quantity: number; tce: number }>;
}

export interface FactorsView {
  factors: CoalFactors;
  own: Partial<CoalFactors>;
  defaults: CoalFactors;
}

export type RecordSort = 'periodOn' | 'quantity' | 'site';

export interface RecordFilter {
  from: string;
  to: string;
  siteId?: number;
}

export interface RecordQuery extends RecordFilter, Paging {
  sort?: RecordSort;
  order?: 'asc' | 'desc';
}

export interface RecordBody {
  id?: number;
  siteId: number;
  periodType: EnergyPeriodType;
  periodOn: string;
  quantity: number;
  remark?: string;
}

/** One bad line of an import file. */
export interface ImportRejection {
  row: number;
  field: string;
  message: string;
}

/** A data item the caller may read, with its number fields: what a fill takes. */
export interface FillItem {
  id: number;
  name: string;
  fields: Array<{ key: string; name: string; unit: string }>;
}

export interface FillBody {
  siteId: number;
  itemId: number;
  field: string;
  mode: EnergyFillMode;
  from: string;
  to: string;
  factor?: number;
}

export type FillSkipReason = 'entry' | 'import' | 'month' | 'notPositive' | 'tooLarge';

export interface FillAnswer {
  written: number;
  replaced: number;
  skipped: Array<{ periodOn: string; reason: FillSkipReason }>;
  /** days without a reading */
  empty: number;
}

const base = (kind: EnergyDataKind) => `/energy/${ENERGY_DATA_KIND_INFO[kind].path}`;

const clean = <T extends object>(query: T) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    unknown
  >;

export const energyKeys = {
  all: ['energy'] as const,
  records: (kind: EnergyDataKind, query: RecordQuery) => ['energy', kind, 'records', query] as const,
  summary: (kind: EnergyDataKind, filter: RecordFilter) => ['energy', kind, 'summary', filter] as const,
  sites: ['energy', 'sites'] as const,
  factors: ['energy', 'factors'] as const,
  items: ['energy', 'items'] as const,
};

export function useRecords(kind: EnergyDataKind, query: RecordQuery) {
  return useQuery({
    queryKey: energyKeys.records(kind, query),
    queryFn: () => get<Page<EnergyRecord>>(`${base(kind)}/record/list`, clean(query)),
    placeholderData: keepPreviousData,
  });
}

export function useSummary(kind: EnergyDataKind, filter: RecordFilter) {
  return useQuery({
    queryKey: energyKeys.summary(kind, filter),
    queryFn: () => get<EnergySummary>(`${base(kind)}/summary`, clean(filter)),
    placeholderData: keepPreviousData,
  });
}

export function useSites() {
  return useQuery({ queryKey: energyKeys.sites, queryFn: () => get<EnergySite[]>('/energy/site/list') });
}

export function useFactors(enabled = true) {
  return useQuery({
    queryKey: energyKeys.factors,
    queryFn: () => get<FactorsView>('/energy/factors'),
    enabled,
  });
}

export function useFillItems(enabled: boolean) {
  return useQuery({
    queryKey: energyKeys.items,
    queryFn: () => get<FillItem[]>('/energy/item/list'),
    enabled,
  });
}

function post<T>(url: string, data: unknown): Promise<Envelope<T>> {
  return request<T>({ method: 'POST', url, data });
}

export const energyApi = {
  saveRecord: (kind: EnergyDataKind, body: RecordBody) =>
    post<{ id: number }>(`${base(kind)}/record/save`, body),
  fill: (kind: EnergyDataKind, body: FillBody) =>
    request<FillAnswer>({ method: 'POST', url: `${base(kind)}/record/fill`, data: body, timeout: 120_000 }),
  removeRecord: (kind: EnergyDataKind, id: number) => post<null>(`${base(kind)}/record/delete`, { id }),
  saveSite: (body: { id?: number; name: string; type: EnergySiteType; remark?: string }) =>
    post<{ id: number }>('/energy/site/save', body),
  removeSite: (id: number) => post<null>('/energy/site/delete', { id }),
  saveFactors: (body: Partial<Record<keyof CoalFactors, number | null>>) =>
    post<FactorsView>('/energy/factors/save', body),
  importRecords: (kind: EnergyDataKind, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return request<{ imported: number }>({
      method: 'POST',
      url: `${base(kind)}/record/import`,
      data: form,
      timeout: 300_000,
      // the modal lists the bad lines itself
      silent: true,
    });
  },
  template: (kind: EnergyDataKind, format: 'csv' | 'xlsx') =>
    downloadFile(`${base(kind)}/record/template`, { format }, `energy-import.${format}`),
  exportRecords: (kind: EnergyDataKind, filter: RecordFilter, format: 'csv' | 'xlsx', lang: 'zh' | 'en') =>
    downloadFile(
      `${base(kind)}/record/export`,
      { ...clean(filter), format, lang },
      `${ENERGY_DATA_KIND_INFO[kind].path}-${filter.from}-${filter.to}.${format}`,
    ),
};
