import { decimalPlaces } from '@platform/domain';
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
  falls: number | null;
  places: number | null;
  subs: number | null;
}

function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

async function rollupsOf(itemId: number): Promise<RollupRow[]> {
  const result = await t.db.execute(sql`
    SELECT field_key, grain, to_char(bucket AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS bucket,
           count, sum, min, max, first_ts, first_value, last_ts, last_value, falls, places, subs
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
    falls: r.falls == null ? null : Number(r.falls),
    places: r.places == null ? null : Number(r.places),
    subs: r.subs == null ? null : Number(r.subs),
  }));
}

/** The same rollups computed in JavaScript from the raw rows. */
async function bruteForce(itemId: number): Promise<RollupRow[]> {
  const raw = await t.db.select().from(dataRecords).where(sql`${dataRecords.itemId} = ${itemId}`);
  const groups = new Map<
    string,
    { key: string; grain: string; bucket: string; pts: Array<[number, number, number, boolean]> }
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
        g.pts.push([r.ts.getTime(), r.id, v, r.parentId != null]);
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
        falls: sorted.filter((p, j) => j > 0 && (p[0] === sorted[j - 1]![0] || p[2] < sorted[j - 1]![2]))
          .length,
        places: Math.max(...vs.map(decimalPlaces)),
        subs: sorted.filter((p) => p[3]).length,
      };
    })
    .sort(
      (x, y) =>
        x.grain.localeCompare(y.grain) ||
        x.field_key.localeCompare(y.field_key) ||
        x.bucket.localeCompare(y.bucket),
    );
}

/**
 * The rollups equal, sums to 1e-6; `falls` may be unknown (null) where rows were merged out of
 * order, never wrong.
 */
function close(actual: RollupRow[], expected: RollupRow[]) {
  expect(actual.map((r) => ({ ...r, sum: Math.round(r.sum * 1e6) }))).toEqual(
    expected.map((r, j) => ({
      ...r,
      sum: Math.round(r.sum * 1e6),
      falls: actual[j]?.falls === null ? null : r.falls,
    })),
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

  it('counts the steps that go down while rows come in time order, decimals and sub-records', async () => {
    const itemId = 900_003;
    const base = Date.parse('2026-11-23T00:00:00Z');
    const at = (min: number, e: number, parentId: number | null = null) => ({
      companyId: a.id,
      itemId,
      ts: new Date(base + min * 60_000),
      values: { e },
      parentId,
      source: 'manual',
    });
    const day = async () => (await rollupsOf(itemId)).find((r) => r.grain === 'd')!;
    // a register read every 15 minutes, in order, over three calls: nothing goes down
    await insertRecords(t.db, [at(0, 100), at(15, 100.25), at(30, 100.5)]);
    await insertRecords(t.db, [at(45, 100.5), at(60, 101.125)]);
    expect(await day()).toMatchObject({ falls: 0, places: 3, subs: 0 });
    // the next call starts below the last reading; one a sub-record; one more decimal place
    await insertRecords(t.db, [at(75, 101), at(90, 101.0625, 1)]);
    expect(await day()).toMatchObject({ falls: 1, places: 4, subs: 1 });
    // onto the last instant again: a step that shares it counts
    await insertRecords(t.db, [at(90, 200)]);
    expect(await day()).toMatchObject({ falls: 2 });
    // rows before everything the bucket holds (a backfill), ending below its first reading
    await insertRecords(t.db, [at(-30, 99), at(-15, 100.5)]);
    expect(await day()).toMatchObject({ falls: 3, count: 10 });
    // a row in between: not known until the bucket is recomputed from the records
    await insertRecords(t.db, [at(20, 100.3)]);
    expect((await day()).falls).toBeNull();
    await recomputeRollups(t.db, itemId, [new Date(base)]);
    expect(await day()).toMatchObject({ falls: 3, places: 4, subs: 1, count: 11 });
    close(await rollupsOf(itemId), await bruteForce(itemId));
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
          // the places JavaScript counts equal PostgreSQL's scale() of the stored JSON numbers
          close(folded, recomputed);
          expect(recomputed.filter((r) => r.falls === null)).toEqual([]);
          // one call, or calls in time order: every bucket's falls known
          if (calls === 1) expect(folded.filter((r) => r.falls === null)).toEqual([]);
        },
      ),
      { numRuns: 30 },
    );
  });
});
