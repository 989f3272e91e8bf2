/**
 * Calendar maths in an IANA time zone with Intl only (no library). Days and months of the data
 * engine (acquisition windows, date-only values) begin at local midnight in the company's zone.
 *
 * Wall times that do not exist (a DST gap) move forward by the gap's length (02:30 in a 02:00→03:00
 * gap is 03:30), and wall times that occur twice (a DST overlap) take the earlier instant; so the
 * start of a day is always the first instant whose local date is that day, even where midnight
 * itself is skipped.
 */
import { DEFAULT_TIME_ZONE, type TimeRange } from './types';

export { DEFAULT_TIME_ZONE };

export interface WallTime {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's one formatter (numeric parts, 24-hour): making one costs far more than using it. */
export function zoneFormatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** True when Intl knows the zone. */
export function isTimeZone(tz: string): boolean {
  try {
    zoneFormatter(tz);
    return true;
  } catch {
    return false;
  }
}

/**
 * An IANA zone name Intl knows ("Asia/Shanghai", "Europe/Berlin", "America/Argentina/Salta",
 * "UTC"). Offsets ("+08:00", "UTC+8") and abbreviations ("CST") are not zone names: they say
 * nothing of daylight saving, and one abbreviation names several zones.
 */
export function isIanaTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 64) return false;
  if (value !== 'UTC' && !/^[A-Z][A-Za-z_-]*(\/[A-Za-z0-9_+-]+){1,2}$/.test(value)) return false;
  return isTimeZone(value);
}

