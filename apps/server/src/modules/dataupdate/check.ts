/**
 * The no-data check: evaluates monitors against their windows and persists each transition.
 *
 * Last update of an item: derived from the records themselves, not written on ingest. The
 * check asks each watched item for its newest record at or before now through the existing
 * (item_id, ts) index (one backward index step per monitor), and counts that record at the
 * earlier of its time and its arrival (created_at): a record stamped in the future, or one
 * that a device with a clock gone wrong sends, never makes silence look like fresh data. So a
 * burst of records costs the monitor nothing, and the last update survives any restart
 * because it is the data. A device's last update is its gateway's lastSeenAt (written at most
 * every 30 s by the gateway hub), while the gateway is bound to the monitor's company.
 *
 * Once across nodes: every node ticks once per check period; a tick claims the period's slot
 * by inserting its data_update_checks row (unique; platform/period-claim.ts), so one node runs
 * each period's check. Each
 * monitor's change is also written only over the version it read, so even two checks racing
 * (a manual re-check beside the scheduled one, two nodes) change a monitor and raise its alarm
 * once. A node that was down runs the current slot when it comes back: a window that passed
 * meanwhile fires at the first check after start.
 */
import {
  evaluateNoData,
  type NoDataEvent,
  type NoDataMonitorState,
  type NoDataState,
} from '@platform/domain';
import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { claimOnce, periodicTask, periodStart } from '../../platform/period-claim';
import { type MonitorTarget, noDataAlarmCleared, noDataAlarmRaised } from './alarm-link';
import { dataUpdateChecks, dataUpdateMonitors } from './tables';

/** monitors read at once */
const PAGE = 500;
/** check rows kept (a day of one-minute periods) */
const KEEP_CHECKS_MS = 24 * 3_600_000;

export type MonitorRow = typeof dataUpdateMonitors.$inferSelect;

/** The newest update of the monitor's item or device at `now` (see the module comment). */
export function lastUpdateSql(now: Date) {
  const at = now.toISOString();
  // the monitor's columns written out in full: drizzle leaves the table name off in a query of
  // one table, and inside the subquery a bare "item_id" would be the record's own
  return sql<Date | null>`CASE WHEN "data_update_monitors"."item_id" IS NOT NULL THEN (
      SELECT LEAST(r.ts, r.created_at) FROM data_records r
      WHERE r.item_id = "data_update_monitors"."item_id" AND r.ts <= ${at}::timestamptz
      ORDER BY r.ts DESC LIMIT 1)
    ELSE (SELECT g.last_seen_at FROM gateways g
      WHERE g.id = "data_update_monitors"."gateway_id"
        AND g.company_id = "data_update_monitors"."company_id") END`.mapWith((v: unknown) =>
    v == null ? null : new Date(v as string),
  );
}

function stateOf(row: MonitorRow): NoDataMonitorState {
  return {
    state: row.state as NoDataState,
    since: row.stateSince.getTime(),
    alarmLastUpdate: row.alarmLastUpdate?.getTime() ?? null,
    alarmWindow: row.alarmWindow,
  };
}

export interface CheckResult {
  monitors: number;
  changed: number;
  events: Array<NoDataEvent & { monitorId: number }>;
}

/**
 * Checks the given monitors (all of them when `ids` is absent) at `now`. Returns what this call
 * changed; a monitor another check changed meanwhile is left to it.
 */
export async function checkMonitors(app: App, now: Date, ids?: number[]): Promise<CheckResult> {
  const result: CheckResult = { monitors: 0, changed: 0, events: [] };
  let after = 0;
  for (;;) {
    const rows = await app.db
      .select({ monitor: dataUpdateMonitors, lastUpdate: lastUpdateSql(now) })
      .from(dataUpdateMonitors)
      .where(
        and(
          gt(dataUpdateMonitors.id, after),
          ids ? inArray(dataUpdateMonitors.id, ids.length > 0 ? ids : [0]) : undefined,
        ),
      )
      .orderBy(asc(dataUpdateMonitors.id))
      .limit(PAGE);
    for (const { monitor, lastUpdate } of rows) {
      result.monitors += 1;
      const outcome = await checkOne(app, monitor, lastUpdate, now);
      if (outcome.changed) result.changed += 1;
      for (const e of outcome.events) result.events.push({ ...e, monitorId: monitor.id });
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1]!.monitor.id;
  }
  return result;
}

