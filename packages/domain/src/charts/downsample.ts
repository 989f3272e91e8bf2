/**
 * Downsampling for charts: a chart never needs more points than it has pixel columns, so the
 * server cuts a series down before sending it. Two ways, both keeping the first and last point
 * and never answering more than `maxPoints` points:
 *
 * - lttb: Largest-Triangle-Three-Buckets (Steinarsson 2013): the first and last point, then one
 *   point per bucket, the one making the largest triangle with the point kept before it and the
 *   average of the next bucket. Shapes and spikes survive, noise is thinned. Same bucket split
 *   as the `downsample` npm package (checked against it in the tests), written here without its
 *   per-call copies of the data.
 * - minMaxPerColumn: the x span cut into equal columns; each column keeps its lowest and its
 *   highest point, in x order. Every extreme of every column survives (what a line drawn at one
 *   pixel per column would show), at two points per column.
 *
 * Points are [x, y] tuples (x = epoch ms) sorted by x; extra tuple members ride along.
 */
export type XY = readonly [number, number, ...number[]];

function bounded<P>(points: readonly P[], maxPoints: number): P[] | null {
  const max = Math.max(0, Math.floor(maxPoints));
  if (points.length <= max) return points.slice();
  if (max === 0) return [];
  if (max === 1) return [points[points.length - 1]!];
  if (max === 2) return [points[0]!, points[points.length - 1]!];
  return null;
}

/** LTTB down to at most maxPoints points (the input itself when it is short enough). */
export function lttb<P extends XY>(points: readonly P[], maxPoints: number): P[] {
  const small = bounded(points, maxPoints);
  if (small) return small;
  const n = points.length;
  const k = Math.floor(maxPoints);
  // the n-2 inner points cut into k-2 buckets: bucket i is inner[floor(i*size), floor((i+1)*size))
  const size = (n - 2) / (k - 2);
  const start = (i: number) => 1 + Math.floor(i * size);
  const out: P[] = [points[0]!];
  let a = 0;
  for (let i = 0; i < k - 2; i++) {
    const from = start(i);
    const to = start(i + 1);
    // the next bucket's average point; the last inner bucket looks at the last point
    let avgX = 0;
    let avgY = 0;
    if (i === k - 3) {
      avgX = points[n - 1]![0];
      avgY = points[n - 1]![1];
    } else {
      const nFrom = to;
      const nTo = start(i + 2);
      for (let j = nFrom; j < nTo; j++) {
        avgX += points[j]![0];
        avgY += points[j]![1];
      }
      avgX /= nTo - nFrom;
      avgY /= nTo - nFrom;
    }
    const [ax, ay] = points[a]!;
    let best = -1;
    let bestArea = -1;
    for (let j = from; j < to; j++) {
      const [bx, by] = points[j]!;
      const area = Math.abs((ax - avgX) * (by - ay) - (ax - bx) * (avgY - ay)) / 2;
      if (area > bestArea) {
        bestArea = area;
        best = j;
      }
    }
    out.push(points[best]!);
    a = best;
  }
  out.push(points[n - 1]!);
  return out;
}

/**
 * The lowest and highest point of each pixel column, at most maxPoints in all: the first and
 * last point, and (maxPoints - 2) / 2 columns over the x span between them.
 */
export function minMaxPerColumn<P extends XY>(points: readonly P[], maxPoints: number): P[] {
  const small = bounded(points, maxPoints);
  if (small) return small;
  const n = points.length;
  const columns = Math.floor((Math.floor(maxPoints) - 2) / 2);
  const first = points[0]!;
  const last = points[n - 1]!;
  if (columns < 1) return [first, last];
  const x0 = first[0];
  const span = last[0] - x0;
  const out: P[] = [first];
  let col = -1;
  let lo = -1;
  let hi = -1;
  const flush = () => {
    if (col < 0) return;
    if (lo === hi) out.push(points[lo]!);
    else if (lo < hi) out.push(points[lo]!, points[hi]!);
    else out.push(points[hi]!, points[lo]!);
  };
  for (let j = 1; j < n - 1; j++) {
    const p = points[j]!;
    const c = span > 0 ? Math.min(columns - 1, Math.floor(((p[0] - x0) / span) * columns)) : 0;
    if (c !== col) {
      flush();
      col = c;
      lo = j;
      hi = j;
    } else {
      if (p[1] < points[lo]![1]) lo = j;
      if (p[1] > points[hi]![1]) hi = j;
    }
  }
  flush();
  out.push(last);
  return out;
}

export const DOWNSAMPLE_METHODS = ['lttb', 'minmax'] as const;
export type DownsampleMethod = (typeof DOWNSAMPLE_METHODS)[number];

export function downsample<P extends XY>(
  points: readonly P[],
  maxPoints: number,
  method: DownsampleMethod,
): P[] {
  return method === 'minmax' ? minMaxPerColumn(points, maxPoints) : lttb(points, maxPoints);
}
