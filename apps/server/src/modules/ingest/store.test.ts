import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { dataRecords } from '../records/tables';
import { insertRecords, recomputeRollups } from './store';

let t: TestApp;
let a: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Store Co');
});

afterAll(async () => {
  await t.close();
});

interface RollupRow {
  field_key: string;
  grain: string;
  bucket: string;
  count: number;
  sum: number;
  min: number;
  max: number;
  first_ts: string;
  first_value: number;
  last_ts: string;
  last_value: number;
}

function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

async function rollupsOf(itemId: number): Promise<RollupRow[]> {
  const result = await t.db.execute(sql`
    SELECT field_key, grain, to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS bucket,
           count, sum, min, max, first_ts, first_value, last_ts, last_value
    FROM data_rollups WHERE item_id = ${itemId} ORDER BY grain, field_key, bucket`);
  return rows<RollupRow>(result).map((r) => ({
    ...r,
    count: Number(r.count),
    sum: Number(r.sum),
    min: Number(r.min),
    max: Number(r.max),
    first_value: Number(r.first_value),
    last_value: Number(r.last_value),
    first_ts: new Date(r.first_ts).toISOString(),
    last_ts: new Date(r.last_ts).toISOString(),
  }));
}

/** The same rollups computed in JavaScript from the raw rows. */
async function bruteForce(itemId: number): Promise<RollupRow[]> {
  const raw = await t.db.select().from(dataRecords).where(sql`${dataRecords.itemId} = ${itemId}`);
  const groups = new Map<
    string,
    { key: string; grain: string; bucket: string; pts: Array<[number, number, number]> }
  >();
  for (const r of raw) {
    for (const [key, v] of Object.entries(r.values)) {
      if (typeof v !== 'number') continue;
      const hour = new Date(r.ts);
      hour.setUTCMinutes(0, 0, 0);
      // Asia/Shanghai: UTC+8 without daylight saving
      const local = new Date(r.ts.getTime() + 8 * 3600_000);
      local.setUTCHours(0, 0, 0, 0);
      const day = new Date(local.getTime() - 8 * 3600_000);
      for (const [grain, bucket] of [
        ['h', hour],
        ['d', day],
      ] as const) {
        const id = `${grain}|${key}|${bucket.toISOString().slice(0, 16)}`;
        const g = groups.get(id) ?? { key, grain, bucket: bucket.toISOString().slice(0, 16), pts: [] };
        g.pts.push([r.ts.getTime(), r.id, v]);
        groups.set(id, g);
      }
    }
  }
  return [...groups.values()]
    .map((g) => {
      const sorted = [...g.pts].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
      const vs = sorted.map((p) => p[2]);
      return {
        field_key: g.key,
        grain: g.grain,
        bucket: g.bucket,
        count: vs.length,
        sum: vs.reduce((s, v) => s + v, 0),
        min: Math.min(...vs),
        max: Math.max(...vs),
        first_ts: new Date(sorted[0]![0]).toISOString(),
        first_value: sorted[0]![2],
        last_ts: new Date(sorted.at(-1)![0]).toISOString(),
        last_value: sorted.at(-1)![2],
      };
    })
    .sort(
      (x, y) =>
        x.grain.localeCompare(y.grain) ||
        x.field_key.localeCompare(y.field_key) ||
        x.bucket.localeCompare(y.bucket),
    );
}

function close(actual: RollupRow[], expected: RollupRow[]) {
  expect(actual.map((r) => ({ ...r, sum: Math.round(r.sum * 1e6) }))).toEqual(
    expected.map((r) => ({ ...r, sum: Math.round(r.sum * 1e6) })),
  );
}

