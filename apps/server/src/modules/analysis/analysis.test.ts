import { ERROR_CODES } from '@platform/domain';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeDirectory, makeItem, SAMPLE_FIELDS, setPermissions } from '../cabin/test-support';
import { dataRecords } from '../records/tables';
import { makeRecords } from '../records/test-support';
import { makeJob } from './route-cases';
import { analysisJobs, analysisRuns } from './tables';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
/** company A's target item (f1 温度 decimal, f2 count integer, f3 note text) and a numeric source */
let target: number;
let source: number;

beforeAll(async () => {
  t = await buildTestApp({ LOGIN_RATE_LIMIT: '10000' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
  target = (await makeItem(t, a.id, { fields: SAMPLE_FIELDS, name: 'target' })).itemId;
  source = (await makeItem(t, a.id, { fields: SAMPLE_FIELDS, name: 'source' })).itemId;
});
afterAll(() => t.close());

function call(method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  return t.app.inject({
    method,
    url: `/general/smartdata/analysis${url}`,
    payload,
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
}

const refSum = (itemId: number, extra: object = {}) => ({
  field: 'f1',
  mode: 'ref',
  sources: [{ itemId, field: 'f1' }],
  method: 'totalToday',
  ...extra,
});

function job(overrides: object = {}) {
  return {
    itemId: target,
    name: 'daily total',
    enabled: true,
    cron: '0 30 8 * * ?',
    assignments: [refSum(source), { field: 'f3', mode: 'custom', value: 'auto' }],
    ...overrides,
  };
}

async function jobCount(itemId = target): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(analysisJobs).where(eq(analysisJobs.itemId, itemId));
  return Number(row!.n);
}

/** The error of a save that must be refused, with nothing written. */
async function refused(payload: object, token = a.admin.token) {
  const before = await jobCount((payload as { itemId?: number }).itemId ?? target);
  const res = await call('POST', '/save', token, payload);
  expect(await jobCount((payload as { itemId?: number }).itemId ?? target), JSON.stringify(payload)).toBe(
    before,
  );
  return res.json();
}

describe('POST /smartdata/analysis/save', () => {
  it('creates a cron job with its next fire in company time, lists it, and changes it', async () => {
    const before = Date.now();
    const res = await call('POST', '/save', a.admin.token, job());
    expect(res.json().code).toBe(0);
    const { id, nextRunAt } = res.json().data;
    // 08:30 in Asia/Shanghai (no daylight saving: no jump) is 00:30 UTC, the next one after now
    const next = new Date(nextRunAt);
    expect(next.getUTCHours()).toBe(0);
    expect(next.getUTCMinutes()).toBe(30);
    expect(next.getTime()).toBeGreaterThan(before);
    expect(next.getTime() - before).toBeLessThanOrEqual(86_400_000);

    const list = await call('GET', `/list?itemId=${target}`, a.admin.token);
    expect(list.json().data).toEqual([
      expect.objectContaining({
        id,
        itemId: target,
        name: 'daily total',
        enabled: true,
        cron: '0 30 8 * * ?',
        runAt: null,
        type: 'record',
        nextRunAt,
        lastRunAt: null,
        assignments: [
          { field: 'f1', mode: 'ref', sources: [{ itemId: source, field: 'f1' }], method: 'totalToday' },
          { field: 'f3', mode: 'custom', value: 'auto' },
        ],
      }),
    ]);

    const changed = await call('POST', '/save', a.admin.token, job({ id, name: 'renamed', enabled: false }));
    expect(changed.json().data).toEqual({ id, nextRunAt: null });
    const [row] = await t.db.select().from(analysisJobs).where(eq(analysisJobs.id, id));
    expect(row).toMatchObject({ name: 'renamed', enabled: false, nextRunAt: null });
    await t.db.delete(analysisJobs).where(eq(analysisJobs.id, id));
  });

  it('accepts a single execution, Quartz specials, ranges, several sources and custom values', async () => {
    const runAt = '2030-05-01T02:00:00.000Z';
    const single = await call('POST', '/save', a.admin.token, job({ cron: null, runAt }));
    expect(single.json().data.nextRunAt).toBe(runAt);

    const lastFriday = await call('POST', '/save', a.admin.token, job({ cron: '0 15 10 ? * 6L' }));
    expect(lastFriday.json().code).toBe(0);
    // the last Friday of a month at 10:15 Shanghai time
    const fire = new Date(lastFriday.json().data.nextRunAt);
    const local = new Date(fire.getTime() + 8 * 3_600_000);
    expect(local.getUTCDay()).toBe(5);
    expect(local.getUTCHours()).toBe(10);
    expect(new Date(local.getTime() + 7 * 86_400_000).getUTCMonth()).not.toBe(local.getUTCMonth());

    const rich = await call(
      'POST',
      '/save',
      a.admin.token,
      job({
        assignments: [
          refSum(source, {
            method: 'rangeAvg',
            range: 'period',
            from: '2026-01-01T00:00:00Z',
            to: '2026-01-02T00:00:00Z',
          }),
          {
            field: 'f2',
            mode: 'ref',
            sources: [
              { itemId: source, field: 'f2' },
              { itemId: target, field: 'f1' },
            ],
            method: 'rangeMax',
            range: 'lastMonth',
            aggregate: 'MAX',
          },
          { field: 'f3', mode: 'custom', value: 12 },
        ],
      }),
    );
    expect(rich.json().code).toBe(0);
    const [row] = await t.db.select().from(analysisJobs).where(eq(analysisJobs.id, rich.json().data.id));
    expect(row!.assignments[0]).toEqual({
      field: 'f1',
      mode: 'ref',
      sources: [{ itemId: source, field: 'f1' }],
      method: 'rangeAvg',
      range: 'period',
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T00:00:00.000Z',
    });
    // a custom value is stored as the target field stores it
    expect(row!.assignments[2]).toEqual({ field: 'f3', mode: 'custom', value: '12' });
    await t.db.delete(analysisJobs).where(eq(analysisJobs.itemId, target));
  });

  it('refuses bad input naming the field, writing nothing', async () => {
    const other = (await makeItem(t, b.id, { fields: SAMPLE_FIELDS })).itemId;
    const hiddenToLimited = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    await setPermissions(t, hiddenToLimited.nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);
    const limitedTarget = await makeItem(t, a.id, { fields: SAMPLE_FIELDS, createdBy: a.limited.id });

    const cases: Array<[object, string, string?]> = [
      [{ name: '' }, 'name', 'Please enter a name'],
      [{ name: 'x'.repeat(26) }, 'name', 'The length of the name cannot exceed 25 characters'],
      [{ cron: null }, 'cron'],
      [{ cron: '   ' }, 'cron'],
      [{ runAt: '2030-01-01T00:00:00Z' }, 'runAt'],
      [{ cron: null, runAt: 'tomorrow' }, 'runAt'],
      // Quartz: ? in exactly one of day-of-month and day-of-week
      [{ cron: '0 0 12 * * MON' }, 'cron'],
      [{ cron: '0 0 12 ? * ?' }, 'cron'],
      [{ cron: 'every day' }, 'cron'],
      [{ cron: '0 0 12 ? * L-3' }, 'cron'],
      [{ cron: '0 0 25 * * ?' }, 'cron'],
      [{ type: 'chart' }, 'type'],
      [{ assignments: [] }, 'assignments'],
      [{ assignments: ['f1'] }, 'assignments.0'],
      [{ assignments: [refSum(source, { field: 'f9' })] }, 'assignments.0.field'],
      [{ assignments: [refSum(source), refSum(source)] }, 'assignments.1.field'],
      [{ assignments: [refSum(source, { mode: 'formula' })] }, 'assignments.0.mode'],
      [{ assignments: [refSum(source, { sources: [] })] }, 'assignments.0.sources'],
      [
        { assignments: [refSum(source, { sources: [{ itemId: 'x', field: 'f1' }] })] },
        'assignments.0.sources.0.itemId',
      ],
      [{ assignments: [refSum(other)] }, 'assignments.0.sources.0.itemId'],
      [{ assignments: [refSum(999_999)] }, 'assignments.0.sources.0.itemId'],
      // integers to JavaScript that no id column holds (the fuzzer's 8640000000000001 reached PostgreSQL)
      [{ assignments: [refSum(8_640_000_000_000_001)] }, 'assignments.0.sources.0.itemId'],
      [{ assignments: [refSum(2 ** 31)] }, 'assignments.0.sources.0.itemId'],
      [
        { assignments: [refSum(source, { sources: [{ itemId: source, field: 'f3' }] })] },
        'assignments.0.sources.0.field',
      ],
      [
        { assignments: [refSum(source, { sources: [{ itemId: source, field: 'f7' }] })] },
        'assignments.0.sources.0.field',
      ],
      [{ assignments: [refSum(source, { method: 'median' })] }, 'assignments.0.method'],
      [{ assignments: [refSum(source, { method: 'rangeSum' })] }, 'assignments.0.range'],
      [{ assignments: [refSum(source, { method: 'rangeSum', range: 'forever' })] }, 'assignments.0.range'],
      [
        {
          assignments: [refSum(source, { method: 'rangeSum', range: 'period', to: '2026-01-02T00:00:00Z' })],
        },
        'assignments.0.from',
      ],
      [
        {
          assignments: [
            refSum(source, { method: 'rangeSum', range: 'period', from: '2026-01-02T00:00:00Z' }),
          ],
        },
        'assignments.0.to',
      ],
      [
        {
          assignments: [
            refSum(source, {
              method: 'rangeMin',
              range: 'period',
              from: '2026-01-02T00:00:00Z',
              to: '2026-01-02T00:00:00Z',
            }),
          ],
        },
        'assignments.0.to',
        'The start time must be before the end time',
      ],
      [
        {
          assignments: [
            refSum(source, {
              sources: [
                { itemId: source, field: 'f1' },
                { itemId: source, field: 'f2' },
              ],
            }),
          ],
        },
        'assignments.0.aggregate',
      ],
      [
        {
          assignments: [
            refSum(source, {
              sources: [
                { itemId: source, field: 'f1' },
                { itemId: source, field: 'f2' },
              ],
              aggregate: 'AVG',
            }),
          ],
        },
        'assignments.0.aggregate',
      ],
      [{ assignments: [{ field: 'f2', mode: 'custom', value: 'many' }] }, 'assignments.0.value'],
      [{ assignments: [{ field: 'f2', mode: 'custom', value: 1.5 }] }, 'assignments.0.value'],
      [{ assignments: [{ field: 'f2', mode: 'custom' }] }, 'assignments.0.value'],
      [{ assignments: [{ field: 'f3', mode: 'custom', value: 'x'.repeat(300) }] }, 'assignments.0.value'],
    ];
    for (const [overrides, field, message] of cases) {
      const body = await refused(job(overrides));
      expect(body, JSON.stringify(overrides)).toMatchObject({
        code: ERROR_CODES.VALIDATION,
        data: { field },
      });
      if (message) expect(body.message).toBe(message);
    }
    // a source readable by the administrator but not by this caller is refused for this caller
    const limited = await refused(
      job({ itemId: limitedTarget.itemId, assignments: [refSum(hiddenToLimited.itemId)] }),
      a.limited.token,
    );
    expect(limited).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'assignments.0.sources.0.itemId' },
    });
    // the schema names a missing field too
    expect(await refused({ itemId: target, name: 'x', assignments: [] })).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'enabled' },
    });
  });
});

