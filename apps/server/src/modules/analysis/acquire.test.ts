import { ACQUISITION_METHODS, acquire, RANGE_METHODS } from '@platform/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
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
});
