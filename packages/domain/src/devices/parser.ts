/**
 * Parser definitions (Device communication → parsing, code cd_parsing): how the answer to a
 * packet becomes values, each stored in a field of a kind-13 IoT data item. One parser per
 * packet. A value reads `length` bytes at `offset` (counted from the first data byte, see
 * packet.ts `answerLayout`), in a number format and byte order, then becomes
 * `raw × scale + valueOffset`, rounded to `decimals` when set. Values may overlap (a register
 * read as a number and one of its bits as a flag).
 *
 * Value types (seed point 3) and the number formats each accepts, and the field types
 * (data/types.ts) that can hold them:
 *
 * | value type | number formats | field types |
 * |---|---|---|
 * | integer | unsigned int, signed int, bit | integer 10, decimal 1, currency 2 |
 * | decimal | unsigned int, signed int, single float, double float | decimal 1, currency 2 |
 * | string | HEX string | text 5, long text 6 |
 * | timestamp | unsigned int, signed int (seconds since 1970 after scale and offset) | dateTime 4 |
 */
import { MAX_DECIMALS } from '../data/fields';
import type { FieldType } from '../data/types';
import type { ErrorKey } from '../errors';
import { checkName } from '../validation';
import { BYTE_ORDERS, type ByteOrder } from './byte-order';
import { type AnswerLayout, type Checked, MAX_ANSWER_BYTES } from './packet';
import { FORMAT_LENGTHS, formatFitsLength, NUMBER_FORMATS, type NumberFormat } from './registers';

export const PARSER_VALUE_TYPES = ['integer', 'decimal', 'string', 'timestamp'] as const;
export type ParserValueType = (typeof PARSER_VALUE_TYPES)[number];

export const FORMATS_OF_VALUE_TYPE: Record<ParserValueType, readonly NumberFormat[]> = {
  integer: ['uint', 'int', 'bit'],
  decimal: ['uint', 'int', 'float', 'double'],
  string: ['hex'],
  timestamp: ['uint', 'int'],
};

export const FIELD_TYPES_OF_VALUE_TYPE: Record<ParserValueType, readonly FieldType[]> = {
  integer: [10, 1, 2],
  decimal: [1, 2],
  string: [5, 6],
  timestamp: [4],
};

/** Values one parser may hold. */
export const MAX_PARSER_VALUES = 200;
export const MAX_SCALE = 1e9;
export const MAX_VALUE_OFFSET = 1e12;

export interface ParserValue {
  name: string;
  /** bytes from the first data byte of the answer */
  offset: number;
  length: number;
  valueType: ParserValueType;
  format: NumberFormat;
  order: ByteOrder;
  /** format bit: which bit, 0 = least significant; null otherwise */
  bit: number | null;
  scale: number;
  valueOffset: number;
  /** decimal places of a decimal result; null keeps it as computed */
  decimals: number | null;
  /** the kind-13 data item and field the value is stored in */
  itemId: number | null;
  fieldKey: string | null;
}

export interface ParserDef {
  /** raw packets only: the whole answer's length in bytes, CRC included; null = long enough for the values */
  answerLength: number | null;
  values: ParserValue[];
}

/** own keys only: a value type of "__proto__" from a request is no value type */
const isValueType = (v: unknown): v is ParserValueType => PARSER_VALUE_TYPES.includes(v as ParserValueType);

export function formatFitsValueType(format: NumberFormat, valueType: ParserValueType): boolean {
  return isValueType(valueType) && FORMATS_OF_VALUE_TYPE[valueType].includes(format);
}

export function fieldFitsValueType(valueType: ParserValueType, fieldType: FieldType): boolean {
  return isValueType(valueType) && FIELD_TYPES_OF_VALUE_TYPE[valueType].includes(fieldType);
}

