/**
 * Calls of the meter pages (/general/meter/…, docs/energy.md). A meter is addressed by its data
 * cabin node id; money comes as integer cents, energy as kWh.
 */
import type {
  MeterEnergy,
  MeterEnergyIssue,
  MeterInput,
  MeterLiveValues,
  MeterLogRow,
  MeterPeriodEnergy,
  MeterReport,
  MeterView,
  TouPeriod,
} from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import { currentLang } from '../../app/i18n';

export const STANDARD = 101;
export const VIRTUAL = 100;

// the answers' shapes are declared once in the domain, for the server and here
export { METER_POINTS, type MeterInput, type MeterPoint } from '@platform/domain';
export type Meter = MeterView;
export type EnergyIssue = MeterEnergyIssue;
export type EnergyPeriod = MeterPeriodEnergy;
export type Energy = MeterEnergy;
export type LiveValues = MeterLiveValues;
export type LogRow = MeterLogRow;
export type Report = MeterReport;

export interface FormulaCheck {
  ok: boolean;
  refs: string[];
  issue: { reason: string; at: number | null; name?: string; path?: string[]; message: string } | null;
}

export interface HourRange {
  from: number;
  to: number;
}

export interface Tou {
  schedule: Partial<Record<TouPeriod, HourRange[]>>;
  prices: Partial<Record<TouPeriod, number>>;
  largeLoadGap: boolean;
  warnings: Array<{ key: string; ratio?: number; min?: number; period?: string; cheaper?: string }>;
  updatedAt: string | null;
}

export interface SystemMeter {
  id: number;
  companyId: number;
  name: string;
  code: string;
  type: number;
  itemId: number | null;
  formula: string | null;
  updatedAt: string;
}

export const meterKeys = {
  all: ['meters'] as const,
  list: ['meters', 'list'] as const,
  meter: (id: number) => ['meters', 'meter', id] as const,
  live: (id: number) => ['meters', 'live', id] as const,
  energy: (id: number, grain: string, from: string, to: string) =>
    ['meters', 'energy', id, grain, from, to] as const,
  log: (id: number) => ['meters', 'log', id] as const,
  report: (id: number, year: number, month: number, lang: string) =>
    ['meters', 'report', id, year, month, lang] as const,
  tou: ['meters', 'tou'] as const,
  system: (what: string, pageNum: number, pageSize: number, companyId?: number) =>
    ['meters', 'system', what, pageNum, pageSize, companyId ?? null] as const,
};

export const LIVE_REFRESH_MS = 5_000;

export function useMeter(id: number) {
  return useQuery({
    queryKey: meterKeys.meter(id),
    queryFn: () => get<Meter>('/meter/get', { id }),
    enabled: id > 0,
  });
}

export function useMeters() {
  return useQuery({ queryKey: meterKeys.list, queryFn: () => get<Meter[]>('/meter/list') });
}

export function useLive(id: number, enabled: boolean) {
  return useQuery({
    queryKey: meterKeys.live(id),
    queryFn: () => get<LiveValues>('/meter/live', { id }),
    enabled: enabled && id > 0,
    refetchInterval: LIVE_REFRESH_MS,
  });
}

export function useEnergy(id: number, grain: 'day' | 'month', from: string, to: string) {
  return useQuery({
    queryKey: meterKeys.energy(id, grain, from, to),
    queryFn: () => get<Energy>('/meter/energy', { id, grain, from, to }),
    enabled: id > 0 && from !== '' && to !== '',
    placeholderData: keepPreviousData,
  });
}

export function useMeterLog(id: number) {
  return useQuery({
    queryKey: meterKeys.log(id),
    queryFn: () => get<LogRow[]>('/meter/log', { id, pageNum: 1, pageSize: 100 }),
    enabled: id > 0,
  });
}

export function useReport(id: number, year: number, month: number) {
  const lang = currentLang();
  return useQuery({
    queryKey: meterKeys.report(id, year, month, lang),
    queryFn: () => get<Report>('/meter/report', { meterId: id, year, month }),
    enabled: id > 0 && year > 0 && month > 0,
    placeholderData: keepPreviousData,
  });
}

export function useTou() {
  return useQuery({ queryKey: meterKeys.tou, queryFn: () => get<Tou>('/meter/tou') });
}

export function useSystemList<T>(
  what: 'list' | 'log',
  pageNum: number,
  pageSize: number,
  companyId?: number,
) {
  return useQuery({
    queryKey: meterKeys.system(what, pageNum, pageSize, companyId),
    queryFn: () => get<T[]>(`/system/meter/${what}`, { pageNum, pageSize, companyId }),
    placeholderData: keepPreviousData,
  });
}

const post = <T>(url: string, data: unknown, silent = false) =>
  request<T>({ method: 'POST', url, data, silent });

export const meterApi = {
  create: (input: MeterInput & { parentId: number | null }) => post<Meter>('/meter/create', input, true),
  update: (id: number, input: MeterInput) => post<Meter>('/meter/update', { ...input, id }, true),
  remove: (id: number) => post<null>('/meter/delete', { id }),
  checkFormula: (formula: string, self: { id?: number; code?: string }) =>
    post<FormulaCheck>('/meter/formula/check', { formula, ...self }, true).then((e) => e.data),
  replace: (input: {
    id: number;
    at: string;
    oldFinal: number;
    newInitial: number;
    ctPrimary?: number;
    ctSecondary?: number;
    ptPrimary?: number;
    ptSecondary?: number;
    note?: string;
  }) => post<{ kWhAround: number; oldKWh: number; newKWh: number }>('/meter/replace', input),
  saveTou: (tou: Pick<Tou, 'schedule' | 'prices' | 'largeLoadGap'>) =>
    post<Tou>('/meter/tou/save', tou, true),
};
