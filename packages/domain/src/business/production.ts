/**
 * Production reports (issue "Business", point 3: output per day, line and product): the units
 * finished in a period, counted by the company's calendar day, line and product. A unit still in
 * production is not output; a day with nothing finished is absent, not a zero row.
 */
import { DEFAULT_TIME_ZONE } from '../data/time';
import { formatInstant } from '../data/values';
import type { Lang } from '../errors';

export interface FinishedUnit {
  /** when production finished it, or null while it is still in production */
  finishedAt: number | null;
  line: string;
  product: string;
}

export interface OutputRow {
  /** the company's calendar day, YYYY-MM-DD */
  day: string;
  line: string;
  product: string;
  count: number;
}

export interface ProductionReport {
  rows: OutputRow[];
  byDay: Record<string, number>;
  byLine: Record<string, number>;
  byProduct: Record<string, number>;
  total: number;
}

/** The calendar day of an instant in a zone, YYYY-MM-DD. */
export function dayOf(instantMs: number, tz: string = DEFAULT_TIME_ZONE): string {
  return formatInstant(instantMs, 'yyyy-MM-dd', tz);
}

/** Output of the units finished in [from, to), by day, line and product (rows sorted so). */
export function productionReport(
  units: Iterable<FinishedUnit>,
  from: number,
  to: number,
  tz: string = DEFAULT_TIME_ZONE,
): ProductionReport {
  const counts = new Map<string, OutputRow>();
  const report: ProductionReport = { rows: [], byDay: {}, byLine: {}, byProduct: {}, total: 0 };
  for (const unit of units) {
    if (unit.finishedAt === null || unit.finishedAt < from || unit.finishedAt >= to) continue;
    const day = dayOf(unit.finishedAt, tz);
    const key = JSON.stringify([day, unit.line, unit.product]);
    const row = counts.get(key) ?? { day, line: unit.line, product: unit.product, count: 0 };
    row.count += 1;
    counts.set(key, row);
    report.byDay[day] = (report.byDay[day] ?? 0) + 1;
    report.byLine[unit.line] = (report.byLine[unit.line] ?? 0) + 1;
    report.byProduct[unit.product] = (report.byProduct[unit.product] ?? 0) + 1;
    report.total += 1;
  }
  report.rows = [...counts.values()].sort(
    (a, b) =>
      a.day.localeCompare(b.day) || a.line.localeCompare(b.line) || a.product.localeCompare(b.product),
  );
  return report;
}

// ---- production plans (scheduling, pm_scheduling; the process view, pm_process) -------------

export const SCHEDULE_STATUSES = ['planned', 'inProduction', 'finished', 'cancelled'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

export const SCHEDULE_STATUS_LABELS: Record<ScheduleStatus, Record<Lang, string>> = {
  planned: { zh: '已计划', en: 'planned' },
  inProduction: { zh: '生产中', en: 'in production' },
  finished: { zh: '已完成', en: 'finished' },
  cancelled: { zh: '已取消', en: 'cancelled' },
};

export type ScheduleAction = 'start' | 'finish' | 'cancel' | 'record' | 'edit' | 'delete';

export const SCHEDULE_ACTION_LABELS: Record<ScheduleAction, Record<Lang, string>> = {
  start: { zh: '开始生产', en: 'started' },
  finish: { zh: '完成', en: 'finished' },
  cancel: { zh: '取消', en: 'cancelled' },
  record: { zh: '登记产品', en: 'given units' },
  edit: { zh: '修改', en: 'changed' },
  delete: { zh: '删除', en: 'deleted' },
};

/** What a plan holds now: units recorded against it, and how many of them are still in production. */
export interface ScheduleCounts {
  quantity: number;
  recorded: number;
  inProduction: number;
}

export type ScheduleRefusal =
  | { key: 'productionScheduleState'; status: ScheduleStatus; action: ScheduleAction }
  | { key: 'productionUnitsUnfinished'; count: number }
  | { key: 'productionQuantityExceeded'; quantity: number; count: number }
  | { key: 'productionQuantityBelow'; count: number }
  | { key: 'productionScheduleInUse'; count: number };

export type ScheduleResult = { ok: true; status: ScheduleStatus } | { ok: false; refusal: ScheduleRefusal };

/**
 * A plan's next status, or why not. planned ─start→ inProduction ─finish→ finished;
 * planned ─cancel→ cancelled (a plan with units recorded is finished, not cancelled). Units
 * are recorded only while in production and never beyond the quantity; a plan finishes once
 * none of its units is still in production. Editing keeps the quantity at least what is
 * recorded, and ends with the plan.
 */
export function scheduleTransition(
  status: ScheduleStatus,
  counts: ScheduleCounts,
  event:
    | { type: 'start' | 'finish' | 'cancel' }
    | { type: 'record'; count: number }
    | { type: 'edit'; quantity: number },
): ScheduleResult {
  const refused = (): ScheduleResult => ({
    ok: false,
    refusal: { key: 'productionScheduleState', status, action: event.type },
  });
  switch (event.type) {
    case 'start':
      return status === 'planned' ? { ok: true, status: 'inProduction' } : refused();
    case 'finish':
      if (status !== 'inProduction') return refused();
      if (counts.inProduction > 0)
        return { ok: false, refusal: { key: 'productionUnitsUnfinished', count: counts.inProduction } };
      return { ok: true, status: 'finished' };
    case 'cancel':
      if (status !== 'planned' && status !== 'inProduction') return refused();
      if (counts.recorded > 0)
        return { ok: false, refusal: { key: 'productionScheduleInUse', count: counts.recorded } };
      return { ok: true, status: 'cancelled' };
    case 'record':
      if (status !== 'inProduction') return refused();
      if (counts.recorded + event.count > counts.quantity)
        return {
          ok: false,
          refusal: {
            key: 'productionQuantityExceeded',
            quantity: counts.quantity,
            count: counts.recorded + event.count,
          },
        };
      return { ok: true, status };
    case 'edit':
      if (status !== 'planned' && status !== 'inProduction') return refused();
      if (event.quantity < counts.recorded)
        return { ok: false, refusal: { key: 'productionQuantityBelow', count: counts.recorded } };
      return { ok: true, status };
  }
}