export interface ValueProblem {
  /** the value's property: name, offset, length, format, bit, scale, valueOffset, decimals, itemId, fieldKey… */
  field: string;
  key: ErrorKey;
  params: Record<string, string | number>;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isInteger = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** A value with the defaults filled in; values already of the right types are kept as they are. */
export function normalizeValue(input: Partial<Record<keyof ParserValue, unknown>>): ParserValue {
  const format = input.format as NumberFormat;
  return {
    name: typeof input.name === 'string' ? input.name.trim() : '',
    offset: input.offset as number,
    length: input.length as number,
    valueType: input.valueType as ParserValueType,
    format,
    order: (input.order ?? 'ABCD') as ByteOrder,
    bit: format === 'bit' ? ((input.bit ?? 0) as number) : null,
    scale: (input.scale ?? 1) as number,
    valueOffset: (input.valueOffset ?? 0) as number,
    decimals: (input.decimals ?? null) as number | null,
    itemId: (input.itemId ?? null) as number | null,
    fieldKey: typeof input.fieldKey === 'string' && input.fieldKey !== '' ? input.fieldKey : null,
  };
}

/**
 * Everything wrong with one value on its own, in the order of its properties (the editor shows
 * each beside its cell; the server refuses with the first). `dataLength` is the answer's data
 * length when the packet fixes it: a value reading past it is refused naming the value.
 */
export function valueProblems(
  value: ParserValue,
  layout: Pick<AnswerLayout, 'dataLength'> | null,
  opts: { requireBinding?: boolean } = {},
): ValueProblem[] {
  const problems: ValueProblem[] = [];
  const label = value.name || '?';
  const add = (field: string, key: ErrorKey, params: Record<string, string | number> = {}) =>
    problems.push({ field, key, params: { value: label, field, ...params } });
  const nameProblem = checkName(value.name);
  if (nameProblem) add('name', nameProblem);
  const offsetOk = isInteger(value.offset) && value.offset >= 0 && value.offset < MAX_ANSWER_BYTES;
  if (!offsetOk) add('offset', 'validation');
  const typeOk = isValueType(value.valueType);
  if (!typeOk) add('valueType', 'validation');
  const formatOk = NUMBER_FORMATS.includes(value.format);
  if (!formatOk) add('format', 'validation');
  else if (typeOk && !formatFitsValueType(value.format, value.valueType))
    add('format', 'parserFormatMismatch');
  const lengthOk = formatOk && isInteger(value.length) && formatFitsLength(value.format, value.length);
  if (!lengthOk) {
    const lengths = formatOk && value.format !== 'hex' ? FORMAT_LENGTHS[value.format].join('/') : '1-256';
    add('length', 'parserLengthInvalid', { lengths });
  }
  if (!BYTE_ORDERS.includes(value.order)) add('order', 'validation');
  if (value.format === 'bit') {
    const max = lengthOk ? value.length * 8 - 1 : 7;
    if (!isInteger(value.bit) || value.bit < 0 || value.bit > max) add('bit', 'parserBitInvalid', { max });
  }
  const scaleOk = isFiniteNumber(value.scale) && value.scale !== 0 && Math.abs(value.scale) <= MAX_SCALE;
  if (!scaleOk) add('scale', 'validation');
  const offsetValueOk = isFiniteNumber(value.valueOffset) && Math.abs(value.valueOffset) <= MAX_VALUE_OFFSET;
  if (!offsetValueOk) add('valueOffset', 'validation');
  if (
    value.valueType === 'integer' &&
    scaleOk &&
    offsetValueOk &&
    (!Number.isInteger(value.scale) || !Number.isInteger(value.valueOffset))
  ) {
    add('scale', 'parserIntegerScale');
  }
  if (
    value.decimals != null &&
    (!isInteger(value.decimals) || value.decimals < 0 || value.decimals > MAX_DECIMALS)
  ) {
    add('decimals', 'decimalsRange');
  }
  if (offsetOk && lengthOk && layout?.dataLength != null && value.offset + value.length > layout.dataLength) {
    add('offset', 'parserValuePastEnd', { length: layout.dataLength });
  }
  if (opts.requireBinding) {
    if (!isInteger(value.itemId) || value.itemId < 1 || value.itemId > 2 ** 31 - 1) {
      add('itemId', 'parserBindingRequired');
    } else if (typeof value.fieldKey !== 'string' || value.fieldKey === '' || value.fieldKey.length > 16) {
      add('fieldKey', 'parserBindingRequired');
    }
  }
  return problems;
}

/** A rule across values: two of one name, or two stored in the same field. */
export function crossValueProblems(values: readonly ParserValue[]): Array<ValueProblem & { index: number }> {
  const problems: Array<ValueProblem & { index: number }> = [];
  const names = new Map<string, number>();
  const targets = new Map<string, number>();
  values.forEach((value, index) => {
    const name = value.name.toLowerCase();
    if (name !== '' && names.has(name)) {
      problems.push({ index, field: 'name', key: 'parserValueNameTaken', params: { value: value.name } });
    } else names.set(name, index);
    if (value.itemId != null && value.fieldKey != null) {
      const target = `${value.itemId}:${value.fieldKey}`;
      const other = targets.get(target);
      if (other !== undefined) {
        problems.push({
          index,
          field: 'fieldKey',
          key: 'parserTargetTaken',
          params: { value: value.name, other: values[other]!.name },
        });
      } else targets.set(target, index);
    }
  });
  return problems;
}

/**
 * Checks a whole parser's values for saving: each value on its own (bound to an item and
 * field), then across values. The first problem names `values[i].<property>`.
 */
export function checkParserValues(
  inputs: ReadonlyArray<Partial<Record<keyof ParserValue, unknown>>>,
  layout: Pick<AnswerLayout, 'dataLength'> | null,
): Checked<ParserValue[]> {
  if (inputs.length > MAX_PARSER_VALUES) {
    return { ok: false, field: 'values', key: 'validation', params: { field: 'values' } };
  }
  const values = inputs.map(normalizeValue);
  for (const [index, value] of values.entries()) {
    const [first] = valueProblems(value, layout, { requireBinding: true });
    if (first) {
      return { ok: false, field: `values[${index}].${first.field}`, key: first.key, params: first.params };
    }
  }
  const [cross] = crossValueProblems(values);
  if (cross) {
    return {
      ok: false,
      field: `values[${cross.index}].${cross.field}`,
      key: cross.key,
      params: cross.params,
    };
  }
  return { ok: true, value: values };
}

/** The answer length a raw packet's parser may state: none, or 1 to MAX_ANSWER_BYTES. */
export function checkAnswerLength(answerLength: unknown): boolean {
  return (
    answerLength == null || (isInteger(answerLength) && answerLength >= 1 && answerLength <= MAX_ANSWER_BYTES)
  );
}
