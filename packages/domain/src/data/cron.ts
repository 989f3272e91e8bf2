/**
 * Quartz cron for scheduled analysis: `sec min hour day-of-month month day-of-week [year]`,
 * day-of-week 1-7 = SUN-SAT, `?` in exactly one of day-of-month / day-of-week, with L, LW, nW,
 * nL and n#m. croner evaluates it, but only with the options that give it Quartz meaning: with its
 * defaults `0 0 12 ? * MON` fires every day (`?` becomes `*` and the two day fields are OR-ed).
 * What croner would silently read differently from Quartz is refused here: `L-n`, a bare `L` in
 * day-of-week, nL or n#m inside a list, and weekday numbers outside 1-7 (croner takes 0 and 8).
 */
import { Cron, type CronOptions } from 'croner';
import type { ErrorKey } from '../errors';

const QUARTZ: CronOptions = {
  domAndDow: true,
  alternativeWeekdays: true,
  sloppyRanges: true,
  mode: '6-or-7-parts',
};

const WEEKDAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
/** The most days each month can have (February in leap years). */
const MONTH_MAX_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export class CronError extends Error {
  constructor(readonly key: 'cronInvalid' | 'cronUnsupported') {
    super(key);
    this.name = 'CronError';
  }
}

function isWeekday(token: string): boolean {
  if (WEEKDAY_NAMES.includes(token)) return true;
  return /^\d+$/.test(token) && Number(token) >= 1 && Number(token) <= 7;
}

/** Day-of-week parts croner would read differently from Quartz; null when fine. */
function checkDayOfWeek(field: string): ErrorKey | null {
  if (field === '?' || field === '*') return null;
  const parts = field.split(',');
  for (const part of parts) {
    if (part === 'L' || part.includes('L-')) return 'cronUnsupported';
    if ((part.endsWith('L') || part.includes('#')) && parts.length > 1) return 'cronUnsupported';
    const special = /^([A-Z]{3}|\d+)(L|#[1-5])$/.exec(part);
    if (special) {
      if (!isWeekday(special[1]!)) return 'cronInvalid';
      continue;
    }
    const m = /^(\*|[A-Z]{3}|\d+)(?:-([A-Z]{3}|\d+))?(?:\/(\d+))?$/.exec(part);
    if (!m) return 'cronInvalid';
    const [, first, last, step] = m;
    if (first !== '*' && !isWeekday(first!)) return 'cronInvalid';
    if (last !== undefined && !isWeekday(last)) return 'cronInvalid';
    if (step !== undefined && (Number(step) < 1 || Number(step) > 7)) return 'cronInvalid';
  }
  return null;
}

/** Plain day and month lists only: is there any month in which one of the days exists? */
function someDayExists(dayField: string, monthField: string): boolean {
  if (!/^\d+(,\d+)*$/.test(dayField)) return true;
  const months = monthField.split(',');
  if (!months.every((m) => /^\d+$/.test(m) || MONTH_NAMES.includes(m))) return true;
  const monthNos = months.map((m) => (/^\d+$/.test(m) ? Number(m) : MONTH_NAMES.indexOf(m) + 1));
  const days = dayField.split(',').map(Number);
  return monthNos.some((m) => days.some((d) => d <= (MONTH_MAX_DAYS[m - 1] ?? 31)));
}

/** The catalogue key of what is wrong with a Quartz cron expression, or null when it is fine. */
export function checkCron(expr: string | null | undefined): ErrorKey | null {
  if (typeof expr !== 'string') return 'cronInvalid';
  const fields = expr.trim().toUpperCase().split(/\s+/);
  if (fields.length < 6 || fields.length > 7) return 'cronInvalid';
  const [, , , dom, month, dow, year] = fields as [string, string, string, string, string, string, string?];
  if ((dom === '?') === (dow === '?')) return 'cronInvalid';
  if (fields.some((f, i) => f.includes('?') && (f !== '?' || (i !== 3 && i !== 5)))) return 'cronInvalid';
  if (dom.includes('L-')) return 'cronUnsupported';
  const dowError = checkDayOfWeek(dow);
  if (dowError) return dowError;
  if (year !== undefined) {
    const years = year.match(/\d+/g) ?? [];
    if (years.some((y, i) => (i === 0 || !year.includes('/')) && (Number(y) < 1970 || Number(y) > 2099))) {
      return 'cronInvalid';
    }
  }
  if (!someDayExists(dom, month)) return 'cronInvalid';
  try {
    new Cron(fields.join(' '), QUARTZ);
  } catch {
    return 'cronInvalid';
  }
  return null;
}

/**
 * The next `count` fire times strictly after `afterMs`, as epoch ms, evaluated in the zone
 * (UTC unless told). Fewer when the schedule ends (a year field). Throws CronError for an
 * expression checkCron refuses.
 */
export function nextFires(expr: string, afterMs: number, count: number, tz = 'UTC'): number[] {
  const broken = checkCron(expr);
  if (broken) throw new CronError(broken as 'cronInvalid' | 'cronUnsupported');
  if (count <= 0) return [];
  const cron = new Cron(expr.trim().toUpperCase().split(/\s+/).join(' '), { ...QUARTZ, timezone: tz });
  return cron.nextRuns(count, new Date(afterMs)).map((d) => d.getTime());
}

/** The next fire time strictly after `afterMs`, or null when there is none. */
export function nextFire(expr: string, afterMs: number, tz = 'UTC'): number | null {
  return nextFires(expr, afterMs, 1, tz)[0] ?? null;
}
