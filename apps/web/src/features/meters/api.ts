/**
 * Calls of the meter pages (/general/meter/…, docs/energy.md). A meter is addressed by its data
 * cabin node id; money comes as integer cents, energy as kWh.
 */
import type { TouPeriod } from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import { currentLang } from '../../app/i18n';

/** What a standard meter reads from its item, in the order the form shows them. */
export const METER_POINTS = [
  'energy',
  'power',
  'powerA',
  'powerB',
  'powerC',
  'voltageA',
  'voltageB',
  'voltageC',
  'currentA',
  'currentB',
  'currentC',
  'powerFactor',
  'powerFactorA',
  'powerFactorB',
  'powerFactorC',
] as const;
export type MeterPoint = (typeof METER_POINTS)[number];

export const STANDARD = 101;
export const VIRTUAL = 100;
export type MeterType = typeof STANDARD | typeof VIRTUAL;

export interface Sides {
  primary: number;
  secondary: number;
  ratio: number;
}

export interface Meter {
  id: number;
  type: MeterType;
  kind: 'standard' | 'virtual';
  name: string;
  code: string;
  parentId: number | null;
  level: number;
  itemId: number | null;
  itemName: string | null;
  points: Partial<Record<MeterPoint, string>>;
  ct: Sides;
  pt: Sides;
  multiplier: number;
  registerDigits: number | null;
  samplingId: number | null;
  formula: string | null;
  refs: string[];
  parentMeterId: number | null;
  children: Array<{ id: number; name: string; code: string }>;
  updatedAt: string;
}

export interface MeterInput {
  name: string;
  type: MeterType;
  code?: string | null;
  itemId?: number | null;
  points?: Partial<Record<MeterPoint, string>>;
  ctPrimary?: number;
  ctSecondary?: number;
  ptPrimary?: number;
  ptSecondary?: number;
  registerDigits?: number | null;
  samplingId?: number | null;
  formula?: string | null;
  preset?: { kind: 'sum' | 'remainder'; meterId: number } | null;
  parentMeterId?: number | null;
}

export type TouNumbers = Record<TouPeriod, number>;

export interface Reading {
  at: string;
  value: number;
}

export interface EnergyIssue {
  meter: string;
  reason: string;
  at: string | null;
  detail?: string;
}

export interface EnergyPeriod {
  label: string;
  from: string;
  to: string;
  opening: Reading | null;
  closing: Reading | null;
  kWh: number | null;
  tou: TouNumbers | null;
  cents: TouNumbers | null;
  totalCents: number | null;
}

export interface Energy {
  id: number;
  code: string;
  type: number;
  timeZone: string;
  periods: EnergyPeriod[];
  total: { kWh: number | null; tou: TouNumbers | null; totalCents: number | null };
  issues: EnergyIssue[];
}

export interface LiveValues {
  id: number;
  points: Array<{ point: MeterPoint; field: string; value: number | null; at: string | null }>;
}

export interface LogRow {
  id: number;
  meterId: number;
  meterName: string;
  meterCode: string;
  companyId: number;
  kind: 'replacement' | 'rollover';
  at: string;
  details: Record<string, unknown>;
  note: string;
  createdBy: string | null;
  createdAt: string;
}

export interface Report {
  meter: {
    id: number;
    name: string;
    code: string;
    type: number;
    ct: number;
    pt: number;
    multiplier: number;
    formula: string | null;
  };
  year: number;
  month: number;
  timeZone: string;
  from: string;
  to: string;
  opening: Reading | null;
  closing: Reading | null;
  kWh: number | null;
  tou: Array<{ period: TouPeriod; kWh: number; price: number | null; cents: number | null }> | null;
  totalCents: number | null;
  events: Array<{ kind: string; at: string; details: Record<string, unknown> }>;
  balance: {
    children: Array<{ id: number; name: string; code: string; kWh: number | null }>;
    childrenKWh: number;
    difference: number | null;
    percent: number | null;
  } | null;
  issues: EnergyIssue[];
}

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
