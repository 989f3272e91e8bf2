/**
 * The month's energy of a parent meter's children, for its balance (docs/energy.md). A parent
 * with a thousand children would read every child's readings into the server and step through
 * them (three queries and ~3,000 readings a child for a month of 15-minute data: 35 s for 1,000
 * children); the balance needs only each child's energy.
 *
 * One query answers, for every standard child at once, what decides whether its energy is simply
 * its last reading minus its first: the reading at or before the month's start, the last at or
 * before its end, the first inside it, how many readings went down from the one before, whether
 * every reading has at most three decimals and nine integer digits, the lowest and highest, and
 * whether the meter was ever replaced. When no reading goes down, nothing was replaced, the
 * register's capacity (if any) holds every reading and the company's time-of-use periods are all
 * priced (so that splitting could raise no issue), the step-by-step count of energy.ts adds up
 * to exactly closing − opening: each step is a non-negative decimal of at most three places, and
 * their float sum stays within 2.5e-7 of the exact one, which rounding to READING_DECIMALS
 * removes. Every other child (a decrease, a rollover, a replacement, a reading of more decimals,
 * no reading at all, a virtual meter) is counted by energyOf as before, with its issues.
 */
import {
  energyBetween,
  KWH_DECIMALS,
  METER_TYPES,
  READING_DECIMALS,
  registerCapacity,
  roundTo,
  TOU_PERIODS,
  type TouEnergy,
  touCost,
} from '@platform/domain';
import { sql } from 'drizzle-orm';
import { type EnergyContext, energyOf, ratiosOf } from './energy';
import type { MeterRow } from './service';

/** At most nine integer digits and three decimals: a step between two of them is exact in floats. */
const PLAIN = /^-?[0-9]{1,9}(\.[0-9]{1,3})?$/;

interface Summary {
  meter_id: number;
  opening: number | null;
  opening_text: string | null;
  closing: number | null;
  first: number | null;
  n: number | string;
  decreases: number | string;
  plain: boolean | null;
  lo: number | null;
  hi: number | null;
  replaced: boolean;
}

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? []) as T[];
const num = (v: number | string | null): number | null => (v == null ? null : Number(v));

/** The energy of each child over the one period [bounds[0], bounds[1]], by meter row id. */
export async function childEnergies(
  ctx: EnergyContext,
  children: readonly MeterRow[],
  bounds: number[],
  labels: string[],
): Promise<Map<number, number | null>> {
  const out = new Map<number, number | null>();
  const from = bounds[0]!;
  const to = bounds[1]!;
  const allPriced =
    !ctx.tariff.schedule ||
    touCost(Object.fromEntries(TOU_PERIODS.map((p) => [p, 1])) as TouEnergy, ctx.tariff.prices).ok;
  const simple =
    bounds.length === 2 && allPriced
      ? children.filter(
          (m) =>
            m.type === METER_TYPES.standard && m.itemId != null && !!m.points.energy && !ctx.memo.has(m.code),
        )
      : [];
  if (simple.length > 0) {
    const list = JSON.stringify(
      simple.map((m) => ({ meter_id: m.id, item_id: m.itemId, key: m.points.energy })),
    );
    const companyId = ctx.caller.companyId;
    const start = new Date(from).toISOString();
    const end = new Date(to).toISOString();
    // the conditions of readings.ts: the meter's item, top-level records, a JSON number in the field
    const of = sql`d.company_id = ${companyId} AND d.item_id = m.item_id AND d.parent_id IS NULL
      AND jsonb_typeof(d."values" -> m.key) = 'number'`;
    const rows = rowsOf<Summary>(
      await ctx.db.execute(sql`
        SELECT m.meter_id, o.f AS opening, o.t AS opening_text, c.f AS closing, i.f AS first,
               s.n, s.decreases, s.plain, s.lo, s.hi,
               EXISTS (SELECT 1 FROM meter_events e
                       WHERE e.meter_id = m.meter_id AND e.kind = 'replacement') AS replaced
        FROM jsonb_to_recordset(${list}::jsonb) AS m(meter_id int, item_id int, key text)
        LEFT JOIN LATERAL (
          SELECT (d."values" ->> m.key)::float8 AS f, d."values" ->> m.key AS t FROM data_records d
          WHERE ${of} AND d.ts <= ${start}::timestamptz ORDER BY d.ts DESC, d.id DESC LIMIT 1
        ) o ON true
        LEFT JOIN LATERAL (
          SELECT (d."values" ->> m.key)::float8 AS f FROM data_records d
          WHERE ${of} AND d.ts <= ${end}::timestamptz ORDER BY d.ts DESC, d.id DESC LIMIT 1
        ) c ON true
        LEFT JOIN LATERAL (
          SELECT (d."values" ->> m.key)::float8 AS f FROM data_records d
          WHERE ${of} AND d.ts > ${start}::timestamptz AND d.ts <= ${end}::timestamptz
          ORDER BY d.ts, d.id LIMIT 1
        ) i ON true
        LEFT JOIN LATERAL (
          SELECT count(*) AS n, count(*) FILTER (WHERE w.f < w.prev) AS decreases,
                 bool_and(w.t ~ ${PLAIN.source}) AS plain, min(w.f) AS lo, max(w.f) AS hi
          FROM (
            SELECT d."values" ->> m.key AS t, (d."values" ->> m.key)::float8 AS f,
                   lag((d."values" ->> m.key)::float8) OVER (ORDER BY d.ts, d.id) AS prev
            FROM data_records d
            WHERE ${of} AND d.ts > ${start}::timestamptz AND d.ts <= ${end}::timestamptz
          ) w
        ) s ON true`),
    );
    const byId = new Map(simple.map((m) => [m.id, m]));
    for (const r of rows) {
      const meter = byId.get(Number(r.meter_id));
      if (!meter) continue;
      const opening = num(r.opening);
      const first = num(r.first);
      const closing = num(r.closing);
      const lo = num(r.lo);
      const hi = num(r.hi);
      const n = Number(r.n);
      const base = opening ?? first;
      if (closing === null || base === null || r.replaced || Number(r.decreases) > 0) continue;
      if (n > 0 && r.plain !== true) continue;
      if (opening !== null && (!PLAIN.test(r.opening_text ?? '') || (first !== null && first < opening)))
        continue;
      const capacity = meter.registerDigits == null ? undefined : registerCapacity(meter.registerDigits);
      if (capacity !== undefined && [opening, lo, hi].some((v) => v !== null && (v < 0 || v >= capacity)))
        continue;
      const steps = n + (opening === null ? 0 : 1) - 1;
      if (steps * Number.EPSILON * Math.max(1, Math.abs(closing - base)) >= 2.5e-7) continue;
      const counted = energyBetween(0, roundTo(closing - base, READING_DECIMALS), ratiosOf(meter));
      out.set(meter.id, roundTo(counted.ok ? counted.kWh : 0, KWH_DECIMALS));
    }
  }
  // the others, step by step, with their issues
  await Promise.all(
    children
      .filter((m) => !out.has(m.id))
      .map(async (m) => {
        out.set(m.id, (await energyOf(ctx, m, bounds, labels))[0]!.kWh);
      }),
  );
  return out;
}
