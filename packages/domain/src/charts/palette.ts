/**
 * Display constants of the charts (spec point 9): the 14 chart colours, the percentage colour
 * scale at 20/40/60/80/100 and the scale of 5 steps up to 100. The spec gives the counts, not
 * the values, so the values are chosen here:
 *
 * - the palette opens with ECharts 5's nine default colours (people who read ECharts charts know
 *   them, and neighbours stay apart on white and on a dark big screen) and adds five hues
 *   (teal, ochre, indigo, rose, grey) that are distinct from those nine and from each other;
 * - the percentage scale runs cool to hot (blue, green, yellow, orange, red), so a gauge or a
 *   card reads "fuller / hotter" without a legend; each colour covers the band ending at its
 *   stop: 0-20, 20-40, 40-60, 60-80, 80-100.
 */

/** The 14 chart colours, in the order series take them. */
export const CHART_COLORS = [
  '#5470c6',
  '#91cc75',
  '#fac858',
  '#ee6666',
  '#73c0de',
  '#3ba272',
  '#fc8452',
  '#9a60b4',
  '#ea7ccc',
  '#1f9e89',
  '#b8860b',
  '#3f51b5',
  '#d4507a',
  '#7f7f7f',
] as const;

/** The colour of the i-th series: the palette, round and round. */
export function seriesColor(index: number): string {
  const n = CHART_COLORS.length;
  return CHART_COLORS[((Math.trunc(index) % n) + n) % n]!;
}

/** The percentage colour scale: each stop's colour covers the band ending at it. */
export const PERCENT_COLOR_STOPS = [
  { upTo: 20, color: '#73c0de' },
  { upTo: 40, color: '#91cc75' },
  { upTo: 60, color: '#fac858' },
  { upTo: 80, color: '#fc8452' },
  { upTo: 100, color: '#ee6666' },
] as const;

/** The scale of 5 steps up to 100 (gauge ticks, card bars): 20, 40, 60, 80, 100. */
export const PERCENT_STEPS = [20, 40, 60, 80, 100] as const;

/** A value as a percentage of [min, max], clamped to 0…100; null when it cannot be placed. */
export function percentOf(value: number | null | undefined, min = 0, max = 100): number | null {
  if (value == null || !Number.isFinite(value) || !Number.isFinite(min) || !Number.isFinite(max)) return null;
  if (max <= min) return null;
  const p = ((value - min) / (max - min)) * 100;
  return Math.min(100, Math.max(0, p));
}

/**
 * The step (1…5) of a percentage: 1 for 0…20, 2 for (20…40], … 5 for (80…100]. Values outside
 * 0…100 take the nearest end; null and NaN have no step.
 */
export function percentStep(percent: number | null | undefined): number | null {
  if (percent == null || Number.isNaN(percent)) return null;
  const p = Math.min(100, Math.max(0, percent));
  const i = PERCENT_STEPS.findIndex((s) => p <= s);
  return (i < 0 ? PERCENT_STEPS.length - 1 : i) + 1;
}

/** The colour of a percentage on the scale, or null when it has none. */
export function percentColor(percent: number | null | undefined): string | null {
  const step = percentStep(percent);
  return step === null ? null : PERCENT_COLOR_STOPS[step - 1]!.color;
}

/** The scale as ECharts gauge axis bands: [[0.2, colour], [0.4, colour], … [1, colour]]. */
export function gaugeBands(): Array<[number, string]> {
  return PERCENT_COLOR_STOPS.map((s) => [s.upTo / 100, s.color]);
}
