/**
 * Charts of data items: CRUD under the item's data permissions, bad input refused with the field
 * named and nothing written, and the data route: never more points than the width, records for
 * short windows and the hourly rollups for long ones, spikes kept, empty windows empty.
 */
import { ERROR_CODES } from '@platform/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, SAMPLE_FIELDS, setPermissions } from '../cabin/test-support';
import { dataRecords } from '../records/tables';
import { makeRecords } from '../records/test-support';
import { LINE_CONFIG, makeChart } from './route-cases';
import { charts } from './tables';

let t: TestApp;
let a: TestCompany;
let itemId: number;
let nodeId: number;

const H = 3_600_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const period = (from: number, to: number) => ({ range: 'period', from: iso(from), to: iso(to) });
const line = (from: number, to: number, extra: object = {}) => ({
  type: 'line',
  series: [{ field: 'f1', method: 'raw', ...period(from, to) }],
  ...extra,
});

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '10000' });
  a = await makeCompany(t, 'Acme');
  ({ itemId, nodeId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS, name: 'meter' }));
  // six hours of 1-minute data on 1 Jan: a sine wave with one spike of 500 at 02:17
  await makeRecords(
    t,
    a.id,
    itemId,
    Array.from({ length: 360 }, (_, i) => ({
      ts: iso(T0 + i * 60_000),
      values: { f1: i === 137 ? 500 : Math.round(Math.sin(i / 20) * 1000) / 100, f2: i },
    })),
  );
});
afterAll(() => t.close());

function call(method: 'GET' | 'POST', path: string, token: string, payload?: Record<string, unknown>) {
  const headers = { ...bearer(token), 'accept-language': 'en' };
  if (method === 'GET') {
    const qs = new URLSearchParams(
      Object.entries(payload ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
    );
    return t.app.inject({ method, url: `/general/smartdata/chart/${path}?${qs}`, headers });
  }
  return t.app.inject({ method, url: `/general/smartdata/chart/${path}`, payload, headers });
}

async function chartCount(): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(charts).where(eq(charts.itemId, itemId));
  return Number(row!.n);
}

