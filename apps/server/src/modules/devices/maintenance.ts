/**
 * Device maintenance (/devicemanagement/maintenance, code dm_maintenance): records of work
 * done (date, kind, description, who did it, cost) and plans that come due every N days, with
 * an assignee from the company; marking a plan done records the work and moves its next due
 * date on. Scoped twice: to the caller's company (another company binding the gateway later
 * sees nothing of it) and to the devices the caller can read (read to see, read-write to
 * change). "Today", for overdue plans, is the company's day in its time zone.
 */
import {
  DATA_PERMISSION,
  DEFAULT_TIME_ZONE,
  isCalendarDate,
  isOverdue,
  isStorableText,
  type MaintenanceKind,
  nextDueAfter,
  zonedParts,
} from '@platform/domain';
import { and, count, desc, eq, gte, ilike, inArray, lte, or, type SQL } from 'drizzle-orm';
import type { App } from '../../platform/context';
import { AppError, fieldError } from '../../platform/envelope';
import { likePattern } from '../../platform/like';
import type { DataCaller } from '../cabin/permissions';
import { companies, companyMembers } from '../companies/tables';
import { users } from '../users/tables';
import { deviceFor, readableDevices } from './access';
import { maintenancePlans, maintenanceRecords } from './tables';

export const COST_MAX = 99_999_999.99;

