/**
 * Energy of meters over periods (docs/energy.md). The reading at a boundary is the last record
 * at or before it (boundaries are local midnights in the company's zone), so days and months
 * add up exactly. Between two readings the register's advance is one step:
 *
 * - a decrease is a rollover when the meter has register digits and the wrapped advance is
 *   plausible (energyWithRollover); the rollover is logged once in the meter log; any other
 *   decrease is an issue of the answer and counts nothing, never guessed;
 * - a replacement (meter_events) ends the old register with its final reading and starts the
 *   new one with its start reading, each counted with its own CT and PT ratios, as
 *   energyAcrossReplacement does;
 * - a period's energy is the sum of its steps' register advances, per set of ratios, times
 *   CT × PT (energyBetween rounds the advance against binary noise, then the kWh to a Wh), so
 *   12345.67 → 12678.90 with CT 200/5 and PT 10000/100 is exactly 1 332 920 kWh.
 *
 * Steps are split by time-of-use period (splitByPeriod, in proportion to the time a step spends
 * in each) and priced (touCost). A virtual meter evaluates its formula on its meters' energies,
 * per period and per time-of-use period.
 */
import {
  DATA_PERMISSION,
  type EvaluateResult,
  energyBetween,
  energyWithRollover,
  evaluateFormula,
  KWH_DECIMALS,
  METER_TYPES,
  type MeterEnergyIssue,
  type MeterPeriodEnergy,
  NO_TRANSFORMERS,
  parseFormula,
  READING_DECIMALS,
  registerCapacity,
  roundTo,
  splitByPeriod,
  TOU_PERIODS,
  type TouEnergy,
  type TouPrices,
  type TouSchedule,
  touCost,
  validateTouSchedule,
} from '@platform/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { type DataCaller, levelsFor } from '../cabin/permissions';
import { dataItems } from '../dataitems/tables';
import { type Reading, readingAtOrBefore, readingsBetween } from './readings';
import { companyMeters, type MeterRow, meterFor } from './service';
import { meterEvents, touSettings } from './tables';

interface Ratios {
  ct: number;
  pt: number;
}

interface Step {
  start: number;
  end: number;
  /** register units */
  delta: number;
  gen: number;
}

interface Replacement {
  at: number;
  oldFinal: number;
  newInitial: number;
  old: Ratios;
}

type CompanyMeter = Awaited<ReturnType<typeof companyMeters>>[number];

export interface Tariff {
  schedule: TouSchedule | null;
  prices: TouPrices;
}

