/**
 * What a meter's page and report read (docs/energy.md): energy per day or month, the monthly
 * report with its balance against the child meters, the live values of the bound points; and
 * the meter log: replacements recorded by a person, rollovers found while reading.
 */
import {
  DATA_PERMISSION,
  energyAcrossReplacement,
  KWH_DECIMALS,
  METER_TYPES,
  type MeterEnergy,
  type MeterEnergyIssue,
  type MeterLiveValues,
  type MeterLogRow,
  type MeterPeriodEnergy,
  type MeterReading,
  type MeterReport,
  registerCapacity,
  roundTo,
  TOU_PERIODS,
  type TouEnergy,
  transformerRatio,
  zonedToInstant,
} from '@platform/domain';
import { and, desc, eq, gte, inArray, lt, lte } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import type { DataCaller } from '../cabin/permissions';
import { cabinNodes } from '../cabin/tables';
import { companyTimeZone } from '../companies/service';
import { users } from '../users/tables';
import { childEnergies } from './balance';
import { energyOf, energyScope, logRollovers, ratiosOf, replacementsOf } from './energy';
import { latestReading, readingAtOrBefore, readingsBetween } from './readings';
import { METER_POINTS, meterFor } from './service';
import { meterEvents, meters } from './tables';

/** at most this many periods in one energy answer */
export const MAX_PERIODS = 400;

const pad = (n: number) => String(n).padStart(2, '0');

/** Boundaries (local midnights) and labels of the days or months from `from` to `to`, both included. */
export function periodBounds(
  grain: 'day' | 'month',
  from: string,
  to: string,
  tz: string,
): { bounds: number[]; labels: string[] } {
  const field = (f: string) => new AppError('validation', { field: f }, { field: f });
  const re = grain === 'day' ? /^(\d{4})-(\d{2})-(\d{2})$/ : /^(\d{4})-(\d{2})$/;
  const a = re.exec(from);
  if (!a) throw field('from');
  const b = re.exec(to);
  if (!b) throw field('to');
  const start = Date.UTC(Number(a[1]), Number(a[2]) - 1, Number(a[3] ?? 1));
  const end = Date.UTC(Number(b[1]), Number(b[2]) - 1, Number(b[3] ?? 1));
  if (Number.isNaN(start) || new Date(start).getUTCMonth() !== Number(a[2]) - 1) throw field('from');
  if (Number.isNaN(end) || new Date(end).getUTCMonth() !== Number(b[2]) - 1) throw field('to');
  if (end < start) throw field('to');
  const bounds: number[] = [];
  const labels: string[] = [];
  const d = new Date(start);
  for (;;) {
    const y = d.getUTCFullYear();
    const m = d.getUTCMonth() + 1;
    const day = d.getUTCDate();
    bounds.push(zonedToInstant({ year: y, month: m, day }, tz));
    if (d.getTime() > end) break;
    labels.push(grain === 'day' ? `${y}-${pad(m)}-${pad(day)}` : `${y}-${pad(m)}`);
    if (labels.length > MAX_PERIODS) throw field('to');
    if (grain === 'day') d.setUTCDate(day + 1);
    else d.setUTCMonth(d.getUTCMonth() + 1);
  }
  return { bounds, labels };
}

function totalOf(periods: MeterPeriodEnergy[]): MeterEnergy['total'] {
  const known = periods.filter((p) => p.kWh !== null);
  const sum = (f: (p: MeterPeriodEnergy) => number) =>
    roundTo(
      known.reduce((s, p) => s + f(p), 0),
      KWH_DECIMALS,
    );
  const withTou = known.every((p) => p.tou !== null) && known.length > 0;
  return {
    kWh: known.length ? sum((p) => p.kWh!) : null,
    tou: withTou
      ? (Object.fromEntries(TOU_PERIODS.map((k) => [k, sum((p) => p.tou![k])])) as TouEnergy)
      : null,
    totalCents:
      known.length > 0 && known.every((p) => p.totalCents !== null)
        ? known.reduce((s, p) => s + p.totalCents!, 0)
        : null,
  };
}

/** Energy of a meter per day or per month (read level on it and on everything it reads). */
/**
 * The issues in an order that does not depend on which meter's count finished first (children
 * and formula references are counted side by side): the meter's own first, then by code
 * (K2 before K10), each meter's in the order its count found them.
 */