async function checkOne(
  app: App,
  monitor: MonitorRow,
  lastUpdate: Date | null,
  now: Date,
): Promise<{ changed: boolean; events: NoDataEvent[] }> {
  const r = evaluateNoData(stateOf(monitor), {
    lastUpdate: lastUpdate?.getTime() ?? null,
    startedAt: monitor.createdAt.getTime(),
    now: now.getTime(),
    windowMinutes: monitor.windowMinutes,
    minuteMs: app.config.dataUpdateMinuteMs,
  });
  const target: MonitorTarget = monitor;
  // an alarm whose raise did not reach the alarm log (the node stopped in between): raise it now
  if (!r.changed) {
    if (monitor.state === 'alarm' && monitor.alarmId === null) {
      const alarmId = await noDataAlarmRaised(app, target, lastUpdate, now);
      if (alarmId !== null) await setAlarmId(app.db, monitor, alarmId);
    }
    // the last update as seen, written only when it moved (not once per monitor and period);
    // no version change: it is not a transition
    if ((lastUpdate?.getTime() ?? null) !== (monitor.lastUpdateAt?.getTime() ?? null)) {
      await app.db
        .update(dataUpdateMonitors)
        .set({ lastUpdateAt: lastUpdate, checkedAt: now })
        .where(eq(dataUpdateMonitors.id, monitor.id));
    }
    return { changed: false, events: [] };
  }
  const cleared = r.events.some((e) => e.type === 'cleared');
  // clear in the alarm log before the state moves on: were this node to stop in between, the
  // next check still sees the alarm state and clears again (clearing is idempotent)
  if (cleared) await noDataAlarmCleared(app, target, lastUpdate, now);
  const [won] = await app.db
    .update(dataUpdateMonitors)
    .set({
      state: r.state.state,
      stateSince: new Date(r.state.since),
      alarmLastUpdate: r.state.alarmLastUpdate === null ? null : new Date(r.state.alarmLastUpdate),
      alarmWindow: r.state.alarmWindow,
      alarmId: r.state.state === 'alarm' ? monitor.alarmId : null,
      lastUpdateAt: lastUpdate,
      checkedAt: now,
      version: sql`${dataUpdateMonitors.version} + 1`,
    })
    .where(and(eq(dataUpdateMonitors.id, monitor.id), eq(dataUpdateMonitors.version, monitor.version)))
    .returning({ id: dataUpdateMonitors.id, version: dataUpdateMonitors.version });
  if (!won) return { changed: false, events: [] };
  if (r.events.some((e) => e.type === 'fired')) {
    const alarmId = await noDataAlarmRaised(app, target, lastUpdate, now);
    if (alarmId !== null) await setAlarmId(app.db, { ...monitor, version: won.version }, alarmId);
  }
  return { changed: true, events: r.events };
}

async function setAlarmId(
  db: Db,
  monitor: Pick<MonitorRow, 'id' | 'version'>,
  alarmId: number,
): Promise<void> {
  await db
    .update(dataUpdateMonitors)
    .set({ alarmId })
    .where(and(eq(dataUpdateMonitors.id, monitor.id), eq(dataUpdateMonitors.version, monitor.version)));
}

export interface DataUpdateChecker {
  /** one pass at `now`: runs the period's check unless some node ran it; null when another did */
  tick(now?: Date): Promise<CheckResult | null>;
  start(): void;
  stop(): Promise<void>;
}

/** The period `now` falls in: its start, in whole periods since 1970. */
export const checkSlot = periodStart;

export function createDataUpdateChecker(app: App, opts: { periodMs: number }): DataUpdateChecker {
  const periodMs = opts.periodMs;

  async function tick(now = new Date()): Promise<CheckResult | null> {
    const slot = checkSlot(now, periodMs);
    const claimed = await claimOnce(app.db, dataUpdateChecks, { slot });
    if (!claimed) return null;
    const result = await checkMonitors(app, now);
    await app.db
      .update(dataUpdateChecks)
      .set({ finishedAt: new Date(), monitors: result.monitors, changed: result.changed })
      .where(eq(dataUpdateChecks.slot, slot));
    await app.db
      .delete(dataUpdateChecks)
      .where(lt(dataUpdateChecks.slot, new Date(now.getTime() - KEEP_CHECKS_MS)));
    return result;
  }

  const task = periodicTask(app.log, 'data-update check', periodMs, () => tick());
  return { tick, start: task.start, stop: task.stop };
}
