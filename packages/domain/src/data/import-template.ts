/**
 * The import template of a data item and the words of an import's rejections.
 *
 * The template is the record table's own header (time, then each field by name with its unit)
 * and a second row saying what each column takes: type, decimals or date format, unit, required.
 * An import recognises that row (in either language) and skips it, so a filled template imports
 * cleanly whether or not the row was left in.
 *
 * A rejection is shown beside the column of its field, so its reason does not repeat the field's
 * name: "必须是数字", not "产量 必须是数字".
 */
import { CATALOGUE, type ErrorKey, formatMessage, type Lang } from '../errors';
import type { FieldDef, FieldType, RecordValue } from './types';

export const FIELD_TYPE_LABELS: Record<FieldType, Record<Lang, string>> = {
  10: { zh: '整数', en: 'Integer' },
  1: { zh: '小数', en: 'Decimal' },
  2: { zh: '货币', en: 'Currency' },
  4: { zh: '日期时间', en: 'Date and time' },
  5: { zh: '文本', en: 'Text' },
  6: { zh: '长文本', en: 'Long text' },
  8: { zh: '图片', en: 'Picture' },
  9: { zh: '文件', en: 'File' },
};

const RECORD_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const WORDS = {
  zh: {
    sep: '，',
    decimals: (n: number) => `${n} 位小数`,
    format: (f: string) => `格式 ${f}`,
    unit: (u: string) => `单位 ${u}`,
    required: '必填',
    files: '已上传文件的地址，可留空',
    time: `记录时间，格式 ${RECORD_TIME_FORMAT}，留空为导入时间`,
  },
  en: {
    sep: '; ',
    decimals: (n: number) => `${n} decimal places`,
    format: (f: string) => `format ${f}`,
    unit: (u: string) => `unit ${u}`,
    required: 'required',
    files: 'addresses of uploaded files, may be left empty',
    time: `Record time, format ${RECORD_TIME_FORMAT}; empty: the time of the import`,
  },
} as const;

/** What a template column takes, as its second row says it: "小数，3 位小数，单位 MPa，必填". */
export function templateNote(field: FieldDef | 'time', lang: Lang): string {
  const w = WORDS[lang];
  if (field === 'time') return w.time;
  const parts: string[] = [FIELD_TYPE_LABELS[field.type][lang]];
  const decimals = field.decimals ?? (field.type === 2 ? 2 : undefined);
  if ((field.type === 1 || field.type === 2) && decimals !== undefined) parts.push(w.decimals(decimals));
  if (field.type === 4) parts.push(w.format(field.dateFormat ?? RECORD_TIME_FORMAT));
  if (field.type === 8 || field.type === 9) parts.push(w.files);
  if (field.unit) parts.push(w.unit(field.unit));
  if (field.required) parts.push(w.required);
  return parts.join(w.sep);
}

/**
 * Whether a row is the template's note row: some cell is not empty and every non-empty cell is
 * the note of its column (`columns[i]`: the column's field, 'time', or undefined when unmapped)
 * in either language.
 */
export function isTemplateNoteRow(
  cells: ReadonlyArray<unknown>,
  columns: ReadonlyArray<FieldDef | 'time' | undefined>,
): boolean {
  let seen = false;
  for (const [i, cell] of cells.entries()) {
    const text = cell === null || cell === undefined ? '' : String(cell).trim();
    if (text === '') continue;
    const column = columns[i];
    if (column === undefined) return false;
    if (text !== templateNote(column, 'zh') && text !== templateNote(column, 'en')) return false;
    seen = true;
  }
  return seen;
}

/** Reasons of a cell beside its field's column: the catalogue's message without the field's name. */
const CELL_REASONS: Partial<Record<ErrorKey, Record<Lang, string>>> = {
  validation: { zh: '值无效', en: 'invalid value' },
  fieldRequired: { zh: '不能为空', en: 'is required' },
  valueNotNumber: { zh: '必须是数字', en: 'must be a number' },
  valueNotInteger: { zh: '必须是整数', en: 'must be an integer' },
  valueNotDate: { zh: '必须是有效的日期时间', en: 'must be a valid date and time' },
  valueNotText: { zh: '必须是文本', en: 'must be text' },
  valueTooLong: { zh: '内容过长', en: 'is too long' },
  valueNotFiles: { zh: '必须是已上传文件的列表', en: 'must be a list of uploaded files' },
  tooManyFiles: { zh: '文件数量过多', en: 'has too many files' },
};

/** The reason for a bad cell when its column already names the field (`name` fills any other message). */
export function cellReason(key: ErrorKey, lang: Lang, name: string): string {
  return CELL_REASONS[key]?.[lang] ?? formatMessage(CATALOGUE[key][lang], { field: name });
}

/** A value that holds nothing: null, blank text, no files. */
export function isBlankValue(value: RecordValue | undefined): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}
