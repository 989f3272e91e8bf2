/**
 * How field values look and how form values become record values. Records keep dateTime as
 * ISO text; the field's display format (yyyy-MM-dd HH:mm:ss, yyyy-MM-dd, yyyy-MM, yyyy) says
 * how to show it and which picker edits it. Currency shows 2 decimals, decimal its own count.
 */
import type { DateFormat, FieldDef, RecordValue, RecordValues, StoredFile } from '@platform/domain';
import dayjs, { type Dayjs } from 'dayjs';
import { formatTime, fromPickerValue, toPickerValue } from '../../shared/time';

export type PickerKind = 'date' | 'month' | 'year';

/** the spec's Java-style pattern in dayjs words */
export function dayjsFormat(format: DateFormat | undefined): string {
  return (format ?? 'yyyy-MM-dd HH:mm:ss').replace('yyyy', 'YYYY').replace('dd', 'DD');
}

export function pickerOf(format: DateFormat | undefined): { picker: PickerKind; showTime: boolean } {
  switch (format) {
    case 'yyyy':
      return { picker: 'year', showTime: false };
    case 'yyyy-MM':
      return { picker: 'month', showTime: false };
    case 'yyyy-MM-dd':
      return { picker: 'date', showTime: false };
    default:
      return { picker: 'date', showTime: true };
  }
}

export function decimalsOf(field: FieldDef): number | undefined {
  if (field.type === 10) return 0;
  if (field.type === 2) return field.decimals ?? 2;
  if (field.type === 1) return field.decimals;
  return undefined;
}

export function isFiles(value: RecordValue | undefined): value is StoredFile[] {
  return Array.isArray(value);
}

/** Plain text of a value (table cells of text kinds, CSV-like views). */
export function formatValue(field: FieldDef, value: RecordValue | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  if (isFiles(value)) return value.map((f) => f.name).join(', ');
  switch (field.type) {
    case 10:
    case 1:
    case 2: {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(n)) return String(value);
      const places = decimalsOf(field);
      return places === undefined ? String(n) : n.toFixed(places);
    }
    case 4:
      // the company's wall time, in the field's format
      return formatTime(value as string, field.dateFormat ?? 'yyyy-MM-dd HH:mm:ss');
    default:
      return String(value);
  }
}

/** A record's time as the company's wall time. */
export function formatTs(ts: string): string {
  return formatTime(ts);
}

/** Label of a field with its unit: "温度 (℃)". */
export function fieldLabel(field: FieldDef): string {
  return field.unit ? `${field.name} (${field.unit})` : field.name;
}

/** Form state of one field: numbers, Dayjs for dates, file lists for pictures and files. */
export type FormValue = number | string | Dayjs | StoredFile[] | null | undefined;

export function toFormValues(
  fields: FieldDef[],
  values: RecordValues | undefined,
): Record<string, FormValue> {
  const out: Record<string, FormValue> = {};
  for (const field of fields) {
    const value = values?.[field.key];
    if (value === undefined || value === null) continue;
    if (field.type === 4 && typeof value === 'string') {
      out[field.key] = toPickerValue(value) ?? undefined;
    } else out[field.key] = value;
  }
  return out;
}

/** Back to record values: empty inputs become null, dates ISO text of the instant the company's wall time names. */
export function fromFormValues(fields: FieldDef[], form: Record<string, FormValue>): RecordValues {
  const values: RecordValues = {};
  for (const field of fields) {
    const value = form[field.key];
    if (value === undefined || value === null || value === '') {
      values[field.key] = null;
    } else if (dayjs.isDayjs(value)) {
      // the picker's reading is the company's wall time
      values[field.key] = fromPickerValue(value);
    } else if (Array.isArray(value)) {
      values[field.key] = value.length ? value : null;
    } else if (typeof value === 'string' && (field.type === 5 || field.type === 6)) {
      values[field.key] = value.trim() === '' ? null : value;
    } else {
      values[field.key] = value as RecordValue;
    }
  }
  return values;
}

/** A sample value per type for the submission examples. */
export function sampleValue(field: FieldDef, index: number): number | string | null {
  switch (field.type) {
    case 10:
      return 10 + index;
    case 1:
      return Number((21.5 + index).toFixed(field.decimals ?? 1));
    case 2:
      return 99.9;
    case 4:
      return dayjs().startOf('minute').toISOString();
    case 5:
    case 6:
      return 'text';
    default:
      return null;
  }
}
