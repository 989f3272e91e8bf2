/**
 * Record values: checking and coercing what people, devices and imports send (spec points 3, 5),
 * and turning stored values back into text for display and export.
 *
 * Stored shapes (RecordValue): numbers for integer/decimal/currency, an ISO instant in UTC for
 * dateTime ("2025-03-01T02:00:00.000Z"), text for text/longText, StoredFile[] for picture/file,
 * null for empty. A dateTime written without an offset ("2025-03-01 10:00", "2025-03") is a wall
 * time in the company zone (default Asia/Shanghai) and is displayed back in that zone.
 */
import { CATALOGUE, type ErrorKey, formatMessage, type Lang } from '../errors';
import { checkNumeric, isStorableText } from '../validation';
import { findField } from './fields';
import { DEFAULT_TIME_ZONE, daysInMonth, zonedParts, zonedToInstant } from './time';
import type { DateFormat, FieldDef, RecordValue, RecordValues, StoredFile } from './types';

export const TEXT_MAX_LENGTH = 255;
export const LONG_TEXT_MAX_LENGTH = 20_000;
export const MAX_FILES = 20;
export const FILE_URL_PREFIX = '/general/files/';
/**
 * Record pictures and files are referenced as FILE_URL_PREFIX + 'records/<company>/<item>/<name>':
 * no bucket in the reference, the server serves them from its private bucket through signed
 * links (`…?exp=…&sig=…`), which it hands out in place of the reference when a caller reads.
 */
export const RECORD_FILES_PREFIX = `${FILE_URL_PREFIX}records/`;
/** signed links share the expiry of their window: valid at least this long, at most twice */
export const FILE_LINK_WINDOW_SECONDS = 600;
/** where record files lived before they moved to the private bucket */
const OLD_PUBLIC_RECORD_FILES = `${FILE_URL_PREFIX}public/records/`;
const FILE_NAME_MAX_LENGTH = 255;

export type ValueResult = { ok: true; value: RecordValue } | { ok: false; key: ErrorKey };

export type CheckRecordResult =
  | { ok: true; values: RecordValues }
  | {
      ok: false;
      /** the field key, or the unknown input key as sent */
      field: string;
      key: ErrorKey;
      /** the field's display name (the input key for unknown fields): fill `{field}` with it */
      name: string;
      /** English text of the error, the field named */
      message: string;
    };

export interface ValueOptions {
  /** zone of wall times written without an offset; default Asia/Shanghai */
  tz?: string;
}

function isEmpty(raw: unknown): boolean {
  return raw === null || raw === undefined || (typeof raw === 'string' && raw.trim() === '');
}

function charLength(text: string): number {
  return [...text].length;
}

/**
 * The decimal places of a number as JSON writes it (the shortest text that reads back as the
 * same double), which is what PostgreSQL's `scale()` answers for that JSON number: 0.1 → 1,
 * 12.50 → 1 (JSON has no trailing zero), 1.5e-7 → 8, 1e21 → 0.
 */
export function decimalPlaces(value: number): number {
  if (!Number.isFinite(value)) return 0;
  const text = String(Math.abs(value));
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const dot = mantissa.indexOf('.');
  const places = dot < 0 ? 0 : mantissa.length - dot - 1;
  return Math.max(0, places - (e < 0 ? 0 : Number(text.slice(e + 1))));
}

/**
 * Rounds half away from zero on the decimal digits a person reads (1.005 → 1.01), which
 * Math.round(x * 100) / 100 gets wrong because of binary fractions.
 */
export function roundTo(value: number, decimals: number): number {
  if (!Number.isFinite(value)) return value;
  if (value === 0) return 0;
  const text = String(Math.abs(value));
  if (text.includes('e')) return Number(value.toFixed(decimals)) || 0;
  const [int = '0', frac = ''] = text.split('.');
  if (frac.length <= decimals) return value;
  let digits = BigInt(int + frac.slice(0, decimals));
  if (frac.charCodeAt(decimals) >= 53 /* '5' */) digits += 1n;
  const padded = digits.toString().padStart(decimals + 1, '0');
  const cut = padded.length - decimals;
  const result = Number(decimals === 0 ? padded : `${padded.slice(0, cut)}.${padded.slice(cut)}`);
  return value < 0 && result !== 0 ? -result : result;
}

