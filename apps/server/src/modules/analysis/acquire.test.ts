import { ACQUISITION_METHODS, acquire, RANGE_METHODS } from '@platform/domain';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { insertRecords } from '../ingest/store';
import { makeRecords } from '../records/test-support';
import { acquireSql } from './acquire';

let t: TestApp;
let a: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Acquire');
});
afterAll(() => t.close());

const NOW = new Date('2026-03-15T10:30:00Z');

describe('acquireSql', () => {
  it('gives the domain reference for every method, ties going to the later insert', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    // six weeks of points every 7 hours (none in January), a tie at the last instant of
    // yesterday and of last month, a text value (not part of the series) after the last number
    // of yesterday
    const rows: Array<{ ts: string; values: Record<string, unknown> }> = [];
    for (let ts = Date.UTC(2026, 1, 3); ts < NOW.getTime(); ts += 7 * 3_600_000) {
      rows.push({ ts: new Date(ts).toISOString(), values: { f1: (ts / 3_600_000) % 97 } });
    }
    const yesterdayEnd = '2026-03-14T15:59:00Z'; // 23:59 in Asia/Shanghai
    const lastMonthEnd = '2026-02-28T15:59:00Z';
    rows.push(
      { ts: yesterdayEnd, values: { f1: 1.5 } },
      { ts: yesterdayEnd, values: { f1: 2.5 } },
      { ts: '2026-03-14T15:59:30Z', values: { f3: 'no number here' } },
      { ts: lastMonthEnd, values: { f1: 8 } },
      { ts: lastMonthEnd, values: { f1: 9 } },
    );
    await makeRecords(t, a.id, itemId, rows as never);
    // the series the domain sees: numbers only, in time order, ties kept in insert order
    const series = rows
      .map((r, i) => ({ ts: Date.parse(r.ts), value: r.values.f1, i }))
      .filter((p): p is { ts: number; value: number; i: number } => typeof p.value === 'number')
      .sort((x, y) => x.ts - y.ts || x.i - y.i);
    for (const method of ACQUISITION_METHODS) {
      const range = RANGE_METHODS.includes(method) ? ('lastMonth' as const) : undefined;
      const expected = acquire(method, series, { now: NOW.getTime(), ...(range ? { range } : {}) });
      const got = await acquireSql(t.db, {
        itemId,
        field: 'f1',
        method,
        now: NOW,
        ...(range ? { range } : {}),
      });
      if (expected === null) expect(got, method).toBeNull();
      else expect(got, method).toBeCloseTo(expected, 9);
    }
    expect(await acquireSql(t.db, { itemId, field: 'f1', method: 'lastOfYesterday', now: NOW })).toBe(2.5);
    expect(await acquireSql(t.db, { itemId, field: 'f1', method: 'lastOfLastMonth', now: NOW })).toBe(9);
    // a window without any point (January)
    expect(await acquireSql(t.db, { itemId, field: 'f1', method: 'lastOfMonthBefore', now: NOW })).toBeNull();
  });

  it('agrees with the domain in any company zone (rollups kept in one zone), at any moment, partial hours at both edges included', async () => {
    const zones = ['Asia/Kolkata', 'Asia/Kathmandu', 'America/New_York', 'Asia/Shanghai'] as const;
    const base = Date.UTC(2026, 2, 20, 0, 0);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...zones),
        // now: any minute within four days
        fc.integer({ min: 0, max: 4 * 24 * 60 }),
        fc.array(
          fc.record({
            // minutes before now, up to ~70 days; small ones land in the current partial hour
            back: fc.oneof(fc.integer({ min: 0, max: 90 }), fc.integer({ min: 0, max: 70 * 24 * 60 })),
            value: fc.integer({ min: -500, max: 500 }),
            twice: fc.boolean(),
          }),
          { minLength: 0, maxLength: 30 },
        ),
        fc.constantFrom('thisMonth' as const, 'lastMonth' as const, 'today' as const, 'yesterday' as const),
        async (tz, nowMinute, points, range) => {
          const now = base + nowMinute * 60_000;
          const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
          const rows = points.flatMap((p) => {
            const ts = new Date(now - p.back * 60_000 - 1);
            const one = { companyId: a.id, itemId, ts, values: { f1: p.value }, source: 'manual' };
            // a second record at the same instant: the later insert is the last value
            return p.twice ? [one, { ...one, values: { f1: p.value + 1000 } }] : [one];
          });
          // the rollups are bucketed in ROLLUP_TIME_ZONE whatever the company's zone
          if (rows.length > 0) await insertRecords(t.db, rows);
          const series = rows.map((r, i) => ({ ts: r.ts.getTime(), value: r.values.f1, i }));
          series.sort((x, y) => x.ts - y.ts || x.i - y.i);
          for (const method of ACQUISITION_METHODS) {
            const r = RANGE_METHODS.includes(method) ? { range } : {};
            const expected = acquire(method, series, { now, tz, ...r });
            const got = await acquireSql(t.db, { itemId, field: 'f1', method, now: new Date(now), tz, ...r });
            if (expected === null) expect(got, `${method} ${tz}`).toBeNull();
            else expect(got, `${method} ${tz}`).toBeCloseTo(expected, 9);
          }
        },
      ),
      { numRuns: 25 },
    );
    // the only value of the window in the partial hour at its start: yesterday 00:10 in India
    // is 18:40 UTC, inside the half hour before the first whole UTC hour of that day
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await insertRecords(t.db, [
      {
        companyId: a.id,
        itemId,
        ts: new Date('2026-03-13T18:40:00Z'),
        values: { f1: 42 },
        source: 'manual',
      },
    ]);
    const india = { itemId, field: 'f1', now: new Date('2026-03-15T06:00:00Z'), tz: 'Asia/Kolkata' };
    expect(await acquireSql(t.db, { ...india, method: 'lastOfYesterday' })).toBe(42);
    expect(await acquireSql(t.db, { ...india, method: 'latest' })).toBe(42);
  });
});
