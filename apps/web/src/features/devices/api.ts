/**
 * Calls of a company's devices, binding, the operation log, device permissions and
 * maintenance (docs/devices.md). The device id everywhere is the gateway's registry id.
 */
import type {
  DataPermission,
  GatewayStatus,
  MaintenanceKind,
  OperationKind,
  PermissionEntry,
  PortHealth,
} from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type Envelope, get, request } from '../../app/http/client';
import type { Page, Paging } from '../../shared/paging';

export type DevicePicture = { preset: string } | { url: string; thumbnailUrl: string };

export interface DeviceRow {
  id: number;
  serialNumber: string;
  name: string;
  model: string;
  address: string;
  picture: DevicePicture;
  online: boolean;
  status: GatewayStatus;
  onlineAt: string | null;
  offlineAt: string | null;
  lastSeenAt: string | null;
  firstBoundAt: string;
  boundAt: string | null;
  updatedAt: string;
  firmware: string | null;
  nodeId: number;
  level: DataPermission;
  /** only from a live event or the detail: the list rows do not carry them */
  ports?: PortHealth[];
}

export interface TelemetryCounts {
  ok: number;
  refused: number;
  dropped: number;
  lastAt: string | null;
  lastRefusal: {
    at: string;
    code: number;
    message: string;
    field: string | null;
    index: number | null;
    itemId: number | null;
  } | null;
}

export interface DeviceDetail extends DeviceRow {
  iccid: string | null;
  configVersion: number | null;
  configHash: string | null;
  ports: PortHealth[];
  parentId: number | null;
  path: string[];
  telemetry: TelemetryCounts;
}

export type DeviceSort = 'name' | 'serialNumber' | 'boundAt' | 'lastSeenAt' | 'status' | 'updatedAt';

export interface DeviceQuery {
  keyword?: string;
  online?: boolean;
  status?: GatewayStatus;
  sort?: DeviceSort;
  order?: 'asc' | 'desc';
}

export type BindState = 'waiting' | 'bound' | 'expired' | 'cancelled';

export interface BindAnswer {
  requestId: string;
  expiresAt: string;
  secondsLeft: number;
}

export interface BindStatus extends BindAnswer {
  state: BindState;
  deviceId: number | null;
}

export interface LogRow {
  id: number;
  kind: OperationKind;
  at: string;
  result: 'ok' | 'failed' | 'pending';
  actor: { type: 'user'; id: number | null; name: string | null } | { type: 'device' } | { type: 'system' };
  detail: string;
  data: Record<string, unknown> | null;
}

export interface LogQuery {
  kind?: OperationKind;
  from?: string;
  to?: string;
}

export interface PermissionRow {
  id: number;
  serialNumber: string;
  name: string;
  nodeId: number;
  level: DataPermission;
  mode: 'inherit' | 'custom' | null;
  entries: PermissionEntry[] | null;
}

export interface DeviceOption {
  id: number;
  serialNumber: string;
  name: string;
  /** the caller's data permission: 2 and up may add and edit its maintenance */
  level: DataPermission;
}

export interface MaintenanceRecord {
  id: number;
  deviceId: number;
  serialNumber: string;
  deviceName: string;
  date: string;
  kind: MaintenanceKind;
  description: string;
  performedBy: string;
  cost: number | null;
  planId: number | null;
  createdBy: { id: number; name: string } | null;
  createdAt: string;
}

export interface MaintenancePlan {
  id: number;
  deviceId: number;
  serialNumber: string;
  deviceName: string;
  title: string;
  intervalDays: number;
  nextDue: string;
  overdue: boolean;
  daysLeft: number;
  assignee: { id: number; name: string } | null;
  lastDoneOn: string | null;
  note: string;
}

export interface RecordQuery {
  deviceId?: number;
  kind?: MaintenanceKind;
  from?: string;
  to?: string;
  keyword?: string;
}

export interface PlanQuery {
  deviceId?: number;
  overdue?: boolean;
  assigneeId?: number;
}

export interface RecordInput {
  date: string;
  kind: MaintenanceKind;
  description: string;
  performedBy?: string;
  cost?: number | null;
}

export interface PlanInput {
  title: string;
  intervalDays: number;
  nextDue: string;
  assigneeId?: number | null;
  note?: string;
}

export interface MemberOption {
  userId: number;
  userName: string;
  phone: string;
}

export const deviceKeys = {
  all: ['devices'] as const,
  lists: ['devices', 'list'] as const,
  list: (query: DeviceQuery, paging: Paging) => ['devices', 'list', query, paging] as const,
  details: ['devices', 'detail'] as const,
  detail: (id: number) => ['devices', 'detail', id] as const,
  log: (id: number, query: LogQuery, paging: Paging) => ['devices', 'log', id, query, paging] as const,
  permissions: (keyword: string, paging: Paging) => ['devices', 'permissions', keyword, paging] as const,
  maintenance: ['devices', 'maintenance'] as const,
  records: (query: RecordQuery, paging: Paging) =>
    ['devices', 'maintenance', 'records', query, paging] as const,
  plans: (query: PlanQuery, paging: Paging) => ['devices', 'maintenance', 'plans', query, paging] as const,
  options: ['devices', 'maintenance', 'devices'] as const,
};

