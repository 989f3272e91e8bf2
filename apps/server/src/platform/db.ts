/**
 * One Postgres dialect everywhere: PGlite (Postgres in WASM, files under ./data/db) by
 * default, PostgreSQL when DATABASE_URL is set. Same drizzle schema, same migrations.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { SERVER_ROOT } from '../config';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PGlite only: bytes of its WebAssembly memory (it grows to the peak and never shrinks) */
  wasmMemoryBytes?: () => number;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.join(SERVER_ROOT, 'migrations');

/**
 * PostgreSQL settings of the embedded database, passed at its start (`-c name=value`): the
 * memory PGlite's PostgreSQL may use. Its WebAssembly memory grows to the largest amount ever
 * touched and is never given back, so these bound the platform's resident memory. Measured in
 * bench/footprint.ts (bench/RESULTS.md, "Footprint"); PGLITE_SETTINGS overrides them.
 */
export const PGLITE_MEMORY_SETTINGS: readonly string[] = ['shared_buffers=16MB'];

export type DatabaseOptions =
  | { url: string }
  | { pglite: PGlite }
  | { dataDir: string; settings?: readonly string[] };

/**
 * A new embedded store is made (PostgreSQL's initdb) in a short-lived child process. PGlite runs
 * initdb in a second PGlite and a third WebAssembly instance whose memory this process would keep
 * for good (it is never given back: 570 MB of external memory after a first start, 842 MB
 * peak, against ~330 MB for the same store opened on a restart). The child exits and takes it
 * with it; this process then opens the store as on any restart.
 */
export async function createStoreIfMissing(
  dataDir: string,
  settings: readonly string[] = PGLITE_MEMORY_SETTINGS,
): Promise<void> {
  if (existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  // initdb and the store's first start with the same settings: the child's own peak is lower
  // (719 vs 871 MB with shared_buffers=16MB), and the store's postgresql.conf carries them
  const params = settings.flatMap((setting) => ['-c', setting]);
  const script = `const { PGlite } = require(${JSON.stringify(entry)});
const params = ${JSON.stringify(params)};
(async () => {
  const db = new PGlite(${JSON.stringify(dataDir)}, { startParams: [...PGlite.defaultStartParams, ...params], initDbStartParams: params });
  await db.waitReady;
  await db.close();
})()
  .catch((error) => { console.error(error); process.exit(1); });`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`could not create the database in ${dataDir} (initdb exited ${code})`)),
    );
  });
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ('url' in options) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // A connection the server ends (restart, failover, DROP … WITH (FORCE)) must not crash the
    // process: the pool drops idle ones itself; a busy one fails its query, which is reported.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder: MIGRATIONS_DIR });
    return { db: db as unknown as Db, kind: 'postgres', close: () => pool.end() };
  }
  if ('dataDir' in options)
    await createStoreIfMissing(options.dataDir, options.settings ?? PGLITE_MEMORY_SETTINGS);
  const client =
    'pglite' in options
      ? options.pglite
      : new PGlite(options.dataDir, {
          startParams: [
            ...PGlite.defaultStartParams,
            ...(options.settings ?? PGLITE_MEMORY_SETTINGS).flatMap((setting) => ['-c', setting]),
          ],
        });
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
  const mod = (client as unknown as { mod?: { wasmMemory?: { buffer: ArrayBuffer } } }).mod;
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    wasmMemoryBytes: () => mod?.wasmMemory?.buffer.byteLength ?? 0,
    close: () => client.close(),
  };
}

/** PostgreSQL's unique violation (also as PGlite and drizzle wrap it): two saves of one key at once. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}