export interface EnergyContext {
  db: Db;
  caller: DataCaller;
  tz: string;
  tariff: Tariff;
  byCode: Map<string, CompanyMeter>;
  issues: MeterEnergyIssue[];
  rollovers: Array<{ meter: MeterRow; at: number; previous: number; next: number; capacity: number }>;
  memo: Map<string, Promise<Array<MeterPeriodEnergy>>>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export const ratiosOf = (m: {
  ctPrimary: number;
  ctSecondary: number;
  ptPrimary: number;
  ptSecondary: number;
}): Ratios => ({ ct: m.ctPrimary / m.ctSecondary, pt: m.ptPrimary / m.ptSecondary });

/** The company's tariff: the schedule only when it is valid. */
export async function tariffOf(db: Db, companyId: number): Promise<Tariff> {
  const [row] = await db.select().from(touSettings).where(eq(touSettings.companyId, companyId));
  if (!row) return { schedule: null, prices: {} };
  return { schedule: validateTouSchedule(row.schedule).ok ? row.schedule : null, prices: row.prices };
}

/** The replacements of a meter, oldest first. */
export async function replacementsOf(db: Db, meterId: number): Promise<Replacement[]> {
  const rows = await db
    .select()
    .from(meterEvents)
    .where(and(eq(meterEvents.meterId, meterId), eq(meterEvents.kind, 'replacement')))
    .orderBy(asc(meterEvents.at));
  return rows.map((r) => {
    const d = r.details as {
      oldFinal: number;
      newInitial: number;
      old: { ctPrimary: number; ctSecondary: number; ptPrimary: number; ptSecondary: number };
    };
    return { at: r.at.getTime(), oldFinal: d.oldFinal, newInitial: d.newInitial, old: ratiosOf(d.old) };
  });
}

/** The register's advance from one reading to the next, or why it cannot be counted. */
function advance(
  previous: number,
  next: number,
  capacity: number | undefined,
): { ok: true; delta: number; rollover: boolean } | { ok: false; reason: 'decrease' | 'outOfRange' } {
  if (capacity === undefined) {
    const r = energyBetween(previous, next, NO_TRANSFORMERS);
    if (!r.ok) return { ok: false, reason: 'decrease' };
    return { ok: true, delta: roundTo(next - previous, READING_DECIMALS), rollover: false };
  }
  const r = energyWithRollover([previous, next], capacity);
  if (!r.ok) return { ok: false, reason: r.reason === 'outOfRange' ? 'outOfRange' : 'decrease' };
  return { ok: true, delta: r.registerDelta, rollover: r.rollovers.length > 0 };
}

/** kWh of register advances per generation of the meter (each with its own ratios). */
function kWhOf(steps: readonly Step[], gens: readonly Ratios[]): number {
  const byGen = new Map<number, number>();
  for (const s of steps) byGen.set(s.gen, (byGen.get(s.gen) ?? 0) + s.delta);
  let total = 0;
  for (const [gen, delta] of byGen) {
    const r = energyBetween(0, roundTo(delta, READING_DECIMALS), gens[gen]!);
    if (r.ok) total += r.kWh;
  }
  return roundTo(total, KWH_DECIMALS);
}

function touOf(
  ctx: EnergyContext,
  meter: string,
  energy: Partial<TouEnergy> | null,
): Pick<MeterPeriodEnergy, 'tou' | 'cents' | 'totalCents'> {
  if (!energy) return { tou: null, cents: null, totalCents: null };
  const tou = Object.fromEntries(
    TOU_PERIODS.map((p) => [p, roundTo(energy[p] ?? 0, KWH_DECIMALS)]),
  ) as TouEnergy;
  const cost = touCost(tou, ctx.tariff.prices);
  if (!cost.ok) {
    if (!ctx.issues.some((i) => i.reason === 'noPrice' && i.detail === cost.period))
      ctx.issues.push({ meter, reason: 'noPrice', at: null, detail: cost.period });
    return { tou, cents: null, totalCents: null };
  }
  return { tou, cents: cost.cents, totalCents: cost.totalCents };
}

/** A standard meter's energy over the periods between consecutive boundaries. */
async function standardEnergy(ctx: EnergyContext, meter: MeterRow, bounds: number[], labels: string[]) {
  const key = meter.points.energy;
  const first = bounds[0]!;
  const last = bounds[bounds.length - 1]!;
  const periods: MeterPeriodEnergy[] = labels.map((label, i) => ({
    label,
    from: iso(bounds[i]!),
    to: iso(bounds[i + 1]!),
    opening: null,
    closing: null,
    kWh: null,
    tou: null,
    cents: null,
    totalCents: null,
  }));
  if (meter.itemId == null || !key) {
    ctx.issues.push({ meter: meter.code, reason: 'noReadings', at: null });
    return periods;
  }
  const [opening, rows, replacements] = await Promise.all([
    readingAtOrBefore(ctx.db, meter.companyId, meter.itemId, key, first),
    readingsBetween(ctx.db, meter.companyId, meter.itemId, key, first, last),
    replacementsOf(ctx.db, meter.id),
  ]);
  const real: Reading[] = opening ? [opening, ...rows] : rows;
  if (real.length === 0) ctx.issues.push({ meter: meter.code, reason: 'noReadings', at: null });
  const gens: Ratios[] = [...replacements.map((r) => r.old), ratiosOf(meter)];
  const genOf = (t: number) => replacements.filter((r) => r.at < t).length;
  const capacity = meter.registerDigits == null ? undefined : registerCapacity(meter.registerDigits);

  // readings at a replacement's instant are left out: its two readings stand for it
  const replacedAt = new Set(replacements.map((r) => r.at));
  type Mark = { at: number; reading?: Reading; replacement?: Replacement };
  const marks: Mark[] = [
    ...real.filter((r) => !replacedAt.has(r.at)).map((reading) => ({ at: reading.at, reading })),
    ...replacements
      .filter((r) => r.at <= last && (real[0] === undefined || r.at > real[0].at))
      .map((replacement) => ({ at: replacement.at, replacement })),
  ].sort((a, b) => a.at - b.at || ('replacement' in a ? 1 : 0) - ('replacement' in b ? 1 : 0));

  const steps: Step[] = [];
  let prev: { at: number; value: number; gen: number } | null = null;
  for (const mark of marks) {
    if (mark.reading) {
      const gen = genOf(mark.at);
      if (prev) {
        const a = advance(prev.value, mark.reading.value, capacity);
        if (a.ok) {
          steps.push({ start: prev.at, end: mark.at, delta: a.delta, gen: prev.gen });
          if (a.rollover && capacity !== undefined)
            ctx.rollovers.push({
              meter,
              at: mark.at,
              previous: prev.value,
              next: mark.reading.value,
              capacity,
            });
        } else ctx.issues.push({ meter: meter.code, reason: a.reason, at: iso(mark.at) });
      }
      prev = { at: mark.at, value: mark.reading.value, gen };
    } else {
      const r = mark.replacement!;
      const gen = replacements.indexOf(r);
      if (prev) {
        const a = advance(prev.value, r.oldFinal, capacity);
        if (a.ok) steps.push({ start: prev.at, end: r.at, delta: a.delta, gen });
        else ctx.issues.push({ meter: meter.code, reason: a.reason, at: iso(r.at) });
      }
      prev = { at: r.at, value: r.newInitial, gen: gen + 1 };
    }
  }

  const readingAt = (b: number): Reading | null => {
    let found: Reading | null = null;
    for (const r of real) {
      if (r.at > b) break;
      found = r;
    }
    return found;
  };
  for (let i = 0; i < periods.length; i++) {
    const from = bounds[i]!;
    const to = bounds[i + 1]!;
    const p = periods[i]!;
    const open = readingAt(from);
    const close = readingAt(to);
    p.opening = open ? { at: iso(open.at), value: open.value } : null;
    p.closing = close ? { at: iso(close.at), value: close.value } : null;
    if (!close) continue;
    const inside = steps.filter((s) => s.end > from && s.end <= to);
    p.kWh = kWhOf(inside, gens);
    let split: Partial<TouEnergy> | null = null;
    if (ctx.tariff.schedule) {
      const intervals = inside.map((s) => {
        const g = gens[s.gen]!;
        return { start: s.start < s.end ? s.start : s.end - 1, end: s.end, kWh: s.delta * g.ct * g.pt };
      });
      const r = splitByPeriod(intervals, ctx.tariff.schedule, ctx.tz);
      split = r.ok ? r.kWh : null;
    }
    Object.assign(p, touOf(ctx, meter.code, split));
  }
  return periods;
}

function evaluated(ctx: EnergyContext, meter: string, r: EvaluateResult): number | null {
  if (r.ok) return roundTo(r.value, KWH_DECIMALS);
  ctx.issues.push({ meter, reason: r.reason, at: null, ...('name' in r ? { detail: r.name } : {}) });
  return null;
}

/** A virtual meter's energy: its formula on its meters' energies, per period and TOU period. */
async function virtualEnergy(ctx: EnergyContext, meter: MeterRow, bounds: number[], labels: string[]) {
  const parsed = parseFormula(meter.formula ?? '');
  const parts = new Map<string, MeterPeriodEnergy[]>();
  for (const code of parsed.ok ? parsed.refs : []) {
    const ref = ctx.byCode.get(code);
    if (ref) parts.set(code, await energyOf(ctx, ref.meter, bounds, labels));
  }
  return labels.map((label, i): MeterPeriodEnergy => {
    const base = {
      label,
      from: iso(bounds[i]!),
      to: iso(bounds[i + 1]!),
      opening: null,
      closing: null,
    };
    if (!parsed.ok) return { ...base, kWh: null, tou: null, cents: null, totalCents: null };
    const values = (pick: (p: MeterPeriodEnergy) => number | null) => {
      const map = new Map<string, number>();
      for (const [code, list] of parts) {
        const v = pick(list[i]!);
        if (v != null) map.set(code, v);
      }
      return map;
    };
    const kWh = evaluated(
      ctx,
      meter.code,
      evaluateFormula(
        parsed.ast,
        values((p) => p.kWh),
      ),
    );
    let tou: Partial<TouEnergy> | null = null;
    if (ctx.tariff.schedule && kWh !== null) {
      tou = {};
      for (const period of TOU_PERIODS) {
        const r = evaluateFormula(
          parsed.ast,
          values((p) => p.tou?.[period] ?? null),
        );
        tou[period] = r.ok ? r.value : 0;
      }
    }
    return { ...base, kWh, ...touOf(ctx, meter.code, tou) };
  });
}

/** Energy of a meter over the periods between consecutive boundaries (memoised per meter). */
export function energyOf(ctx: EnergyContext, meter: MeterRow, bounds: number[], labels: string[]) {
  const key = meter.code;
  let found = ctx.memo.get(key);
  if (!found) {
    found =
      meter.type === METER_TYPES.virtual
        ? virtualEnergy(ctx, meter, bounds, labels)
        : standardEnergy(ctx, meter, bounds, labels);
    ctx.memo.set(key, found);
  }
  return found;
}

/**
 * The meter the caller asks about (read level) and every meter its energy needs: the meters
 * its formula reaches and, with `withChildren`, its child meters. The caller must read each of
 * them and each one's data item; a meter the caller may not read refuses the whole answer
 * (40300) rather than give a total with a hole in it.
 */
export async function energyScope(
  db: Db,
  caller: DataCaller,
  nodeId: number,
  tz: string,
  field = 'id',
  withChildren = false,
): Promise<{ ctx: EnergyContext; meter: MeterRow; name: string; children: CompanyMeter[] }> {
  const root = await meterFor(db, caller, nodeId, DATA_PERMISSION.read, field);
  const [all, tariff] = await Promise.all([
    companyMeters(db, caller.companyId),
    tariffOf(db, caller.companyId),
  ]);
  const byCode = new Map(all.map((r) => [r.meter.code, r]));
  const children = withChildren ? all.filter((r) => r.meter.parentMeterId === root.meter.id) : [];
  const reached = new Map<number, MeterRow>();
  const visit = (m: MeterRow) => {
    if (reached.has(m.id)) return;
    reached.set(m.id, m);
    for (const code of m.refs) {
      const ref = byCode.get(code);
      if (ref) visit(ref.meter);
    }
  };
  visit(root.meter);
  for (const c of children) visit(c.meter);
  const itemIds = [...reached.values()].map((m) => m.itemId).filter((id): id is number => id != null);
  const items = itemIds.length
    ? await db
        .select({ id: dataItems.id, nodeId: dataItems.nodeId })
        .from(dataItems)
        .where(and(inArray(dataItems.id, itemIds), eq(dataItems.companyId, caller.companyId)))
    : [];
  const nodeIds = [...[...reached.values()].map((m) => m.nodeId), ...items.map((i) => i.nodeId)];
  const levels = await levelsFor(db, caller, nodeIds);
  if (nodeIds.some((id) => (levels.get(id) ?? DATA_PERMISSION.none) < DATA_PERMISSION.read))
    throw new AppError('forbidden');
  return {
    ctx: { db, caller, tz, tariff, byCode, issues: [], rollovers: [], memo: new Map() },
    meter: root.meter,
    name: root.name,
    children,
  };
}

/** Logs the rollovers a computation found, once each (the reader who found it is `createdBy`). */
export async function logRollovers(ctx: EnergyContext): Promise<void> {
  if (ctx.rollovers.length === 0) return;
  await ctx.db
    .insert(meterEvents)
    .values(
      ctx.rollovers.map((r) => ({
        companyId: r.meter.companyId,
        meterId: r.meter.id,
        kind: 'rollover' as const,
        at: new Date(r.at),
        details: { previous: r.previous, next: r.next, capacity: r.capacity },
        note: '',
        createdBy: ctx.caller.userId,
      })),
    )
    .onConflictDoNothing();
}
