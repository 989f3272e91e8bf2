/**
 * Jump associations (spec points 3, 4, 5): when a record written to an item meets a jump's
 * conditions (all of them), a record built by the jump's mapping is written to the target item.
 * Jumps run highest priority first, ties by id.
 *
 * Comparison rules: two numbers (or numeric texts) compare as numbers, anything else as text;
 * an empty value (null, '', no files) matches only `empty` and `ne`.
 */
import { CATALOGUE, type ErrorKey, formatMessage } from '../errors';
import { checkNumeric, NAME_MAX_LENGTH, nameLength } from '../validation';
import {
  type FieldDef,
  JUMP_OPERATORS,
  type JumpCondition,
  type JumpMapping,
  type RecordValue,
  type RecordValues,
} from './types';
import { coerceValue } from './values';

export interface JumpInput {
  itemId: number;
  name: string;
  conditions: JumpCondition[];
  targetItemId: number | null | undefined;
  mapping: JumpMapping[];
}

export type CheckJumpResult =
  | { ok: true }
  | {
      ok: false;
      /** the input property at fault: name, conditions, targetItemId or mapping */
      field: string;
      key: ErrorKey;
      /** position in conditions / mapping when one entry is at fault */
      index?: number;
      /** English text of the error */
      message: string;
    };

const VALUELESS_OPS: readonly string[] = ['empty', 'notEmpty'];

/** Checks a jump before it is saved. targetFields are the target item's fields (empty if unknown). */
export function checkJump(
  jump: JumpInput,
  sourceFields: readonly FieldDef[],
  targetFields: readonly FieldDef[],
): CheckJumpResult {
  const fail = (field: string, key: ErrorKey, index?: number, name = field): CheckJumpResult => ({
    ok: false,
    field,
    key,
    ...(index === undefined ? {} : { index }),
    message: formatMessage(CATALOGUE[key].en, { field: name }),
  });
  if (typeof jump.name !== 'string' || jump.name.trim() === '') return fail('name', 'jumpIncomplete');
  if (nameLength(jump.name.trim()) > NAME_MAX_LENGTH) return fail('name', 'nameTooLong');
  if (!Array.isArray(jump.conditions)) return fail('conditions', 'jumpIncomplete');
  for (const [index, c] of jump.conditions.entries()) {
    const complete =
      typeof c === 'object' &&
      c !== null &&
      sourceFields.some((f) => f.key === c.field) &&
      (JUMP_OPERATORS as readonly string[]).includes(c.op) &&
      (VALUELESS_OPS.includes(c.op) || (c.value !== undefined && c.value !== null && c.value !== ''));
    if (!complete) return fail('conditions', 'jumpIncomplete', index);
  }
  if (jump.targetItemId == null || !Number.isInteger(jump.targetItemId))
    return fail('targetItemId', 'jumpIncomplete');
  if (jump.targetItemId === jump.itemId) return fail('targetItemId', 'jumpSelf');
  if (!Array.isArray(jump.mapping) || jump.mapping.length === 0) return fail('mapping', 'jumpIncomplete');
  const mapped = new Set<string>();
  for (const [index, m] of jump.mapping.entries()) {
    const target = targetFields.find((f) => f.key === m?.to);
    if (!target || mapped.has(target.key)) return fail('mapping', 'validation', index);
    mapped.add(target.key);
    if (m.from != null) {
      if (!sourceFields.some((f) => f.key === m.from)) return fail('mapping', 'validation', index);
    } else {
      if (m.value === undefined || m.value === null) return fail('mapping', 'jumpIncomplete', index);
      const r = coerceValue(target, m.value);
      if (!r.ok) return fail('mapping', r.key, index, target.name);
    }
  }
  const missing = targetFields.find((f) => f.required && !mapped.has(f.key));
  if (missing) return fail('mapping', 'fieldRequired', undefined, missing.name);
  return { ok: true };
}

function isEmptyValue(v: RecordValue | undefined): boolean {
  return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
}

function asNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && checkNumeric(v.trim()) === null) return Number(v.trim());
  return null;
}

function asText(v: RecordValue | undefined): string {
  if (Array.isArray(v)) return v.map((f) => f.name).join(',');
  return v == null ? '' : String(v);
}

/** Whether one condition holds for a record's values (keyed by field key). */
export function matchesCondition(c: JumpCondition, values: RecordValues): boolean {
  const v = values[c.field];
  if (c.op === 'empty') return isEmptyValue(v);
  if (c.op === 'notEmpty') return !isEmptyValue(v);
  if (isEmptyValue(v)) return c.op === 'ne';
  if (c.op === 'contains') return asText(v).includes(String(c.value ?? ''));
  const a = asNumber(v);
  const b = asNumber(c.value);
  let cmp: number;
  if (a !== null && b !== null) cmp = a === b ? 0 : a < b ? -1 : 1;
  else {
    const x = asText(v);
    const y = String(c.value ?? '');
    cmp = x === y ? 0 : x < y ? -1 : 1;
  }
  switch (c.op) {
    case 'eq':
      return cmp === 0;
    case 'ne':
      return cmp !== 0;
    case 'gt':
      return cmp > 0;
    case 'ge':
      return cmp >= 0;
    case 'lt':
      return cmp < 0;
    case 'le':
      return cmp <= 0;
    default:
      return false;
  }
}

/** All conditions hold (AND); no conditions means always. */
export function matchesConditions(conditions: readonly JumpCondition[], values: RecordValues): boolean {
  return conditions.every((c) => matchesCondition(c, values));
}

/**
 * The target record's values: each mapping copies a source field or sets a fixed value.
 * Values are as found; the target item's checkRecord coerces them (e.g. a number into text).
 */
export function applyMapping(mapping: readonly JumpMapping[], sourceValues: RecordValues): RecordValues {
  const out: RecordValues = {};
  for (const m of mapping) {
    out[m.to] = m.from != null ? (sourceValues[m.from] ?? null) : (m.value ?? null);
  }
  return out;
}

/** Highest priority first, ties by id ascending. Returns a new array. */
export function orderJumps<T extends { id: number; priority: number }>(jumps: readonly T[]): T[] {
  return [...jumps].sort((a, b) => b.priority - a.priority || a.id - b.id);
}

/** The enabled jumps whose conditions a record meets, in the order they run. */
export function jumpsToRun<
  T extends { id: number; priority: number; enabled?: boolean; conditions: JumpCondition[] },
>(jumps: readonly T[], values: RecordValues): T[] {
  return orderJumps(jumps.filter((j) => j.enabled !== false && matchesConditions(j.conditions, values)));
}
