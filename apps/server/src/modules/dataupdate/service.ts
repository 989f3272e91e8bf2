/**
 * Data-update monitors of a company: list, add, change the window, remove. Every monitor is
 * seen and changed only through its item or device, which the caller must be able to read
 * (the cabin's data permissions): a monitor on something the caller cannot read is absent from
 * the list and answered 40400 as if it did not exist.
 */
import { DATA_PERMISSION, type DataUpdateWindow, minutesSince, type NoDataState } from '@platform/domain';
import { and, asc, desc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { type DataCaller, levelsFor } from '../cabin/permissions';
import { cabinTree } from '../cabin/service';
import { dataItems } from '../dataitems/tables';
import { readableDevices } from '../devices/access';
import { devices } from '../devices/tables';
import { gateways } from '../gateways/tables';
import { noDataAlarmCleared } from './alarm-link';
import { checkMonitors, lastUpdateSql } from './check';
import { dataUpdateMonitors } from './tables';

/** items or devices one add may name */
export const ADD_MAX = 200;

export interface MonitorView {
  id: number;
  kind: 'item' | 'device';
  itemId: number | null;
  deviceId: number | null;
  name: string;
  serialNumber: string | null;
  windowMinutes: number;
  lastUpdateAt: string | null;
  minutesSince: number | null;
  state: NoDataState;
  stateSince: string;
  /** the alarm log's open no-data alarm of the monitor (in alarm), when it was raised */
  alarmId: number | null;
  checkedAt: string | null;
  createdAt: string;
}

export interface MonitorQuery {
  state?: NoDataState;
  kind?: 'item' | 'device';
  keyword?: string;
  /** 'lateness': most overdue first (never first of all); 'name'; 'created' */
  sort?: 'lateness' | 'name' | 'created';
  limit: number;
  offset: number;
}

const m = dataUpdateMonitors;
/** the node that decides who reads the monitor: its item's, or its bound device's */
const nodeIdSql = sql<number | null>`coalesce(${dataItems.nodeId}, ${devices.nodeId})`;

/** Monitors joined with what they watch, limited to what the caller can read. */
async function readableWhere(db: Db, caller: DataCaller): Promise<SQL | undefined> {
  const levels = await levelsFor(db, caller);
  const readable = [...levels].filter(([, level]) => level > DATA_PERMISSION.none).map(([id]) => id);
  return and(eq(m.companyId, caller.companyId), inArray(nodeIdSql, readable.length > 0 ? readable : [0]));
}

function joined(db: Db, now: Date) {
  return db
    .select({
      monitor: m,
      itemName: dataItems.name,
      deviceName: devices.name,
      serialNumber: gateways.serialNumber,
      lastUpdate: lastUpdateSql(now),
    })
    .from(m)
    .leftJoin(dataItems, and(eq(dataItems.id, m.itemId), eq(dataItems.companyId, m.companyId)))
    .leftJoin(
      devices,
      and(eq(devices.gatewayId, m.gatewayId), eq(devices.companyId, m.companyId), isNotNull(devices.nodeId)),
    )
    .leftJoin(gateways, and(eq(gateways.id, m.gatewayId), eq(gateways.companyId, m.companyId)));
}

type JoinedRow = Awaited<ReturnType<ReturnType<typeof joined>['execute']>>[number];

function view(row: JoinedRow, now: Date): MonitorView {
  const mon = row.monitor;
  const last = row.lastUpdate;
  return {
    id: mon.id,
    kind: mon.itemId !== null ? 'item' : 'device',
    itemId: mon.itemId,
    deviceId: mon.gatewayId,
    name: row.itemName ?? row.deviceName ?? '',
    serialNumber: mon.gatewayId !== null ? (row.serialNumber ?? null) : null,
    windowMinutes: mon.windowMinutes,
    lastUpdateAt: last ? last.toISOString() : null,
    minutesSince: minutesSince(last ? Math.min(last.getTime(), now.getTime()) : null, now.getTime()),
    state: mon.state as NoDataState,
    stateSince: mon.stateSince.toISOString(),
    alarmId: mon.state === 'alarm' ? mon.alarmId : null,
    checkedAt: mon.checkedAt?.toISOString() ?? null,
    createdAt: mon.createdAt.toISOString(),
  };
}

export async function listMonitors(
  db: Db,
  caller: DataCaller,
  query: MonitorQuery,
  now = new Date(),
): Promise<{ list: MonitorView[]; total: number }> {
  const scope = await readableWhere(db, caller);
  const keyword = query.keyword?.trim();
  const where = and(
    scope,
    query.state ? eq(m.state, query.state) : undefined,
    query.kind === 'item'
      ? isNotNull(m.itemId)
      : query.kind === 'device'
        ? isNotNull(m.gatewayId)
        : undefined,
    keyword
      ? sql`(coalesce(${dataItems.name}, ${devices.name}, '') ILIKE ${`%${keyword.replace(/[\\%_]/g, '\\$&')}%`} OR coalesce(${gateways.serialNumber}, '') ILIKE ${`%${keyword.replace(/[\\%_]/g, '\\$&')}%`})`
      : undefined,
  );
  const last = lastUpdateSql(now);
  // lateness: how far past its window the last update is; never is the latest of all
  const overdue = sql`coalesce(${last}, '-infinity'::timestamptz) + make_interval(mins => ${m.windowMinutes}::int)`;
  const order =
    query.sort === 'name'
      ? [asc(sql`coalesce(${dataItems.name}, ${devices.name})`), asc(m.id)]
      : query.sort === 'created'
        ? [desc(m.createdAt), desc(m.id)]
        : [asc(overdue), asc(m.id)];
  const [rows, [count]] = await Promise.all([
    joined(db, now)
      .where(where)
      .orderBy(...order)
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(m)
      .leftJoin(dataItems, and(eq(dataItems.id, m.itemId), eq(dataItems.companyId, m.companyId)))
      .leftJoin(
        devices,
        and(
          eq(devices.gatewayId, m.gatewayId),
          eq(devices.companyId, m.companyId),
          isNotNull(devices.nodeId),
        ),
      )
      .leftJoin(gateways, and(eq(gateways.id, m.gatewayId), eq(gateways.companyId, m.companyId)))
      .where(where),
  ]);
  return { list: rows.map((r) => view(r, now)), total: count?.n ?? 0 };
}

/** One monitor the caller can read, or 40400 naming `field`. */
export async function monitorFor(db: Db, caller: DataCaller, id: number, field = 'id', now = new Date()) {
  const scope = await readableWhere(db, caller);
  const [row] = await joined(db, now).where(and(scope, eq(m.id, id)));
  if (!row) throw new AppError('notFound', {}, { field });
  return row;
}

/**
 * Adds monitors on items and devices of the caller's company that the caller can read; one
 * not found or not readable refuses the whole call naming its field, nothing written. Items
 * and devices already watched keep their monitor (and its window). Every new monitor is
 * checked at once.
 */
export async function addMonitors(
  app: App,
  caller: DataCaller,
  body: { itemIds?: number[]; deviceIds?: number[]; windowMinutes: DataUpdateWindow },
  now = new Date(),
): Promise<{ added: number; existing: number; ids: number[] }> {
  const itemIds = [...new Set(body.itemIds ?? [])];
  const deviceIds = [...new Set(body.deviceIds ?? [])];
  if (itemIds.length === 0 && deviceIds.length === 0) {
    throw new AppError('fieldRequired', { field: 'itemIds' }, { field: 'itemIds' });
  }
  if (itemIds.length > 0) {
    const items = await app.db
      .select({ id: dataItems.id, nodeId: dataItems.nodeId })
      .from(dataItems)
      .where(and(eq(dataItems.companyId, caller.companyId), inArray(dataItems.id, itemIds)));
    const levels = await levelsFor(
      app.db,
      caller,
      items.map((i) => i.nodeId),
    );
    const readable = new Set(
      items.filter((i) => (levels.get(i.nodeId) ?? 0) > DATA_PERMISSION.none).map((i) => i.id),
    );
    if (itemIds.some((id) => !readable.has(id))) throw new AppError('notFound', {}, { field: 'itemIds' });
  }
  if (deviceIds.length > 0) {
    const readable = new Set((await readableDevices(app.db, caller)).map((d) => d.gateway.id));
    if (deviceIds.some((id) => !readable.has(id))) throw new AppError('notFound', {}, { field: 'deviceIds' });
  }
  const values = [
    ...itemIds.map((itemId) => ({ itemId, gatewayId: null })),
    ...deviceIds.map((gatewayId) => ({ itemId: null, gatewayId })),
  ].map((target) => ({
    ...target,
    companyId: caller.companyId,
    windowMinutes: body.windowMinutes,
    state: 'late',
    stateSince: now,
    createdBy: caller.userId,
    createdAt: now,
  }));
  const inserted = await app.db.insert(m).values(values).onConflictDoNothing().returning({ id: m.id });
  const ids = inserted.map((r) => r.id);
  if (ids.length > 0) await checkMonitors(app, now, ids);
  return { added: ids.length, existing: values.length - ids.length, ids };
}

/** Changes a monitor's window and checks it at once against the new one. */
export async function setWindow(
  app: App,
  caller: DataCaller,
  id: number,
  windowMinutes: DataUpdateWindow,
  now = new Date(),
): Promise<MonitorView> {
  await monitorFor(app.db, caller, id);
  await app.db
    .update(m)
    .set({ windowMinutes, version: sql`${m.version} + 1` })
    .where(and(eq(m.id, id), eq(m.companyId, caller.companyId)));
  await checkMonitors(app, now, [id]);
  return view(await monitorFor(app.db, caller, id, 'id', now), now);
}

/** Removes monitors; an open no-data alarm of each is cleared in the alarm log. */
export async function removeMonitors(
  app: App,
  caller: DataCaller,
  ids: number[],
  now = new Date(),
): Promise<number> {
  const rows = [];
  for (const id of new Set(ids)) rows.push((await monitorFor(app.db, caller, id, 'ids', now)).monitor);
  for (const row of rows) if (row.state === 'alarm') await noDataAlarmCleared(app, row, null, now);
  const gone = await app.db
    .delete(m)
    .where(
      and(
        eq(m.companyId, caller.companyId),
        inArray(
          m.id,
          rows.map((r) => r.id),
        ),
      ),
    )
    .returning({ id: m.id });
  return gone.length;
}

/** What the add dialog offers: the readable cabin tree (directories and data items) and readable devices. */
export async function candidates(app: App, caller: DataCaller) {
  const [tree, deviceRows, watched] = await Promise.all([
    cabinTree(app.db, caller),
    readableDevices(app.db, caller),
    app.db
      .select({ itemId: m.itemId, gatewayId: m.gatewayId })
      .from(m)
      .where(eq(m.companyId, caller.companyId)),
  ]);
  const watchedItems = new Set(watched.map((w) => w.itemId).filter((v) => v !== null));
  const watchedDevices = new Set(watched.map((w) => w.gatewayId).filter((v) => v !== null));
  return {
    nodes: tree
      .filter((n) => n.type === 'directory' || (n.type === 'dataItem' && n.refId !== null))
      .map((n) => ({
        id: n.id,
        parentId: n.parentId,
        type: n.type,
        name: n.name,
        itemId: n.type === 'dataItem' ? n.refId : null,
        watched: n.type === 'dataItem' && n.refId !== null && watchedItems.has(n.refId),
      })),
    devices: deviceRows
      .map((d) => ({
        id: d.gateway.id,
        name: d.device.name,
        serialNumber: d.gateway.serialNumber,
        watched: watchedDevices.has(d.gateway.id),
      }))
      .sort((a, b) => a.name.localeCompare(b.name, 'zh') || a.id - b.id),
  };
}
