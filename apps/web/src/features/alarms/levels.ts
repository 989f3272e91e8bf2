/**
 * Alarm levels 1, 2, 3 (seed point 3; docs/alarms.md: a higher level is further out, so 3 is
 * the most severe): one colour each, the antd preset for tags and the same hue for the wall.
 */
export const LEVELS = [3, 2, 1] as const;

/** antd tag presets */
export const LEVEL_COLOURS: Record<number, string> = { 1: 'gold', 2: 'orange', 3: 'red' };

/** the same hues as CSS colours (antd gold-6, orange-6, red-6) */
export const LEVEL_HEX: Record<number, string> = { 1: '#faad14', 2: '#fa8c16', 3: '#f5222d' };

const two = (n: number) => String(n).padStart(2, '0');

/**
 * How long an alarm has been open: `hh:mm:ss` and the whole days before it (a negative span,
 * a clock behind the server's, reads as 0).
 */
export function openFor(firedAt: string, now: number): { days: number; clock: string } {
  const s = Math.max(0, Math.floor((now - new Date(firedAt).getTime()) / 1000));
  const days = Math.floor(s / 86_400);
  const rest = s % 86_400;
  return {
    days,
    clock: `${two(Math.floor(rest / 3600))}:${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}`,
  };
}
