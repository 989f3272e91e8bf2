/**
 * Times of the company: every instant the web shows, and every wall time a person enters,
 * reads in the company's time zone (company settings), whatever zone the browser is in.
 * Formatting and zone maths are the domain's (Intl, tested there); antd's pickers hold a
 * Dayjs in the browser's zone, so a picker gets a Dayjs whose local reading is the company's
 * wall time and gives back the instant that wall time names in the company's zone.
 */
import {
  type DateFormat,
  DEFAULT_TIME_ZONE,
  formatInstant,
  sameClock,
  utcOffsetLabel,
  zonedParts,
  zonedToInstant,
} from '@platform/domain';
import dayjs, { type Dayjs } from 'dayjs';
import { session, useSession } from '../app/store/session';

type InstantLike = string | number | Date | Dayjs | null | undefined;

function msOf(value: InstantLike): number {
  if (value == null || value === '') return Number.NaN;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return Date.parse(value);
  if (value instanceof Date) return value.getTime();
  return value.valueOf();
}

/** The current company's zone (outside React). */
export function companyZone(): string {
  return session.get().company?.timeZone ?? DEFAULT_TIME_ZONE;
}

/** The current company's zone; follows a change of company or setting. */
export function useCompanyZone(): string {
  return useSession().company?.timeZone ?? DEFAULT_TIME_ZONE;
}

export function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Whether the browser reads another clock than the zone (then times say which zone they are in). */
export function zoneDiffers(tz: string, now = Date.now()): boolean {
  return !sameClock(tz, browserZone(), now);
}

/** "UTC+8" of the zone now. */
export function offsetLabel(tz: string, at = Date.now()): string {
  return utcOffsetLabel(at, tz);
}

/**
 * An instant as the company's wall time: "2026-11-25 02:50:46" (or the field's date format).
 * Unreadable input comes back as it was; nothing comes back empty.
 */
export function formatTime(
  value: InstantLike,
  format: DateFormat = 'yyyy-MM-dd HH:mm:ss',
  tz: string = companyZone(),
): string {
  const ms = msOf(value);
  if (Number.isNaN(ms)) return value == null ? '' : String(value);
  return formatInstant(ms, format, tz);
}

/** "2026-11-25 02:50" */
export function formatMinute(value: InstantLike, tz: string = companyZone()): string {
  return formatTime(value, 'yyyy-MM-dd HH:mm:ss', tz).slice(0, 16);
}

/** A picker value for an instant: a Dayjs whose local reading is the instant's wall time in the zone. */
export function toPickerValue(value: InstantLike, tz: string = companyZone()): Dayjs | null {
  const ms = msOf(value);
  if (Number.isNaN(ms)) return null;
  const p = zonedParts(ms, tz);
  const local = new Date(2000, 0, 1);
  local.setFullYear(p.year, p.month - 1, p.day);
  local.setHours(p.hour, p.minute, p.second, p.millisecond);
  return dayjs(local);
}

/** The instant a picker's reading names as wall time in the zone (ISO text). */
export function fromPickerValue(value: Dayjs, tz: string = companyZone()): string {
  const ms = zonedToInstant(
    {
      year: value.year(),
      month: value.month() + 1,
      day: value.date(),
      hour: value.hour(),
      minute: value.minute(),
      second: value.second(),
      millisecond: value.millisecond(),
    },
    tz,
  );
  return new Date(ms).toISOString();
}

/** Now as a picker value (the company's wall clock). */
export function pickerNow(tz: string = companyZone()): Dayjs {
  return toPickerValue(Date.now(), tz)!;
}
