/**
 * What the platform records about a device besides its data: its operation log (who did what
 * to it, and what it reported) and its maintenance (work done, and plans that come due every
 * N days).
 */

/** Kinds of the operation log (the /operationLog page filters by them). */
export const OPERATION_KINDS = [
  'bind',
  'unbind',
  'edit',
  'config',
  'upgrade',
  'command',
  'passthrough',
  'event',
] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

export const OPERATION_RESULTS = ['ok', 'failed', 'pending'] as const;
export type OperationResult = (typeof OPERATION_RESULTS)[number];

/** Events a gateway reports on up/event. */
export const GATEWAY_EVENTS = ['button', 'reboot', 'portError', 'simChanged'] as const;
export type GatewayEvent = (typeof GATEWAY_EVENTS)[number];

export const MAINTENANCE_KINDS = [
  'inspection',
  'repair',
  'replacement',
  'calibration',
  'cleaning',
  'other',
] as const;
export type MaintenanceKind = (typeof MAINTENANCE_KINDS)[number];

/** A plan repeats every 1 to 3650 days. */
export const PLAN_INTERVAL_MAX_DAYS = 3650;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a calendar date `YYYY-MM-DD` that exists (2026-02-30 does not), 1970-9999. */
export function isCalendarDate(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const m = DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1970 || mo < 1 || mo > 12 || d < 1) return false;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** `date` plus `days` calendar days (a date has no time zone: no daylight-saving day is lost). */
export function addCalendarDays(date: string, days: number): string {
  const m = DATE.exec(date);
  if (!m) throw new Error(`not a date: ${date}`);
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** The next due date after a plan was done on `doneOn`. */
export function nextDueAfter(doneOn: string, intervalDays: number): string {
  return addCalendarDays(doneOn, intervalDays);
}

/** Whether a plan due on `nextDue` is overdue on `today` (both `YYYY-MM-DD`; due today is not yet). */
export function isOverdue(nextDue: string, today: string): boolean {
  return nextDue < today;
}
