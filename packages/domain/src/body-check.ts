/**
 * The check kit of the canvas bodies (a board's widgets, a screen's elements): readers that take
 * one key of an untrusted JSON object, apply its fallback and bounds, and throw a `Broken` naming
 * the field's path and the reason. The body's own check catches `Broken` and answers
 * `{ ok: false, field, reason }`; the field paths and reasons are part of the API.
 */

/** a data field's key (f1, f2, …) */
export const FIELD_KEY = /^f[0-9]{1,6}$/;
/** images: a product file link or an http(s) address; never javascript: or data: */
export const IMAGE_URL = /^(https?:\/\/|\/)[^\s"'<>]*$/;

export type Raw = Record<string, unknown>;
export const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
export const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/** A body that does not pass: `field` is the path of the first broken field, `reason` why. */
export class Broken extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

export function int(
  raw: Raw,
  key: string,
  path: string,
  min: number,
  max: number,
  fallback?: number,
): number {
  const v = raw[key] ?? fallback;
  if (!isInt(v)) throw new Broken(`${path}.${key}`, 'integer');
  if (v < min || v > max) throw new Broken(`${path}.${key}`, `range ${min}..${max}`);
  // -0 reads back as 0 from JSON: keep the checked body what a round trip gives
  return v === 0 ? 0 : v;
}
export function str(
  raw: Raw,
  key: string,
  path: string,
  max: number,
  fallback = '',
  pattern?: RegExp,
): string {
  const v = raw[key] ?? fallback;
  if (typeof v !== 'string') throw new Broken(`${path}.${key}`, 'text');
  if (v.length > max) throw new Broken(`${path}.${key}`, `length ≤ ${max}`);
  if (pattern && v !== '' && !pattern.test(v)) throw new Broken(`${path}.${key}`, 'format');
  return v;
}
export function oneOf<T extends string>(
  raw: Raw,
  key: string,
  path: string,
  values: readonly T[],
  fallback: T,
): T {
  const v = raw[key] ?? fallback;
  if (!(values as readonly unknown[]).includes(v))
    throw new Broken(`${path}.${key}`, `one of ${values.join('|')}`);
  return v as T;
}
export function bool(raw: Raw, key: string, path: string, fallback = false): boolean {
  const v = raw[key] ?? fallback;
  if (typeof v !== 'boolean') throw new Broken(`${path}.${key}`, 'boolean');
  return v;
}