/** The company's date today. */
export async function companyToday(app: App, companyId: number, now = Date.now()): Promise<string> {
  const [row] = await app.db
    .select({ tz: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  const p = zonedParts(now, row?.tz ?? DEFAULT_TIME_ZONE);
  return `${String(p.year).padStart(4, '0')}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

function text(value: string | undefined, field: string, max: number, required: boolean): string | undefined {
  if (value === undefined) {
    if (required) throw fieldError(field, 'fieldRequired');
    return undefined;
  }
  const t = value.trim();
  if (required && t === '') throw fieldError(field, 'fieldRequired');
  if ([...t].length > max || !isStorableText(t)) throw fieldError(field);
  return t;
}

function date(value: string | undefined, field: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isCalendarDate(value)) throw fieldError(field);
  return value;
}

/** A cost in money (at most two decimals) as cents; null clears it. */
function cents(value: number | null | undefined): number | null | undefined {
  if (value === undefined || value === null) return value;
  const c = Math.round(value * 100);
  if (!Number.isFinite(value) || value < 0 || value > COST_MAX || Math.abs(value * 100 - c) > 1e-6)
    throw fieldError('cost');
  return c;
}

async function checkAssignee(
  app: App,
  companyId: number,
  assigneeId: number | null | undefined,
): Promise<void> {
  if (assigneeId === undefined || assigneeId === null) return;
  const [member] = await app.db
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .where(
      and(
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.userId, assigneeId),
        eq(companyMembers.status, 'active'),
      ),
    );
  if (!member) throw fieldError('assigneeId', 'planAssigneeInvalid');
}

/** Devices of the company the caller can read: id → {serialNumber, name}. */
async function readable(app: App, caller: DataCaller) {
  const rows = await readableDevices(app.db, caller);
  return new Map(
    rows.map((r) => [
      r.gateway.id,
      { serialNumber: r.gateway.serialNumber, name: r.device.name, level: r.level },
    ]),
  );
}

export async function maintenanceDevices(app: App, caller: DataCaller) {
  const devices = await readable(app, caller);
  return [...devices]
    .map(([id, d]) => ({ id, serialNumber: d.serialNumber, name: d.name, level: d.level }))
    .sort((a, b) => a.name.localeCompare(b.name, 'zh') || a.id - b.id);
}

export interface RecordQuery {
  deviceId?: number;
  kind?: MaintenanceKind;
  from?: string;
  to?: string;
  keyword?: string;
  limit: number;
  offset: number;
}

export async function listRecords(app: App, caller: DataCaller, query: RecordQuery) {
  const devices = await readable(app, caller);
  if (query.deviceId !== undefined)
    await deviceFor(app.db, caller, query.deviceId, DATA_PERMISSION.read, 'deviceId');
  const ids = query.deviceId !== undefined ? [query.deviceId] : [...devices.keys()];
  if (ids.length === 0) return { list: [], total: 0 };
  const from = date(query.from, 'from');
  const to = date(query.to, 'to');
  const keyword = query.keyword?.trim();
  const where = and(
    eq(maintenanceRecords.companyId, caller.companyId),
    inArray(maintenanceRecords.gatewayId, ids),
    ...([
      query.kind ? eq(maintenanceRecords.kind, query.kind) : undefined,
      from ? gte(maintenanceRecords.date, from) : undefined,
      to ? lte(maintenanceRecords.date, to) : undefined,
      keyword
        ? or(
            ilike(maintenanceRecords.description, likePattern(keyword)),
            ilike(maintenanceRecords.performedBy, likePattern(keyword)),
          )
        : undefined,
    ].filter(Boolean) as SQL[]),
  );
  const [rows, [total]] = await Promise.all([
    app.db
      .select({ record: maintenanceRecords, createdByName: users.userName })
      .from(maintenanceRecords)
      .leftJoin(users, eq(users.id, maintenanceRecords.createdBy))
      .where(where)
      .orderBy(desc(maintenanceRecords.date), desc(maintenanceRecords.id))
      .limit(query.limit)
      .offset(query.offset),
    app.db.select({ n: count() }).from(maintenanceRecords).where(where),
  ]);
  return {
    list: rows.map(({ record: r, createdByName }) => ({
      id: r.id,
      deviceId: r.gatewayId,
      serialNumber: devices.get(r.gatewayId)?.serialNumber ?? '',
      deviceName: devices.get(r.gatewayId)?.name ?? '',
      date: r.date,
      kind: r.kind,
      description: r.description,
      performedBy: r.performedBy,
      cost: r.costCents === null ? null : r.costCents / 100,
      planId: r.planId,
      createdBy: r.createdBy === null ? null : { id: r.createdBy, name: createdByName ?? '' },
      createdAt: r.createdAt.toISOString(),
    })),
    total: Number(total?.n ?? 0),
  };
}

export interface RecordInput {
  date?: string;
  kind?: MaintenanceKind;
  description?: string;
  performedBy?: string;
  cost?: number | null;
}

export async function createRecord(app: App, caller: DataCaller, input: RecordInput & { deviceId: number }) {
  const values = {
    date: date(input.date, 'date'),
    description: text(input.description, 'description', 500, true)!,
    performedBy: text(input.performedBy, 'performedBy', 50, false) ?? '',
    costCents: cents(input.cost) ?? null,
  };
  if (!values.date) throw fieldError('date', 'fieldRequired');
  if (!input.kind) throw fieldError('kind', 'typeRequired');
  await deviceFor(app.db, caller, input.deviceId, DATA_PERMISSION.write, 'deviceId');
  const [row] = await app.db
    .insert(maintenanceRecords)
    .values({
      ...values,
      date: values.date,
      kind: input.kind,
      companyId: caller.companyId,
      gatewayId: input.deviceId,
      createdBy: caller.userId,
    })
    .returning({ id: maintenanceRecords.id });
  return { id: row!.id };
}

/** A record of the company whose device the caller holds `needed` on. */
async function recordFor(app: App, caller: DataCaller, id: number) {
  const [row] = await app.db
    .select()
    .from(maintenanceRecords)
    .where(and(eq(maintenanceRecords.id, id), eq(maintenanceRecords.companyId, caller.companyId)));
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  await deviceFor(app.db, caller, row.gatewayId, DATA_PERMISSION.write);
  return row;
}

export async function updateRecord(app: App, caller: DataCaller, input: RecordInput & { id: number }) {
  const changes = {
    date: date(input.date, 'date'),
    kind: input.kind,
    description: text(input.description, 'description', 500, input.description !== undefined),
    performedBy: text(input.performedBy, 'performedBy', 50, false),
    costCents: cents(input.cost),
  };
  const record = await recordFor(app, caller, input.id);
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  await app.db
    .update(maintenanceRecords)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(maintenanceRecords.id, record.id));
}

export async function deleteRecord(app: App, caller: DataCaller, id: number) {
  const record = await recordFor(app, caller, id);
  await app.db.delete(maintenanceRecords).where(eq(maintenanceRecords.id, record.id));
}

export interface PlanQuery {
  deviceId?: number;
  overdue?: boolean;
  assigneeId?: number;
  limit: number;
  offset: number;
}

/** Whole days from `today` to `due` (negative when overdue). */
function daysBetween(today: string, due: string): number {
  return Math.round((Date.parse(`${due}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
}

export async function listPlans(app: App, caller: DataCaller, query: PlanQuery) {
  const devices = await readable(app, caller);
  if (query.deviceId !== undefined)
    await deviceFor(app.db, caller, query.deviceId, DATA_PERMISSION.read, 'deviceId');
  const ids = query.deviceId !== undefined ? [query.deviceId] : [...devices.keys()];
  if (ids.length === 0) return { list: [], total: 0 };
  const today = await companyToday(app, caller.companyId);
  const rows = await app.db
    .select({ plan: maintenancePlans, assigneeName: users.userName })
    .from(maintenancePlans)
    .leftJoin(users, eq(users.id, maintenancePlans.assigneeId))
    .where(
      and(
        eq(maintenancePlans.companyId, caller.companyId),
        inArray(maintenancePlans.gatewayId, ids),
        query.assigneeId !== undefined ? eq(maintenancePlans.assigneeId, query.assigneeId) : undefined,
      ),
    );
  const list = rows
    .map(({ plan: p, assigneeName }) => ({
      id: p.id,
      deviceId: p.gatewayId,
      serialNumber: devices.get(p.gatewayId)?.serialNumber ?? '',
      deviceName: devices.get(p.gatewayId)?.name ?? '',
      title: p.title,
      intervalDays: p.intervalDays,
      nextDue: p.nextDue,
      overdue: isOverdue(p.nextDue, today),
      daysLeft: daysBetween(today, p.nextDue),
      assignee: p.assigneeId === null ? null : { id: p.assigneeId, name: assigneeName ?? '' },
      lastDoneOn: p.lastDoneOn,
      note: p.note,
    }))
    .filter((p) => query.overdue === undefined || p.overdue === query.overdue)
    // overdue first, then by the next due date
    .sort(
      (a, b) => Number(b.overdue) - Number(a.overdue) || a.nextDue.localeCompare(b.nextDue) || a.id - b.id,
    );
  return { list: list.slice(query.offset, query.offset + query.limit), total: list.length };
}

export interface PlanInput {
  title?: string;
  intervalDays?: number;
  nextDue?: string;
  assigneeId?: number | null;
  note?: string;
}

export async function createPlan(app: App, caller: DataCaller, input: PlanInput & { deviceId: number }) {
  const title = text(input.title, 'title', 50, true)!;
  const nextDue = date(input.nextDue, 'nextDue');
  if (!nextDue) throw fieldError('nextDue', 'fieldRequired');
  if (input.intervalDays === undefined) throw fieldError('intervalDays', 'fieldRequired');
  const note = text(input.note, 'note', 200, false) ?? '';
  await deviceFor(app.db, caller, input.deviceId, DATA_PERMISSION.write, 'deviceId');
  await checkAssignee(app, caller.companyId, input.assigneeId);
  const [row] = await app.db
    .insert(maintenancePlans)
    .values({
      companyId: caller.companyId,
      gatewayId: input.deviceId,
      title,
      intervalDays: input.intervalDays,
      nextDue,
      assigneeId: input.assigneeId ?? null,
      note,
      createdBy: caller.userId,
    })
    .returning({ id: maintenancePlans.id });
  return { id: row!.id };
}

async function planFor(app: App, caller: DataCaller, id: number) {
  const [row] = await app.db
    .select()
    .from(maintenancePlans)
    .where(and(eq(maintenancePlans.id, id), eq(maintenancePlans.companyId, caller.companyId)));
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  await deviceFor(app.db, caller, row.gatewayId, DATA_PERMISSION.write);
  return row;
}

export async function updatePlan(app: App, caller: DataCaller, input: PlanInput & { id: number }) {
  const changes = {
    title: text(input.title, 'title', 50, input.title !== undefined),
    intervalDays: input.intervalDays,
    nextDue: date(input.nextDue, 'nextDue'),
    assigneeId: input.assigneeId,
    note: text(input.note, 'note', 200, false),
  };
  const plan = await planFor(app, caller, input.id);
  await checkAssignee(app, caller.companyId, input.assigneeId);
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  await app.db
    .update(maintenancePlans)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(maintenancePlans.id, plan.id));
}

export async function deletePlan(app: App, caller: DataCaller, id: number) {
  const plan = await planFor(app, caller, id);
  await app.db.delete(maintenancePlans).where(eq(maintenancePlans.id, plan.id));
}

/** The plan's work was done: a record of it, and the next due date `intervalDays` after. */
export async function planDone(
  app: App,
  caller: DataCaller,
  input: {
    id: number;
    doneOn?: string;
    kind?: MaintenanceKind;
    description?: string;
    performedBy?: string;
    cost?: number | null;
  },
) {
  const doneOn = date(input.doneOn, 'doneOn');
  const description = text(input.description, 'description', 500, false);
  const performedBy = text(input.performedBy, 'performedBy', 50, false) ?? '';
  const costCents = cents(input.cost) ?? null;
  const plan = await planFor(app, caller, input.id);
  const on = doneOn ?? (await companyToday(app, caller.companyId));
  const nextDue = nextDueAfter(on, plan.intervalDays);
  const recordId = await app.db.transaction(async (tx) => {
    const [record] = await tx
      .insert(maintenanceRecords)
      .values({
        companyId: caller.companyId,
        gatewayId: plan.gatewayId,
        date: on,
        kind: input.kind ?? 'inspection',
        description: description || plan.title,
        performedBy,
        costCents,
        planId: plan.id,
        createdBy: caller.userId,
      })
      .returning({ id: maintenanceRecords.id });
    await tx
      .update(maintenancePlans)
      .set({ lastDoneOn: on, nextDue, updatedAt: new Date() })
      .where(eq(maintenancePlans.id, plan.id));
    return record!.id;
  });
  return { nextDue, recordId };
}
