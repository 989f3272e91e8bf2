import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisJobs, analysisRuns } from '../modules/analysis/tables';
import { cabinNodes } from '../modules/cabin/tables';
import { companies } from '../modules/companies/tables';
import { dataItems } from '../modules/dataitems/tables';
import { submissionKeys } from '../modules/ingest/tables';
import { dataRecords } from '../modules/records/tables';
import { sha256 } from '../platform/tokens';
import { bearer, buildTestApp, login, type TestApp } from '../test/helper';
import { DEMO_ADMIN_PHONE, DEMO_PASSWORD, seedDemo } from './demo';
import { DEMO_DEVICE_ID, DEMO_HISTORY_DAYS, DEMO_STEAM_CRON, DEMO_STEAM_JOB } from './demo-data';
import { rotateDemoDeviceKey } from './demo-publisher';

let t: TestApp;
let companyId: number;
const started = Date.now();

beforeAll(async () => {
  t = await buildTestApp();
  await seedDemo(t.db);
  const [company] = await t.db.select().from(companies).where(eq(companies.name, '演示公司'));
  companyId = company!.id;
});
afterAll(() => t.close());

async function itemNamed(name: string) {
  const [row] = await t.db
    .select()
    .from(dataItems)
    .where(and(eq(dataItems.companyId, companyId), eq(dataItems.name, name)));
  return row!;
}

async function recordCount(itemId: number): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(dataRecords).where(eq(dataRecords.itemId, itemId));
  return Number(row!.n);
}