describe('permission levels', () => {
  it('needs administrator level on the item for every route', async () => {
    const dir = await makeDirectory(t, a.id);
    const { itemId, nodeId } = await makeItem(t, a.id, { parentId: dir, fields: SAMPLE_FIELDS });
    const jobId = await makeJob(t, a.id, itemId);
    const routes = (token: string) => [
      call('GET', `/list?itemId=${itemId}`, token),
      call('POST', '/save', token, job({ itemId, id: jobId })),
      call('GET', `/log?itemId=${itemId}&jobId=${jobId}`, token),
      call('POST', '/run', token, { itemId, id: jobId }),
      call('POST', '/delete', token, { itemId, id: jobId }),
    ];
    const codes = async (token: string) => (await Promise.all(routes(token))).map((r) => r.json().code);
    // company default (read and write): readable, so 40300
    expect(await codes(a.limited.token)).toEqual(Array(5).fill(ERROR_CODES.FORBIDDEN));
    await setPermissions(t, dir, [{ scope: 'user', subjectId: a.limited.id, level: 1 }]);
    expect(await codes(a.limited.token)).toEqual(Array(5).fill(ERROR_CODES.FORBIDDEN));
    // no permission: as if the item did not exist
    await setPermissions(t, nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 0 }]);
    const hidden = await Promise.all(routes(a.limited.token));
    for (const res of hidden)
      expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
    expect(await t.db.select().from(analysisRuns).where(eq(analysisRuns.jobId, jobId))).toEqual([]);
    expect(await jobCount(itemId)).toBe(1);
    // level 3 through a custom entry
    await setPermissions(t, nodeId, [{ scope: 'user', subjectId: a.limited.id, level: 3 }]);
    // the delete goes last, on its own: building the list would already send it
    const [list, save, log, run] = await Promise.all([
      call('GET', `/list?itemId=${itemId}`, a.limited.token),
      call('POST', '/save', a.limited.token, job({ itemId, id: jobId })),
      call('GET', `/log?itemId=${itemId}&jobId=${jobId}`, a.limited.token),
      call('POST', '/run', a.limited.token, { itemId, id: jobId }),
    ]);
    expect([list, save, log, run].map((r) => r!.json().code)).toEqual([0, 0, 0, 0]);
    const deleted = await call('POST', '/delete', a.limited.token, { itemId, id: jobId });
    expect(deleted.json(), deleted.body).toMatchObject({ code: 0 });
    expect(await jobCount(itemId)).toBe(0);
  });

  it('reaches another item’s or company’s job as absent', async () => {
    const other = (await makeItem(t, b.id, { fields: SAMPLE_FIELDS })).itemId;
    const victim = await makeJob(t, a.id, target);
    for (const res of [
      await call('POST', '/delete', b.admin.token, { itemId: other, id: victim }),
      await call('POST', '/run', b.admin.token, { itemId: other, id: victim }),
      await call('POST', '/save', b.admin.token, job({ itemId: other, id: victim })),
    ]) {
      expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
    }
    const log = await call('GET', `/log?itemId=${other}&jobId=${victim}`, b.admin.token);
    expect(log.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'jobId' } });
    const [row] = await t.db.select().from(analysisJobs).where(eq(analysisJobs.id, victim));
    expect(row!.name).toBe('hourly');
    expect(await jobCount(other)).toBe(0);
    await t.db.delete(analysisJobs).where(eq(analysisJobs.id, victim));
  });
});

