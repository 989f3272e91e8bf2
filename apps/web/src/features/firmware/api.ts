/**
 * Calls of the firmware upgrade (docs/firmware.md; the contract the server keeps): the versions
 * a gateway may take, an upgrade's start, retry and state, a device's upgrades, batch upgrades,
 * and the operator's firmware versions (system maintenance, system_gateway). A device is named
 * by its registry id, or by its serial number on the device's page.
 */
import { UPGRADE_STATES, type UpgradeFailureReason, type UpgradeState } from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AxiosProgressEvent } from 'axios';
import { get, request } from '../../app/http/client';
import type { Page, Paging } from '../../shared/paging';

export interface Person {
  id: number;
  name: string;
}

export interface FirmwareVersion {
  id: number;
  /** the gateway model it applies to (the release note's typeId) */
  model: string;
  version: string;
  size: number;
  sha256: string;
  notesZh: string;
  notesEn: string;
  fileName: string;
  uploadedAt: string;
  uploadedBy: Person | null;
  /** on a device's list only: newer than what the gateway runs */
  newer?: boolean;
}

export type { UpgradeState };

/** The ordered states an upgrade goes through to success (the domain's, failed aside). */
export const UPGRADE_STEPS = UPGRADE_STATES.filter(
  (state): state is Exclude<UpgradeState, 'failed'> => state !== 'failed',
);

/** the domain's reasons, and a queued batch entry cancelled */
export type FailureReason = UpgradeFailureReason | 'cancelled';

export interface Upgrade {
  id: number;
  deviceId: number;
  serialNumber: string;
  deviceName: string;
  /** null once the version was deleted */
  versionId: number | null;
  version: string;
  fromVersion: string | null;
  state: UpgradeState;
  progress: number | null;
  reason: FailureReason | null;
  /** the gateway's own words about a failure */
  detail: string | null;
  message: string | null;
  batchId: number | null;
  createdAt: string;
  createdBy: Person | null;
  dispatchedAt: string | null;
  updatedAt: string;
  endedAt: string | null;
  timeouts: { ack: number; progress: number; total: number };
  live: boolean;
}

export const isLive = (upgrade: Pick<Upgrade, 'state'>) =>
  upgrade.state !== 'success' && upgrade.state !== 'failed';

export interface FirmwareDevice {
  id: number;
  name: string;
  serialNumber: string;
  model: string;
  firmware: string | null;
  online: boolean;
  /** the caller's data permission: 1 read, 2 read-write, 3 administrator */
  level: number;
}

export interface DeviceFirmware {
  device: FirmwareDevice;
  versions: FirmwareVersion[];
  /** the live upgrade, else the last one */
  upgrade: Upgrade | null;
}

export interface BatchResult {
  batchId: number;
  results: Array<{ id: number; upgrade: Upgrade | null; error: { code: number; message: string } | null }>;
}

export interface BatchView {
  batchId: number;
  /** null once the version was deleted */
  versionId: number | null;
  version: string;
  createdAt: string;
  counts: Partial<Record<UpgradeState, number>>;
  list: Upgrade[];
}

const DEVICE = '/devicemanagement/firmware';
const SYSTEM = '/system/firmware';

export const firmwareKeys = {
  all: ['firmware'] as const,
  device: (ref: DeviceRefParam) => ['firmware', 'device', ref] as const,
  upgrade: (deviceId: number, upgradeId: number) => ['firmware', 'upgrade', deviceId, upgradeId] as const,
  upgrades: (deviceId: number, paging: Paging) => ['firmware', 'upgrades', deviceId, paging] as const,
  releaseNote: (version: string, typeId: string) => ['firmware', 'releaseNote', version, typeId] as const,
  versions: (model: string | undefined, paging: Paging) =>
    ['firmware', 'versions', model ?? '', paging] as const,
  batch: (batchId: number) => ['firmware', 'batch', batchId] as const,
};

export type DeviceRefParam = { serialNumber: string } | { id: number };

/** `poll`: read again every so many ms (the socket's events are the fast path; this is the floor) */
export function useDeviceFirmware(ref: DeviceRefParam | null, poll: number | false) {
  return useQuery({
    queryKey: firmwareKeys.device(ref ?? { id: 0 }),
    queryFn: () => get<DeviceFirmware>(`${DEVICE}/device`, ref ?? {}),
    enabled: ref != null,
    retry: false,
    refetchInterval: poll,
  });
}

export function useUpgrades(deviceId: number | undefined, paging: Paging, poll: number | false) {
  return useQuery({
    queryKey: firmwareKeys.upgrades(deviceId ?? 0, paging),
    queryFn: () => get<Page<Upgrade>>(`${DEVICE}/upgrades`, { id: deviceId, ...paging }),
    enabled: deviceId != null,
    retry: false,
    placeholderData: keepPreviousData,
    refetchInterval: poll,
  });
}

export function useReleaseNote(version: string, typeId: string) {
  return useQuery({
    queryKey: firmwareKeys.releaseNote(version, typeId),
    queryFn: () => get<FirmwareVersion>(`${DEVICE}/releaseNote`, { version, typeId }, { silent: true }),
    enabled: version !== '' && typeId !== '',
    retry: false,
  });
}

export function useFirmwareVersions(model: string | undefined, paging: Paging) {
  return useQuery({
    queryKey: firmwareKeys.versions(model, paging),
    queryFn: () => get<Page<FirmwareVersion>>(`${SYSTEM}/list`, { model, ...paging }),
    placeholderData: keepPreviousData,
  });
}

export function useBatch(batchId: number | null, poll: number | false) {
  return useQuery({
    queryKey: firmwareKeys.batch(batchId ?? 0),
    queryFn: () => get<BatchView>(`${DEVICE}/batch`, { batchId }),
    enabled: batchId != null,
    retry: false,
    refetchInterval: poll,
  });
}

export interface UploadFields {
  model: string;
  version: string;
  notesZh: string;
  notesEn: string;
}

export const firmwareApi = {
  /** silent: the page names a refusal beside the button (the spec's words) */
  upgrade: (id: number, versionId: number) =>
    request<Upgrade>({ method: 'POST', url: `${DEVICE}/upgrade`, data: { id, versionId }, silent: true }),
  retry: (id: number, upgradeId: number) =>
    request<Upgrade>({ method: 'POST', url: `${DEVICE}/retry`, data: { id, upgradeId }, silent: true }),
  batch: (ids: number[], versionId: number) =>
    request<BatchResult>({ method: 'POST', url: `${DEVICE}/batch`, data: { ids, versionId } }),
  versionsFor: (id: number) => get<DeviceFirmware>(`${DEVICE}/device`, { id }),
  /** silent: the dialog shows the refusal beside the field it names */
  upload: (file: File, fields: UploadFields, onProgress: (percent: number) => void) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    // the fields first, the file last: the server reads the fields before the image streams
    form.append('file', file, file.name);
    return request<FirmwareVersion>({
      method: 'POST',
      url: `${SYSTEM}/upload`,
      data: form,
      silent: true,
      timeout: 600_000,
      onUploadProgress: (event: AxiosProgressEvent) => {
        if (event.total) onProgress(Math.round((event.loaded / event.total) * 100));
      },
    });
  },
  update: (id: number, notesZh: string, notesEn: string) =>
    request<FirmwareVersion>({ method: 'POST', url: `${SYSTEM}/update`, data: { id, notesZh, notesEn } }),
  remove: (id: number) => request<null>({ method: 'POST', url: `${SYSTEM}/delete`, data: { id } }),
};
