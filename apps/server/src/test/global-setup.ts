/**
 * Builds one migrated database template per run; every test file then starts from a copy:
 * a PGlite data-dir dump (embedded) or `CREATE DATABASE ... TEMPLATE` (PostgreSQL, when
 * DATABASE_URL is set).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../platform/db';

export const TEMPLATE_DB = `platform_template_${process.pid}`;
/** every database of this run starts so; teardown drops only these, never another run's */
export const RUN_PREFIX = `platform_t_${process.pid}_`;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DB}`);
    await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
    const target = new URL(url);
    target.pathname = `/${TEMPLATE_DB}`;
    const db = await openDatabase({ url: target.toString() });
    await db.close();
    project.provide('pgTemplate', TEMPLATE_DB);
    project.provide('pgRunPrefix', RUN_PREFIX);
    return async () => {
      const { rows } = await admin.query<{ datname: string }>(
        'SELECT datname FROM pg_database WHERE starts_with(datname, $1) OR datname = $2',
        [RUN_PREFIX, TEMPLATE_DB],
      );
      for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS "${row.datname}" WITH (FORCE)`);
      await admin.end();
    };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'platform-test-'));
  const client = new PGlite();
  const db = await openDatabase({ pglite: client });
  const dump = await client.dumpDataDir('none');
  await writeFile(path.join(dir, 'template.tar'), Buffer.from(await dump.arrayBuffer()));
  await db.close();
  project.provide('pgliteTemplate', path.join(dir, 'template.tar'));
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate?: string;
    pgRunPrefix?: string;
    pgliteTemplate?: string;
  }
}