/** The zone's offset at an instant as people write it: "UTC+8", "UTC+5:30", "UTC-3", "UTC". */
export function utcOffsetLabel(instantMs: number, tz: string = DEFAULT_TIME_ZONE): string {
  const minutes = Math.round(offsetAt(instantMs, tz) / 60_000);
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  const hm =
    abs % 60 === 0 ? String(abs / 60) : `${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
  return `UTC${minutes < 0 ? '-' : '+'}${hm}`;
}

/**
 * Whether two zones read the same clock around an instant: the same name, or the same offset
 * at the instant and a quarter, half and three quarters of a year on (so a zone with daylight
 * saving never passes for one without).
 */
export function sameClock(a: string, b: string, instantMs: number): boolean {
  if (a === b) return true;
  const quarter = 91 * DAY_MS;
  return [0, 1, 2, 3].every(
    (k) => offsetAt(instantMs + k * quarter, a) === offsetAt(instantMs + k * quarter, b),
  );
}

/** The wall-clock reading of an instant in a zone, as Intl gives it (slow: ~10 µs a call). */
function intlParts(instantMs: number, tz: string): WallTime {
  const p: Record<string, number> = {};
  for (const part of zoneFormatter(tz).formatToParts(instantMs)) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return {
    year: p.year!,
    month: p.month!,
    day: p.day!,
    hour: p.hour! % 24,
    minute: p.minute!,
    second: p.second!,
    millisecond: ((instantMs % 1000) + 1000) % 1000,
  };
}

/**
 * Zone offsets by quarter hour (the zone's, ms): the offset a quarter hour has at both its ends,
 * or NaN when it changes inside it. Zones change their offset a few times a year at most, never
 * twice within 15 minutes, so a quarter hour with one offset at its two ends has it throughout.
 * Splitting a month of 15-minute readings by time-of-use period reads the wall time of every
 * reading several times; Intl's formatToParts for each took most of a meter report's time.
 */
const QUARTER_MS = 15 * 60_000;
const OFFSETS_KEPT = 200_000;
const quarterOffsets = new Map<string, Map<number, number>>();

function quarterOffset(instantMs: number, tz: string): number {
  const quarter = Math.floor(instantMs / QUARTER_MS);
  let zone = quarterOffsets.get(tz);
  if (!zone) {
    zone = new Map();
    quarterOffsets.set(tz, zone);
  }
  let offset = zone.get(quarter);
  if (offset === undefined) {
    const start = quarter * QUARTER_MS;
    const first = wallAsUtc(intlParts(start, tz)) - start;
    const last = wallAsUtc(intlParts(start + QUARTER_MS - 1, tz)) - (start + QUARTER_MS - 1);
    offset = first === last ? first : Number.NaN;
    if (zone.size >= OFFSETS_KEPT) zone.clear();
    zone.set(quarter, offset);
  }
  return offset;
}

/** The wall-clock reading of an instant in a zone. */
export function zonedParts(instantMs: number, tz: string = DEFAULT_TIME_ZONE): WallTime {
  if (!Number.isFinite(instantMs)) return intlParts(instantMs, tz);
  const offset = quarterOffset(instantMs, tz);
  if (Number.isNaN(offset)) return intlParts(instantMs, tz);
  const d = new Date(instantMs + offset);
  // Intl counts years before year 1 by era: those stay with it
  if (d.getUTCFullYear() < 1) return intlParts(instantMs, tz);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
  };
}

function wallAsUtc(w: WallTime): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, w.millisecond);
  return d.getTime();
}

/** Offset of the zone at an instant: local wall time minus UTC, in ms. */
export function offsetAt(instantMs: number, tz: string = DEFAULT_TIME_ZONE): number {
  return wallAsUtc(zonedParts(instantMs, tz)) - instantMs;
}

/** The instant a wall-clock reading denotes in a zone (gaps shift forward, overlaps take the earlier). */
export function zonedToInstant(
  wall: Partial<WallTime> & { year: number },
  tz: string = DEFAULT_TIME_ZONE,
): number {
  const w = wallAsUtc({ month: 1, day: 1, hour: 0, minute: 0, second: 0, millisecond: 0, ...wall });
  const before = offsetAt(w - DAY_MS, tz);
  const after = offsetAt(w + DAY_MS, tz);
  const valid = [w - before, w - after].filter((t) => offsetAt(t, tz) === w - t);
  if (valid.length > 0) return Math.min(...valid);
  // in a gap: the wall time is reached, and skipped, exactly when the old offset ends
  return w - before;
}

/**
 * The instant a calendar day 'yyyy-MM-dd' of a zone begins: its local midnight, or the first
 * instant of the day where a DST change skips midnight.
 */
export function dayStartInstant(day: string, tz: string): Date {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(zonedToInstant({ year, month, day: date }, tz));
}

export function startOfDay(instantMs: number, tz: string = DEFAULT_TIME_ZONE): number {
  const p = zonedParts(instantMs, tz);
  return zonedToInstant({ year: p.year, month: p.month, day: p.day }, tz);
}

export function startOfMonth(instantMs: number, tz: string = DEFAULT_TIME_ZONE): number {
  const p = zonedParts(instantMs, tz);
  return zonedToInstant({ year: p.year, month: p.month, day: 1 }, tz);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/** Same wall time `n` calendar days later (or earlier) in the zone. */
export function addDays(instantMs: number, n: number, tz: string = DEFAULT_TIME_ZONE): number {
  const p = zonedParts(instantMs, tz);
  const d = new Date(Date.UTC(2000, 0, 1));
  d.setUTCFullYear(p.year, p.month - 1, p.day + n);
  return zonedToInstant(
    { ...p, year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() },
    tz,
  );
}

/** Same wall time `n` months later (or earlier); the day is clamped to the month's length (Jan 31 + 1 = Feb 28/29). */
export function addMonths(instantMs: number, n: number, tz: string = DEFAULT_TIME_ZONE): number {
  const p = zonedParts(instantMs, tz);
  const index = p.year * 12 + (p.month - 1) + n;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return zonedToInstant({ ...p, year, month, day: Math.min(p.day, daysInMonth(year, month)) }, tz);
}

/** Thrown by rangeBounds for a period that is missing, unreadable or not from < to. */
export class TimeRangeError extends Error {
  readonly key = 'timeRangeInvalid' as const;
  constructor(readonly field: 'from' | 'to' | 'range') {
    super(`invalid time range (${field})`);
    this.name = 'TimeRangeError';
  }
}

/** An instant given as epoch ms or ISO text; null when unreadable. */
export function toInstant(value: number | string | null | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : t;
}

/**
 * The half-open window [from, to) of a time range. "today" and "thisMonth" end at now,
 * inclusive (to = now + 1 ms); "period" takes the given from/to and refuses from >= to.
 */
export function rangeBounds(
  range: TimeRange,
  nowMs: number,
  tz: string = DEFAULT_TIME_ZONE,
  from?: number | string | null,
  to?: number | string | null,
): { from: number; to: number } {
  const today = startOfDay(nowMs, tz);
  const month = startOfMonth(nowMs, tz);
  switch (range) {
    case 'today':
      return { from: today, to: nowMs + 1 };
    case 'yesterday':
      return { from: startOfDay(today - 1, tz), to: today };
    case 'dayBefore': {
      const yesterday = startOfDay(today - 1, tz);
      return { from: startOfDay(yesterday - 1, tz), to: yesterday };
    }
    case 'thisMonth':
      return { from: month, to: nowMs + 1 };
    case 'lastMonth':
      return { from: startOfMonth(month - 1, tz), to: month };
    case 'monthBefore': {
      const last = startOfMonth(month - 1, tz);
      return { from: startOfMonth(last - 1, tz), to: last };
    }
    case 'period': {
      const f = toInstant(from);
      const t = toInstant(to);
      if (f === null) throw new TimeRangeError('from');
      if (t === null || f >= t) throw new TimeRangeError('to');
      return { from: f, to: t };
    }
    default:
      throw new TimeRangeError('range');
  }
}
