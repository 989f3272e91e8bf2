/** Calls of the gateway registry (system maintenance → gateways, code system_gateway; docs/devices.md). */
import type { GatewayStatus, PortHealth } from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type Envelope, get, request } from '../../app/http/client';
import type { Page, Paging } from '../../shared/paging';
import type { TelemetryCounts } from '../devices/api';

export interface RegistryRow {
  id: number;
  serialNumber: string;
  model: string;
  firmware: string | null;
  company: { id: number; name: string } | null;
  online: boolean;
  status: GatewayStatus;
  registeredAt: string;
  boundAt: string | null;
  lastSeenAt: string | null;
  onlineAt: string | null;
  offlineAt: string | null;
}

export interface RegistryDetail extends RegistryRow {
  iccid: string | null;
  configVersion: number | null;
  configHash: string | null;
  ports: PortHealth[];
  secretSetAt: string;
  pendingBind: { companyName: string; expiresAt: string } | null;
  telemetry: TelemetryCounts;
}

export type RegistrySort = 'serialNumber' | 'model' | 'registeredAt' | 'boundAt' | 'lastSeenAt';

export interface RegistryQuery {
  keyword?: string;
  bound?: boolean;
  online?: boolean;
  status?: GatewayStatus;
  sort?: RegistrySort;
  order?: 'asc' | 'desc';
}

/** A gateway's secret, in the one answer that carries it. */
export interface GatewaySecret {
  id: number;
  serialNumber: string;
  model: string;
  secret: string;
}

export const registryKeys = {
  all: ['registry'] as const,
  lists: ['registry', 'list'] as const,
  list: (query: RegistryQuery, paging: Paging) => ['registry', 'list', query, paging] as const,
  detail: (id: number) => ['registry', 'detail', id] as const,
};

export function useRegistry(query: RegistryQuery, paging: Paging) {
  return useQuery({
    queryKey: registryKeys.list(query, paging),
    queryFn: () => get<Page<RegistryRow>>('/system/gateway/list', { ...query, ...paging }),
    placeholderData: keepPreviousData,
  });
}

export function useRegistryDetail(id: number) {
  return useQuery({
    queryKey: registryKeys.detail(id),
    queryFn: () => get<RegistryDetail>('/system/gateway/detail', { id }),
    enabled: Number.isInteger(id) && id > 0,
  });
}

const post = <T>(url: string, data: unknown, silent = false): Promise<Envelope<T>> =>
  request<T>({ method: 'POST', url, data, silent });

export const registryApi = {
  /** the dialog shows a refusal beside the line it names: no notification */
  register: (body: { serialNumbers: string[]; model: string }) =>
    post<{ gateways: GatewaySecret[] }>('/system/gateway/register', body, true),
  replaceSecret: (id: number) => post<GatewaySecret>('/system/gateway/replaceSecret', { id }),
  remove: (id: number) => post<null>('/system/gateway/remove', { id }),
};