function toNumber(raw: unknown): number | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'string') {
    const text = raw.trim();
    return checkNumeric(text) === null ? Number(text) : null;
  }
  return null;
}

const ISO_WALL =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Reads ISO-like text: 'yyyy', 'yyyy-MM', 'yyyy-MM-dd', 'yyyy-MM-dd HH:mm[:ss[.SSS]]', optional Z or ±hh:mm. */
export function parseDateText(text: string, tz: string = DEFAULT_TIME_ZONE): number | null {
  const m = ISO_WALL.exec(text.trim());
  if (!m) return null;
  const [, y, mo = '1', d = '1', h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const wall = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: Number(h),
    minute: Number(mi),
    second: Number(s),
    millisecond: Number(frac.slice(0, 3).padEnd(3, '0')),
  };
  if (wall.year < 1 || wall.month < 1 || wall.month > 12 || wall.day < 1) return null;
  if (wall.day > daysInMonth(wall.year, wall.month)) return null;
  if (wall.hour > 23 || wall.minute > 59 || wall.second > 59) return null;
  if (zone === undefined) return zonedToInstant(wall, tz);
  const utc = new Date(0);
  utc.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  utc.setUTCHours(wall.hour, wall.minute, wall.second, wall.millisecond);
  if (zone.toUpperCase() === 'Z') return utc.getTime();
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offsetMin = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2));
  if (offsetMin > 18 * 60) return null;
  return utc.getTime() - sign * offsetMin * 60_000;
}

const MIN_INSTANT = Date.UTC(1000, 0, 1);
const MAX_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** The times a record may carry (its `ts`): from 1970 to the end of 9999, UTC. */
export const RECORD_TIME_MIN = Date.UTC(1970, 0, 1);
export const RECORD_TIME_MAX = MAX_INSTANT;

/** A record time the platform keeps: a whole instant within RECORD_TIME_MIN..RECORD_TIME_MAX. */
export function isRecordTime(ms: number): boolean {
  return Number.isFinite(ms) && ms >= RECORD_TIME_MIN && ms <= RECORD_TIME_MAX;
}

function instantToIso(ms: number): string | null {
  if (!Number.isFinite(ms) || ms < MIN_INSTANT || ms > MAX_INSTANT) return null;
  return new Date(Math.round(ms)).toISOString();
}

function checkFiles(raw: unknown): ValueResult {
  if (!Array.isArray(raw)) return { ok: false, key: 'valueNotFiles' };
  if (raw.length > MAX_FILES) return { ok: false, key: 'tooManyFiles' };
  const files: StoredFile[] = [];
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) return { ok: false, key: 'valueNotFiles' };
    const { name, size } = item as Record<string, unknown>;
    const url = storedFileRef((item as Record<string, unknown>).url);
    const thumbUrl = storedFileRef((item as Record<string, unknown>).thumbUrl);
    if (!isStoredUrl(url) || (thumbUrl != null && !isStoredUrl(thumbUrl))) {
      return { ok: false, key: 'valueNotFiles' };
    }
    if (
      typeof name !== 'string' ||
      name === '' ||
      charLength(name) > FILE_NAME_MAX_LENGTH ||
      !isStorableText(name)
    ) {
      return { ok: false, key: 'valueNotFiles' };
    }
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
      return { ok: false, key: 'valueNotFiles' };
    }
    files.push(thumbUrl != null ? { url, name, size, thumbUrl: thumbUrl as string } : { url, name, size });
  }
  return { ok: true, value: files.length ? files : null };
}

/**
 * The reference to keep for a file URL as sent back by a client: a signed link loses its
 * signature (it only matters when downloading), and an old public address of a record file
 * becomes the reference it moved to.
 */
export function storedFileRef(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  const path = url.includes('?') ? url.slice(0, url.indexOf('?')) : url;
  return path.startsWith(OLD_PUBLIC_RECORD_FILES)
    ? RECORD_FILES_PREFIX + path.slice(OLD_PUBLIC_RECORD_FILES.length)
    : path;
}

