/**
 * Scheduled analysis in the running platform: `npm start`'s server fires a job's cron by
 * itself, with nobody pressing "run now". (A job saved with a cron that fires every second:
 * the run log gets its runs and the item its records.)
 */
import type { FieldDef } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../test/helper';
import {
  makeServerTarget,
  type ServerProcess,
  type ServerTarget,
  startServerProcess,
  stopIfRunning,
} from '../../test/server-process';
import { makeItem } from '../cabin/test-support';
import { createCompany } from '../companies/service';
import { dataRecords } from '../records/tables';
import { createUser } from '../users/service';
import { analysisJobs, analysisRuns } from './tables';

const FIELDS: FieldDef[] = [{ key: 'f1', name: 'value', type: 10 }];

let target: ServerTarget;
let server: ServerProcess | null = null;

beforeAll(async () => {
  target = await makeServerTarget();
});

afterAll(async () => {
  await stopIfRunning(server);
  await target.cleanup();
});

describe('the running server', () => {
  it('fires a scheduled job by itself and writes its records', async () => {
    const phone = `1371000${String(process.pid % 10000).padStart(4, '0')}`;
    const database = await target.open();
    let itemId: number;
    let jobId: number;
    try {
      const db = database.db;
      const owner = await createUser(db, { phone, userName: 'scheduler owner', password: 'secret123' });
      const { company } = await createCompany(db, { name: 'Scheduler', ownerId: owner.id });
      ({ itemId } = await makeItem({ db } as TestApp, company.id, { fields: FIELDS, createdBy: owner.id }));
      const [job] = await db
        .insert(analysisJobs)
        .values({
          companyId: company.id,
          itemId,
          name: 'every second',
          cron: '* * * * * ?',
          assignments: [{ field: 'f1', mode: 'custom', value: 7 }],
          nextRunAt: new Date(),
        })
        .returning({ id: analysisJobs.id });
      jobId = job!.id;
    } finally {
      await database.close();
    }

    server = await startServerProcess(target.env);
    const login = await fetch(`${server.url}/general/user/access/getToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ phone, password: 'secret123' }).toString(),
    });
    const token = ((await login.json()) as { data: { token: string } }).data.token;
    // the run log, as the job's page reads it, until the server has fired the job twice
    const deadline = Date.now() + 90_000;
    let ok = 0;
    while (ok < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      const res = await fetch(
        `${server.url}/general/smartdata/analysis/log?itemId=${itemId}&jobId=${jobId}&pageNum=1&pageSize=20`,
        { headers: { authorization: `Bearer ${token}` } },
      );
      const body = (await res.json()) as { data: { list: Array<{ status: string }> } };
      ok = body.data.list.filter((run) => run.status === 'ok').length;
    }
    expect(ok).toBeGreaterThanOrEqual(2);
    await server.stop();
    server = null;

    const after = await target.open();
    try {
      const runRows = await after.db.select().from(analysisRuns).where(eq(analysisRuns.jobId, jobId));
      expect(runRows.filter((r) => r.status === 'ok').length).toBeGreaterThanOrEqual(2);
      const records = await after.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId));
      expect(records.length).toBeGreaterThanOrEqual(1);
      expect(records[0]).toMatchObject({ source: 'analysis', values: { f1: 7 } });
    } finally {
      await after.close();
    }
  }, 180_000);
});
