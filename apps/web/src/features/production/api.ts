/**
 * Calls of the production pages (/productionManagement) under /general/production: the plans
 * (pm_scheduling), the process of a plan, where its units are recorded and finished by serial
 * number (pm_process), and the output report with its CSV/XLSX export (pm_reports). A plan's
 * products are the company's own-product categories of the inventory.
 */
import type { ProductionStatus, ScheduleStatus } from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type Envelope, get, request } from '../../app/http/client';
import { downloadFile } from '../../app/http/download';
import type { Page, Paging } from '../../shared/paging';

export interface Schedule {
  id: number;
  number: string;
  categoryId: number;
  categoryName: string;
  model: string;
  quantity: number;
  line: string;
  /** YYYY-MM-DD */
  startOn: string;
  endOn: string;
  status: ScheduleStatus;
  steps: string[];
  notes: string;
  /** units recorded against the plan */
  recorded: number;
  inProduction: number;
  finished: number;
  createdAt: string;
  updatedAt: string;
}

export interface ScheduleUnit {
  sn: string;
  /** the unit's status now: it moves on (stocked, out…) once the inventory takes it */
  status: ProductionStatus;
  disabled: boolean;
  updatedAt: string;
}

export interface ScheduleDetail extends Schedule {
  units: ScheduleUnit[];
}

/** An own-product category a plan makes. */
export interface OwnProduct {
  id: number;
  name: string;
  model: string;
}

export interface OutputRow {
  day: string;
  line: string;
  product: string;
  count: number;
}

export interface OutputReport {
  rows: OutputRow[];
  byDay: Record<string, number>;
  byLine: Record<string, number>;
  byProduct: Record<string, number>;
  total: number;
}

export interface ScheduleQuery extends Paging {
  keyword: string;
  status?: ScheduleStatus;
}

export interface ScheduleBody {
  id?: number;
  categoryId: number;
  quantity: number;
  line: string;
  startOn: string;
  endOn: string;
  /** absent: the server's default steps */
  steps?: string[];
  notes?: string;
}

export type ScheduleAction = 'start' | 'finish' | 'cancel';

export const productionKeys = {
  all: ['production'] as const,
  schedules: (query: ScheduleQuery) => ['production', 'schedules', query] as const,
  schedule: (id: number) => ['production', 'schedule', id] as const,
  products: ['production', 'products'] as const,
  report: (from: string, to: string) => ['production', 'report', from, to] as const,
};

export function useSchedules(query: ScheduleQuery) {
  const keyword = query.keyword.trim();
  return useQuery({
    queryKey: productionKeys.schedules(query),
    queryFn: () =>
      get<Page<Schedule>>('/production/schedule/list', {
        pageNum: query.pageNum,
        pageSize: query.pageSize,
        sortField: query.sortField,
        sortOrder: query.sortOrder,
        ...(keyword ? { keyword } : {}),
        ...(query.status ? { status: query.status } : {}),
      }),
    placeholderData: keepPreviousData,
  });
}

export function useSchedule(id: number) {
  return useQuery({
    queryKey: productionKeys.schedule(id),
    queryFn: () => get<ScheduleDetail>('/production/schedule/get', { id }),
    enabled: Number.isInteger(id) && id > 0,
    retry: false,
  });
}

/**
 * The own products a plan may make. The inventory's category list answers people holding an
 * inventory code (im_category, im_inventory, im_entry, im_exit, im_production_log): for one who
 * plans only, the call fails quietly and the modal offers the products of the plans it lists.
 */
export function useOwnProducts(enabled: boolean) {
  return useQuery({
    queryKey: productionKeys.products,
    queryFn: async () =>
      (
        await get<Page<OwnProduct>>(
          '/inventory/category/list',
          { pageNum: 1, pageSize: 100, kind: 'own' },
          { silent: true },
        )
      ).list,
    enabled,
    staleTime: 30_000,
    retry: false,
  });
}

export function useOutputReport(from: string, to: string) {
  return useQuery({
    queryKey: productionKeys.report(from, to),
    queryFn: () => get<OutputReport>('/production/report', { from, to }),
    placeholderData: keepPreviousData,
  });
}

/** A POST answering the whole envelope (the pages show its message on success). */
function post<T>(url: string, data: unknown): Promise<Envelope<T>> {
  return request<T>({ method: 'POST', url, data });
}

export const productionApi = {
  save: (body: ScheduleBody) => post<{ id: number; number: string }>('/production/schedule/save', body),
  remove: (id: number) => post<null>('/production/schedule/delete', { id }),
  act: (id: number, action: ScheduleAction) =>
    post<{ status: ScheduleStatus }>('/production/schedule/state', { id, action }),
  record: (id: number, sns: string[], finished: boolean) =>
    post<{ created: number }>('/production/schedule/record', { id, sns, finished }),
  finishUnits: (id: number, sns: string[]) =>
    post<{ changed: number }>('/production/schedule/finish-units', { id, sns }),
  exportReport: (from: string, to: string, format: 'csv' | 'xlsx', lang: 'zh' | 'en') =>
    downloadFile(
      '/production/report/export',
      { from, to, format, lang },
      `production-${from}-${to}.${format}`,
    ),
};
