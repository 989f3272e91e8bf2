/**
 * A company's time-of-use tariff (docs/energy.md): the local hours of the sharp, peak, flat and
 * valley periods, which must cover the day exactly once (validateTouSchedule: the first gap or
 * overlap is named), and a price in integer cents per kWh per period. Price rules are warnings
 * (touPriceWarnings: peak:valley below 3:1, or 4:1 with a large load gap; periods out of order;
 * and here: a period with hours but no price), since the tariff is the grid's.
 */
import {
  type HourRange,
  type Lang,
  TOU_PERIOD_LABELS,
  TOU_PERIODS,
  type TouPeriod,
  type TouPrices,
  type TouSchedule,
  touPriceWarnings,
  validateTouSchedule,
} from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { touSettings } from './tables';

export type TouWarning =
  | { key: 'peakValleyRatio'; ratio: number; min: number }
  | { key: 'periodOrder'; period: TouPeriod; cheaper: TouPeriod }
  | { key: 'missingPrice'; period: TouPeriod };

export interface TouView {
  schedule: Partial<Record<TouPeriod, HourRange[]>>;
  prices: TouPrices;
  largeLoadGap: boolean;
  warnings: TouWarning[];
  updatedAt: string | null;
}

function warningsOf(schedule: TouSchedule, prices: TouPrices, largeLoadGap: boolean): TouWarning[] {
  const warnings: TouWarning[] = [...touPriceWarnings(prices, { largeLoadGap })];
  for (const period of TOU_PERIODS)
    if ((schedule[period]?.length ?? 0) > 0 && prices[period] === undefined)
      warnings.push({ key: 'missingPrice', period });
  return warnings;
}

export async function getTou(db: Db, companyId: number): Promise<TouView> {
  const [row] = await db.select().from(touSettings).where(eq(touSettings.companyId, companyId));
  if (!row) return { schedule: {}, prices: {}, largeLoadGap: false, warnings: [], updatedAt: null };
  const schedule: TouView['schedule'] = {};
  for (const period of TOU_PERIODS) {
    const ranges = row.schedule[period];
    if (ranges) schedule[period] = ranges.map((r) => ({ from: r.from, to: r.to }));
  }
  return {
    schedule,
    prices: row.prices,
    largeLoadGap: row.largeLoadGap,
    warnings: warningsOf(row.schedule, row.prices, row.largeLoadGap),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const clock = (hours: number) => {
  const minutes = Math.round(hours * 60);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
};

/** The schedule checked, or the error naming the range, gap or overlap. */
export function checkSchedule(schedule: TouSchedule, lang: Lang): void {
  const r = validateTouSchedule(schedule);
  if (r.ok) return;
  if (r.reason === 'range') {
    const field = `schedule.${r.period}[${r.index}]`;
    throw new AppError(
      'touRangeInvalid',
      { field, period: TOU_PERIOD_LABELS[r.period][lang], index: r.index + 1 },
      { field, reason: 'range', period: r.period, index: r.index },
    );
  }
  if (r.reason === 'gap')
    throw new AppError(
      'touGap',
      { field: 'schedule', from: clock(r.from), to: clock(r.to) },
      { field: 'schedule', reason: 'gap', from: r.from, to: r.to },
    );
  throw new AppError(
    'touOverlap',
    {
      field: 'schedule',
      from: clock(r.from),
      to: clock(r.to),
      a: TOU_PERIOD_LABELS[r.periods[0]][lang],
      b: TOU_PERIOD_LABELS[r.periods[1]][lang],
    },
    { field: 'schedule', reason: 'overlap', from: r.from, to: r.to, periods: r.periods },
  );
}

export async function saveTou(
  db: Db,
  actor: { companyId: number; userId: number; lang: Lang },
  input: { schedule: Partial<Record<TouPeriod, HourRange[]>>; prices: TouPrices; largeLoadGap?: boolean },
): Promise<TouView> {
  const schedule: TouSchedule = {};
  for (const period of TOU_PERIODS) {
    const ranges = input.schedule[period];
    if (ranges && ranges.length > 0) schedule[period] = ranges.map((r) => ({ from: r.from, to: r.to }));
  }
  checkSchedule(schedule, actor.lang);
  const prices: TouPrices = {};
  for (const period of TOU_PERIODS)
    if (input.prices[period] !== undefined) prices[period] = input.prices[period];
  const values = {
    schedule,
    prices,
    largeLoadGap: input.largeLoadGap ?? false,
    updatedBy: actor.userId,
    updatedAt: new Date(),
  };
  await db
    .insert(touSettings)
    .values({ companyId: actor.companyId, ...values })
    .onConflictDoUpdate({ target: touSettings.companyId, set: values });
  return getTou(db, actor.companyId);
}