function orderedIssues(issues: MeterEnergyIssue[], own: string): MeterEnergyIssue[] {
  const rank = (code: string) => (code === own ? 0 : 1);
  return [...issues].sort(
    (a, b) => rank(a.meter) - rank(b.meter) || a.meter.localeCompare(b.meter, 'en', { numeric: true }),
  );
}

export async function meterEnergy(
  db: Db,
  caller: DataCaller,
  input: { id: number; grain: 'day' | 'month'; from: string; to: string },
): Promise<MeterEnergy> {
  const tz = await companyTimeZone(db, caller.companyId);
  const { bounds, labels } = periodBounds(input.grain, input.from, input.to, tz);
  const { ctx, meter } = await energyScope(db, caller, input.id, tz);
  const periods = await energyOf(ctx, meter, bounds, labels);
  await logRollovers(ctx);
  return {
    id: meter.nodeId,
    code: meter.code,
    type: meter.type,
    timeZone: tz,
    periods,
    total: totalOf(periods),
    issues: orderedIssues(ctx.issues, meter.code),
  };
}

export type { MeterReport } from '@platform/domain';

/** The monthly report of a meter (read level on it, its formula's meters and its children). */
export async function monthlyReport(
  db: Db,
  caller: DataCaller,
  input: { meterId: number; year: number; month: number },
): Promise<MeterReport> {
  const tz = await companyTimeZone(db, caller.companyId);
  const { ctx, meter, name, children } = await energyScope(db, caller, input.meterId, tz, 'meterId', true);
  const label = `${input.year}-${pad(input.month)}`;
  const { bounds, labels } = periodBounds('month', label, label, tz);
  const [period] = await energyOf(ctx, meter, bounds, labels);
  // all children's energies at once (balance.ts): one query for those whose readings only go up
  const energies = await childEnergies(
    ctx,
    children.map((c) => c.meter),
    bounds,
    labels,
  );
  const childEnergy = children.map((c) => ({
    id: c.meter.nodeId,
    name: c.name,
    code: c.meter.code,
    kWh: energies.get(c.meter.id) ?? null,
  }));
  await logRollovers(ctx);
  const events = await db
    .select()
    .from(meterEvents)
    .where(
      and(
        eq(meterEvents.meterId, meter.id),
        gte(meterEvents.at, new Date(bounds[0]!)),
        lt(meterEvents.at, new Date(bounds[1]!)),
      ),
    )
    .orderBy(meterEvents.at);
  const r = ratiosOf(meter);
  const p = period!;
  let balance: MeterReport['balance'] = null;
  if (childEnergy.length > 0) {
    const childrenKWh = roundTo(
      childEnergy.reduce((s, c) => s + (c.kWh ?? 0), 0),
      KWH_DECIMALS,
    );
    const difference = p.kWh === null ? null : roundTo(p.kWh - childrenKWh, KWH_DECIMALS);
    balance = {
      children: childEnergy.sort((a, b) => a.code.localeCompare(b.code)),
      childrenKWh,
      difference,
      percent: difference === null || !p.kWh ? null : roundTo((difference / p.kWh) * 100, 2),
    };
  }
  return {
    meter: {
      id: meter.nodeId,
      name,
      code: meter.code,
      type: meter.type,
      ct: r.ct,
      pt: r.pt,
      multiplier: r.ct * r.pt,
      formula: meter.formula,
    },
    year: input.year,
    month: input.month,
    timeZone: tz,
    from: p.from,
    to: p.to,
    opening: p.opening,
    closing: p.closing,
    kWh: p.kWh,
    tou: p.tou
      ? TOU_PERIODS.map((period) => ({
          period,
          kWh: p.tou![period],
          price: ctx.tariff.prices[period] ?? null,
          cents: p.cents?.[period] ?? null,
        }))
      : null,
    totalCents: p.totalCents,
    events: events.map((e) => ({ kind: e.kind, at: e.at.toISOString(), details: e.details })),
    balance,
    issues: orderedIssues(ctx.issues, meter.code),
  };
}

