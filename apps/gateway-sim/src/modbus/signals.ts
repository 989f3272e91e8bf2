/**
 * Deterministic signals: every simulated value is a function of a seed and the time, so a test
 * (or a person checking a parser) can compute what a slave answers at any moment, and two runs
 * of the simulator agree.
 */

export const SECOND_MS = 1_000;
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Values follow the day of China (UTC+8): loads peak in the afternoon, temperatures too. */
const LOCAL_OFFSET = 8 * HOUR;

/** A 32-bit integer hash of two numbers (Murmur3's finaliser), uniform in [0, 1). */
export function hash01(seed: number, n: number): number {
  let h = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(n | 0, 0x85ebca77)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 0x1_0000_0000;
}

/** A seed for `text` (serial numbers, names): FNV-1a. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Noise in [-1, 1] that moves smoothly: random values at every `stepMs`, joined by straight
 * lines, so a value read twice a second apart barely moves while one read a step later does.
 */
export function noise(seed: number, t: number, stepMs: number): number {
  const x = t / stepMs;
  const k = Math.floor(x);
  const f = x - k;
  // k can exceed 32 bits for small steps; fold it so the hash still sees all of it
  const lo = k % 0x1_0000_0000;
  const hi = Math.floor(k / 0x1_0000_0000);
  const a = hash01(seed ^ hi, lo) * 2 - 1;
  const b = hash01(seed ^ Math.floor((k + 1) / 0x1_0000_0000), (k + 1) % 0x1_0000_0000) * 2 - 1;
  return a + (b - a) * f;
}

/** cos of the time of day, 1 at `peakHour` (local), -1 twelve hours later. */
export function daily(t: number, peakHour: number): number {
  return Math.cos((2 * Math.PI * (t + LOCAL_OFFSET - peakHour * HOUR)) / DAY);
}

/**
 * The integral over [t0, t] (in ms) of `mean + amplitude * daily(t, peakHour)`: how a meter's
 * cumulative register grows from a load of that shape. Never decreases while mean ≥ amplitude.
 */
export function dailyIntegral(
  t0: number,
  t: number,
  mean: number,
  amplitude: number,
  peakHour: number,
): number {
  const w = (2 * Math.PI) / DAY;
  const phase = (u: number) => w * (u + LOCAL_OFFSET - peakHour * HOUR);
  return mean * (t - t0) + (amplitude / w) * (Math.sin(phase(t)) - Math.sin(phase(t0)));
}

/** The local (China) day `t` falls in: whole days since 1970-01-01 00:00 UTC+8. */
export function localDay(t: number): number {
  return Math.floor((t + LOCAL_OFFSET) / DAY);
}

/** When the local day `day` (as localDay counts) begins: its midnight in UTC+8, in ms. */
export function localMidnight(day: number): number {
  return day * DAY - LOCAL_OFFSET;
}

/**
 * The sun's bell: 0 before `riseHour` and from `setHour` (local), a half-sine between, 1 half
 * way (how much of a clear noon's light reaches the panels, seasons left out).
 */
export function sunBell(t: number, riseHour: number, setHour: number): number {
  const hour = (t - localMidnight(localDay(t))) / HOUR;
  if (hour <= riseHour || hour >= setHour) return 0;
  return Math.sin((Math.PI * (hour - riseHour)) / (setHour - riseHour));
}

/** A number in [min, max) fixed by the seed and a salt (a slave's own base load, say). */
export function seeded(seed: number, salt: number, min: number, max: number): number {
  return min + hash01(seed, salt) * (max - min);
}
