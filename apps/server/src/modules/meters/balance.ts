/**
 * The month's energy of a parent meter's children, for its balance (docs/energy.md). A parent
 * with a thousand children read every child's readings into the server and stepped through them
 * (three queries and ~3,000 readings a child for a month of 15-minute data); the balance needs
 * only each child's energy.
 *
 * The month's readings are read from the children's day rollups where they can tell (the
 * rollups keep, per day, how many steps went down, the most decimal places and how many rows
 * were sub-records, ingest/store.ts): about 31 rows a child instead of ~3,000 readings, plus the
 * readings of the partial days at the window's ends (the rollups' days are those of
 * ROLLUP_TIME_ZONE, the window's those of the company). A child some of whose days the rollups
 * cannot tell (written before they kept it, rows merged out of order, sub-records) is asked of
 * its readings, as before.
 *
 * Queries over all children at once (in a few chunks run side by side) answer, for each standard
 * child, what decides whether its energy is simply its last reading minus its first: the reading
 * at or before the month's start, the last at or before its end, the first inside it, how many
 * readings went down from the one before (or share its instant), the most decimals a reading
 * has, the largest magnitude, the lowest and highest, and whether the meter was ever replaced.
 * When no reading goes down, nothing was replaced, the register's capacity (if any) holds every
 * reading, readings have at most READING_DECIMALS (6) decimals and magnitudes below 1e9, and the
 * company's time-of-use periods are all priced (so that splitting could raise no issue), the
 * step-by-step count of energy.ts adds up to exactly closing − opening: each step rounds to its
 * exact non-negative decimal, and their float sum stays within 2.5e-7 of the exact one (checked
 * from the number of steps), which rounding to READING_DECIMALS removes. Every other child (a
 * decrease, a rollover, a replacement, more decimals, no reading, a virtual child) is counted by
 * energyOf as before, with its issues.
 */
import {
  addDays,
  energyBetween,
  KWH_DECIMALS,
  METER_TYPES,
  READING_DECIMALS,
  registerCapacity,
  roundTo,
  startOfDay,
  TOU_PERIODS,
  type TouEnergy,
  touCost,
} from '@platform/domain';
import { sql } from 'drizzle-orm';
import { ROLLUP_TIME_ZONE } from '../ingest/store';
import { type EnergyContext, energyOf, ratiosOf } from './energy';
import type { MeterRow } from './service';

/** children per query; the chunks run side by side on the pool's connections */
const CHUNK = 250;
/** below this magnitude a reading of six decimals is a float whose steps round back exactly */
const BIG = 1e9;

interface Summary {
  meter_id: number;
  opening: number | null;
  opening_places: number | string | null;
  closing: number | null;
  first: number | null;
  n: number | string;
  decreases: number | string;
  places: number | string | null;
  big: number | null;
  lo: number | null;
  hi: number | null;
  replaced: boolean;
}

const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? []) as T[];
const num = (v: number | string | null): number | null => (v == null ? null : Number(v));

/**
 * What both summaries ask of a chunk of children: the chunk as rows `m` (meter_id, item_id,
 * key), a reading's conditions (those of readings.ts: the meter's item, top-level records, a
 * JSON number in the field), value and decimal places, and, as columns over `m` with the joins
 * they need, the reading at or before the start (opening, its places), the last at or before
 * the end (closing), the first inside (first) and whether the meter was ever replaced.
 */
function chunkSql(ctx: EnergyContext, chunk: readonly MeterRow[], start: string, end: string) {
  const list = JSON.stringify(
    chunk.map((m) => ({ meter_id: m.id, item_id: m.itemId, key: m.points.energy })),
  );
  const of = sql`d.company_id = ${ctx.caller.companyId} AND d.item_id = m.item_id AND d.parent_id IS NULL
    AND jsonb_typeof(d."values" -> m.key) = 'number'`;
  const value = sql`(d."values" ->> m.key)::float8`;
  const places = sql`scale((d."values" -> m.key)::numeric)`;
  return {
    rows: sql`jsonb_to_recordset(${list}::jsonb) AS m(meter_id int, item_id int, key text)`,
    of,
    value,
    places,
    ends: sql`o.f AS opening, o.places AS opening_places, c.f AS closing, i.f AS first,
      EXISTS (SELECT 1 FROM meter_events e
              WHERE e.meter_id = m.meter_id AND e.kind = 'replacement') AS replaced`,
    endsJoins: sql`
      LEFT JOIN LATERAL (
        SELECT ${value} AS f, ${places} AS places FROM data_records d
        WHERE ${of} AND d.ts <= ${start}::timestamptz ORDER BY d.ts DESC, d.id DESC LIMIT 1
      ) o ON true
      LEFT JOIN LATERAL (
        SELECT ${value} AS f FROM data_records d
        WHERE ${of} AND d.ts <= ${end}::timestamptz ORDER BY d.ts DESC, d.id DESC LIMIT 1
      ) c ON true
      LEFT JOIN LATERAL (
        SELECT ${value} AS f FROM data_records d
        WHERE ${of} AND d.ts > ${start}::timestamptz AND d.ts <= ${end}::timestamptz
        ORDER BY d.ts, d.id LIMIT 1
      ) i ON true`,
  };
}

