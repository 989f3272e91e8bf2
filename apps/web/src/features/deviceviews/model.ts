/** Pure helpers of the device views: ranges, grouping by unit, live appends, the CSV of a chart. */
import type { Bucket, DevicePoint } from './api';

/** The spec's time windows (30, 60, 720, 1440 minutes), a week, or a range of one's own. */
export const WINDOWS = ['30', '60', '720', '1440', '10080', 'custom'] as const;
export type WindowKey = (typeof WINDOWS)[number];
/** windows that follow the clock: records arriving are appended while they are shown */
export const LIVE_WINDOWS: readonly WindowKey[] = ['30', '60'];
/** points chosen when the page opens */
export const DEFAULT_POINTS = 8;

export function windowRange(
  key: Exclude<WindowKey, 'custom'>,
  now = Date.now(),
): { from: string; to: string } {
  // the end a little ahead, so that a record stamped by a gateway's slightly fast clock shows
  const to = now + 60_000;
  return { from: new Date(now - Number(key) * 60_000).toISOString(), to: new Date(to).toISOString() };
}

export const pointLabel = (p: Pick<DevicePoint, 'itemName' | 'fieldName'>) =>
  `${p.itemName} · ${p.fieldName}`;

/** Points grouped by unit, in the order first met: one chart per unit. */
export function byUnit(points: DevicePoint[]): Array<{ unit: string | null; points: DevicePoint[] }> {
  const groups = new Map<string, { unit: string | null; points: DevicePoint[] }>();
  for (const p of points) {
    const key = p.unit ?? '';
    const group = groups.get(key) ?? { unit: p.unit, points: [] };
    group.points.push(p);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * Buckets of records heard live, for each chosen point a record carries a number of: each as a
 * bucket of its own (average = minimum = maximum = the value).
 */
export function liveBuckets(
  points: DevicePoint[],
  itemId: number,
  ts: string,
  values: Record<string, unknown>,
): Array<[string, Bucket]> {
  const at = Date.parse(ts);
  if (Number.isNaN(at)) return [];
  return points.flatMap((p): Array<[string, Bucket]> => {
    const v = values[p.fieldKey];
    return p.itemId === itemId && typeof v === 'number' && Number.isFinite(v)
      ? [[p.key, [at, v, v, v, 1]]]
      : [];
  });
}

/** The server's buckets followed by the live ones after them, none before `fromMs`. */
export function joined(server: Bucket[], live: Bucket[], fromMs: number): Bucket[] {
  const last = server.length > 0 ? server[server.length - 1]![0] : Number.NEGATIVE_INFINITY;
  return [...server, ...live.filter((b) => b[0] > last)].filter((b) => b[0] >= fromMs);
}

/** Rows of the CSV of what a chart shows: a header, then one row per point and bucket, in time order. */
export function csvRows(
  points: DevicePoint[],
  series: Map<string, Bucket[]>,
  header: string[],
  formatTime: (ms: number) => string,
): unknown[][] {
  const rows: Array<[number, unknown[]]> = [];
  for (const p of points)
    for (const b of series.get(p.key) ?? [])
      rows.push([b[0], [formatTime(b[0]), pointLabel(p), p.unit ?? '', b[1], b[2], b[3], b[4]]]);
  rows.sort((x, y) => x[0] - y[0]);
  return [header, ...rows.map((r) => r[1])];
}