export function useDevices(query: DeviceQuery, paging: Paging) {
  return useQuery({
    queryKey: deviceKeys.list(query, paging),
    queryFn: () => get<Page<DeviceRow>>('/devicemanagement/device/list', { ...query, ...paging }),
    placeholderData: keepPreviousData,
  });
}

export function useDevice(id: number | null) {
  return useQuery({
    queryKey: deviceKeys.detail(id ?? 0),
    queryFn: () => get<DeviceDetail>('/devicemanagement/device/detail', { id }),
    enabled: id != null && id > 0,
  });
}

export function useDeviceLog(id: number, query: LogQuery, paging: Paging) {
  return useQuery({
    queryKey: deviceKeys.log(id, query, paging),
    queryFn: () => get<Page<LogRow>>('/devicemanagement/device/log', { id, ...query, ...paging }),
    enabled: id > 0,
    placeholderData: keepPreviousData,
  });
}

/** Every log row of the filter, page by page (the CSV export), at most `limit` rows. */
export async function allLogRows(id: number, query: LogQuery, limit = 10_000): Promise<LogRow[]> {
  const rows: LogRow[] = [];
  for (let pageNum = 1; rows.length < limit; pageNum++) {
    const page = await get<Page<LogRow>>('/devicemanagement/device/log', {
      id,
      ...query,
      pageNum,
      pageSize: 100,
    });
    rows.push(...page.list);
    if (page.list.length < 100 || rows.length >= page.total) break;
  }
  return rows.slice(0, limit);
}

export function useDevicePermissions(keyword: string, paging: Paging) {
  return useQuery({
    queryKey: deviceKeys.permissions(keyword, paging),
    queryFn: () =>
      get<Page<PermissionRow>>('/devicemanagement/permission/list', {
        keyword: keyword || undefined,
        ...paging,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useMaintenanceDevices() {
  return useQuery({
    queryKey: deviceKeys.options,
    queryFn: () => get<DeviceOption[]>('/devicemanagement/maintenance/devices'),
    staleTime: 30_000,
  });
}

export function useMaintenanceRecords(query: RecordQuery, paging: Paging) {
  return useQuery({
    queryKey: deviceKeys.records(query, paging),
    queryFn: () =>
      get<Page<MaintenanceRecord>>('/devicemanagement/maintenance/records', { ...query, ...paging }),
    placeholderData: keepPreviousData,
  });
}

export function useMaintenancePlans(query: PlanQuery, paging: Paging) {
  return useQuery({
    queryKey: deviceKeys.plans(query, paging),
    queryFn: () => get<Page<MaintenancePlan>>('/devicemanagement/maintenance/plans', { ...query, ...paging }),
    placeholderData: keepPreviousData,
  });
}

/** The company's active members (plan assignees), first 100. */
export function useMembers(enabled = true) {
  return useQuery({
    queryKey: ['devices', 'members'],
    queryFn: () => get<Page<MemberOption>>('/company/member/getMemberList', { pageNum: 1, pageSize: 100 }),
    enabled,
    staleTime: 60_000,
  });
}

const post = <T>(url: string, data: unknown, silent = false): Promise<Envelope<T>> =>
  request<T>({ method: 'POST', url, data, silent });

export const deviceApi = {
  update: (body: { id: number; name?: string; address?: string; picture?: string }) =>
    post<null>('/devicemanagement/device/update', body),
  /** the form shows the refusal beside the field it names: no notification */
  bind: (body: { serialNumber: string; name: string; parentId: number | null }) =>
    post<BindAnswer>('/devicemanagement/device/bind', body, true),
  bindStatus: (requestId: string) =>
    request<BindStatus>({ method: 'GET', url: '/devicemanagement/device/bindStatus', params: { requestId } }),
  bindCancel: (requestId: string) => post<null>('/devicemanagement/device/bindCancel', { requestId }),
  unbind: (id: number) => post<null>('/devicemanagement/device/unbind', { id }),
  /** reboot or readNow to a bound online gateway (read-write level); logged with its result */
  command: (id: number, command: 'reboot' | 'readNow') =>
    post<{ operationId: number; result: 'ok' | 'pending' }>('/devicemanagement/device/command', {
      id,
      command,
    }),
  setPermission: (body: { id: number; mode: 'inherit' | 'custom'; entries: PermissionEntry[] }) =>
    post<null>('/devicemanagement/permission/set', body),

  createRecord: (body: RecordInput & { deviceId: number }) =>
    post<{ id: number }>('/devicemanagement/maintenance/records/create', body),
  updateRecord: (body: Partial<RecordInput> & { id: number }) =>
    post<null>('/devicemanagement/maintenance/records/update', body),
  deleteRecord: (id: number) => post<null>('/devicemanagement/maintenance/records/delete', { id }),
  createPlan: (body: PlanInput & { deviceId: number }) =>
    post<{ id: number }>('/devicemanagement/maintenance/plans/create', body),
  updatePlan: (body: Partial<PlanInput> & { id: number }) =>
    post<null>('/devicemanagement/maintenance/plans/update', body),
  deletePlan: (id: number) => post<null>('/devicemanagement/maintenance/plans/delete', { id }),
  planDone: (body: {
    id: number;
    doneOn?: string;
    kind?: MaintenanceKind;
    description?: string;
    performedBy?: string;
    cost?: number | null;
  }) => post<{ nextDue: string; recordId: number }>('/devicemanagement/maintenance/plans/done', body),
};