/** The summaries of a chunk of children from their readings (one query). */
async function summaries(
  ctx: EnergyContext,
  chunk: readonly MeterRow[],
  start: string,
  end: string,
): Promise<Summary[]> {
  const q = chunkSql(ctx, chunk, start, end);
  return rowsOf<Summary>(
    await ctx.db.execute(sql`
      SELECT m.meter_id, ${q.ends}, s.n, s.decreases, s.places, s.big, s.lo, s.hi
      FROM ${q.rows}
      ${q.endsJoins}
      LEFT JOIN LATERAL (
        SELECT count(*) AS n,
               count(*) FILTER (WHERE w.f < w.prev OR w.ts = w.prev_ts) AS decreases,
               max(w.places) AS places, max(abs(w.f)) AS big, min(w.f) AS lo, max(w.f) AS hi
        FROM (
          SELECT r.ts, r.f, r.places, lag(r.f) OVER by_time AS prev, lag(r.ts) OVER by_time AS prev_ts
          FROM (
            -- the field read once a row (OFFSET 0 keeps it from being inlined three times)
            SELECT x.ts, j.v::float8 AS f, scale(j.v) AS places
            FROM (
              SELECT d.ts, d."values" -> m.key AS field FROM data_records d
              WHERE d.company_id = ${ctx.caller.companyId} AND d.item_id = m.item_id AND d.parent_id IS NULL
                AND d.ts > ${start}::timestamptz AND d.ts <= ${end}::timestamptz
              OFFSET 0
            ) x
            CROSS JOIN LATERAL (SELECT x.field::numeric AS v WHERE jsonb_typeof(x.field) = 'number') j
          ) r
          WINDOW by_time AS (ORDER BY r.ts)
        ) w
      ) s ON true`),
  );
}

/**
 * The summaries of a chunk of children from their day rollups wholly inside the window
 * (`days`: [first local midnight, last one] of ROLLUP_TIME_ZONE inside it) and the readings
 * outside those days, with `unknown` set for a child whose rollups cannot tell. The steps
 * between consecutive pieces (a day, a reading) are counted here as the readings' are; a day
 * that holds the reading at the window's start counts it too (its step from the reading before
 * is the opening step, checked anyway; one more reading only tightens the float bound).
 */
async function rollupSummaries(
  ctx: EnergyContext,
  chunk: readonly MeterRow[],
  start: string,
  end: string,
  days: [string, string],
): Promise<Array<Summary & { unknown: boolean }>> {
  const { rows, of, value, places, ends, endsJoins } = chunkSql(ctx, chunk, start, end);
  // a reading as a piece of the window: its own first and last
  const reading = sql`d.ts AS t0, ${value} AS v0, d.ts AS t1, ${value} AS v1, 1 AS n, 0 AS falls,
    ${places} AS places, 0 AS subs, ${value} AS lo, ${value} AS hi`;
  const [firstDay, lastDay] = days;
  return rowsOf<Summary & { unknown: boolean }>(
    await ctx.db.execute(sql`
      WITH m AS (SELECT * FROM ${rows}),
      piece AS (
        SELECT m.meter_id, r.first_ts AS t0, r.first_value AS v0, r.last_ts AS t1, r.last_value AS v1,
               r.count AS n, r.falls, r.places, r.subs, r.min AS lo, r.max AS hi
        FROM m JOIN data_rollups r ON r.item_id = m.item_id AND r.field_key = m.key AND r.grain = 'd'
          AND r.bucket >= ${firstDay}::timestamptz AND r.bucket < ${lastDay}::timestamptz
        UNION ALL
        SELECT m.meter_id, x.* FROM m CROSS JOIN LATERAL (
          SELECT ${reading} FROM data_records d
          WHERE ${of} AND d.ts > ${start}::timestamptz AND d.ts < ${firstDay}::timestamptz
        ) x
        UNION ALL
        SELECT m.meter_id, x.* FROM m CROSS JOIN LATERAL (
          SELECT ${reading} FROM data_records d
          WHERE ${of} AND d.ts >= ${lastDay}::timestamptz AND d.ts <= ${end}::timestamptz
        ) x
      ),
      stepped AS (
        SELECT p.*, lag(p.v1) OVER by_time AS prev, lag(p.t1) OVER by_time AS prev_t
        FROM piece p WINDOW by_time AS (PARTITION BY p.meter_id ORDER BY p.t0, p.t1)
      ),
      s AS (
        SELECT meter_id, sum(n) AS n,
               bool_or(falls IS NULL OR places IS NULL OR subs IS NULL OR subs > 0) AS unknown,
               sum(falls) + count(*) FILTER (WHERE t0 = prev_t OR v0 < prev) AS decreases,
               max(places) AS places, greatest(max(abs(lo)), max(abs(hi))) AS big,
               min(lo) AS lo, max(hi) AS hi
        FROM stepped GROUP BY meter_id
      )
      SELECT m.meter_id, ${ends},
             coalesce(s.n, 0) AS n, coalesce(s.decreases, 0) AS decreases, s.places, s.big, s.lo, s.hi,
             coalesce(s.unknown, false) AS unknown
      FROM m
      LEFT JOIN s ON s.meter_id = m.meter_id
      ${endsJoins}`),
  );
}

