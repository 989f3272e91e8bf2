/**
 * Field definitions of a data item (spec point 3). Records are keyed by a field's stable key
 * ("f1", "f2", …), so a rename never touches stored values; new fields arrive without a key
 * and get the item's next number. Names double as submission keys (docs/api-data-engine.md),
 * which is why a name may not be another field's key nor one of the reserved body keys.
 */
import type { ErrorKey } from '../errors';
import { checkDataItemName } from '../validation';
import { DATE_FORMATS, type DateFormat, FIELD_TYPES, type FieldDef, type FieldType } from './types';

export const DEFAULT_DATE_FORMAT: DateFormat = 'yyyy-MM-dd HH:mm:ss';
export const MAX_DECIMALS = 6;
/** Keys of a submitted record that are not field values */
export const RESERVED_FIELD_NAMES: readonly string[] = ['itemId', 'ts'];
const FIELD_KEY = /^f[1-9]\d*$/;

export type FieldInput = Omit<FieldDef, 'key'> & { key?: string };

export type CheckFieldsResult =
  | { ok: true; fields: FieldDef[]; nextFieldNo: number }
  | { ok: false; index: number; field: string; key: ErrorKey };

export function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'number' && (FIELD_TYPES as readonly number[]).includes(value);
}

/** Validates an item's whole field list and assigns keys to new fields. Pure: input is not changed. */
export function checkFields(fields: FieldInput[], nextFieldNo: number): CheckFieldsResult {
  const fail = (index: number, field: string, key: ErrorKey): CheckFieldsResult => ({
    ok: false,
    index,
    field,
    key,
  });
  const existingKeys = new Set<string>();
  let next = Math.max(1, Math.floor(nextFieldNo));
  // keys first, so a new field never takes a number an existing one already holds
  for (const [index, f] of fields.entries()) {
    if (f.key === undefined) continue;
    if (typeof f.key !== 'string' || !FIELD_KEY.test(f.key) || existingKeys.has(f.key)) {
      return fail(index, 'key', 'validation');
    }
    existingKeys.add(f.key);
    next = Math.max(next, Number(f.key.slice(1)) + 1);
  }
  const out: FieldDef[] = [];
  const names = new Set<string>();
  for (const [index, f] of fields.entries()) {
    const name = typeof f.name === 'string' ? f.name.trim() : '';
    if (name === '') return fail(index, 'name', 'dataNameRequired');
    const nameError = checkDataItemName(name);
    if (nameError) return fail(index, 'name', nameError);
    if (names.has(name)) return fail(index, 'name', 'fieldNameTaken');
    if (RESERVED_FIELD_NAMES.includes(name)) return fail(index, 'name', 'fieldNameReserved');
    names.add(name);
    if (f.type == null) return fail(index, 'type', 'typeEntriesIncomplete');
    if (!isFieldType(f.type)) return fail(index, 'type', 'validation');
    // a stale dateFormat or decimals left over from a type change is dropped, not refused
    const dateFormat = f.type === 4 ? f.dateFormat : undefined;
    const decimals = f.type === 1 || f.type === 2 ? f.decimals : undefined;
    if (dateFormat != null && !(DATE_FORMATS as readonly string[]).includes(dateFormat)) {
      return fail(index, 'dateFormat', 'validation');
    }
    if (decimals != null && (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS)) {
      return fail(index, 'decimals', 'decimalsRange');
    }
    if (f.unit != null && (typeof f.unit !== 'string' || [...f.unit].length > 25)) {
      return fail(index, 'unit', 'validation');
    }
    const def: FieldDef = { key: f.key ?? `f${next++}`, name, type: f.type };
    const unit = f.unit?.trim();
    if (unit) def.unit = unit;
    if (f.type === 4) def.dateFormat = dateFormat ?? DEFAULT_DATE_FORMAT;
    if (f.required) def.required = true;
    if (decimals != null) def.decimals = decimals;
    out.push(def);
  }
  // a name that reads like another field's key would make submissions ambiguous
  for (const [index, def] of out.entries()) {
    if (out.some((other) => other !== def && other.key === def.name))
      return fail(index, 'name', 'fieldNameTaken');
  }
  return { ok: true, fields: out, nextFieldNo: next };
}

/** Finds a field by key first, then by name (submission bodies may use either). */
export function findField(fields: readonly FieldDef[], keyOrName: string): FieldDef | undefined {
  return fields.find((f) => f.key === keyOrName) ?? fields.find((f) => f.name === keyOrName);
}
