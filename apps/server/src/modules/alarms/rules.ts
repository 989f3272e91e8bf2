/**
 * Alarm rules (cs_rules) as the caller sees them: only rules on items of the caller's company
 * that the caller may read; a rule is made on an item field the caller can read, and names
 * recipients of the caller's company only. Another company's rule is 40400 as if absent.
 */
import {
  type AlarmClearSpec,
  type AlarmCondition,
  type AlarmLevelSpec,
  checkAlarmRule,
  DATA_PERMISSION,
  type DataPermission,
  NUMERIC_FIELD_TYPES,
} from '@platform/domain';
import { type AnyColumn, and, count, desc, eq, ilike, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import { type DataCaller, levelsFor } from '../cabin/permissions';
import { companyMembers } from '../companies/tables';
import { dataItems } from '../dataitems/tables';
import { devices } from '../devices/tables';
import { userGroups } from '../groups/tables';
import { itemFor } from '../records/service';
import { type AlarmChannel, type AlarmRecipients, alarmRules } from './tables';

export interface RuleInput {
  name: string;
  enabled: boolean;
  itemId: number;
  fieldKey: string;
  deviceId: number | null;
  condition: AlarmCondition;
  levels: AlarmLevelSpec[];
  durationS: number;
  clear: AlarmClearSpec | null;
  recipients: AlarmRecipients;
  channels: AlarmChannel[];
}

export interface RuleView extends RuleInput {
  id: number;
  itemName: string;
  fieldName: string;
  deviceName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Checks a rule as sent; throws the first problem naming its field. Nothing is written. */
export async function checkRuleInput(db: Db, who: DataCaller, input: RuleInput): Promise<void> {
  if (input.name.trim() === '') throw fieldError('name', 'fieldRequired');
  const item = await itemFor(db, who, input.itemId, DATA_PERMISSION.read);
  const field = item.fields.find((f) => f.key === input.fieldKey);
  if (!field) throw fieldError('fieldKey');
  if (!NUMERIC_FIELD_TYPES.includes(field.type))
    throw new AppError('alarmNotNumeric', { field: field.name }, { field: 'fieldKey' });
  const problem = checkAlarmRule(input);
  if (problem) throw new AppError(problem.key, { field: problem.field }, { field: problem.field });
  if (input.deviceId !== null) {
    const [device] = await db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.id, input.deviceId), eq(devices.companyId, who.companyId)));
    if (!device) throw fieldError('deviceId');
  }
  const userIds = [...new Set(input.recipients.userIds)];
  if (userIds.length > 0) {
    const found = await db
      .select({ userId: companyMembers.userId })
      .from(companyMembers)
      .where(
        and(
          eq(companyMembers.companyId, who.companyId),
          eq(companyMembers.status, 'active'),
          inArray(companyMembers.userId, userIds),
        ),
      );
    if (found.length !== userIds.length) throw fieldError('recipients.userIds');
  }
  const groupIds = [...new Set(input.recipients.groupIds)];
  if (groupIds.length > 0) {
    const found = await db
      .select({ id: userGroups.id })
      .from(userGroups)
      .where(and(eq(userGroups.companyId, who.companyId), inArray(userGroups.id, groupIds)));
    if (found.length !== groupIds.length) throw fieldError('recipients.groupIds');
  }
}

function rowValues(who: DataCaller, input: RuleInput) {
  return {
    companyId: who.companyId,
    name: input.name.trim(),
    enabled: input.enabled,
    itemId: input.itemId,
    fieldKey: input.fieldKey,
    deviceId: input.deviceId,
    condition: input.condition,
    levels: [...input.levels].sort((a, b) => a.level - b.level),
    durationS: input.durationS,
    clear: input.clear,
    recipients: {
      userIds: [...new Set(input.recipients.userIds)],
      groupIds: [...new Set(input.recipients.groupIds)],
    },
    channels: [...new Set(input.channels)],
  };
}

export async function addRule(db: Db, who: DataCaller, input: RuleInput): Promise<number> {
  await checkRuleInput(db, who, input);
  const [row] = await db
    .insert(alarmRules)
    .values({ ...rowValues(who, input), createdBy: who.userId })
    .returning({ id: alarmRules.id });
  return row!.id;
}

/** The rule of the caller's company on an item the caller can read at `level`; else 40400/40300. */
export async function ruleFor(
  db: Db,
  who: DataCaller,
  id: number,
  level: DataPermission = DATA_PERMISSION.read,
) {
  const [row] = await db
    .select()
    .from(alarmRules)
    .where(and(eq(alarmRules.id, id), eq(alarmRules.companyId, who.companyId)));
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  await itemFor(db, who, row.itemId, level).catch((error: unknown) => {
    if (error instanceof AppError && error.key === 'notFound')
      throw new AppError('notFound', {}, { field: 'id' });
    throw error;
  });
  return row;
}

export async function updateRule(db: Db, who: DataCaller, id: number, input: RuleInput): Promise<void> {
  await ruleFor(db, who, id, DATA_PERMISSION.write);
  await checkRuleInput(db, who, input);
  await db
    .update(alarmRules)
    .set({ ...rowValues(who, input), updatedAt: new Date() })
    .where(and(eq(alarmRules.id, id), eq(alarmRules.companyId, who.companyId)));
}

