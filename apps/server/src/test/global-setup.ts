/**
 * Builds one migrated database template per run; every test file then starts from a copy:
 * a PGlite data-dir dump (embedded) or `CREATE DATABASE ... TEMPLATE` (PostgreSQL, when
 * DATABASE_URL is set).
 *
 * Also compiles the server once per run, in the background, for the tests that run it as a
 * process of their own (server-process.ts): node then runs plain JavaScript, as `npm start`
 * does, instead of loading every source file through the TypeScript loader on each start.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { REPO_ROOT } from '../config';
import { openDatabase } from '../platform/db';

export const TEMPLATE_DB = `platform_template_${process.pid}`;
/** every database of this run starts so; teardown drops only these, never another run's */
export const RUN_PREFIX = `platform_t_${process.pid}_`;

/** this run's compiled server, beside `npm start`'s main.mjs (which a browser-test run beside it rebuilds) */
const SERVER_BUILD = path.join(REPO_ROOT, `apps/server/dist/main.test-${process.pid}.mjs`);

/**
 * Starts compiling the server; does not wait. When it ends, `<bundle>.status` holds whether it
 * built and what esbuild said: server-process.ts waits for that file, so only the tests that
 * start the server wait for the build, and only once per run.
 */
function startServerBuild(): ChildProcess {
  const child = spawn(
    process.execPath,
    [path.join(REPO_ROOT, 'scripts/build-server.mjs'), '--main-as', path.basename(SERVER_BUILD, '.mjs')],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk.toString();
  });
  // written whole, then renamed: a reader sees no file or all of it
  const done = (ok: boolean) => {
    writeFileSync(`${SERVER_BUILD}.status.part`, JSON.stringify({ ok, output }));
    renameSync(`${SERVER_BUILD}.status.part`, `${SERVER_BUILD}.status`);
  };
  child.on('error', (error) => {
    output += `${error.message}\n`;
    done(false);
  });
  child.on('close', (code) => done(code === 0));
  return child;
}

async function removeServerBuild(child: ChildProcess): Promise<void> {
  if (child.exitCode == null && child.signalCode == null) {
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('close', resolve));
  }
  for (const suffix of ['', '.map', '.status', '.status.part'])
    await rm(`${SERVER_BUILD}${suffix}`, { force: true });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const build = startServerBuild();
  project.provide('serverBuild', SERVER_BUILD);
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
      await removeServerBuild(build);
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
    await removeServerBuild(build);
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplate?: string;
    pgRunPrefix?: string;
    pgliteTemplate?: string;
    /** the compiled server (main.ts) of this run; ready once `<it>.status` says so */
    serverBuild?: string;
  }
}