describe('demo data', () => {
  it('puts the production and energy directories with their items in the cabin', async () => {
    const token = await login(t.app, DEMO_ADMIN_PHONE, DEMO_PASSWORD);
    const nodes = await t.db.select().from(cabinNodes).where(eq(cabinNodes.companyId, companyId));
    const byName = new Map(nodes.map((n) => [n.name, n]));
    expect(byName.get('生产数据')).toMatchObject({ type: 'directory', parentId: null });
    expect(byName.get('能源')).toMatchObject({ type: 'directory', parentId: null });
    expect(byName.get('产线小时产量')).toMatchObject({
      type: 'dataItem',
      parentId: byName.get('生产数据')!.id,
    });
    expect(byName.get('锅炉蒸汽')).toMatchObject({ type: 'dataItem', parentId: byName.get('能源')!.id });
    expect(byName.get('蒸汽日报')).toMatchObject({ type: 'dataItem', parentId: byName.get('能源')!.id });

    const production = await itemNamed('产线小时产量');
    expect(production.kind).toBe(10);
    expect(production.fields.map((f) => [f.name, f.type, f.unit])).toEqual([
      ['产线', 5, undefined],
      ['产量', 10, '件'],
      ['合格率', 1, '%'],
    ]);
    expect(byName.get('产线小时产量')!.refId).toBe(production.id);
    const steam = await itemNamed('锅炉蒸汽');
    expect(steam.kind).toBe(13);
    expect(steam.fields.map((f) => [f.name, f.type, f.unit])).toEqual([
      ['温度', 1, '℃'],
      ['压力', 1, 'MPa'],
      ['流量', 1, 't/h'],
    ]);
    expect(steam.sources).toEqual([expect.objectContaining({ deviceId: DEMO_DEVICE_ID })]);

    // three weeks of hourly records for two lines, whole numbers of pieces, ending by now
    expect(await recordCount(production.id)).toBe(DEMO_HISTORY_DAYS * 24 * 2);
    const span = await t.db.execute(sql`
      SELECT min(ts) AS lo, max(ts) AS hi, count(DISTINCT ts) AS hours,
             bool_and(jsonb_typeof("values"->'f2') = 'number' AND ("values"->>'f2')::float8 = floor(("values"->>'f2')::float8)) AS whole
      FROM data_records WHERE item_id = ${production.id}`);
    const row = (
      span as unknown as { rows: Array<{ lo: string; hi: string; hours: number; whole: boolean }> }
    ).rows[0]!;
    expect(Number(row.hours)).toBe(DEMO_HISTORY_DAYS * 24);
    expect(row.whole).toBe(true);
    expect(new Date(row.hi).getTime() - new Date(row.lo).getTime()).toBe(
      (DEMO_HISTORY_DAYS * 24 - 1) * 3_600_000,
    );
    expect(new Date(row.hi).getTime()).toBeLessThanOrEqual(Date.now());
    expect(await recordCount(steam.id)).toBe(DEMO_HISTORY_DAYS * 288 + 1);
    // the rollups were kept with the records
    const rollups = await t.db.execute(sql`
      SELECT sum(count) AS n FROM data_rollups WHERE item_id = ${production.id} AND field_key = 'f2' AND grain = 'h'`);
    expect(Number((rollups as unknown as { rows: Array<{ n: unknown }> }).rows[0]!.n)).toBe(
      DEMO_HISTORY_DAYS * 24 * 2,
    );

    // the administrator sees it through the API
    const list = await t.app.inject({
      method: 'GET',
      url: `/general/smartdata/analysis/list?itemId=${(await itemNamed('蒸汽日报')).id}`,
      headers: bearer(token),
    });
    expect(list.json().data).toEqual([
      expect.objectContaining({ name: DEMO_STEAM_JOB, cron: DEMO_STEAM_CRON, enabled: true }),
    ]);
  });

  it('schedules the daily steam total for 23:55 company time', async () => {
    const report = await itemNamed('蒸汽日报');
    const steam = await itemNamed('锅炉蒸汽');
    const [job] = await t.db.select().from(analysisJobs).where(eq(analysisJobs.itemId, report.id));
    expect(job!.assignments[0]).toEqual({
      field: 'f1',
      mode: 'ref',
      sources: [{ itemId: steam.id, field: 'f3' }],
      method: 'totalToday',
    });
    const next = job!.nextRunAt!;
    expect(next.getTime()).toBeGreaterThan(started - 1000);
    expect(next.getTime() - started).toBeLessThanOrEqual(86_400_000);
    expect([next.getUTCHours(), next.getUTCMinutes()]).toEqual([15, 55]);
  });

  it('has run the daily steam job for every past day, so the report has rows at once', async () => {
    const report = await itemNamed('蒸汽日报');
    const rows = (
      (await t.db.execute(sql`
        SELECT ts, source, "values" FROM data_records WHERE item_id = ${report.id} ORDER BY ts`)) as unknown as {
        rows: Array<{ ts: string; source: string; values: Record<string, number> }>;
      }
    ).rows;
    // one row a day at 23:55 company time (15:55 UTC), each day of the history but the first
    expect(rows.length).toBeGreaterThanOrEqual(DEMO_HISTORY_DAYS - 2);
    expect(rows.length).toBeLessThanOrEqual(DEMO_HISTORY_DAYS);
    for (const row of rows) {
      const ts = new Date(row.ts);
      expect([ts.getUTCHours(), ts.getUTCMinutes()]).toEqual([15, 55]);
      expect(ts.getTime()).toBeLessThan(started);
      expect(row.source).toBe('analysis');
      // a whole day of flow readings: a positive total, an average pressure and a peak temperature
      expect(row.values.f1).toBeGreaterThan(0);
      expect(row.values.f2).toBeGreaterThan(0.8);
      expect(row.values.f3).toBeGreaterThan(170);
    }
    const days = rows.map((r) => new Date(r.ts).getTime());
    for (let i = 1; i < days.length; i += 1) expect(days[i]! - days[i - 1]!).toBe(86_400_000);
    expect(started - days.at(-1)!).toBeLessThanOrEqual(86_400_000 + 60_000);
    // each fire is in the job's run log with its record, as a scheduled run leaves it
    const [job] = await t.db.select().from(analysisJobs).where(eq(analysisJobs.itemId, report.id));
    const runs = await t.db.select().from(analysisRuns).where(eq(analysisRuns.jobId, job!.id));
    expect(runs).toHaveLength(rows.length);
    expect(runs.every((r) => r.status === 'ok' && r.recordId != null)).toBe(true);
    expect(job!.lastRunAt!.getTime()).toBe(days.at(-1));
  });

  it('stores only a hash of the demo device key and rotates it on demand', async () => {
    const [before] = await t.db
      .select()
      .from(submissionKeys)
      .where(eq(submissionKeys.deviceId, DEMO_DEVICE_ID));
    expect(before).toMatchObject({ kind: 'device', companyId, revokedAt: null });
    expect(before!.keyHash).toMatch(/^[0-9a-f]{64}$/);
    const rotated = await rotateDemoDeviceKey(t.db);
    expect(rotated!.itemId).toBe((await itemNamed('锅炉蒸汽')).id);
    const [after] = await t.db.select().from(submissionKeys).where(eq(submissionKeys.id, before!.id));
    expect(after!.keyHash).toBe(sha256(rotated!.key));
    expect(after!.keyHash).not.toBe(before!.keyHash);
    expect(after!.prefix).toBe(rotated!.key.slice(0, 12));
    // the rotated key submits a reading over HTTP like the device would
    const res = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/submit',
      headers: { authorization: rotated!.key },
      payload: { itemId: rotated!.itemId, 温度: 185.2, 压力: 1.02, 流量: 12.5 },
    });
    expect(res.json()).toMatchObject({ code: 0, data: { count: 1 } });
  });
});
