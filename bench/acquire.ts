/**
 * Acquisition methods over a month of 1-minute data for one numeric field (43,200 rows):
 * p50 and p95 of each method through the SQL path (apps/server/src/modules/analysis/acquire.ts)
 * on PostgreSQL and on PGlite, and of the domain's in-memory reference (packages/domain) over
 * the same series already in memory.
 */
import { ACQUISITION_METHODS, type AcquisitionMethod, acquire, RANGE_METHODS } from '@platform/domain';
import { sql } from 'drizzle-orm';
import { acquireSql } from '../apps/server/src/modules/analysis/acquire';
import { insertRecords } from '../apps/server/src/modules/ingest/store';
import type { Database } from '../apps/server/src/platform/db';
import { makeFixture } from './lib/fixture';

export const MONTH_ROWS = 43_200;
const MINUTE = 60_000;

export interface MethodTiming {
  method: AcquisitionMethod;
  p50: number;
  p95: number;
  value: number | null;
}

export interface AcquireFigures {
  engine: string;
  rows: number;
  loadSeconds: number;
  iterations: number;
  methods: MethodTiming[];
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function time<T>(
  iterations: number,
  run: () => Promise<T> | T,
): Promise<{ p50: number; p95: number; value: T }> {
  let value = await run();
  for (let i = 0; i < Math.min(10, iterations); i++) value = await run(); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    value = await run();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), value };
}

/** now: the instant the month of data ends at (the last row is one minute before it). */
export function monthSeries(now: number): Array<{ ts: number; value: number }> {
  const start = now - MONTH_ROWS * MINUTE;
  return Array.from({ length: MONTH_ROWS }, (_, i) => ({
    ts: start + i * MINUTE,
    value: Math.round((20 + 5 * Math.sin(i / 720) + (i % 13) / 10) * 100) / 100,
  }));
}

const RANGE = 'thisMonth' as const;

export async function acquireBench(
  database: Database,
  engine: string,
  now: number,
  iterations: number,
): Promise<AcquireFigures> {
  const fx = await makeFixture(database, 1);
  const itemId = fx.itemIds[0]!;
  const series = monthSeries(now);
  const t0 = performance.now();
  await insertRecords(
    database.db,
    series.map((p) => ({
      companyId: fx.companyId,
      itemId,
      ts: new Date(p.ts),
      values: { f1: p.value, f2: 1, f3: 1 },
      source: 'import',
      createdBy: fx.userId,
    })),
  );
  const loadSeconds = (performance.now() - t0) / 1000;
  await database.db.execute(sql`ANALYZE data_records`);
  const methods: MethodTiming[] = [];
  for (const method of ACQUISITION_METHODS) {
    const range = RANGE_METHODS.includes(method) ? RANGE : undefined;
    const t = await time(iterations, () =>
      acquireSql(database.db, {
        itemId,
        field: 'f1',
        method,
        now: new Date(now),
        ...(range ? { range } : {}),
      }),
    );
    methods.push({ method, p50: t.p50, p95: t.p95, value: t.value });
  }
  return { engine, rows: series.length, loadSeconds, iterations, methods };
}

/** The domain's acquire() over the same series in memory: the floor any storage path can reach. */
export async function acquireInMemory(now: number, iterations: number): Promise<AcquireFigures> {
  const series = monthSeries(now);
  const methods: MethodTiming[] = [];
  for (const method of ACQUISITION_METHODS) {
    const range = RANGE_METHODS.includes(method) ? RANGE : undefined;
    const t = await time(iterations, () => acquire(method, series, { now, ...(range ? { range } : {}) }));
    methods.push({ method, p50: t.p50, p95: t.p95, value: t.value });
  }
  return { engine: 'in memory (domain acquire)', rows: series.length, loadSeconds: 0, iterations, methods };
}
