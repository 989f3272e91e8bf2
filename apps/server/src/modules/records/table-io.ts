/**
 * The record table as people see it in a spreadsheet: a time column, then one column per field
 * headed by its name with the unit in brackets. Export writes values through formatValue in the
 * company's time zone; import reads them back through parseCell and checkRecord, so an exported
 * file imports to the same values. A column is recognised by field key, by name, or by name
 * with its unit, in either kind of bracket.
 */
import {
  cellReason,
  checkRecord,
  DEFAULT_TIME_ZONE,
  type ErrorKey,
  type FieldDef,
  formatInstant,
  formatValue,
  type ImportCell,
  isTemplateNoteRow,
  type Lang,
  NUMERIC_FIELD_TYPES,
  parseCell,
  type RecordValues,
  templateNote,
} from '@platform/domain';
import type { RecordRow } from './service';
import type { OutCell, SheetRow } from './spreadsheet';

export const TIME_HEADERS: Record<Lang, string> = { zh: '时间', en: 'Time' };
const TIME_ALIASES = new Set(['时间', '记录时间', 'time', 'ts', 'timestamp']);
const TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';

export function headerOf(field: FieldDef): string {
  return field.unit ? `${field.name}(${field.unit})` : field.name;
}

export function exportHeader(fields: FieldDef[], lang: Lang): string[] {
  return [TIME_HEADERS[lang], ...fields.map(headerOf)];
}

/** One exported row: numbers stay numbers (XLSX number cells), everything else as text. */
export function exportRow(
  record: RecordRow,
  fields: FieldDef[],
  lang: Lang,
  tz = DEFAULT_TIME_ZONE,
): OutCell[] {
  return [
    formatInstant(Date.parse(record.ts), TIME_FORMAT, tz),
    ...fields.map((f): OutCell => {
      const value = record.values[f.key];
      if (typeof value === 'number' && NUMERIC_FIELD_TYPES.includes(f.type)) {
        const decimals = f.type === 10 ? 0 : (f.decimals ?? (f.type === 2 ? 2 : undefined));
        return { number: value, decimals };
      }
      return formatValue(f, value, lang, tz);
    }),
  ];
}

export interface ColumnMap {
  time: number | null;
  /** column index → field */
  fields: Map<number, FieldDef>;
}

export type HeaderProblem = { key: ErrorKey; column: string };

function normalise(text: string): string {
  return text.trim().replace(/\s+/g, ' ').replace(/（/g, '(').replace(/）/g, ')').toLowerCase();
}

/** Maps header cells to the time column and to fields; an unknown or repeated column is a problem. */
export function mapHeader(cells: ImportCell[], fields: FieldDef[]): ColumnMap | HeaderProblem {
  const byLabel = new Map<string, FieldDef>();
  for (const f of fields) {
    byLabel.set(normalise(f.key), f);
    byLabel.set(normalise(f.name), f);
    if (f.unit) {
      byLabel.set(normalise(`${f.name}(${f.unit})`), f);
      byLabel.set(normalise(`${f.name} (${f.unit})`), f);
    }
  }
  const map: ColumnMap = { time: null, fields: new Map() };
  const taken = new Set<string>();
  for (const [index, cell] of cells.entries()) {
    const label = cell === null || cell === undefined ? '' : String(cell);
    if (label.trim() === '') continue;
    const n = normalise(label);
    const field = byLabel.get(n);
    if (!field && TIME_ALIASES.has(n)) {
      if (map.time !== null) return { key: 'importDuplicateColumn', column: label.trim() };
      map.time = index;
      continue;
    }
    if (!field) return { key: 'importUnknownColumn', column: label.trim() };
    if (taken.has(field.key)) return { key: 'importDuplicateColumn', column: label.trim() };
    taken.add(field.key);
    map.fields.set(index, field);
  }
  if (map.fields.size === 0) return { key: 'importNoColumns', column: '' };
  return map;
}

/** The template's note row (the second, right after the header) is not data: it is left out. */
export function dataRows(rows: SheetRow[], map: ColumnMap): SheetRow[] {
  const first = rows[0];
  if (!first) return rows;
  const width = Math.max(first.cells.length, ...map.fields.keys(), map.time ?? 0);
  const columns = Array.from({ length: width + 1 }, (_, i): FieldDef | 'time' | undefined =>
    i === map.time ? 'time' : map.fields.get(i),
  );
  return isTemplateNoteRow(first.cells, columns) ? rows.slice(1) : rows;
}

/** The import template: the export's header, then what each column takes (templateNote). */
export function templateRows(fields: FieldDef[], lang: Lang): { header: string[]; note: string[] } {
  return {
    header: exportHeader(fields, lang),
    note: [templateNote('time', lang), ...fields.map((f) => templateNote(f, lang))],
  };
}

export interface Rejected {
  row: number;
  field: string;
  message: string;
}

export interface CheckedRow {
  row: number;
  ts: Date | undefined;
  values: RecordValues;
}

/** Each data row through parseCell and checkRecord: good rows to write, bad ones with their reason. */
export function checkRows(
  rows: SheetRow[],
  map: ColumnMap,
  fields: FieldDef[],
  lang: Lang,
  tz = DEFAULT_TIME_ZONE,
): { good: CheckedRow[]; rejected: Rejected[] } {
  const good: CheckedRow[] = [];
  const rejected: Rejected[] = [];
  const timeField: FieldDef = { key: 'ts', name: TIME_HEADERS[lang], type: 4 };
  // the reason stands beside the field's column: it does not repeat the field's name
  const reject = (row: number, field: string, key: ErrorKey, name: string) =>
    rejected.push({ row, field, message: cellReason(key, lang, name) });
  rowLoop: for (const { row, cells } of rows) {
    let ts: Date | undefined;
    if (map.time !== null) {
      const parsed = parseCell(timeField, cells[map.time], { tz });
      if (!parsed.ok) {
        reject(row, 'ts', parsed.key, timeField.name);
        continue;
      }
      if (typeof parsed.value === 'string') ts = new Date(parsed.value);
    }
    const input: Record<string, unknown> = {};
    for (const [index, field] of map.fields) {
      const parsed = parseCell(field, cells[index], { tz });
      if (!parsed.ok) {
        reject(row, field.key, parsed.key, field.name);
        continue rowLoop;
      }
      input[field.key] = parsed.value;
    }
    const checked = checkRecord(fields, input, { tz });
    if (!checked.ok) {
      reject(row, checked.field, checked.key, checked.name);
      continue;
    }
    good.push({ row, ts, values: checked.values });
  }
  return { good, rejected };
}