describe('run, log and delete', () => {
  it('runs a job now, writing one record, and pages the log newest first', async () => {
    const { itemId: src } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const { itemId: dst } = await makeItem(t, a.id, { fields: SAMPLE_FIELDS });
    const now = Date.now();
    await makeRecords(t, a.id, src, [
      { ts: new Date(now - 60_000).toISOString(), values: { f1: 2.5, f2: 4 } },
      { ts: new Date(now - 30_000).toISOString(), values: { f1: 4, f2: 9 } },
    ]);
    const saved = await call('POST', '/save', a.admin.token, {
      itemId: dst,
      name: 'latest',
      enabled: true,
      cron: '0 0 0 1 1 ?',
      assignments: [
        { field: 'f1', mode: 'ref', sources: [{ itemId: src, field: 'f1' }], method: 'latest' },
        {
          field: 'f2',
          mode: 'ref',
          sources: [
            { itemId: src, field: 'f2' },
            { itemId: src, field: 'f1' },
          ],
          method: 'latest',
          aggregate: 'SUM',
        },
        { field: 'f3', mode: 'custom', value: 'by analysis' },
      ],
    });
    const jobId = saved.json().data.id;
    const run = await call('POST', '/run', a.admin.token, { itemId: dst, id: jobId });
    expect(run.json().code).toBe(0);
    const view = run.json().data;
    expect(view).toMatchObject({ jobId, status: 'ok', message: null });
    const [record] = await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, dst));
    expect(record).toMatchObject({ id: view.recordId, source: 'analysis', createdBy: a.admin.id });
    expect(record!.values).toEqual({ f1: 4, f2: 13, f3: 'by analysis' });
    expect(record!.ts.toISOString()).toBe(view.fireTime);

    // four more runs at known fire times, then page through them
    for (const [i, status] of ['ok', 'failed', 'ok', 'ok'].entries()) {
      await t.db.insert(analysisRuns).values({
        jobId,
        fireTime: new Date(Date.UTC(2026, 0, 1 + i)),
        status,
        message: status === 'failed' ? 'boom' : null,
      });
    }
    const page1 = await call('GET', `/log?itemId=${dst}&jobId=${jobId}&pageNum=1&pageSize=2`, a.admin.token);
    expect(page1.json().data).toMatchObject({ total: 5, pageNum: 1, pageSize: 2 });
    expect(page1.json().data.list.map((r: { fireTime: string }) => r.fireTime)).toEqual([
      view.fireTime,
      '2026-01-04T00:00:00.000Z',
    ]);
    const page2 = await call('GET', `/log?itemId=${dst}&jobId=${jobId}&pageNum=2&pageSize=2`, a.admin.token);
    expect(page2.json().data.list).toEqual([
      expect.objectContaining({ fireTime: '2026-01-03T00:00:00.000Z', status: 'ok' }),
      expect.objectContaining({ fireTime: '2026-01-02T00:00:00.000Z', status: 'failed', message: 'boom' }),
    ]);
    const page3 = await call('GET', `/log?itemId=${dst}&jobId=${jobId}&pageNum=3&pageSize=2`, a.admin.token);
    expect(page3.json().data.list.map((r: { fireTime: string }) => r.fireTime)).toEqual([
      '2026-01-01T00:00:00.000Z',
    ]);
    expect(
      (await call('GET', `/log?itemId=${dst}&jobId=${jobId}&pageSize=101`, a.admin.token)).json(),
    ).toMatchObject({
      code: ERROR_CODES.VALIDATION,
      data: { field: 'pageSize' },
    });

    const deleted = await call('POST', '/delete', a.admin.token, { itemId: dst, id: jobId });
    expect(deleted.json()).toMatchObject({ code: 0, message: 'Delete successfully' });
    expect(await jobCount(dst)).toBe(0);
    expect(await t.db.select().from(analysisRuns).where(eq(analysisRuns.jobId, jobId))).toEqual([]);
    // the record written stays: it is data, not configuration
    expect(await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, dst))).toHaveLength(1);
  });
});
