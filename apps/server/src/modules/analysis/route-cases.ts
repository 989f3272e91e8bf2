import { type AnalysisAssignment, ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { analysisJobs, analysisRuns } from './tables';

/** A job made straight in the table: every hour at minute 0, f2 = 7. */
export async function makeJob(
  t: TestApp,
  companyId: number,
  itemId: number,
  opts: {
    assignments?: AnalysisAssignment[];
    cron?: string | null;
    runAt?: Date | null;
    nextRunAt?: Date | null;
  } = {},
): Promise<number> {
  const [row] = await t.db
    .insert(analysisJobs)
    .values({
      companyId,
      itemId,
      name: 'hourly',
      cron: opts.cron === undefined ? '0 0 * * * ?' : opts.cron,
      runAt: opts.runAt ?? null,
      assignments: opts.assignments ?? [{ field: 'f2', mode: 'custom', value: 7 }],
      nextRunAt: opts.nextRunAt ?? null,
    })
    .returning({ id: analysisJobs.id });
  return row!.id;
}

/** Company A's item with a job and one logged run. */
async function victim(t: TestApp, companyId: number) {
  const { itemId } = await makeItem(t, companyId, { fields: SAMPLE_FIELDS });
  const jobId = await makeJob(t, companyId, itemId);
  await t.db.insert(analysisRuns).values({ jobId, fireTime: new Date('2026-01-01T00:00:00Z'), status: 'ok' });
  const [job] = await t.db.select().from(analysisJobs).where(eq(analysisJobs.id, jobId));
  return { itemId, jobId, job: job! };
}

export const analysisRouteCases: RouteCases = {
  'GET /general/smartdata/analysis/list': {
    attack: async ({ t, a, b }) => {
      const v = await victim(t, a.id);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/analysis/list?itemId=${v.itemId}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
          expect(res.body).not.toContain('hourly');
        },
      };
    },
  },
  'POST /general/smartdata/analysis/save': {
    attack: async ({ t, a, b }) => {
      const v = await victim(t, a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/analysis/save',
          payload: {
            itemId: v.itemId,
            id: v.jobId,
            name: 'taken over',
            enabled: true,
            cron: '0 * * * * ?',
            assignments: [{ field: 'f2', mode: 'custom', value: 1 }],
          },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
          const [after] = await t.db.select().from(analysisJobs).where(eq(analysisJobs.id, v.jobId));
          expect(after).toEqual(v.job);
        },
      };
    },
  },
  'POST /general/smartdata/analysis/delete': {
    attack: async ({ t, a, b }) => {
      const v = await victim(t, a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/analysis/delete',
          payload: { itemId: v.itemId, id: v.jobId },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(await t.db.select().from(analysisJobs).where(eq(analysisJobs.id, v.jobId))).toHaveLength(1);
        },
      };
    },
  },
  'POST /general/smartdata/analysis/run': {
    attack: async ({ t, a, b }) => {
      const v = await victim(t, a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/analysis/run',
          payload: { itemId: v.itemId, id: v.jobId },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json().code).toBe(ERROR_CODES.NOT_FOUND);
          expect(await t.db.select().from(analysisRuns).where(eq(analysisRuns.jobId, v.jobId))).toHaveLength(
            1,
          );
        },
      };
    },
  },
  'GET /general/smartdata/analysis/log': {
    attack: async ({ t, a, b }) => {
      const v = await victim(t, a.id);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/analysis/log?itemId=${v.itemId}&jobId=${v.jobId}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'itemId' } });
          expect(res.body).not.toContain('2026-01-01');
        },
      };
    },
  },
};
