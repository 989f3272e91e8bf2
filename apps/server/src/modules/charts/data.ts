/**
 * What a chart draws: for each series either its points (raw series, and a card's trend) or one
 * value (an acquisition method). A chart never receives more points per series than the width
 * it says it has, in pixels:
 *
 * 1. the window is cut into buckets (deviceviews/series.ts, shared with the device charts) at
 *    most twice as many as the points wanted; a window longer than LONG_RANGE_MS reads the
 *    hourly rollups, never the records, which keeps a month cheap on the embedded database too;
 * 2. a bucket holding several numbers gives its minimum and its maximum as two points, so a
 *    spike inside a bucket still reaches the downsampler;
 * 3. those points are downsampled (LTTB or min/max per pixel column, packages/domain) to the bound.
 */
import {
  type ChartConfig,
  type ChartSeries,
  downsample,
  type FieldDef,
  methodWindow,
  rangeBounds,
  type SeriesMethod,
} from '@platform/domain';
import type { Db } from '../../platform/db';
import { acquireSql } from '../analysis/acquire';
import { bucketWidthS, HOUR_S, seriesOf } from '../deviceviews/series';

/** windows longer than this read the hourly rollups */
export const LONG_RANGE_MS = 2 * 86_400_000;

export type Point = [number, number];

export interface SeriesData {
  field: string;
  name: string;
  unit: string | null;
  method: SeriesMethod;
  /** the window read: ISO instants; null for `latest` */
  from: string | null;
  to: string | null;
  /** where the points came from; null when the series has no points */
  source: 'records' | 'rollups' | null;
  bucketS: number | null;
  /** [epoch ms, value], oldest first: the raw series, or a card's trend */
  points: Point[];
  /** the acquisition method's value; null for raw series and for an empty window */
  value: number | null;
}

export interface ChartItem {
  id: number;
  companyId: number;
  fields: FieldDef[];
}

/** The points of one field over [from, to), at most maxPoints. */
export async function pointsOf(
  db: Db,
  item: ChartItem,
  field: string,
  from: number,
  to: number,
  maxPoints: number,
  method: ChartConfig['downsample'],
): Promise<{ points: Point[]; source: 'records' | 'rollups'; bucketS: number }> {
  const f = new Date(from);
  const t = new Date(to);
  const widthS = bucketWidthS(f, t, maxPoints * 2, to - from > LONG_RANGE_MS ? HOUR_S : 1);
  const buckets = await seriesOf(db, item.companyId, item.id, field, f, t, widthS);
  const fine: Point[] = [];
  for (const [ts, , min, max, count] of buckets) {
    if (count <= 1 || min === max) fine.push([ts, min]);
    else fine.push([ts, min], [ts + (widthS * 1000) / 2, max]);
  }
  return {
    points: downsample(fine, maxPoints, method),
    source: widthS >= HOUR_S ? 'rollups' : 'records',
    bucketS: widthS,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** The data of every series of a checked configuration. */
export async function chartData(
  db: Db,
  item: ChartItem,
  config: ChartConfig,
  maxPoints: number,
  now: Date,
  tz: string,
): Promise<SeriesData[]> {
  return Promise.all(
    config.series.map(async (s: ChartSeries): Promise<SeriesData> => {
      const def = item.fields.find((f) => f.key === s.field);
      const head = { field: s.field, name: def?.name ?? s.field, unit: def?.unit || null, method: s.method };
      if (s.method === 'raw') {
        const w = rangeBounds(s.range ?? 'today', now.getTime(), tz, s.from, s.to);
        const got = await pointsOf(db, item, s.field, w.from, w.to, maxPoints, config.downsample);
        return { ...head, from: iso(w.from), to: iso(w.to), ...got, value: null };
      }
      const value = await acquireSql(db, {
        itemId: item.id,
        field: s.field,
        method: s.method,
        range: s.range,
        from: s.from,
        to: s.to,
        now,
        tz,
      });
      const w = methodWindow(s.method, now.getTime(), tz, s.range, s.from, s.to);
      const open = s.method === 'latest';
      if (config.type !== 'card') {
        return {
          ...head,
          from: open ? null : iso(w.from),
          to: open ? null : iso(w.to),
          source: null,
          bucketS: null,
          points: [],
          value,
        };
      }
      // a card's trend: the field over the method's window (today for the latest record)
      const trend = open ? rangeBounds('today', now.getTime(), tz) : w;
      const got = await pointsOf(db, item, s.field, trend.from, trend.to, maxPoints, config.downsample);
      return { ...head, from: iso(trend.from), to: iso(trend.to), ...got, value };
    }),
  );
}
