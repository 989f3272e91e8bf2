/**
 * Calls of the device views (docs/devices.md, "Device views"): a device's points, their series
 * over a range (bucketed on the server) and the configuration it runs for the data-flow page.
 */
import type { GatewayConfig } from '@platform/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { get } from '../../app/http/client';

const BASE = '/devicemanagement/device';

/** points one chart may ask for at once (the server's limit) */
export const MAX_SERIES_POINTS = 20;
/** the longest range the server charts */
export const MAX_RANGE_DAYS = 93;

export interface PointSource {
  name: string;
  packetId: number | null;
  port: number | null;
  nodeId: string;
}

export interface DevicePoint {
  /** `itemId:fieldKey` */
  key: string;
  itemId: number;
  itemName: string;
  fieldKey: string;
  fieldName: string;
  unit: string | null;
  fieldType: number;
  numeric: boolean;
  sources: PointSource[];
}

export interface DeviceHead {
  id: number;
  name: string;
  serialNumber: string;
  online: boolean;
}

export interface PointsView {
  device: DeviceHead;
  /** the configuration version the gateway runs; null when none was applied */
  version: number | null;
  points: DevicePoint[];
  /** points of items the person cannot read, left out */
  hidden: number;
}

/** [bucket start ms, average, minimum, maximum, count] */
export type Bucket = [number, number, number, number, number];

export interface SeriesView {
  from: string;
  to: string;
  bucketS: number;
  series: Array<{ key: string; buckets: Bucket[] }>;
}

export interface PortCounts {
  port: number;
  stored: number;
  bad: number;
  badCrc: number;
  wrongLength: number;
  lastFrameAt: string | null;
}

export interface FlowView extends PointsView {
  config: GatewayConfig | null;
  ports: PortCounts[];
}

export const viewKeys = {
  all: ['deviceviews'] as const,
  points: (id: number) => ['deviceviews', 'points', id] as const,
  series: (id: number, keys: string[], from: string, to: string) =>
    ['deviceviews', 'series', id, keys, from, to] as const,
  flow: (id: number) => ['deviceviews', 'flow', id] as const,
};

const validId = (id: number) => Number.isInteger(id) && id > 0;

export function useDevicePoints(id: number) {
  return useQuery({
    queryKey: viewKeys.points(id),
    queryFn: () => get<PointsView>(`${BASE}/points`, { id }),
    enabled: validId(id),
    retry: false,
  });
}

export function useSeries(id: number, keys: string[], from: string | null, to: string | null) {
  return useQuery({
    queryKey: viewKeys.series(id, keys, from ?? '', to ?? ''),
    queryFn: () => get<SeriesView>(`${BASE}/series`, { id, points: keys, from, to }),
    enabled: validId(id) && keys.length > 0 && from != null && to != null,
    retry: false,
    placeholderData: keepPreviousData,
  });
}

export function useFlow(id: number) {
  return useQuery({
    queryKey: viewKeys.flow(id),
    queryFn: () => get<FlowView>(`${BASE}/flow`, { id }),
    enabled: validId(id),
    retry: false,
  });
}