/** The newest value of each bound point of a standard meter, with its time. */
export async function liveValues(db: Db, caller: DataCaller, nodeId: number): Promise<MeterLiveValues> {
  const tz = await companyTimeZone(db, caller.companyId);
  const { meter } = await energyScope(db, caller, nodeId, tz);
  if (meter.type !== METER_TYPES.standard || meter.itemId == null) return { id: nodeId, points: [] };
  const itemId = meter.itemId;
  const points = await Promise.all(
    // in the order of METER_POINTS (jsonb keeps its keys in an order of its own)
    METER_POINTS.filter((p) => meter.points[p]).map(async (point) => {
      const field = meter.points[point]!;
      const r = await latestReading(db, meter.companyId, itemId, field);
      return {
        point,
        field,
        value: r?.value ?? null,
        at: r ? new Date(r.at).toISOString() : null,
      };
    }),
  );
  return { id: nodeId, points };
}

export interface ReplacementInput {
  id: number;
  /** ISO instant */
  at: string;
  oldFinal: number;
  newInitial: number;
  ctPrimary?: number;
  ctSecondary?: number;
  ptPrimary?: number;
  ptSecondary?: number;
  note?: string;
}

/**
 * Records a meter replacement (write level): the old register's final reading, the new one's
 * start reading and the new transformers. The readings are checked against the records around
 * the instant with energyAcrossReplacement (the final reading is not below the old meter's last,
 * the start reading not above the new meter's first), the meter takes the new ratios, and the
 * event keeps the old ones, so energy before the instant is still counted with them.
 */
export async function recordReplacement(db: Db, caller: DataCaller, input: ReplacementInput) {
  const { meter } = await meterFor(db, caller, input.id, DATA_PERMISSION.write);
  if (meter.type !== METER_TYPES.standard) throw new AppError('validation', { field: 'id' }, { field: 'id' });
  const at = Date.parse(input.at);
  if (!Number.isFinite(at)) throw new AppError('validation', { field: 'at' }, { field: 'at' });
  for (const field of ['oldFinal', 'newInitial'] as const) {
    if (!Number.isFinite(input[field]) || input[field] < 0)
      throw new AppError('validation', { field }, { field });
  }
  const next = {
    ctPrimary: input.ctPrimary ?? meter.ctPrimary,
    ctSecondary: input.ctSecondary ?? meter.ctSecondary,
    ptPrimary: input.ptPrimary ?? meter.ptPrimary,
    ptSecondary: input.ptSecondary ?? meter.ptSecondary,
  };
  for (const kind of ['ct', 'pt'] as const) {
    const r = transformerRatio(next[`${kind}Primary`], next[`${kind}Secondary`]);
    if (!r.ok) {
      const field = `${kind}${r.field === 'primary' ? 'Primary' : 'Secondary'}`;
      throw new AppError('meterRatioInvalid', { field }, { field });
    }
  }
  const recorded = await replacementsOf(db, meter.id);
  // the event keeps the ratios in force before it: only the latest replacement knows them
  if (recorded.some((r) => r.at > at))
    throw new AppError('meterReplacementOrder', { field: 'at' }, { field: 'at' });
  const key = meter.points.energy;
  const readings: MeterReading[] = [];
  if (meter.itemId != null && key) {
    const [before, after] = await Promise.all([
      readingAtOrBefore(db, meter.companyId, meter.itemId, key, at - 1),
      readingsBetween(db, meter.companyId, meter.itemId, key, at, at + 400 * 86_400_000),
    ]);
    if (before) readings.push(before);
    if (after[0]) readings.push(after[0]);
  }
  // an earlier replacement after the last reading before this one starts the old register there
  const earlier = recorded.filter((r) => r.at < at).at(-1);
  const lastBefore = readings.find((r) => r.at < at);
  if (earlier && (!lastBefore || earlier.at > lastBefore.at)) {
    readings.splice(0, lastBefore ? 1 : 0, { at: earlier.at, value: earlier.newInitial });
  }
  const capacity = meter.registerDigits == null ? undefined : registerCapacity(meter.registerDigits);
  const counted = energyAcrossReplacement(
    readings,
    { at, oldFinal: input.oldFinal, newInitial: input.newInitial },
    { ...ratiosOf(meter), ...(capacity === undefined ? {} : { capacity }) },
    { ...ratiosOf(next), ...(capacity === undefined ? {} : { capacity }) },
  );
  if (!counted.ok) {
    const first = readings.find((r) => r.at > at);
    if (counted.reason === 'replacement' && counted.field === 'oldFinal')
      throw new AppError(
        'meterReplacementFinal',
        { field: 'oldFinal', value: String(readings.find((r) => r.at < at)?.value ?? '') },
        { field: 'oldFinal' },
      );
    if (counted.reason === 'replacement' && counted.field === 'newInitial')
      throw new AppError(
        'meterReplacementInitial',
        { field: 'newInitial', value: String(first?.value ?? '') },
        { field: 'newInitial' },
      );
    throw new AppError('validation', { field: 'oldFinal' }, { field: 'oldFinal' });
  }
  const old = {
    ctPrimary: meter.ctPrimary,
    ctSecondary: meter.ctSecondary,
    ptPrimary: meter.ptPrimary,
    ptSecondary: meter.ptSecondary,
  };
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(meterEvents)
      .values({
        companyId: meter.companyId,
        meterId: meter.id,
        kind: 'replacement',
        at: new Date(at),
        details: { oldFinal: input.oldFinal, newInitial: input.newInitial, old, new: next },
        note: input.note ?? '',
        createdBy: caller.userId,
      })
      .onConflictDoNothing()
      .returning({ id: meterEvents.id });
    if (inserted.length === 0) throw new AppError('meterReplacementTaken', {}, { field: 'at' });
    await tx
      .update(meters)
      .set({ ...next, updatedBy: caller.userId, updatedAt: new Date() })
      .where(eq(meters.id, meter.id));
  });
  return { kWhAround: counted.kWh, oldKWh: counted.oldKWh, newKWh: counted.newKWh };
}

