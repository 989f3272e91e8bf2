/**
 * Work done once per period across server nodes. Every node ticks on its own timer; a tick
 * works out the period it falls in (whole periods since 1970) and claims it by inserting a row
 * whose unique key holds the period: the insert that lands wins, every other one does nothing
 * (ON CONFLICT DO NOTHING), so one tick on one node runs the period's work however many nodes
 * there are. A node that was down runs the current period when it comes back, never the missed
 * ones. Used by the data-update check (modules/dataupdate) and the SIM card sync (modules/sims).
 */
import type { PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db';

/** The start of the period `now` falls in, in whole periods of `periodMs` since 1970. */
export function periodStart(now: Date, periodMs: number): Date {
  return new Date(Math.floor(now.getTime() / periodMs) * periodMs);
}

/**
 * Inserts the claim row unless its unique key is taken: the inserted row when this call won,
 * null when some other tick (this node's or another's) already holds it.
 */
export async function claimOnce<T extends PgTable>(
  db: Db,
  table: T,
  values: PgInsertValue<T>,
): Promise<T['$inferSelect'] | null> {
  const rows = (await db
    .insert(table)
    .values(values)
    .onConflictDoNothing()
    .returning()) as T['$inferSelect'][];
  return rows[0] ?? null;
}

export interface PeriodicTask {
  start(): void;
  /** stops the timer and waits for the pass under way */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `everyMs` on this node, at once when started, never two at a time: a pass
 * still running when the timer fires again lets that turn go (the next one catches up). A
 * failing pass is logged under `label`. The timer does not keep the process alive.
 */
export function periodicTask(
  log: FastifyBaseLogger,
  label: string,
  everyMs: number,
  pass: () => Promise<unknown>,
): PeriodicTask {
  let timer: NodeJS.Timeout | null = null;
  let busy: Promise<unknown> | null = null;
  const run = () => {
    if (busy) return;
    busy = pass()
      .catch((error) => log.error({ err: error }, `${label} failed`))
      .finally(() => {
        busy = null;
      });
  };
  return {
    start() {
      if (timer) return;
      timer = setInterval(run, everyMs);
      timer.unref();
      run();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await busy;
    },
  };
}