function isStoredUrl(url: unknown): url is string {
  return (
    typeof url === 'string' &&
    isStorableText(url) &&
    url.startsWith(FILE_URL_PREFIX) &&
    url.length > FILE_URL_PREFIX.length &&
    !url.includes('..') &&
    !/[\s\\?#]/.test(url)
  );
}

/** Checks and coerces one value for a field. Empty (null, undefined, blank text, no files) is null. */
export function coerceValue(field: FieldDef, raw: unknown, opts: ValueOptions = {}): ValueResult {
  if (isEmpty(raw) || (Array.isArray(raw) && raw.length === 0)) return { ok: true, value: null };
  switch (field.type) {
    case 10: {
      const n = toNumber(raw);
      if (n === null) return { ok: false, key: 'valueNotNumber' };
      if (!Number.isSafeInteger(n)) return { ok: false, key: 'valueNotInteger' };
      return { ok: true, value: n === 0 ? 0 : n };
    }
    case 1:
    case 2: {
      const n = toNumber(raw);
      if (n === null) return { ok: false, key: 'valueNotNumber' };
      const decimals = field.decimals ?? (field.type === 2 ? 2 : undefined);
      const value = decimals === undefined ? n : roundTo(n, decimals);
      return { ok: true, value: value === 0 ? 0 : value };
    }
    case 4: {
      const ms = typeof raw === 'number' ? raw : typeof raw === 'string' ? parseDateText(raw, opts.tz) : null;
      const iso = ms === null ? null : instantToIso(ms);
      return iso === null ? { ok: false, key: 'valueNotDate' } : { ok: true, value: iso };
    }
    case 5:
    case 6: {
      const text = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
      if (typeof text !== 'string') return { ok: false, key: 'valueNotText' };
      if (!isStorableText(text)) return { ok: false, key: 'validation' };
      const max = field.type === 5 ? TEXT_MAX_LENGTH : LONG_TEXT_MAX_LENGTH;
      return charLength(text) > max ? { ok: false, key: 'valueTooLong' } : { ok: true, value: text };
    }
    case 8:
    case 9:
      return checkFiles(raw);
    default:
      return { ok: false, key: 'validation' };
  }
}

/**
 * Checks a record's values. Input keys are field keys or field names (keys win); the result is
 * keyed by field key. Without `partial`, required fields must be present and not empty; with it
 * (an update), only the fields sent are checked, and a required one may still not be emptied.
 */
export function checkRecord(
  fields: FieldDef[],
  input: Record<string, unknown>,
  opts: { partial?: boolean } & ValueOptions = {},
): CheckRecordResult {
  const fail = (field: string, key: ErrorKey, name: string): CheckRecordResult => ({
    ok: false,
    field,
    key,
    name,
    message: formatMessage(CATALOGUE[key].en, { field: name }),
  });
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail('values', 'validation', 'values');
  }
  const values: RecordValues = {};
  for (const [inputKey, raw] of Object.entries(input)) {
    const field = findField(fields, inputKey);
    if (!field) return fail(inputKey, 'unknownField', inputKey);
    if (field.key in values) return fail(field.key, 'validation', field.name);
    const r = coerceValue(field, raw, opts);
    if (!r.ok) return fail(field.key, r.key, field.name);
    if (r.value === null && field.required) {
      return fail(field.key, 'fieldRequired', field.name);
    }
    values[field.key] = r.value;
  }
  if (!opts.partial) {
    for (const field of fields) {
      if (field.required && !(field.key in values)) return fail(field.key, 'fieldRequired', field.name);
    }
  }
  return { ok: true, values };
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Formats an instant by one of the field date formats in a zone. */
export function formatInstant(ms: number, format: DateFormat, tz: string = DEFAULT_TIME_ZONE): string {
  const p = zonedParts(ms, tz);
  const date = `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
  switch (format) {
    case 'yyyy':
      return pad(p.year, 4);
    case 'yyyy-MM':
      return date.slice(0, 7);
    case 'yyyy-MM-dd':
      return date;
    default:
      return `${date} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
  }
}

/**
 * Text of a stored value for display and export: currency with 2 decimals (or its own),
 * decimals with the field's places, dateTime in its format in the zone, files as their URLs
 * separated by ", " (parseCell reads that back). `lang` is kept for wording that may differ.
 */
