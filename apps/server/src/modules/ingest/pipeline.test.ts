import { ERROR_CODES, type FieldDef } from '@platform/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/envelope';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { dataItems } from '../dataitems/tables';
import { dataRecords } from '../records/tables';
import { invalidateItem } from './pipeline';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Pipe A');
  b = await makeCompany(t, 'Pipe B');
});

afterAll(async () => {
  await t.close();
});

async function countOf(itemId: number): Promise<number> {
  return (await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId))).length;
}

async function caught(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected the write to be refused');
}

function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** data_rollups of an item next to the same numbers computed from raw rows; must be equal */
async function rollupDiff(itemId: number): Promise<{ stored: unknown[]; raw: unknown[] }> {
  const stored = await t.db.execute(sql`
    SELECT field_key, grain, bucket, count::int AS n, round(sum::numeric, 6)::text AS s,
           min::text AS lo, max::text AS hi, first_value::text AS fv, last_value::text AS lv
    FROM data_rollups WHERE item_id = ${itemId} ORDER BY 1, 2, 3`);
  const raw = await t.db.execute(sql`
    WITH nums AS (
      SELECT d.id, d.ts, e.key AS field_key, (e.value)::float8 AS v
      FROM data_records d, jsonb_each(d."values") e
      WHERE d.item_id = ${itemId} AND jsonb_typeof(e.value) = 'number'),
    b AS (
      SELECT id, ts, field_key, v, 'h' AS grain, date_trunc('hour', ts, 'UTC') AS bucket FROM nums
      UNION ALL
      SELECT id, ts, field_key, v, 'd', date_trunc('day', ts, 'Asia/Shanghai') FROM nums)
    SELECT field_key, grain, bucket, count(*)::int AS n, round(sum(v)::numeric, 6)::text AS s,
           min(v)::text AS lo, max(v)::text AS hi,
           ((array_agg(v ORDER BY ts, id))[1])::text AS fv,
           ((array_agg(v ORDER BY ts DESC, id DESC))[1])::text AS lv
    FROM b GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`);
  return { stored: rows(stored), raw: rows(raw) };
}

describe('validation', () => {
  it('refuses the whole call on one bad record, naming index, item and field', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const error = await caught(
      t.app.ingest.write({
        companyId: a.id,
        userId: a.admin.id,
        source: 'http',
        records: [
          { itemId, values: { 温度: 21.5, f2: 3 } },
          { itemId, values: { 温度: 22, count: 'many' } },
        ],
      }),
    );
    expect(error.code).toBe(ERROR_CODES.VALIDATION);
    expect(error.data).toMatchObject({ index: 1, itemId, field: 'f2' });
    expect((error.data as { message: string }).message).toContain('count');
    expect(await countOf(itemId)).toBe(0);
  });

  it('refuses unknown fields, bad times and missing parents', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const write = (record: Record<string, unknown>) =>
      caught(
        t.app.ingest.write({
          companyId: a.id,
          userId: null,
          source: 'http',
          records: [{ itemId, values: {}, ...record }],
        }),
      );
    expect((await write({ values: { nope: 1 } })).data).toMatchObject({ index: 0, field: 'nope' });
    expect((await write({ ts: 'yesterday' })).data).toMatchObject({ field: 'ts' });
    expect((await write({ parentId: 987654 })).data).toMatchObject({ field: 'parentId' });
    expect(await countOf(itemId)).toBe(0);
  });

  it("answers another company's item as absent and writes nothing", async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const { itemId: own } = await makeItem(t, b.id, { fields: SAMPLE_FIELDS });
    const error = await caught(
      t.app.ingest.write({
        companyId: b.id,
        userId: b.admin.id,
        source: 'http',
        records: [
          { itemId: own, values: { f1: 1 } },
          { itemId, values: { f1: 1 } },
        ],
      }),
    );
    expect(error.code).toBe(ERROR_CODES.NOT_FOUND);
    expect(error.data).toMatchObject({ index: 1, itemId, field: 'itemId' });
    expect(await countOf(itemId)).toBe(0);
    expect(await countOf(own)).toBe(0);
  });

  it('sees field changes after invalidateItem', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await t.app.ingest.write({
      companyId: a.id,
      userId: null,
      source: 'http',
      records: [{ itemId, values: {} }],
    });
    const fields: FieldDef[] = [...SAMPLE_FIELDS, { key: 'f4', name: 'extra', type: 10 }];
    await t.db.update(dataItems).set({ fields }).where(eq(dataItems.id, itemId));
    invalidateItem(itemId);
    const { ids } = await t.app.ingest.write({
      companyId: a.id,
      userId: null,
      source: 'http',
      records: [{ itemId, values: { extra: '7' } }],
    });
    const [row] = await t.db.select().from(dataRecords).where(eq(dataRecords.id, ids[0]!));
    expect(row!.values).toEqual({ f4: 7 });
  });
});