describe('chart CRUD', () => {
  it('creates, lists, opens, changes and deletes a chart', async () => {
    const created = await call('POST', 'save', a.admin.token, {
      itemId,
      name: '电压曲线',
      config: line(T0, T0 + 6 * H),
    });
    expect(created.json()).toMatchObject({ code: 0, message: 'Operation successful' });
    const id = created.json().data.id as number;

    const list = (await call('GET', 'list', a.admin.token, { itemId })).json().data;
    expect(list.canEdit).toBe(true);
    expect(list.list).toContainEqual(expect.objectContaining({ id, name: '电压曲线', type: 'line' }));

    const got = (await call('GET', 'get', a.admin.token, { itemId, id })).json().data;
    expect(got.chart.config).toMatchObject({
      type: 'line',
      downsample: 'lttb',
      series: [{ field: 'f1', method: 'raw' }],
    });
    // only number fields are offered for series
    expect(got.item.fields.map((f: { key: string }) => f.key)).toEqual(['f1', 'f2']);

    const changed = await call('POST', 'save', a.admin.token, {
      itemId,
      id,
      name: 'bars',
      config: { type: 'bar', series: [{ field: 'f2', method: 'rangeMax', ...period(T0, T0 + 6 * H) }] },
    });
    expect(changed.json().code).toBe(0);
    const [row] = await t.db.select().from(charts).where(eq(charts.id, id));
    expect(row).toMatchObject({ name: 'bars', type: 'bar' });

    const deleted = await call('POST', 'delete', a.admin.token, { itemId, id });
    expect(deleted.json()).toMatchObject({ code: 0, message: 'Delete successfully' });
    expect(await t.db.select().from(charts).where(eq(charts.id, id))).toEqual([]);
    expect((await call('POST', 'delete', a.admin.token, { itemId, id })).json()).toMatchObject({
      code: ERROR_CODES.NOT_FOUND,
      data: { field: 'id' },
    });
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const before = await chartCount();
    const cases: Array<[object, string, string]> = [
      [{ name: '  ', config: line(T0, T0 + H) }, 'name', 'Please enter a name'],
      [
        { name: 'x'.repeat(26), config: line(T0, T0 + H) },
        'name',
        'The length of the name cannot exceed 25 characters',
      ],
      [
        { name: 'n', config: { type: 'line', series: [{ field: 'f3', method: 'raw', range: 'today' }] } },
        'config.series[0].field',
        'The field note is not a number field and cannot be charted',
      ],
      [
        { name: 'n', config: { type: 'pie', series: [{ field: 'f1', method: 'raw', range: 'today' }] } },
        'config.series[0].method',
        '',
      ],
      [
        { name: 'n', config: line(T0 + H, T0) },
        'config.series[0].to',
        'The start time must be before the end time',
      ],
      [
        { name: 'n', config: { type: 'gauge', series: [{ field: 'f1', method: 'latest' }], min: 5, max: 1 } },
        'config.max',
        '',
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await call('POST', 'save', a.admin.token, { itemId, ...body });
      expect(res.json(), JSON.stringify(body)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field },
      });
      if (message) expect(res.json().message).toBe(message);
    }
    // a chart id of another item is not this item's chart
    const other = (await makeItem(t, a.id, { fields: SAMPLE_FIELDS })).itemId;
    const foreign = await makeChart(t, a.id, other, 'other item');
    const res = await call('POST', 'save', a.admin.token, {
      itemId,
      id: foreign,
      name: 'moved',
      config: LINE_CONFIG,
    });
    expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
    expect((await t.db.select().from(charts).where(eq(charts.id, foreign)))[0]!.name).toBe('other item');
    expect(await chartCount()).toBe(before);
  });

  it('lets a read-only user view, draw and export but never change; hides the item from a user without permission', async () => {
    const id = await makeChart(t, a.id, itemId, 'shared');
    await setPermissions(t, nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);
    try {
      const list = (await call('GET', 'list', a.limited.token, { itemId })).json().data;
      expect(list.canEdit).toBe(false);
      expect((await call('GET', 'get', a.limited.token, { itemId, id })).json().data.canEdit).toBe(false);
      expect((await call('GET', 'data', a.limited.token, { itemId, id, width: 100 })).json().code).toBe(0);
      const csv = await call('GET', 'export', a.limited.token, { itemId, id, format: 'csv' });
      expect(csv.statusCode).toBe(200);

      const before = await chartCount();
      const save = await call('POST', 'save', a.limited.token, {
        itemId,
        id,
        name: 'mine',
        config: LINE_CONFIG,
      });
      expect(save.json().code).toBe(ERROR_CODES.FORBIDDEN);
      const create = await call('POST', 'save', a.limited.token, {
        itemId,
        name: 'new',
        config: LINE_CONFIG,
      });
      expect(create.json().code).toBe(ERROR_CODES.FORBIDDEN);
      const del = await call('POST', 'delete', a.limited.token, { itemId, id });
      expect(del.json().code).toBe(ERROR_CODES.FORBIDDEN);
      expect(await chartCount()).toBe(before);
      expect((await t.db.select().from(charts).where(eq(charts.id, id)))[0]!.name).toBe('shared');

      await setPermissions(t, nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);
      for (const [method, path, body] of [
        ['GET', 'list', { itemId }],
        ['GET', 'data', { itemId, id, width: 100 }],
        ['POST', 'preview', { itemId, width: 100, config: LINE_CONFIG }],
      ] as const) {
        const res = await call(method, path, a.limited.token, body);
        expect(res.json(), path).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
      }
    } finally {
      await setPermissions(t, nodeId, []);
      await t.db.delete(charts).where(eq(charts.id, id));
    }
  });
});

