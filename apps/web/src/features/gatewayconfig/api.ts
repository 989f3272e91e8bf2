/** Calls of the gateway configuration (docs/gateway-config.md, "API"); a gateway is named by its device id. */
import type { ConfigProblem, ConfigPushState, GatewayConfig } from '@platform/domain';
import { useQuery } from '@tanstack/react-query';
import { get, request } from '../../app/http/client';

export interface ConfigDevice {
  id: number;
  name: string;
  serialNumber: string;
  model: string;
  online: boolean;
  bound: boolean;
  /** the caller's data permission on the device: 1 read, 2 read-write, 3 administrator */
  level: number;
  /** what the gateway says it runs (its status messages) */
  runningVersion: number | null;
  runningHash: string | null;
}

export interface Person {
  id: number;
  name: string;
}

export interface VersionMeta {
  version: number;
  hash: string;
  nodeCount: number;
  savedAt: string;
  savedBy: Person | null;
  restoredFrom: number | null;
}

export type PushState = ConfigPushState;
export const FINAL_PUSH_STATES: readonly PushState[] = [
  'committed',
  'rejected',
  'unchanged',
  'rolledBack',
  'noAnswer',
];

export interface PushView {
  id: number;
  version: number;
  hash: string;
  state: PushState;
  confirmWithin: number;
  pushedAt: string;
  pushedBy: Person | null;
  answeredAt: string | null;
  /** the gateway's reasons when it rejected the configuration */
  errors: Array<{ node: string | null; field: string | null; message: string }>;
  /** the version the gateway went back to when it rolled back */
  runningVersion: number | null;
}

/** The gateway, its latest version and its last push (the push page; code dm_list). */
export interface DeviceState {
  device: ConfigDevice;
  /** the latest saved version; null before the first save */
  head: VersionMeta | null;
  /** the latest push, if any */
  lastPush: PushView | null;
  /** seconds a gateway waits for the confirmation of an applied configuration before it goes back */
  confirmWithin: number;
}

/** The same and the latest version's configuration (the editor; code sd_capsule). */
export interface ConfigView extends DeviceState {
  config: GatewayConfig;
}

export interface CheckedProblem extends ConfigProblem {
  message: string;
}

export interface ConfigLookupsView {
  packages: Array<{ id: number; name: string; parserValues: string[] | null }>;
  items: Array<{ id: number; name: string; fields: Array<{ key: string; name: string }> }>;
}

export interface SaveResult {
  version: number;
  hash: string;
  /** false when the content equalled the latest version (only the layout was kept) */
  created: boolean;
}

export interface Paged<T> {
  list: T[];
  total: number;
  pageNum: number;
  pageSize: number;
}

const BASE = '/devicemanagement/gatewayconfig';

export const configKeys = {
  all: ['gatewayconfig'] as const,
  config: (id: number) => ['gatewayconfig', 'config', id] as const,
  pushState: (id: number) => ['gatewayconfig', 'pushState', id] as const,
  versions: (id: number, page: number) => ['gatewayconfig', 'versions', id, page] as const,
  version: (id: number, version: number) => ['gatewayconfig', 'version', id, version] as const,
  lookups: (id: number) => ['gatewayconfig', 'lookups', id] as const,
  pushes: (id: number, page: number) => ['gatewayconfig', 'pushes', id, page] as const,
  push: (id: number, pushId: number) => ['gatewayconfig', 'push', id, pushId] as const,
};

const validId = (id: number) => Number.isInteger(id) && id > 0;

/** `poll`: refetch every so many ms (the device's online state and its last push change by themselves) */
export function useConfig(id: number, poll: number | false = false) {
  return useQuery({
    queryKey: configKeys.config(id),
    queryFn: () => get<ConfigView>(`${BASE}/get`, { id }),
    enabled: validId(id),
    retry: false,
    refetchInterval: poll,
  });
}

export function usePushState(id: number) {
  return useQuery({
    queryKey: configKeys.pushState(id),
    queryFn: () => get<DeviceState>(`${BASE}/pushState`, { id }),
    enabled: validId(id),
    retry: false,
    refetchInterval: 5000,
  });
}

export function useLookups(id: number) {
  return useQuery({
    queryKey: configKeys.lookups(id),
    queryFn: () => get<ConfigLookupsView>(`${BASE}/lookups`, { id }),
    enabled: validId(id),
    retry: false,
  });
}

export function useVersions(id: number, page: number, enabled = true) {
  return useQuery({
    queryKey: configKeys.versions(id, page),
    queryFn: () => get<Paged<VersionMeta>>(`${BASE}/versions`, { id, pageNum: page, pageSize: 10 }),
    enabled: enabled && validId(id),
    retry: false,
  });
}

export function usePushes(id: number, page: number, live: boolean) {
  return useQuery({
    queryKey: configKeys.pushes(id, page),
    queryFn: () => get<Paged<PushView>>(`${BASE}/pushes`, { id, pageNum: page, pageSize: 10 }),
    enabled: validId(id),
    retry: false,
    refetchInterval: live ? 1500 : false,
  });
}

/** One push, polled until the gateway's answer ends it. */
export function usePush(id: number, pushId: number | null) {
  return useQuery({
    queryKey: configKeys.push(id, pushId ?? 0),
    queryFn: () => get<PushView>(`${BASE}/push`, { id, pushId }),
    enabled: validId(id) && pushId != null,
    retry: false,
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state && FINAL_PUSH_STATES.includes(state) ? false : 1000;
    },
  });
}

export const configApi = {
  version: (id: number, version: number) =>
    get<{ meta: VersionMeta; config: GatewayConfig }>(`${BASE}/version`, { id, version }),
  /** silent: a conflict is answered by the page itself (it offers to reload) */
  save: (id: number, baseVersion: number | null, config: GatewayConfig) =>
    request<SaveResult>({
      method: 'POST',
      url: `${BASE}/save`,
      data: { id, baseVersion, config },
      silent: true,
    }),
  restore: (id: number, version: number, baseVersion: number | null) =>
    request<SaveResult>({
      method: 'POST',
      url: `${BASE}/restore`,
      data: { id, version, baseVersion },
      silent: true,
    }),
  check: (id: number, config: GatewayConfig) =>
    request<{ ok: boolean; problems: CheckedProblem[] }>({
      method: 'POST',
      url: `${BASE}/check`,
      data: { id, config },
    }),
  /** saves the editor's configuration first when it is given (the spec's rule), then pushes */
  push: (id: number, baseVersion: number | null, config?: GatewayConfig) =>
    request<{ push: PushView; saved: SaveResult }>({
      method: 'POST',
      url: `${BASE}/push`,
      data: config ? { id, baseVersion, config } : { id, baseVersion },
      silent: true,
    }),
};