/**
 * The first and last local midnight of ROLLUP_TIME_ZONE inside [start, end], as instants, when
 * at least one whole day lies between them.
 */
function wholeDays(start: number, end: number): [string, string] | null {
  let first = startOfDay(start, ROLLUP_TIME_ZONE);
  if (first < start) first = addDays(first, 1, ROLLUP_TIME_ZONE);
  const last = startOfDay(end, ROLLUP_TIME_ZONE);
  return last > first ? [new Date(first).toISOString(), new Date(last).toISOString()] : null;
}

/** A child's energy as closing − opening, or null when it needs the step-by-step count. */
function simpleEnergy(meter: MeterRow, r: Summary): number | null {
  const opening = num(r.opening);
  const first = num(r.first);
  const closing = num(r.closing);
  const base = opening ?? first;
  const n = Number(r.n);
  if (closing === null || base === null || r.replaced || Number(r.decreases) > 0) return null;
  // a step from the reading before the month to the first inside it that goes down
  if (opening !== null && first !== null && first < opening) return null;
  // more decimals than a step keeps, or magnitudes where floats lose them
  if (Number(r.places ?? 0) > READING_DECIMALS || Number(r.opening_places ?? 0) > READING_DECIMALS)
    return null;
  if (Math.abs(base) >= BIG || Math.abs(closing) >= BIG || (num(r.big) ?? 0) >= BIG) return null;
  const capacity = meter.registerDigits == null ? undefined : registerCapacity(meter.registerDigits);
  if (
    capacity !== undefined &&
    [opening, num(r.lo), num(r.hi)].some((v) => v !== null && (v < 0 || v >= capacity))
  )
    return null;
  const steps = n + (opening === null ? 0 : 1) - 1;
  if (steps * Number.EPSILON * Math.max(1, Math.abs(closing - base)) >= 2.5e-7) return null;
  const counted = energyBetween(0, roundTo(closing - base, READING_DECIMALS), ratiosOf(meter));
  return roundTo(counted.ok ? counted.kWh : 0, KWH_DECIMALS);
}

/** The energy of each child over the one period [bounds[0], bounds[1]], by meter row id. */
export async function childEnergies(
  ctx: EnergyContext,
  children: readonly MeterRow[],
  bounds: number[],
  labels: string[],
): Promise<Map<number, number | null>> {
  const out = new Map<number, number | null>();
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
  const start = new Date(bounds[0]!).toISOString();
  const end = new Date(bounds[1]!).toISOString();
  const chunked = (list: readonly MeterRow[]) => {
    const chunks: MeterRow[][] = [];
    for (let i = 0; i < list.length; i += CHUNK) chunks.push(list.slice(i, i + CHUNK));
    return chunks;
  };
  const byId = new Map(simple.map((m) => [m.id, m]));
  const take = (answers: Summary[]) => {
    for (const r of answers) {
      const meter = byId.get(Number(r.meter_id));
      if (!meter) continue;
      const kWh = simpleEnergy(meter, r);
      if (kWh !== null) out.set(meter.id, kWh);
    }
  };
  // from the day rollups; the children they cannot tell from their readings
  const days = wholeDays(bounds[0]!, bounds[1]!);
  let asked: readonly MeterRow[] = simple;
  if (days) {
    const answers = (
      await Promise.all(chunked(simple).map((chunk) => rollupSummaries(ctx, chunk, start, end, days)))
    ).flat();
    take(answers.filter((r) => !r.unknown));
    const unknown = new Set(answers.filter((r) => r.unknown).map((r) => Number(r.meter_id)));
    asked = simple.filter((m) => unknown.has(m.id));
  }
  take((await Promise.all(chunked(asked).map((chunk) => summaries(ctx, chunk, start, end)))).flat());
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
