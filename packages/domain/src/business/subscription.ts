/**
 * A paid service subscription moves the company's service end date (issue "Business", point 2;
 * the top bar's expiry notice reads it). Dates are calendar days, `YYYY-MM-DD`, in the company's
 * own calendar: no clock, no time zone.
 *
 * The new period starts where the current one ends if it has not ended by the payment day, and
 * on the payment day otherwise (a lapsed service is not paid for backwards). Adding months keeps
 * the day of the month, clamped to the month's last day: 31 January + 1 month is 28 (or 29)
 * February.
 */
import { daysInMonth } from '../data/time';

export const MAX_SUBSCRIPTION_MONTHS = 120;

export type SubscriptionError = { field: 'months' | 'paidOn' | 'currentEnd'; reason: 'invalid' };

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parse(day: string): [number, number, number] | null {
  const m = DATE.exec(day);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) return null;
  return [y, mo, d];
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `day` plus `months` calendar months, the day clamped to the target month's length. */
export function addCalendarMonths(day: string, months: number): string {
  const parsed = parse(day);
  if (!parsed) throw new Error(`not a calendar day: ${day}`);
  const [y, mo, d] = parsed;
  const index = y * 12 + (mo - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(d, daysInMonth(year, month)))}`;
}

/** The service end date after paying for `months` on `paidOn`, or the fields that are wrong. */
export function extendServiceEnd(
  currentEnd: string | null,
  paidOn: string,
  months: number,
): { ok: true; end: string; start: string } | { ok: false; errors: SubscriptionError[] } {
  const errors: SubscriptionError[] = [];
  if (!Number.isInteger(months) || months < 1 || months > MAX_SUBSCRIPTION_MONTHS)
    errors.push({ field: 'months', reason: 'invalid' });
  if (!parse(paidOn)) errors.push({ field: 'paidOn', reason: 'invalid' });
  if (currentEnd !== null && !parse(currentEnd)) errors.push({ field: 'currentEnd', reason: 'invalid' });
  if (errors.length) return { ok: false, errors };
  // ISO days compare as strings; a service ending today still runs today: extend from its end
  const start = currentEnd !== null && currentEnd >= paidOn ? currentEnd : paidOn;
  return { ok: true, start, end: addCalendarMonths(start, months) };
}
