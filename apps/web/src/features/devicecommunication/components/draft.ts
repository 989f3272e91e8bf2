/**
 * The parser editor's drafts: values as they are being typed (a number input may be empty),
 * turned into domain values for the preview and the checks at every change.
 */
import {
  BYTE_ORDERS,
  DEFAULT_LENGTH,
  FORMATS_OF_VALUE_TYPE,
  formatFitsLength,
  formatFitsValueType,
  type NumberFormat,
  type ParserValue,
  type ParserValueType,
} from '@platform/domain';

export type Draft = Omit<ParserValue, 'offset' | 'length' | 'scale' | 'valueOffset'> & {
  /** React's key: survives reordering */
  key: string;
  offset: number | null;
  length: number | null;
  scale: number | null;
  valueOffset: number | null;
};

let keys = 0;
export const newKey = () => `v${++keys}`;

export function draftOf(value: ParserValue): Draft {
  return { ...value, key: newKey() };
}

/** The value the draft describes; an empty number is NaN, which the checks refuse and the preview reports. */
export function draftValue(draft: Draft): ParserValue {
  const { key: _key, ...rest } = draft;
  return {
    ...rest,
    name: draft.name.trim(),
    offset: draft.offset ?? Number.NaN,
    length: draft.length ?? Number.NaN,
    scale: draft.scale ?? Number.NaN,
    valueOffset: draft.valueOffset ?? 0,
  };
}

/** A new value after the last one: the next bytes, the last item bound. */
export function nextDraft(drafts: Draft[], name: string): Draft {
  const last = drafts.at(-1);
  const offset = last && last.offset != null && last.length != null ? last.offset + last.length : 0;
  return {
    key: newKey(),
    name,
    offset,
    length: 2,
    valueType: 'integer',
    format: 'uint',
    order: last?.order ?? 'ABCD',
    bit: null,
    scale: 1,
    valueOffset: 0,
    decimals: null,
    itemId: last?.itemId ?? null,
    fieldKey: null,
  };
}

/**
 * A change of one property, keeping the draft coherent: a value type takes the first format
 * that gives it, a format takes its usual length when the current one does not fit, a bit
 * value gets bit 0.
 */
export function patchDraft(draft: Draft, patch: Partial<Draft>): Draft {
  const next = { ...draft, ...patch };
  if (patch.valueType && !formatFitsValueType(next.format, next.valueType)) {
    next.format = FORMATS_OF_VALUE_TYPE[patch.valueType as ParserValueType][0]!;
  }
  if (
    (patch.valueType || patch.format) &&
    (next.length == null || !formatFitsLength(next.format, next.length))
  ) {
    next.length = DEFAULT_LENGTH[next.format as NumberFormat];
  }
  if (next.format === 'bit') next.bit ??= 0;
  else next.bit = null;
  if (next.valueType !== 'decimal') next.decimals = null;
  if (patch.itemId !== undefined && patch.itemId !== draft.itemId) next.fieldKey = null;
  if (!BYTE_ORDERS.includes(next.order)) next.order = 'ABCD';
  return next;
}

/** Colours of the values in the frame, one per value in turn. */
export const VALUE_COLORS = [
  '#1677ff',
  '#fa8c16',
  '#52c41a',
  '#eb2f96',
  '#722ed1',
  '#13c2c2',
  '#faad14',
  '#f5222d',
];
export const colorOf = (index: number) => VALUE_COLORS[index % VALUE_COLORS.length]!;
