/**
 * Calls of configuration screens (docs/configuration-screens.md): a device's screen with its
 * bindable points and commands, the editing lease, save, the latest values and the switches.
 */
import type { ScreenBody, SwitchState } from '@platform/domain';
import { useQuery } from '@tanstack/react-query';
import { API_BASE, get, post, request } from '../../app/http/client';
import { session } from '../../app/store/session';

const BASE = '/devicemanagement/screen';

export interface ScreenPoint {
  itemId: number;
  itemName: string;
  field: string;
  fieldName: string;
  unit: string | null;
  decimals: number | null;
}

export interface ScreenLease {
  holder: { id: number; name: string };
  expiresAt: string;
  mine: boolean;
}

export interface SavedScreen {
  body: ScreenBody;
  version: number;
  updatedAt: string;
  updatedBy: { id: number; name: string } | null;
}

export interface ScreenView {
  device: { id: number; name: string; serialNumber: string; online: boolean; level: number };
  screen: SavedScreen | null;
  points: ScreenPoint[];
  commands: string[];
  lease: ScreenLease | null;
  canEdit: boolean;
  leaseSeconds: number;
}

export interface ScreenValues {
  at: string;
  online: boolean;
  staleSeconds: number;
  values: Array<{ itemId: number; field: string; value: unknown; ts: string | null }>;
  hidden: number;
}

/** how often the show page asks for the latest values */
export const VALUES_POLL_MS = 2500;
/** how often the editor renews its lease (it runs leaseSeconds, 60 s, from the last renewal) */
export const LEASE_RENEW_MS = 20_000;

export const screenKeys = {
  one: (id: number) => ['screens', 'one', id] as const,
  values: (id: number) => ['screens', 'values', id] as const,
};

const validId = (id: number) => Number.isInteger(id) && id > 0;

export function useScreen(id: number) {
  return useQuery({
    queryKey: screenKeys.one(id),
    queryFn: () => get<ScreenView>(BASE, { id }, { silent: true }),
    enabled: validId(id),
    retry: false,
  });
}

export function useScreenValues(id: number, enabled: boolean) {
  return useQuery({
    queryKey: screenKeys.values(id),
    // a failed poll keeps the last answer, whose ages then grow until they grey
    queryFn: () => get<ScreenValues>(`${BASE}/values`, { id }, { silent: true }),
    enabled: validId(id) && enabled,
    refetchInterval: VALUES_POLL_MS,
    refetchIntervalInBackground: false,
    retry: false,
  });
}

export const screenApi = {
  /** take (no leaseId) or renew the lease; refusals are handled by the editor */
  lease: (id: number, leaseId: string | null) =>
    post<{ leaseId: string; expiresAt: string }>(`${BASE}/lease`, { id, leaseId }, { silent: true }),
  release: (id: number, leaseId: string) =>
    post<null>(`${BASE}/lease/release`, { id, leaseId }, { silent: true }),
  save: (id: number, leaseId: string, body: ScreenBody) =>
    request<SavedScreen>({
      method: 'POST',
      url: `${BASE}/save`,
      data: { id, leaseId, body },
      silent: true,
    }),
  switch: (id: number, elementId: string, state: SwitchState) =>
    request<{ operationId: number; command: string }>({
      method: 'POST',
      url: `${BASE}/switch`,
      data: { id, elementId, state },
    }),
};

/**
 * Gives the lease back while the tab closes: a keepalive fetch outlives the page (sendBeacon
 * cannot carry the bearer token).
 */
export function releaseOnUnload(id: number, leaseId: string): void {
  const token = session.get().token;
  void fetch(`${API_BASE}${BASE}/lease/release`, {
    method: 'POST',
    keepalive: true,
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ id, leaseId }),
  }).catch(() => undefined);
}
