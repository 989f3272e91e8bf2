/**
 * The embedded store: made by a child process (the initdb instances' memory dies with it) and
 * opened with the memory-bounding settings, which PGLITE_SETTINGS replaces.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createStoreIfMissing, openDatabase, PGLITE_MEMORY_SETTINGS } from './db';
import { footprintReport, installFootprintReport } from './footprint';

const folders: string[] = [];
async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'db-store-'));
  folders.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

async function setting(dataDir: string, name: string, settings?: string[]): Promise<string> {
  const database = await openDatabase({ dataDir, ...(settings ? { settings } : {}) });
  try {
    const result = await database.db.execute<{ value: string }>(
      sql.raw(`SELECT current_setting('${name}') AS value`),
    );
    const rows = (result as unknown as { rows: Array<{ value: string }> }).rows;
    return rows[0]!.value;
  } finally {
    await database.close();
  }
}

describe('the embedded store', () => {
  it('is made by a child process, before this process opens anything, and left as it is when it exists', async () => {
    const dataDir = path.join(await folder(), 'db');
    await createStoreIfMissing(dataDir);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    const version = readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8');
    await createStoreIfMissing(dataDir);
    expect(readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8')).toBe(version);
  }, 120_000);

  it('opens with the memory-bounding settings, and with the given ones instead when set', async () => {
    const dataDir = path.join(await folder(), 'db');
    expect(PGLITE_MEMORY_SETTINGS).toContain('shared_buffers=16MB');
    expect(await setting(dataDir, 'shared_buffers')).toBe('16MB');
    // the same store on a restart with other settings
    expect(await setting(dataDir, 'shared_buffers', ['shared_buffers=48MB'])).toBe('48MB');
    // the migrations ran in it: a platform table is there
    expect(await setting(dataDir, 'server_version_num')).toMatch(/^\d+$/);
    const database = await openDatabase({ dataDir });
    try {
      const result = await database.db.execute(sql.raw("SELECT to_regclass('public.users') AS t"));
      expect((result as unknown as { rows: Array<{ t: string | null }> }).rows[0]!.t).toBe('users');
      expect(database.wasmMemoryBytes?.()).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe('the footprint report (bench/footprint.ts)', () => {
  it('names the WebAssembly memory and the heap, and is written on SIGUSR2 only while installed', async () => {
    const report = footprintReport({ wasmMemoryBytes: () => 12_345 });
    expect(report.wasmMemoryBytes).toBe(12_345);
    expect(report.pid).toBe(process.pid);
    expect(report.memoryUsage.rss).toBeGreaterThan(report.memoryUsage.heapUsed);
    expect(report.heap.totalPhysical).toBeGreaterThan(0);
    expect(footprintReport({}).wasmMemoryBytes).toBe(0);

    const file = path.join(await folder(), 'report.json');
    const stop = installFootprintReport(file, { wasmMemoryBytes: () => 777 });
    process.emit('SIGUSR2', 'SIGUSR2');
    stop();
    expect(JSON.parse(readFileSync(file, 'utf8')).wasmMemoryBytes).toBe(777);
    await rm(file);
    process.emit('SIGUSR2', 'SIGUSR2');
    expect(existsSync(file)).toBe(false);
  });
});
