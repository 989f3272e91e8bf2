/**
 * Sees every committed write of the app: a test-only trigger on every table of the database
 * logs each inserted, updated or deleted row (and each truncate) into `fuzz_write_log`, in the
 * writing transaction, so a rolled-back write leaves nothing and a committed one is always seen.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';

export interface WriteCount {
  table: string;
  op: string;
  rows: number;
}

async function rows<T>(db: Db, query: ReturnType<typeof sql.raw>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function installWriteWatch(db: Db): Promise<{ tables: string[] }> {
  await db.execute(sql.raw('CREATE TABLE fuzz_write_log (tbl text NOT NULL, op text NOT NULL)'));
  await db.execute(
    sql.raw(`CREATE FUNCTION fuzz_note_write() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO fuzz_write_log (tbl, op) VALUES (TG_TABLE_NAME, TG_OP);
  RETURN NULL;
END
$$`),
  );
  // partitioned tables pass their row triggers on to every partition, present and future
  const tables = await rows<{ name: string }>(
    db,
    sql.raw(`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
        AND c.relname <> 'fuzz_write_log' ORDER BY 1`),
  );
  for (const { name } of tables) {
    const quoted = `"${name.replace(/"/g, '""')}"`;
    await db.execute(
      sql.raw(
        `CREATE TRIGGER fuzz_row_write AFTER INSERT OR UPDATE OR DELETE ON ${quoted} FOR EACH ROW EXECUTE FUNCTION fuzz_note_write()`,
      ),
    );
    await db.execute(
      sql.raw(
        `CREATE TRIGGER fuzz_truncate AFTER TRUNCATE ON ${quoted} FOR EACH STATEMENT EXECUTE FUNCTION fuzz_note_write()`,
      ),
    );
  }
  return { tables: tables.map((t) => t.name) };
}

/** The writes committed since the last call, by table and operation; clears the log. */
export async function takeWrites(db: Db): Promise<WriteCount[]> {
  const found = await rows<{ tbl: string; op: string; n: number }>(
    db,
    sql.raw(`WITH taken AS (DELETE FROM fuzz_write_log RETURNING tbl, op)
      SELECT tbl, op, count(*)::int AS n FROM taken GROUP BY tbl, op ORDER BY tbl, op`),
  );
  return found.map((r) => ({ table: r.tbl, op: r.op, rows: Number(r.n) }));
}

/**
 * Notes whether the app sent the database anything but a plain SELECT since the last reset,
 * so a refused request that only read is not queried for writes (the sweep still is).
 */
export function watchStatements(db: Db): { mayHaveWritten(): boolean; reset(): void } {
  const client = (db as unknown as { $client: Record<string, unknown> }).$client;
  let wrote = false;
  const isSelect = (query: unknown): boolean => {
    const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text;
    return typeof text === 'string' && /^\s*select\s/i.test(text);
  };
  const wrap = (name: string, writes: (args: unknown[]) => boolean) => {
    const original = client[name];
    if (typeof original !== 'function') return;
    client[name] = (...args: unknown[]) => {
      if (writes(args)) wrote = true;
      return (original as (...a: unknown[]) => unknown).apply(client, args);
    };
  };
  wrap('query', (args) => !isSelect(args[0]));
  // PGlite's exec and transactions; node-postgres checks a client out (no callback) for a transaction
  wrap('exec', () => true);
  wrap('transaction', () => true);
  wrap('connect', (args) => args.length === 0);
  return {
    mayHaveWritten: () => wrote,
    reset: () => {
      wrote = false;
    },
  };
}