describe('group commit', () => {
  it('writes 100 concurrent calls in fewer transactions, every id answered, rollups exact', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const before = t.app.ingest.stats.flushes;
    const base = Date.parse('2026-11-22T14:00:00Z');
    const calls = Array.from({ length: 100 }, (_, i) =>
      t.app.ingest.write({
        companyId: a.id,
        userId: a.admin.id,
        source: 'mqtt',
        records: Array.from({ length: (i % 3) + 1 }, (_, j) => ({
          itemId,
          ts: new Date(base + (i * 3 + j) * 97_000),
          values: { f1: (i * 7 + j) / 4, f2: i - j, f3: `n${i}` },
        })),
      }),
    );
    const results = await Promise.all(calls);
    const flushes = t.app.ingest.stats.flushes - before;
    const ids = results.flatMap((r) => r.ids);
    expect(ids).toHaveLength(results.reduce((n, _, i) => n + (i % 3) + 1, 0));
    expect(new Set(ids).size).toBe(ids.length);
    expect(flushes).toBeGreaterThan(0);
    expect(flushes).toBeLessThan(100);
    // each caller's ids are its own records, in order
    const [check] = await t.db.select().from(dataRecords).where(eq(dataRecords.id, results[41]!.ids[2]!));
    expect(check!.values).toEqual({ f1: (41 * 7 + 2) / 4, f2: 39, f3: 'n41' });
    expect(await countOf(itemId)).toBe(ids.length);
    const { stored, raw } = await rollupDiff(itemId);
    expect(stored.length).toBeGreaterThan(10);
    expect(stored).toEqual(raw);
  });

  it('one poisoned call fails alone; the others of its batch are written', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const calls = Array.from({ length: 20 }, (_, i) =>
      t.app.ingest
        .write({
          companyId: a.id,
          // an unknown user breaks the created_by foreign key at insert time, after validation
          userId: i === 7 ? 2_000_000_000 : a.admin.id,
          source: 'http',
          records: [{ itemId, values: { f2: i } }],
        })
        .then(
          () => 'ok',
          () => 'failed',
        ),
    );
    const outcome = await Promise.all(calls);
    expect(outcome.filter((o) => o === 'failed')).toHaveLength(1);
    expect(outcome[7]).toBe('failed');
    const written = await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId));
    expect(written.map((r) => r.values.f2).sort((x, y) => Number(x) - Number(y))).toEqual(
      Array.from({ length: 20 }, (_, i) => i).filter((i) => i !== 7),
    );
    const { stored, raw } = await rollupDiff(itemId);
    expect(stored).toEqual(raw);
  });

  it('answers a lone caller at once', async () => {
    const { itemId } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const started = Date.now();
    const { ids } = await t.app.ingest.write({
      companyId: a.id,
      userId: null,
      source: 'http',
      records: [{ itemId, values: { f1: 1 } }],
    });
    expect(ids).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
