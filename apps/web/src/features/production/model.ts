/**
 * What the production pages work out themselves: the paths between them, the serial numbers in
 * pasted or scanned text, the words and colours of a status, the days of the company, what a
 * plan's status allows, and a refusal as the pages show it.
 */
import {
  type Lang,
  PRODUCTION_STATUS_LABELS,
  type ProductionStatus,
  SCHEDULE_STATUS_LABELS,
  type ScheduleStatus,
} from '@platform/domain';
import type { FormInstance } from 'antd';
import dayjs from 'dayjs';
import { useSession } from '../../app/store/session';
import { formatTime } from '../../shared/time';
import type { Schedule, ScheduleAction } from './api';

export const productionPaths = {
  scheduling: '/productionManagement/scheduling',
  /** the plans to open the process of (pm_process) */
  processPlans: '/productionManagement/process',
  process: (plan: Pick<Schedule, 'id' | 'status'>) =>
    `/productionManagement/process/${plan.id}/${plan.status}`,
  reports: '/productionManagement/reports',
  entries: '/inventoryManagement/entryList',
};

export function langOf(language: string): Lang {
  return language === 'en' ? 'en' : 'zh';
}

/** Serial numbers in scanned or pasted text: one a line, or separated by commas or spaces; each once. */
export function parseSerials(text: string): string[] {
  return [...new Set(text.split(/[\s,，;；]+/).filter(Boolean))];
}

export const SCHEDULE_STATUS_COLOR: Record<ScheduleStatus, string> = {
  planned: 'blue',
  inProduction: 'processing',
  finished: 'success',
  cancelled: 'default',
};

export const UNIT_STATUS_COLOR: Record<ProductionStatus, string> = {
  inProduction: 'processing',
  finished: 'success',
  inEntryOrder: 'cyan',
  stocked: 'green',
  inExitOrder: 'orange',
  out: 'purple',
  registered: 'geekblue',
  bound: 'magenta',
};

export function scheduleStatusLabel(status: ScheduleStatus, lang: Lang): string {
  return SCHEDULE_STATUS_LABELS[status]?.[lang] ?? status;
}

export function unitStatusLabel(status: string, lang: Lang): string {
  return PRODUCTION_STATUS_LABELS[status as ProductionStatus]?.[lang] ?? status;
}

/** Whether the signed-in user plans (pm_scheduling): only they change a plan, the process page records its units. */
export function usePlans(): boolean {
  return useSession().user?.menuCode?.includes('pm_scheduling') ?? false;
}

/** The actions a plan's status offers (the server decides again): start, finish, cancel. */
export function actionsOf(plan: Pick<Schedule, 'status' | 'recorded'>): ScheduleAction[] {
  switch (plan.status) {
    case 'planned':
      return ['start', 'cancel'];
    case 'inProduction':
      // a plan that made units is finished, never cancelled
      return plan.recorded > 0 ? ['finish'] : ['finish', 'cancel'];
    default:
      return [];
  }
}

export const canEdit = (plan: Pick<Schedule, 'status'>) =>
  plan.status === 'planned' || plan.status === 'inProduction';

export const canDelete = (plan: Pick<Schedule, 'status' | 'recorded'>) =>
  (plan.status === 'planned' || plan.status === 'cancelled') && plan.recorded === 0;

/** The share of the quantity, in %, that a count is (whole, at most 100). */
export function percentOf(count: number, quantity: number): number {
  if (quantity <= 0) return 0;
  return Math.min(100, Math.round((count / quantity) * 1000) / 10);
}

/** Today in the company's zone, YYYY-MM-DD. */
export function companyToday(): string {
  return formatTime(Date.now(), 'yyyy-MM-dd');
}

/** The `days` days up to `to`, both ends included: [from, to]. */
export function lastDays(days: number, to: string = companyToday()): [string, string] {
  return [
    dayjs(to)
      .subtract(days - 1, 'day')
      .format('YYYY-MM-DD'),
    to,
  ];
}

/** Every day from `from` to `to` (YYYY-MM-DD), for a chart that shows the days without output too. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = dayjs(from); !day.isAfter(dayjs(to)) && days.length < 1000; day = day.add(1, 'day'))
    days.push(day.format('YYYY-MM-DD'));
  return days;
}

/** One serial number the server refused, and why. */
export interface SnRefusal {
  sn: string | null;
  message?: string;
}

/** A refused call as the pages show it: the message, the field it names, each refused serial number. */
export interface Refused {
  message: string;
  field: string | null;
  refusals: SnRefusal[];
}

export function refusedOf(error: unknown): Refused {
  const data = (error as { data?: unknown } | null)?.data as
    | { field?: unknown; refusals?: unknown }
    | null
    | undefined;
  return {
    message: error instanceof Error ? error.message : String(error),
    field: typeof data?.field === 'string' ? data.field : null,
    refusals: Array.isArray(data?.refusals) ? (data.refusals as SnRefusal[]) : [],
  };
}

/** The server's error beside the field it names, when the form has that field; false when not. */
export function placeFieldError(form: FormInstance, error: unknown, fields: readonly string[]): boolean {
  const { field, message } = refusedOf(error);
  if (!field || !fields.includes(field)) return false;
  form.setFields([{ name: field, errors: [message] }]);
  return true;
}
