/**
 * Where the server's resident memory goes, for bench/footprint.ts, without an inspector port:
 * with FOOTPRINT_REPORT=<file> set, each SIGUSR2 writes the process's memory figures there as
 * JSON (Node's heap and buffers, V8's own accounting, the size of PGlite's WebAssembly memory).
 * Nothing is installed unless the variable is set; the file is written by this process only,
 * where the person who started it said.
 */
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import type { Database } from './db';

export interface FootprintReport {
  pid: number;
  at: string;
  memoryUsage: NodeJS.MemoryUsage;
  /** V8: committed heap pages resident, memory malloc'd by V8 itself, external memory it knows */
  heap: { totalPhysical: number; used: number; malloced: number; external: number };
  /** bytes of PGlite's WebAssembly memory (0 on PostgreSQL) */
  wasmMemoryBytes: number;
}

export function footprintReport(database: Pick<Database, 'wasmMemoryBytes'>): FootprintReport {
  const stats = v8.getHeapStatistics();
  return {
    pid: process.pid,
    at: new Date().toISOString(),
    memoryUsage: process.memoryUsage(),
    heap: {
      totalPhysical: stats.total_physical_size,
      used: stats.used_heap_size,
      malloced: stats.malloced_memory,
      external: stats.external_memory,
    },
    wasmMemoryBytes: database.wasmMemoryBytes?.() ?? 0,
  };
}

/** Writes the report to `file` on each SIGUSR2; returns the function that stops it. */
export function installFootprintReport(
  file: string,
  database: Pick<Database, 'wasmMemoryBytes'>,
): () => void {
  const write = () => writeFileSync(file, JSON.stringify(footprintReport(database)));
  process.on('SIGUSR2', write);
  return () => process.off('SIGUSR2', write);
}
