/**
 * Form items (kind 11): each form element writes one field. A form is saved only when every
 * element is bound to an existing field whose type can hold what the element produces, and a
 * filled-in form is checked against its elements before the record checks run.
 */
import { CATALOGUE, type ErrorKey, formatMessage } from '../errors';
import { MAX_DECIMALS } from './fields';
import {
  type FieldDef,
  type FieldType,
  FORM_ELEMENT_TYPES,
  type FormElement,
  type FormElementType,
} from './types';
import { type CheckRecordResult, checkRecord, MAX_FILES, roundTo } from './values';

/**
 * Field types each element type may write: the one rule the form designer offers and the
 * server enforces. Text elements write text or long text (the record checks still apply each
 * field's length); a checkbox writes its chosen options joined into text.
 */
export const FORM_ELEMENT_FIELD_TYPES: Record<FormElementType, readonly FieldType[]> = {
  input: [5, 6],
  textarea: [5, 6],
  number: [10, 1, 2],
  datetime: [4],
  radio: [5],
  checkbox: [5, 6],
  upload: [8, 9],
};

/** Whether an element of this type may be bound to a field of that type. */
export function elementFits(type: FormElementType, fieldType: FieldType): boolean {
  return FORM_ELEMENT_FIELD_TYPES[type]?.includes(fieldType) ?? false;
}
/** Chosen checkbox options are stored as one text joined by this; options may not contain it. */
export const CHECKBOX_SEPARATOR = ',';

export type CheckFormResult =
  | { ok: true; form: FormElement[] }
  | {
      ok: false;
      index: number;
      field: string;
      key: ErrorKey;
      /** for the message: the element's label and, when bound, the field's name */
      params?: { element: string; field: string };
    };

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Checks a whole form definition; the first broken rule names the element's index and property. */
export function checkForm(fields: readonly FieldDef[], form: readonly FormElement[]): CheckFormResult {
  const ids = new Set<string>();
  const bound = new Set<string>();
  for (const [index, el] of form.entries()) {
    const fail = (field: string, key: ErrorKey = 'validation'): Extract<CheckFormResult, { ok: false }> => ({
      ok: false,
      index,
      field,
      key,
    });
    if (typeof el !== 'object' || el === null) return fail('type');
    if (typeof el.id !== 'string' || el.id.trim() === '' || ids.has(el.id)) return fail('id');
    ids.add(el.id);
    if (!(FORM_ELEMENT_TYPES as readonly string[]).includes(el.type)) return fail('type');
    if (typeof el.label !== 'string' || el.label.trim() === '') return fail('label', 'formLabelRequired');
    if ([...el.label].length > 100) return fail('label', 'nameTooLong');
    const target = fields.find((f) => f.key === el.field);
    if (!target) {
      return { ...fail('field', 'formFieldMissing'), params: { element: el.label.trim(), field: '' } };
    }
    if (!elementFits(el.type, target.type)) {
      return {
        ...fail('field', 'formFieldMismatch'),
        params: { element: el.label.trim(), field: target.name },
      };
    }
    if (bound.has(el.field)) return fail('field');
    bound.add(el.field);
    if (typeof el.required !== 'boolean') return fail('required');
    if (el.placeholder != null && (typeof el.placeholder !== 'string' || [...el.placeholder].length > 100)) {
      return fail('placeholder');
    }
    if (el.min != null && !isFiniteNumber(el.min)) return fail('min');
    if (el.max != null && !isFiniteNumber(el.max)) return fail('max');
    if (el.min != null && el.max != null && el.min > el.max) return fail('max', 'minAboveMax');
    if (
      el.decimals != null &&
      (!Number.isInteger(el.decimals) || el.decimals < 0 || el.decimals > MAX_DECIMALS)
    ) {
      return fail('decimals', 'decimalsRange');
    }
    if (el.type === 'radio' || el.type === 'checkbox') {
      const options = el.options;
      if (!Array.isArray(options) || options.length === 0) return fail('options');
      const seen = new Set<string>();
      for (const option of options) {
        if (typeof option !== 'string' || option.trim() === '' || seen.has(option)) return fail('options');
        if (el.type === 'checkbox' && option.includes(CHECKBOX_SEPARATOR)) return fail('options');
        seen.add(option);
      }
    }
    if (
      el.maxCount != null &&
      (!Number.isInteger(el.maxCount) || el.maxCount < 1 || el.maxCount > MAX_FILES)
    ) {
      return fail('maxCount', 'maxCountRange');
    }
    if (el.crop != null && typeof el.crop !== 'boolean') return fail('crop');
    for (const side of ['maxWidth', 'maxHeight'] as const) {
      const v = el[side];
      if (v != null && (!Number.isInteger(v) || v <= 0)) return fail(side);
    }
  }
  return { ok: true, form: [...form] };
}

/** Joins chosen checkbox options into the text a checkbox field stores. */
export function joinCheckbox(values: readonly string[]): string {
  return values.join(CHECKBOX_SEPARATOR);
}

/** Splits a stored checkbox text back into the chosen options. */
export function splitCheckbox(text: string | null | undefined): string[] {
  return text ? text.split(CHECKBOX_SEPARATOR).filter((s) => s !== '') : [];
}

/**
 * Checks a filled-in form: keys are field keys, a checkbox may send an array of options. The
 * element's own rules (required, options, min/max, decimals, maxCount) apply first, then the
 * record checks of the fields. Fields no element writes may not be sent.
 */
export function checkFormSubmission(
  fields: FieldDef[],
  form: readonly FormElement[],
  input: Record<string, unknown>,
  opts: { tz?: string } = {},
): CheckRecordResult {
  const values: Record<string, unknown> = {};
  const fail = (field: string, key: ErrorKey): CheckRecordResult => {
    const name = form.find((el) => el.field === field)?.label ?? field;
    return { ok: false, field, key, name, message: messageFor(key, name) };
  };
  for (const key of Object.keys(input)) {
    if (!form.some((el) => el.field === key)) return fail(key, 'unknownField');
  }
  for (const el of form) {
    let raw = input[el.field];
    const empty = raw == null || raw === '' || (Array.isArray(raw) && raw.length === 0);
    if (empty) {
      if (el.required) return fail(el.field, 'fieldRequired');
      if (el.field in input) values[el.field] = null;
      continue;
    }
    if (el.type === 'radio' && !(typeof raw === 'string' && el.options?.includes(raw))) {
      return fail(el.field, 'validation');
    }
    if (el.type === 'checkbox') {
      const chosen = Array.isArray(raw) ? raw : typeof raw === 'string' ? splitCheckbox(raw) : null;
      if (!chosen?.every((c) => typeof c === 'string' && el.options?.includes(c)))
        return fail(el.field, 'validation');
      // stored in the order of the options, each once
      raw = joinCheckbox((el.options ?? []).filter((o) => chosen.includes(o)));
    }
    if (el.type === 'number') {
      const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.trim()) : Number.NaN;
      if (Number.isFinite(n)) {
        if ((el.min != null && n < el.min) || (el.max != null && n > el.max))
          return fail(el.field, 'validation');
        if (el.decimals != null && roundTo(n, el.decimals) !== n) {
          return fail(el.field, 'validation');
        }
      }
    }
    if (el.type === 'upload' && Array.isArray(raw) && raw.length > (el.maxCount ?? MAX_FILES)) {
      return fail(el.field, 'tooManyFiles');
    }
    values[el.field] = raw;
  }
  return checkRecord(fields, values, opts);
}

function messageFor(key: ErrorKey, name: string): string {
  return formatMessage(CATALOGUE[key].en, { field: name });
}