/** Meter log rows, newest first: one meter's, or (system maintenance) every company's. */
export async function meterLog(
  db: Db,
  scope: { meterId: number } | { companyId: number | null },
  page: { limit: number; offset: number },
  range: { from?: number; to?: number } = {},
): Promise<MeterLogRow[]> {
  const where = and(
    'meterId' in scope ? eq(meterEvents.meterId, scope.meterId) : undefined,
    'companyId' in scope && scope.companyId != null ? eq(meterEvents.companyId, scope.companyId) : undefined,
    range.from === undefined ? undefined : gte(meterEvents.at, new Date(range.from)),
    range.to === undefined ? undefined : lte(meterEvents.at, new Date(range.to)),
  );
  const rows = await db
    .select({
      event: meterEvents,
      meterNode: meters.nodeId,
      meterCode: meters.code,
      meterName: cabinNodes.name,
      userName: users.userName,
    })
    .from(meterEvents)
    .innerJoin(meters, eq(meters.id, meterEvents.meterId))
    .innerJoin(cabinNodes, eq(cabinNodes.id, meters.nodeId))
    .leftJoin(users, eq(users.id, meterEvents.createdBy))
    .where(where)
    .orderBy(desc(meterEvents.at), desc(meterEvents.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((r) => ({
    id: r.event.id,
    meterId: r.meterNode,
    meterName: r.meterName,
    meterCode: r.meterCode,
    companyId: r.event.companyId,
    kind: r.event.kind,
    at: r.event.at.toISOString(),
    details: r.event.details,
    note: r.event.note,
    createdBy: r.userName ?? null,
    createdAt: r.event.createdAt.toISOString(),
  }));
}

/** Every company's meters (system maintenance), newest first. */
export async function systemMeters(db: Db, page: { limit: number; offset: number }, companyId?: number) {
  const rows = await db
    .select({ meter: meters, name: cabinNodes.name })
    .from(meters)
    .innerJoin(cabinNodes, eq(cabinNodes.id, meters.nodeId))
    .where(companyId === undefined ? undefined : inArray(meters.companyId, [companyId]))
    .orderBy(desc(meters.id))
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((r) => ({
    id: r.meter.nodeId,
    companyId: r.meter.companyId,
    name: r.name,
    code: r.meter.code,
    type: r.meter.type,
    itemId: r.meter.itemId,
    formula: r.meter.formula,
    updatedAt: r.meter.updatedAt.toISOString(),
  }));
}