export function formatValue(
  field: FieldDef,
  value: RecordValue | undefined,
  _lang: Lang = 'zh',
  tz: string = DEFAULT_TIME_ZONE,
): string {
  if (value === null || value === undefined) return '';
  switch (field.type) {
    case 10:
      return String(value);
    case 1:
    case 2: {
      if (typeof value !== 'number') return String(value);
      const decimals = field.decimals ?? (field.type === 2 ? 2 : undefined);
      return decimals === undefined ? String(value) : roundTo(value, decimals).toFixed(decimals);
    }
    case 4: {
      const ms =
        typeof value === 'string' ? Date.parse(value) : typeof value === 'number' ? value : Number.NaN;
      return Number.isNaN(ms)
        ? String(value)
        : formatInstant(ms, field.dateFormat ?? 'yyyy-MM-dd HH:mm:ss', tz);
    }
    case 8:
    case 9:
      return Array.isArray(value) ? value.map((f) => f.url).join(', ') : String(value);
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** Excel stores dates as days since 1899-12-30 (wall time, no zone). */
const EXCEL_EPOCH_DAYS_LIMIT = 2_958_466; // 9999-12-31

function excelSerialToInstant(serial: number, tz: string): number | null {
  if (serial < 1 || serial > EXCEL_EPOCH_DAYS_LIMIT) return null;
  const wallMs = Math.round((serial - 25_569) * 86_400_000);
  const d = new Date(wallMs);
  return zonedToInstant(
    {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
      second: d.getUTCSeconds(),
      millisecond: d.getUTCMilliseconds(),
    },
    tz,
  );
}

export type ImportCell = string | number | boolean | Date | null | undefined;

/**
 * Reads one CSV/XLSX cell for a field. Beyond coerceValue it accepts thousands separators and a
 * leading currency sign in numbers, 'yyyy/MM/dd' dates, Excel date serials (numbers below 10^7 in a
 * dateTime column; larger numbers are epoch ms), Date objects, and file cells written by formatValue.
 */
export function parseCell(field: FieldDef, cell: ImportCell, opts: ValueOptions = {}): ValueResult {
  const tz = opts.tz ?? DEFAULT_TIME_ZONE;
  if (cell instanceof Date) {
    if (field.type !== 4) return coerceValue(field, cell.toISOString(), opts);
    const iso = instantToIso(cell.getTime());
    return iso === null ? { ok: false, key: 'valueNotDate' } : { ok: true, value: iso };
  }
  if (typeof cell === 'boolean')
    return { ok: false, key: field.type === 5 || field.type === 6 ? 'valueNotText' : 'validation' };
  if (cell === null || cell === undefined) return { ok: true, value: null };
  switch (field.type) {
    case 10:
    case 1:
    case 2: {
      if (typeof cell === 'number') return coerceValue(field, cell, opts);
      let text = cell.trim().replace(/^[¥￥$€£]\s*/, '');
      if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(text)) text = text.replaceAll(',', '');
      return coerceValue(field, text, opts);
    }
    case 4: {
      if (typeof cell === 'number') {
        const ms = Math.abs(cell) < 1e7 ? excelSerialToInstant(cell, tz) : cell;
        const iso = ms === null ? null : instantToIso(ms);
        return iso === null ? { ok: false, key: 'valueNotDate' } : { ok: true, value: iso };
      }
      const text = cell
        .trim()
        .replace(/^(\d{4})\/(\d{1,2})(?:\/(\d{1,2}))?/, (_, y, m, d) =>
          d === undefined ? `${y}-${pad(Number(m))}` : `${y}-${pad(Number(m))}-${pad(Number(d))}`,
        );
      return coerceValue(field, text, opts);
    }
    case 8:
    case 9: {
      const text = String(cell).trim();
      if (text === '') return { ok: true, value: null };
      if (text.startsWith('[')) {
        try {
          return coerceValue(field, JSON.parse(text), opts);
        } catch {
          return { ok: false, key: 'valueNotFiles' };
        }
      }
      const files = text
        .split(/[\s,]+/)
        .filter(Boolean)
        .map((text) => {
          const url = storedFileRef(text) as string;
          return { url, name: decodeName(url.slice(url.lastIndexOf('/') + 1)), size: 0 };
        });
      return coerceValue(field, files, opts);
    }
    default:
      return coerceValue(field, cell, opts);
  }
}

function decodeName(segment: string): string {
  try {
    return decodeURIComponent(segment) || segment;
  } catch {
    return segment;
  }
}
