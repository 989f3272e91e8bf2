/**
 * Production reports (issue "Business", point 3: output per day, line and product): the units
 * finished in a period, counted by the company's calendar day, line and product. A unit still in
 * production is not output; a day with nothing finished is absent, not a zero row.
 */
import { DEFAULT_TIME_ZONE } from '../data/time';
import { formatInstant } from '../data/values';

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
