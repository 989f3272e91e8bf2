/** The median of a list (the mean of the middle two for an even count; NaN for none). */
export function median(list: readonly number[]): number {
  if (list.length === 0) return Number.NaN;
  const sorted = [...list].sort((a, b) => a - b);
  const m = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
}