export async function setEnabled(db: Db, who: DataCaller, id: number, enabled: boolean): Promise<void> {
  await ruleFor(db, who, id, DATA_PERMISSION.write);
  await db
    .update(alarmRules)
    .set({ enabled, updatedAt: new Date() })
    .where(and(eq(alarmRules.id, id), eq(alarmRules.companyId, who.companyId)));
}

export async function deleteRule(
  db: Db,
  who: DataCaller,
  id: number,
  /** clears the rule's open alarms first (they keep their history, rule_id becomes null) */
  retire: () => Promise<void>,
): Promise<void> {
  await ruleFor(db, who, id, DATA_PERMISSION.write);
  await retire();
  await db.delete(alarmRules).where(and(eq(alarmRules.id, id), eq(alarmRules.companyId, who.companyId)));
}

/** The item ids of the caller's company the caller can read, with their node (one levels query). */
/**
 * The condition "this item column names an item the caller can read", for the database to
 * apply (the caller's levels come from the cabin tree; the items are never loaded here):
 * undefined when the caller reads every item of the company, else a test of the item's node
 * against the readable nodes, or against the unreadable ones when those are fewer.
 */
export async function readableItemsWhere(
  db: Db,
  who: DataCaller,
  itemColumn: AnyColumn,
): Promise<SQL | undefined> {
  const levels = await levelsFor(db, who);
  const readable: number[] = [];
  const hidden: number[] = [];
  for (const [nodeId, level] of levels) (level >= DATA_PERMISSION.read ? readable : hidden).push(nodeId);
  if (hidden.length === 0) return undefined;
  if (readable.length === 0) return sql`false`;
  // one parameter however many nodes (a list of parameters has a limit)
  const nodes = (ids: number[]) =>
    sql`(select (jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))::integer)`;
  const itemsOf = (ids: number[]) =>
    sql`(select ${dataItems.id} from ${dataItems} where ${dataItems.companyId} = ${who.companyId} and ${dataItems.nodeId} in ${nodes(ids)})`;
  return readable.length <= hidden.length
    ? sql`${itemColumn} in ${itemsOf(readable)}`
    : sql`${itemColumn} not in ${itemsOf(hidden)}`;
}

export async function listRules(
  db: Db,
  who: DataCaller,
  q: { name?: string; itemId?: number; enabled?: boolean; limit: number; offset: number },
): Promise<{ list: RuleView[]; total: number }> {
  const where: SQL[] = [eq(alarmRules.companyId, who.companyId)];
  const readable = await readableItemsWhere(db, who, alarmRules.itemId);
  if (readable) where.push(readable);
  if (q.name) where.push(ilike(alarmRules.name, `%${q.name.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  if (q.itemId !== undefined) where.push(eq(alarmRules.itemId, q.itemId));
  if (q.enabled !== undefined) where.push(eq(alarmRules.enabled, q.enabled));
  const [total] = await db
    .select({ n: count() })
    .from(alarmRules)
    .where(and(...where));
  const rows = await db
    .select({
      rule: alarmRules,
      itemName: dataItems.name,
      fields: dataItems.fields,
      deviceName: devices.name,
    })
    .from(alarmRules)
    .innerJoin(dataItems, eq(dataItems.id, alarmRules.itemId))
    .leftJoin(devices, eq(devices.id, alarmRules.deviceId))
    .where(and(...where))
    .orderBy(desc(alarmRules.id))
    .limit(q.limit)
    .offset(q.offset);
  return { list: rows.map((r) => viewOf(r.rule, r.itemName, r.fields, r.deviceName)), total: total?.n ?? 0 };
}

export async function getRule(db: Db, who: DataCaller, id: number): Promise<RuleView> {
  await ruleFor(db, who, id);
  const [r] = await db
    .select({
      rule: alarmRules,
      itemName: dataItems.name,
      fields: dataItems.fields,
      deviceName: devices.name,
    })
    .from(alarmRules)
    .innerJoin(dataItems, eq(dataItems.id, alarmRules.itemId))
    .leftJoin(devices, eq(devices.id, alarmRules.deviceId))
    .where(eq(alarmRules.id, id));
  return viewOf(r!.rule, r!.itemName, r!.fields, r!.deviceName);
}

function viewOf(
  rule: typeof alarmRules.$inferSelect,
  itemName: string,
  fields: Array<{ key: string; name: string }>,
  deviceName: string | null,
): RuleView {
  return {
    id: rule.id,
    name: rule.name,
    enabled: rule.enabled,
    itemId: rule.itemId,
    itemName,
    fieldKey: rule.fieldKey,
    fieldName: fields.find((f) => f.key === rule.fieldKey)?.name ?? rule.fieldKey,
    deviceId: rule.deviceId,
    deviceName,
    condition: rule.condition as AlarmCondition,
    levels: rule.levels,
    durationS: rule.durationS,
    clear: rule.clear,
    recipients: rule.recipients,
    channels: rule.channels,
    createdAt: rule.createdAt.toISOString(),
    updatedAt: rule.updatedAt.toISOString(),
  };
}
