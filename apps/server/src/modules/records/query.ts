/**
 * The record list's query language: a time window, filters `[{field, op, value}]` and a sort
 * on `ts` or a field key. Field keys come from the user, so every key is first checked against
 * the item's fields and then bound as a parameter (`values ->> $1`), never spliced into SQL.
 * Numeric fields compare and sort as numbers; a value of another JSON type (left over from a
 * field's type change) counts as empty rather than failing the cast.
 */
import {
  type FieldDef,
  JUMP_OPERATORS,
  type JumpCondition,
  type JumpOperator,
  NUMERIC_FIELD_TYPES,
  RECORD_TIME_MAX,
} from '@platform/domain';
import { and, asc, desc, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import { fieldError } from '../../platform/envelope';
import { dataRecords } from './tables';

export const MAX_FILTERS = 20;

export interface RecordQuery {
  itemId: number;
  from?: Date;
  to?: Date;
  filters: JumpCondition[];
  parentId?: number;
}

/** The earliest instant a query bound may name (PostgreSQL refuses year 0, JavaScript takes it). */
const QUERY_TIME_MIN = Date.UTC(1000, 0, 1);

/** An ISO instant of a query parameter between the years 1000 and 9999, or a field error naming it. */
export function parseInstant(field: string, text: string | undefined): Date | undefined {
  if (text === undefined || text === '') return undefined;
  const date = new Date(text);
  const ms = date.getTime();
  if (Number.isNaN(ms) || ms < QUERY_TIME_MIN || ms > RECORD_TIME_MAX) throw fieldError(field);
  return date;
}

/** `filters` query text: JSON `[{field, op, value}]`, each field a key of the item, each op known. */
export function parseFilters(text: string | undefined, fields: FieldDef[]): JumpCondition[] {
  if (text === undefined || text.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw fieldError('filters');
  }
  if (!Array.isArray(value) || value.length > MAX_FILTERS) throw fieldError('filters');
  return value.map((raw) => {
    if (typeof raw !== 'object' || raw === null) throw fieldError('filters');
    const { field, op, value: operand } = raw as Record<string, unknown>;
    const def = fields.find((f) => f.key === field);
    if (!def || !(JUMP_OPERATORS as readonly unknown[]).includes(op)) throw fieldError('filters');
    const operator = op as JumpOperator;
    if (operator === 'empty' || operator === 'notEmpty') return { field: def.key, op: operator };
    // pictures and files are lists: only emptiness means something for them
    if (def.type === 8 || def.type === 9) throw fieldError('filters');
    if (typeof operand !== 'string' && typeof operand !== 'number') throw fieldError('filters');
    if (NUMERIC_FIELD_TYPES.includes(def.type) && operator !== 'contains') {
      const n = typeof operand === 'number' ? operand : Number(operand);
      if (String(operand).trim() === '' || !Number.isFinite(n)) throw fieldError('filters');
      return { field: def.key, op: operator, value: n };
    }
    if (def.type === 4 && operator !== 'contains') {
      const date = new Date(String(operand));
      if (Number.isNaN(date.getTime())) throw fieldError('filters');
      return { field: def.key, op: operator, value: date.toISOString() };
    }
    return { field: def.key, op: operator, value: String(operand) };
  });
}

/** The value of a field as SQL: numeric for numeric fields, timestamptz for dateTime, else text. */
function fieldValueSql(def: FieldDef): SQL {
  const v = dataRecords.values;
  if (NUMERIC_FIELD_TYPES.includes(def.type)) {
    return sql`(case when jsonb_typeof(${v} -> ${def.key}::text) = 'number' then (${v} ->> ${def.key}::text)::numeric end)`;
  }
  if (def.type === 4) {
    // stored as ISO text; compare as instants so any ISO spelling of the same moment matches
    return sql`(case when jsonb_typeof(${v} -> ${def.key}::text) = 'string' and (${v} ->> ${def.key}::text) ~ '^\\d{4}-\\d{2}-\\d{2}T' then (${v} ->> ${def.key}::text)::timestamptz end)`;
  }
  return sql`(${v} ->> ${def.key}::text)`;
}

function emptyOf(key: string): SQL {
  const v = dataRecords.values;
  return sql`(${v} -> ${key}::text is null or ${v} -> ${key}::text in ('null'::jsonb, '""'::jsonb, '[]'::jsonb))`;
}

function conditionSql(c: JumpCondition, def: FieldDef): SQL {
  if (c.op === 'empty') return emptyOf(c.field);
  if (c.op === 'notEmpty') return sql`not ${emptyOf(c.field)}`;
  if (c.op === 'contains') {
    return sql`strpos(lower(${dataRecords.values} ->> ${c.field}::text), lower(${String(c.value)}::text)) > 0`;
  }
  const left = fieldValueSql(def);
  const right = NUMERIC_FIELD_TYPES.includes(def.type)
    ? sql`${c.value}::numeric`
    : def.type === 4
      ? sql`${c.value}::timestamptz`
      : sql`${String(c.value)}::text`;
  const op = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' }[c.op];
  if (c.op === 'ne') return sql`(${left} is distinct from ${right})`;
  return sql`(${left} ${sql.raw(op)} ${right})`;
}

/** The WHERE of a record query (the item's own records, window, parent, filters). */
export function whereOf(q: RecordQuery, fields: FieldDef[]): SQL {
  const parts: SQL[] = [eq(dataRecords.itemId, q.itemId)];
  if (q.from) parts.push(gte(dataRecords.ts, q.from));
  if (q.to) parts.push(lte(dataRecords.ts, q.to));
  if (q.parentId !== undefined) parts.push(eq(dataRecords.parentId, q.parentId));
  for (const c of q.filters) {
    const def = fields.find((f) => f.key === c.field);
    if (def) parts.push(conditionSql(c, def));
  }
  return and(...parts) as SQL;
}

/** ORDER BY of a list: `ts` or a field key (checked), ties broken by id so pages are stable. */
export function orderOf(sortField: string | undefined, sortOrder: 'asc' | 'desc', fields: FieldDef[]): SQL[] {
  const dir = sortOrder === 'asc' ? asc : desc;
  if (sortField === undefined || sortField === '' || sortField === 'ts') {
    return [dir(dataRecords.ts), dir(dataRecords.id)];
  }
  const def = fields.find((f) => f.key === sortField);
  if (!def) throw fieldError('sortField');
  const value = fieldValueSql(def);
  return [
    sortOrder === 'asc' ? sql`${value} asc nulls last` : sql`${value} desc nulls last`,
    dir(dataRecords.id),
  ];
}
