/**
 * One platform per data folder: a second instance on the same DATA_DIR refuses before it
 * opens anything, and a killed instance leaves nothing that stops a restart.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FieldDef } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { makeItem } from '../modules/cabin/test-support';
import { createCompany } from '../modules/companies/service';
import { createKey } from '../modules/ingest/keys';
import { dataRecords } from '../modules/records/tables';
import { createUser } from '../modules/users/service';
import type { TestApp } from '../test/helper';
import {
  exited,
  killGroup,
  type ServerProcess,
  spawnServer,
  startServerProcess,
  stopIfRunning,
} from '../test/server-process';
import { openDatabase } from './db';
import { DataDirInUse, lockAddress, lockDataDir } from './instance-lock';

const folders: string[] = [];
async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'platform-lock-'));
  folders.push(dir);
  return dir;
}

afterAll(async () => {
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

describe('the data folder lock', () => {
  it('refuses a second holder, naming the process, until the first releases it', async () => {
    const dir = await folder();
    const first = await lockDataDir(dir);
    const refused = await lockDataDir(dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataDirInUse);
    expect((refused as DataDirInUse).holderPid).toBe(process.pid);
    expect((refused as Error).message).toContain(dir);
    await first.release();
    const again = await lockDataDir(dir);
    await again.release();
  });

  it('takes over a lock left by a process killed with SIGKILL', async () => {
    const dir = await folder();
    const address = lockAddress(dir);
    // a process that takes the lock the same way and is then killed: its socket file stays
    const child = spawn(
      process.execPath,
      [
        '-e',
        `require('node:net').createServer().listen(${JSON.stringify(address)}, () => console.log('held'))`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGKILL');
    await exited(child);
    expect(existsSync(address)).toBe(true);
    const lock = await lockDataDir(dir);
    await lock.release();
  });

  it('lets exactly one of two instances starting together take a stale lock', async () => {
    const dir = await folder();
    const address = lockAddress(dir);
    const child = spawn(
      process.execPath,
      [
        '-e',
        `require('node:net').createServer().listen(${JSON.stringify(address)}, () => console.log('held'))`,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGKILL');
    await exited(child);
    const results = await Promise.allSettled([lockDataDir(dir), lockDataDir(dir)]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(DataDirInUse);
    await (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof lockDataDir>>>).value.release();
  });
});

const FIELDS: FieldDef[] = [{ key: 'f1', name: 'seq', type: 10 }];

describe('a second platform on the same data folder', () => {
  let first: ServerProcess | null = null;
  let restarted: ServerProcess | null = null;

  afterAll(async () => {
    await stopIfRunning(first);
    await stopIfRunning(restarted);
  });

  it(
    'is refused before it opens the database, and the first survives a kill -9 with every acknowledged record',
    async () => {
      const dataDir = await folder();
      // an item and a key, written before any server runs
      const database = await openDatabase({ dataDir: path.join(dataDir, 'db') });
      const owner = await createUser(database.db, { phone: '13700009999', userName: 'lock owner' });
      const { company } = await createCompany(database.db, { name: 'Lock test', ownerId: owner.id });
      const { itemId } = await makeItem({ db: database.db } as TestApp, company.id, {
        fields: FIELDS,
        createdBy: owner.id,
      });
      const { key } = await createKey(database.db, {
        companyId: company.id,
        userId: owner.id,
        name: 'lock',
        kind: 'user',
      });
      await database.close();

      first = await startServerProcess({ DATA_DIR: dataDir });
      const acknowledged: number[] = [];
      let seq = 0;
      const submit = async (server: ServerProcess) => {
        const n = ++seq;
        const res = await fetch(`${server.url}/general/smartdata/submit`, {
          method: 'POST',
          headers: { authorization: key, 'content-type': 'application/json' },
          body: JSON.stringify({ itemId, seq: n }),
        });
        const body = (await res.json()) as { code: number };
        if (body.code === 0) acknowledged.push(n);
        return body.code;
      };
      for (let i = 0; i < 20; i++) expect(await submit(first)).toBe(0);

      // the second instance on the same folder, while the first keeps taking submissions
      const second = await spawnServer({ DATA_DIR: dataDir });
      const writing = (async () => {
        while (second.child.exitCode == null) await submit(first!);
      })();
      await exited(second.child);
      await writing;
      expect(second.child.exitCode).toBe(1);
      expect(second.output()).toContain('is in use by another running platform');
      expect(second.output()).toContain(`process ${first.child.pid}`);
      expect(second.output()).not.toContain('is running at');
      for (let i = 0; i < 20; i++) expect(await submit(first)).toBe(0);

      // kill -9 the only instance: the restart must come up on the same folder
      killGroup(first.child);
      await exited(first.child);
      restarted = await startServerProcess({ DATA_DIR: dataDir });
      expect(await submit(restarted)).toBe(0);
      await restarted.stop();

      const reopened = await openDatabase({ dataDir: path.join(dataDir, 'db') });
      try {
        const rows = await reopened.db
          .select({ values: dataRecords.values })
          .from(dataRecords)
          .where(eq(dataRecords.itemId, itemId));
        const stored = new Set(rows.map((r) => Number(r.values.f1)));
        expect(acknowledged.filter((n) => !stored.has(n))).toEqual([]);
        expect(stored.size).toBe(rows.length);
      } finally {
        await reopened.close();
      }
    },
    5 * 60_000,
  );
});