describe('chart data', () => {
  const preview = (config: object, width: number) =>
    call('POST', 'preview', a.admin.token, { itemId, width, config });

  it('never answers more points than the width, keeps the spike, the first and the last point', async () => {
    for (const downsample of ['lttb', 'minmax']) {
      for (const width of [16, 40, 97, 300, 1000]) {
        const res = await preview(line(T0, T0 + 6 * H, { downsample }), width);
        const [s] = res.json().data.series;
        expect(s.points.length, `${downsample} ${width}`).toBeLessThanOrEqual(width);
        expect(s.source).toBe('records');
        const ys = s.points.map((p: number[]) => p[1]);
        expect(Math.max(...ys), `${downsample} ${width}`).toBe(500);
        expect(s.points[0]).toEqual([T0, 0]);
        // the last record's bucket is kept (the last record is at 05:59)
        expect(s.points[s.points.length - 1]![0]).toBeGreaterThan(T0 + 359 * 60_000 - s.bucketS * 1000);
      }
    }
    // wide enough: every record as stored (one record per bucket)
    const [all] = (await preview(line(T0, T0 + 6 * H), 1000)).json().data.series;
    expect(all.points).toHaveLength(360);
    expect(all.points[137]).toEqual([T0 + 137 * 60_000, 500]);
  });

  it('refuses a width outside 16…4096 naming it', async () => {
    for (const width of [0, 15, 4097]) {
      const res = await preview(line(T0, T0 + H), width);
      expect(res.json()).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'width' } });
    }
  });

  it('reads the hourly rollups for a long range, and the records for a short one', async () => {
    const { itemId: longItem } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const start = Date.parse('2026-02-01T00:00:00Z');
    // 10 days, one record every 10 minutes
    await makeRecords(
      t,
      a.id,
      longItem,
      Array.from({ length: 1440 }, (_, i) => ({ ts: iso(start + i * 600_000), values: { f1: i % 144 } })),
    );
    // with the records gone, only the rollups can still answer
    await t.db.delete(dataRecords).where(eq(dataRecords.itemId, longItem));
    const ask = (from: number, to: number, width: number) =>
      call('POST', 'preview', a.admin.token, { itemId: longItem, width, config: line(from, to) });

    const long = (await ask(start, start + 10 * 24 * H, 200)).json().data.series[0];
    expect(long.source).toBe('rollups');
    expect(long.bucketS).toBeGreaterThanOrEqual(3600);
    expect(long.points.length).toBeGreaterThan(0);
    expect(long.points.length).toBeLessThanOrEqual(200);
    // each day's rise to 143 survives in the hourly maxima
    expect(Math.max(...long.points.map((p: number[]) => p[1]))).toBe(143);

    const short = (await ask(start, start + 6 * H, 200)).json().data.series[0];
    expect(short.source).toBe('records');
    expect(short.points).toEqual([]);
  });

  it('answers an empty range with no points and an empty value with null', async () => {
    const empty = period(T0 - 48 * H, T0 - 24 * H);
    const [s] = (await preview(line(T0 - 48 * H, T0 - 24 * H), 100)).json().data.series;
    expect(s.points).toEqual([]);
    const bar = await preview({ type: 'bar', series: [{ field: 'f1', method: 'rangeAvg', ...empty }] }, 100);
    expect(bar.json().data.series[0]).toMatchObject({ value: null, points: [] });
  });

  it('computes value series with the acquisition methods, and a card with its trend', async () => {
    const res = await preview(
      {
        type: 'pie',
        series: [
          { field: 'f2', method: 'rangeMax', ...period(T0, T0 + 6 * H) },
          { field: 'f2', method: 'rangeSum', ...period(T0, T0 + H) },
          { field: 'f1', method: 'rangeMax', ...period(T0, T0 + 6 * H) },
        ],
      },
      100,
    );
    const values = res.json().data.series.map((s: { value: number }) => s.value);
    // f2 is the minute number: max 359, sum of 0…59 = 1770; f1's spike is its maximum
    expect(values).toEqual([359, 1770, 500]);

    const card = await preview(
      { type: 'card', series: [{ field: 'f2', method: 'rangeAvg', ...period(T0, T0 + H) }] },
      30,
    );
    const [c] = card.json().data.series;
    expect(c.value).toBeCloseTo(29.5, 6);
    expect(c.points.length).toBeGreaterThan(0);
    expect(c.points.length).toBeLessThanOrEqual(30);
  });

  it('draws a stored chart and exports what it draws as CSV and XLSX', async () => {
    const id = await makeChart(t, a.id, itemId, 'export me');
    try {
      const data = await call('GET', 'data', a.admin.token, { itemId, id, width: 50 });
      expect(data.json().data.series[0].points.length).toBeLessThanOrEqual(50);

      const csv = await call('GET', 'export', a.admin.token, { itemId, id, format: 'csv', width: 1000 });
      expect(csv.headers['content-type']).toContain('text/csv');
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n');
      expect(lines[0]).toBe('Time,温度 (℃)');
      // six hours of minutes: 360 rows; 1 Jan 00:00 UTC is 08:00 in Shanghai
      expect(lines).toHaveLength(361);
      expect(lines[1]).toBe('2026-01-01 08:00:00,0');
      expect(lines).toContain('2026-01-01 10:17:00,500');

      const xlsx = await call('GET', 'export', a.admin.token, { itemId, id, format: 'xlsx' });
      expect(xlsx.headers['content-type']).toContain('spreadsheetml');
      expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    } finally {
      await t.db.delete(charts).where(eq(charts.id, id));
    }
  });
});
