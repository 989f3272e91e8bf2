/**
 * Reading the alarm log: the caller's company only, and of alarms on items only those of items
 * the caller can read (an alarm of a device without an item, a no-data alarm of a device, is
 * shown to everyone holding cs_info in the company).
 */
import { DATA_PERMISSION } from '@platform/domain';
import { aliasedTable, and, asc, count, desc, eq, gte, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import type { DataCaller } from '../cabin/permissions';
import { dataItems } from '../dataitems/tables';
import { devices } from '../devices/tables';
import { itemFor } from '../records/service';
import { users } from '../users/tables';
import { readableItemsWhere } from './rules';
import { type AlarmLogStatus, alarms } from './tables';

export interface AlarmFilter {
  level?: number;
  itemId?: number;
  deviceId?: number;
  status?: AlarmLogStatus | 'open';
  from?: Date;
  to?: Date;
  /** only alarms this user was told about */
  notifiedUserId?: number;
}

export const ALARM_SORTS = ['firedAt', 'level', 'updatedAt'] as const;
export type AlarmSort = (typeof ALARM_SORTS)[number];

export interface AlarmView {
  id: number;
  origin: string;
  ruleId: number | null;
  name: string;
  itemId: number | null;
  itemName: string | null;
  fieldKey: string | null;
  deviceId: number | null;
  deviceName: string | null;
  level: number;
  peakLevel: number;
  value: number | null;
  status: string;
  firedAt: string;
  updatedAt: string;
  acknowledgedAt: string | null;
  acknowledgedBy: string | null;
  ackComment: string | null;
  clearedAt: string | null;
  clearedBy: string | null;
  clearValue: number | null;
}

const ackUser = aliasedTable(users, 'ack_user');
const clearUser = aliasedTable(users, 'clear_user');

async function whereOf(db: Db, who: DataCaller, f: AlarmFilter): Promise<SQL> {
  const where: SQL[] = [eq(alarms.companyId, who.companyId)];
  // an alarm without an item (a device's no-data alarm) is everyone's with cs_info
  const readable = await readableItemsWhere(db, who, alarms.itemId);
  if (readable) where.push(or(isNull(alarms.itemId), readable)!);
  if (f.level !== undefined) where.push(eq(alarms.level, f.level));
  if (f.itemId !== undefined) where.push(eq(alarms.itemId, f.itemId));
  if (f.deviceId !== undefined) where.push(eq(alarms.deviceId, f.deviceId));
  if (f.status === 'open') where.push(isNull(alarms.clearedAt));
  else if (f.status !== undefined) where.push(eq(alarms.status, f.status));
  if (f.from) where.push(gte(alarms.firedAt, f.from));
  if (f.to) where.push(lte(alarms.firedAt, f.to));
  if (f.notifiedUserId !== undefined)
    // jsonb containment: the user is among those told
    where.push(sql`${alarms.notified} @> ${JSON.stringify([f.notifiedUserId])}::jsonb`);
  return and(...where)!;
}

function selection() {
  return {
    a: alarms,
    itemName: dataItems.name,
    deviceName: devices.name,
    ackName: ackUser.userName,
    clearName: clearUser.userName,
  };
}

type Joined = {
  a: typeof alarms.$inferSelect;
  itemName: string | null;
  deviceName: string | null;
  ackName: string | null;
  clearName: string | null;
};

function viewOf(r: Joined): AlarmView {
  const a = r.a;
  return {
    id: a.id,
    origin: a.origin,
    ruleId: a.ruleId,
    name: a.name,
    itemId: a.itemId,
    itemName: r.itemName,
    fieldKey: a.fieldKey,
    deviceId: a.deviceId,
    deviceName: r.deviceName,
    level: a.level,
    peakLevel: a.peakLevel,
    value: a.value,
    status: a.status,
    firedAt: a.firedAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    acknowledgedAt: a.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: r.ackName,
    ackComment: a.ackComment,
    clearedAt: a.clearedAt?.toISOString() ?? null,
    clearedBy: r.clearName,
    clearValue: a.clearValue,
  };
}

function joined(db: Db) {
  return db
    .select(selection())
    .from(alarms)
    .leftJoin(dataItems, eq(dataItems.id, alarms.itemId))
    .leftJoin(devices, eq(devices.id, alarms.deviceId))
    .leftJoin(ackUser, eq(ackUser.id, alarms.acknowledgedBy))
    .leftJoin(clearUser, eq(clearUser.id, alarms.clearedBy));
}

function orderOf(sort: AlarmSort, order: 'asc' | 'desc') {
  const dir = order === 'asc' ? asc : desc;
  const column = sort === 'level' ? alarms.level : sort === 'updatedAt' ? alarms.updatedAt : alarms.firedAt;
  return [dir(column), dir(alarms.id)];
}

export async function listAlarms(
  db: Db,
  who: DataCaller,
  filter: AlarmFilter,
  page: { limit: number; offset: number },
  sort: AlarmSort = 'firedAt',
  order: 'asc' | 'desc' = 'desc',
): Promise<{ list: AlarmView[]; total: number }> {
  const where = await whereOf(db, who, filter);
  const [total] = await db.select({ n: count() }).from(alarms).where(where);
  const rows = await joined(db)
    .where(where)
    .orderBy(...orderOf(sort, order))
    .limit(page.limit)
    .offset(page.offset);
  return { list: rows.map(viewOf), total: total?.n ?? 0 };
}

/** Open alarms by level (the alert dashboard's head); with `notifiedUserId`, only those that user was told of (the home card). */
export async function openCounts(
  db: Db,
  who: DataCaller,
  notifiedUserId?: number,
): Promise<Record<'1' | '2' | '3', number>> {
  const where = await whereOf(db, who, { status: 'open', notifiedUserId });
  const rows = await db
    .select({ level: alarms.level, n: count() })
    .from(alarms)
    .where(where)
    .groupBy(alarms.level);
  const out = { '1': 0, '2': 0, '3': 0 };
  for (const r of rows) if (r.level >= 1 && r.level <= 3) out[String(r.level) as '1' | '2' | '3'] = r.n;
  return out;
}

/** Every matching alarm in pages of 1,000, for an export that never holds the whole log. */
export async function* alarmBatches(
  db: Db,
  who: DataCaller,
  filter: AlarmFilter,
  sort: AlarmSort,
  order: 'asc' | 'desc',
): AsyncGenerator<AlarmView[]> {
  const where = await whereOf(db, who, filter);
  for (let offset = 0; ; offset += 1000) {
    const rows = await joined(db)
      .where(where)
      .orderBy(...orderOf(sort, order))
      .limit(1000)
      .offset(offset);
    if (rows.length > 0) yield rows.map(viewOf);
    if (rows.length < 1000) return;
  }
}

/** The alarm of the caller's company, if the caller may read its item; else 40400 on id. */
export async function alarmFor(db: Db, who: DataCaller, id: number): Promise<typeof alarms.$inferSelect> {
  const [row] = await db
    .select()
    .from(alarms)
    .where(and(eq(alarms.id, id), eq(alarms.companyId, who.companyId)));
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  if (row.itemId !== null)
    await itemFor(db, who, row.itemId, DATA_PERMISSION.read).catch(() => {
      throw new AppError('notFound', {}, { field: 'id' });
    });
  return row;
}