describe('insertRecords', () => {
  it('inserts in order and merges hour and local-day rollups across calls', async () => {
    const itemId = 900_001;
    const base = Date.parse('2026-11-22T15:30:00Z'); // 23:30 in Shanghai: the next record crosses midnight
    const make = (i: number) => ({
      companyId: a.id,
      itemId,
      ts: new Date(base + i * 7 * 60_000),
      values: { f1: i, f2: i % 3 === 0 ? 'text' : i * 0.5, f3: null },
      source: 'manual',
    });
    const first = await insertRecords(t.db, [0, 1, 2, 3].map(make));
    expect(first).toHaveLength(4);
    expect([...first].sort((x, y) => x - y)).toEqual(first);
    const stored = await t.db.select().from(dataRecords).where(sql`${dataRecords.id} = ${first[2]}`);
    expect(stored[0]!.values).toEqual(make(2).values);
    // later calls land in the same buckets, earlier and later in time
    await insertRecords(t.db, [10, 11, 5, 6, 7].map(make));
    await t.db.transaction(async (tx) => insertRecords(tx as never, [-3, 20, 4].map(make)));
    const actual = await rollupsOf(itemId);
    expect(actual.length).toBeGreaterThan(4);
    close(actual, await bruteForce(itemId));
    const days = actual.filter((r) => r.grain === 'd' && r.field_key === 'f1');
    expect(days.map((r) => r.bucket)).toEqual(['2026-11-21T16:00', '2026-11-22T16:00']);
  });

  it('recomputes touched buckets and drops empty ones', async () => {
    const itemId = 900_002;
    const ts = [
      '2026-11-23T01:05:00Z',
      '2026-11-23T01:40:00Z',
      '2026-11-23T02:10:00Z',
      '2026-11-24T03:00:00Z',
    ].map((s) => new Date(s));
    const ids = await insertRecords(
      t.db,
      ts.map((d, i) => ({ companyId: a.id, itemId, ts: d, values: { f1: (i + 1) * 10 }, source: 'manual' })),
    );
    // edit one, delete two (one of them alone in its hour and day)
    await t.db.execute(sql`UPDATE data_records SET "values" = '{"f1": 99}' WHERE id = ${ids[0]}`);
    await t.db.execute(sql`DELETE FROM data_records WHERE id IN (${ids[2]}, ${ids[3]})`);
    await recomputeRollups(t.db, itemId, [ts[0]!, ts[2]!, ts[3]!]);
    const actual = await rollupsOf(itemId);
    close(actual, await bruteForce(itemId));
    expect(actual.filter((r) => r.grain === 'h').map((r) => r.bucket)).toEqual(['2026-11-23T01:00']);
    expect(actual.find((r) => r.grain === 'd')).toMatchObject({ count: 2, sum: 119, first_value: 99 });
  });

  it('folds new rows into the buckets SQL recomputes from raw rows, in any zone', async () => {
    // around daylight-saving changes and in half-hour and 45-minute zones
    const cases = [
      ['America/New_York', '2026-03-08T07:00:00Z'],
      ['America/New_York', '2026-11-01T06:00:00Z'],
      ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
      ['Asia/Kolkata', '2026-11-22T18:30:00Z'],
      ['Asia/Kathmandu', '2026-11-22T18:15:00Z'],
      ['Asia/Shanghai', '2026-11-22T16:00:00Z'],
    ] as const;
    let itemId = 900_100;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...cases),
        fc.array(
          fc.record({
            offsetMin: fc.integer({ min: -36 * 60, max: 36 * 60 }),
            a: fc.integer({ min: -1000, max: 1000 }),
            b: fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constant('text')),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        fc.integer({ min: 1, max: 3 }),
        async ([zone, around], points, calls) => {
          itemId += 1;
          const base = Date.parse(around);
          const records = points.map((p) => ({
            companyId: a.id,
            itemId,
            ts: new Date(base + p.offsetMin * 60_000),
            values: { a: p.a, b: p.b },
            source: 'manual',
          }));
          const size = Math.ceil(records.length / calls);
          for (let start = 0; start < records.length; start += size) {
            await insertRecords(t.db, records.slice(start, start + size), zone);
          }
          const folded = await rollupsOf(itemId);
          await recomputeRollups(
            t.db,
            itemId,
            records.map((r) => r.ts),
            zone,
          );
          const recomputed = await rollupsOf(itemId);
          expect(folded.length).toBe(recomputed.length);
          close(folded, recomputed);
        },
      ),
      { numRuns: 30 },
    );
  });
});
