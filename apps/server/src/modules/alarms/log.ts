/**
 * Writes to the alarm log (cs_info). One OPEN alarm per dedupe key is the database's rule (the
 * partial unique index `alarms_open_once` over rows not cleared): opening is an
 * INSERT … ON CONFLICT that updates the open row instead, so two raises at once, on one node or
 * two, make one alarm; `created` tells which raise made it (PostgreSQL's xmax is 0 only on
 * the row version an INSERT wrote).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { type AlarmOrigin, alarms } from './tables';

export interface AlarmKey {
  companyId: number;
  origin: AlarmOrigin;
  originId: number;
  itemId: number | null;
  deviceId: number | null;
}

export function dedupeKeyOf(key: AlarmKey): string {
  return `${key.origin}:${key.originId}:${key.itemId ?? 0}:${key.deviceId ?? 0}`;
}

export interface OpenInput extends AlarmKey {
  ruleId: number | null;
  fieldKey: string | null;
  name: string;
  level: number;
  value: number | null;
  at: Date;
  notified: number[];
}

export interface OpenResult {
  id: number;
  created: boolean;
  level: number;
  status: string;
  notified: number[];
}

/** Opens the alarm of the key, or updates (level, value) the one open already. */
export async function openAlarm(db: Db, input: OpenInput): Promise<OpenResult> {
  const [row] = await db
    .insert(alarms)
    .values({
      companyId: input.companyId,
      origin: input.origin,
      originId: input.originId,
      ruleId: input.ruleId,
      itemId: input.itemId,
      deviceId: input.deviceId,
      fieldKey: input.fieldKey,
      name: input.name.slice(0, 50),
      dedupeKey: dedupeKeyOf(input),
      level: input.level,
      peakLevel: input.level,
      value: input.value,
      firedAt: input.at,
      updatedAt: input.at,
      notified: input.notified,
    })
    .onConflictDoUpdate({
      target: alarms.dedupeKey,
      targetWhere: sql`cleared_at is null`,
      set: {
        level: sql`excluded.level`,
        peakLevel: sql`greatest(${alarms.peakLevel}, excluded.level)`,
        value: sql`excluded.value`,
        updatedAt: sql`excluded.updated_at`,
      },
    })
    .returning({
      id: alarms.id,
      created: sql<boolean>`(xmax = 0)`,
      level: alarms.level,
      status: alarms.status,
      notified: alarms.notified,
    });
  return { ...row!, created: Boolean(row!.created) };
}

/**
 * Opens the alarm of the key, or updates the one open already, telling which level it had
 * before (`previousLevel`; null when this call opened it). The open row is updated under its
 * lock, so two raises at once see each other's level, never the same one twice.
 */
export async function raiseAlarm(
  db: Db,
  input: OpenInput,
): Promise<OpenResult & { previousLevel: number | null }> {
  const before = sql`(select ${alarms.id} as open_id, ${alarms.level} as old_level from ${alarms} where ${alarms.dedupeKey} = ${dedupeKeyOf(input)} and ${alarms.clearedAt} is null for update) as before`;
  const result = await db.execute(
    sql`update ${alarms} set level = ${input.level}, peak_level = greatest(${alarms.peakLevel}, ${input.level}), value = ${input.value}, updated_at = ${input.at.toISOString()}::timestamptz from ${before} where ${alarms.id} = before.open_id returning ${alarms.id} as id, ${alarms.level} as level, ${alarms.status} as status, ${alarms.notified} as notified, before.old_level as "previousLevel"`,
  );
  const [updated] = ((result as { rows?: unknown[] }).rows ?? []) as Array<{
    id: number | string;
    level: number;
    status: string;
    notified: number[];
    previousLevel: number;
  }>;
  if (updated)
    return {
      id: Number(updated.id),
      level: Number(updated.level),
      status: updated.status,
      notified: updated.notified,
      previousLevel: Number(updated.previousLevel),
      created: false,
    };
  const opened = await openAlarm(db, input);
  // another raise opened it in between: it told of the opening, this one changed nothing it knows
  return { ...opened, previousLevel: opened.created ? null : opened.level };
}

/** Moves the level of the open alarm of the key (escalation); its id, or null when none is open. */
export async function moveLevel(
  db: Db,
  key: AlarmKey,
  level: number,
  value: number | null,
  at: Date,
): Promise<{ id: number; status: string; notified: number[]; name: string } | null> {
  const [row] = await db
    .update(alarms)
    .set({ level, value, updatedAt: at, peakLevel: sql`greatest(${alarms.peakLevel}, ${level})` })
    .where(and(eq(alarms.dedupeKey, dedupeKeyOf(key)), isNull(alarms.clearedAt)))
    .returning({ id: alarms.id, status: alarms.status, notified: alarms.notified, name: alarms.name });
  return row ?? null;
}

/** Clears the open alarm of the key (by = null: by the engine); its id, or null when none is open. */
export async function closeAlarm(
  db: Db,
  key: AlarmKey,
  value: number | null,
  at: Date,
  by: number | null,
): Promise<{ id: number; level: number; notified: number[]; name: string } | null> {
  const [row] = await db
    .update(alarms)
    .set({ status: 'cleared', clearedAt: at, clearedBy: by, clearValue: value, updatedAt: at })
    .where(and(eq(alarms.dedupeKey, dedupeKeyOf(key)), isNull(alarms.clearedAt)))
    .returning({ id: alarms.id, level: alarms.level, notified: alarms.notified, name: alarms.name });
  return row ?? null;
}
