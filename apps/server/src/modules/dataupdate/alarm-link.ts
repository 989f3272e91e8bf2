/**
 * Where a no-data alarm is raised and cleared: the one place data-update monitoring talks to
 * the alarm log (modules/alarms, `app.alarms`). The check calls `noDataAlarmRaised` once per
 * silence (after its own state change won, or again while the monitor is in alarm without an
 * alarm id: raising is idempotent while the alarm is open) and `noDataAlarmCleared` when fresh
 * data arrives or the monitor is removed. The alarm is told to the person who added the monitor,
 * in the app (delegations apply in the alarm module).
 */
import { and, eq } from 'drizzle-orm';
import type { App } from '../../platform/context';
import { dataItems } from '../dataitems/tables';
import { devices } from '../devices/tables';

/** no-data alarms are level 2 of 1-3: a silence, not a threshold breach that escalates */
const NO_DATA_LEVEL = 2;

export interface MonitorTarget {
  id: number;
  companyId: number;
  itemId: number | null;
  gatewayId: number | null;
  windowMinutes: number;
  createdBy: number | null;
}

async function nameOf(app: App, monitor: MonitorTarget): Promise<string> {
  if (monitor.itemId !== null) {
    const [item] = await app.db
      .select({ name: dataItems.name })
      .from(dataItems)
      .where(and(eq(dataItems.id, monitor.itemId), eq(dataItems.companyId, monitor.companyId)));
    return item?.name ?? `#${monitor.itemId}`;
  }
  const [device] = await app.db
    .select({ name: devices.name })
    .from(devices)
    .where(and(eq(devices.gatewayId, monitor.gatewayId ?? 0), eq(devices.companyId, monitor.companyId)));
  return device?.name ?? `#${monitor.gatewayId}`;
}

const keyOf = (monitor: MonitorTarget) => ({
  companyId: monitor.companyId,
  origin: 'noData' as const,
  originId: monitor.id,
  itemId: monitor.itemId,
  deviceId: monitor.gatewayId,
});

/** Raises the monitor's no-data alarm in the alarm log; the alarm's id. value = minutes since the last update (null: never). */
export async function noDataAlarmRaised(
  app: App,
  monitor: MonitorTarget,
  lastUpdate: Date | null,
  at: Date,
): Promise<number | null> {
  const { id } = await app.alarms.raise({
    ...keyOf(monitor),
    name: await nameOf(app, monitor),
    level: NO_DATA_LEVEL,
    value: lastUpdate ? Math.max(0, Math.floor((at.getTime() - lastUpdate.getTime()) / 60_000)) : null,
    at,
    recipients: { userIds: monitor.createdBy !== null ? [monitor.createdBy] : [], groupIds: [] },
    channels: ['app'],
  });
  return id;
}

/** Clears the monitor's open no-data alarm, if any (idempotent). */
export async function noDataAlarmCleared(
  app: App,
  monitor: MonitorTarget,
  lastUpdate: Date | null,
  at: Date,
): Promise<void> {
  await app.alarms.resolve({
    ...keyOf(monitor),
    value: lastUpdate ? Math.max(0, Math.floor((at.getTime() - lastUpdate.getTime()) / 60_000)) : null,
    at,
  });
}
