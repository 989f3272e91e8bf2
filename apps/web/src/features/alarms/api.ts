/** Calls of the alarm pages (docs/alarms.md): rules (cs_rules) and the alarm log (cs_info). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';
import { downloadFile } from '../../app/http/download';
import type { Page, Paging } from '../../shared/paging';

export type Condition = 'above' | 'below' | 'equal' | 'outside' | 'rate';
export type Channel = 'app' | 'email' | 'sms';

export interface LevelSpec {
  level: 1 | 2 | 3;
  threshold: number;
  high?: number | null;
}

export interface RuleInput {
  name: string;
  enabled: boolean;
  itemId: number;
  fieldKey: string;
  deviceId?: number | null;
  condition: Condition;
  levels: LevelSpec[];
  durationS: number;
  clear: { threshold: number; high?: number | null } | null;
  recipients: { userIds: number[]; groupIds: number[] };
  channels: Channel[];
}

export interface RuleRow extends RuleInput {
  id: number;
  itemName: string;
  fieldName: string;
  deviceName: string | null;
}

export interface AlarmRow {
  id: number;
  origin: string;
  name: string;
  itemId: number | null;
  itemName: string | null;
  deviceName: string | null;
  level: number;
  peakLevel: number;
  value: number | null;
  status: 'active' | 'acknowledged' | 'cleared';
  firedAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  ackComment: string | null;
  clearedAt: string | null;
  clearedBy: string | null;
}

export interface AlarmFilters {
  level?: number;
  itemId?: number;
  status?: string;
  from?: string;
  to?: string;
}

export type LevelCounts = Record<'1' | '2' | '3', number>;

export const alarmKeys = {
  rules: (paging: Paging, name: string) => ['alarms', 'rules', paging, name] as const,
  log: (paging: Paging, filters: AlarmFilters) => ['alarms', 'log', paging, filters] as const,
  /** what is open now (the wall, the home card): read again on every live change */
  open: ['alarms', 'open'] as const,
  all: ['alarms'] as const,
};

/** The open (active or acknowledged) alarms, newest first: `mine` only those the caller was told of. */
export function useOpenAlarms(opts: {
  mine: boolean;
  pageSize: number;
  enabled?: boolean;
  silent?: boolean;
}) {
  return useQuery({
    queryKey: [...alarmKeys.open, 'list', opts.mine, opts.pageSize],
    queryFn: () =>
      get<Page<AlarmRow>>(
        '/cloudSurveillance/alarm/list',
        {
          status: 'open',
          mine: opts.mine || undefined,
          sortField: 'firedAt',
          sortOrder: 'desc',
          pageNum: 1,
          pageSize: opts.pageSize,
        },
        { silent: opts.silent },
      ),
    enabled: opts.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}

/** Open alarms by level (`mine`: those the caller was told of). */
export function useOpenCounts(opts: { mine: boolean; enabled?: boolean; silent?: boolean }) {
  return useQuery({
    queryKey: [...alarmKeys.open, 'counts', opts.mine],
    queryFn: () =>
      get<LevelCounts>(
        '/cloudSurveillance/alarm/counts',
        { mine: opts.mine || undefined },
        { silent: opts.silent },
      ),
    enabled: opts.enabled ?? true,
    placeholderData: keepPreviousData,
  });
}

const post = <T>(url: string, data: unknown) => request<T>({ method: 'POST', url, data });

export function useRules(paging: Paging, name: string) {
  return useQuery({
    queryKey: alarmKeys.rules(paging, name),
    queryFn: () => get<Page<RuleRow>>('/cloudSurveillance/rule/list', { ...paging, name: name || undefined }),
    placeholderData: keepPreviousData,
  });
}

export function useAlarmLog(paging: Paging, filters: AlarmFilters) {
  return useQuery({
    queryKey: alarmKeys.log(paging, filters),
    queryFn: () => get<Page<AlarmRow>>('/cloudSurveillance/alarm/list', { ...paging, ...filters }),
    placeholderData: keepPreviousData,
  });
}

/** A device of the rule form's picker and its numeric points (docs/alarms.md: a rule on a device point). */
export interface DeviceOption {
  id: number;
  name: string;
  serialNumber: string;
}

export interface DevicePointOption {
  key: string;
  itemId: number;
  itemName: string;
  fieldKey: string;
  fieldName: string;
  unit: string | null;
  numeric: boolean;
}

/** The company's devices (first 100 by name), for the rule form; only for holders of a device code. */
export function useDeviceOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['alarms', 'devices'],
    queryFn: () =>
      get<Page<DeviceOption>>('/devicemanagement/device/list', { pageNum: 1, pageSize: 100, sort: 'name' }),
    enabled,
  });
}

/** The points the device's running configuration feeds, of items the caller can read. */
export function useDevicePointOptions(deviceId: number | undefined) {
  return useQuery({
    queryKey: ['alarms', 'devicePoints', deviceId],
    queryFn: () =>
      get<{ points: DevicePointOption[]; hidden: number }>('/devicemanagement/device/points', {
        id: deviceId,
      }),
    enabled: deviceId !== undefined && deviceId > 0,
  });
}

export const alarmApi = {
  addRule: (input: RuleInput) => post<{ id: number }>('/cloudSurveillance/rule/add', input),
  updateRule: (id: number, input: RuleInput) =>
    post<null>('/cloudSurveillance/rule/update', { id, ...input }),
  deleteRule: (id: number) => post<null>('/cloudSurveillance/rule/delete', { id }),
  enableRule: (id: number, enabled: boolean) => post<null>('/cloudSurveillance/rule/enable', { id, enabled }),
  acknowledge: (id: number, comment: string) =>
    post<null>('/cloudSurveillance/alarm/acknowledge', { id, comment }),
  clear: (id: number) => post<null>('/cloudSurveillance/alarm/clear', { id }),
  exportLog: (format: 'csv' | 'xlsx', filters: AlarmFilters) =>
    downloadFile('/cloudSurveillance/alarm/export', { format, ...filters }, `alarms.${format}`),
};
