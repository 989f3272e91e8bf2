import type { AlarmClearSpec, AlarmLevelSpec, AlarmState } from '@platform/domain';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { dataItems } from '../dataitems/tables';
import { devices } from '../devices/tables';
import { users } from '../users/tables';

export interface AlarmRecipients {
  userIds: number[];
  groupIds: number[];
}

export const ALARM_CHANNELS = ['app', 'email', 'sms'] as const;
export type AlarmChannel = (typeof ALARM_CHANNELS)[number];

/**
 * Alarm rules (cs_rules): a condition with up to three levels on one numeric field of one item.
 * A rule made on a device point is stored as the item field the point is written to
 * (`deviceId` remembers the device it was picked from, for the log's device filter).
 */
export const alarmRules = pgTable(
  'alarm_rules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    enabled: boolean('enabled').notNull().default(true),
    itemId: integer('item_id')
      .notNull()
      .references(() => dataItems.id, { onDelete: 'cascade' }),
    fieldKey: varchar('field_key', { length: 16 }).notNull(),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    condition: varchar('condition', { length: 8 }).notNull(),
    levels: jsonb('levels').$type<AlarmLevelSpec[]>().notNull(),
    durationS: integer('duration_s').notNull().default(0),
    clear: jsonb('clear').$type<AlarmClearSpec | null>(),
    recipients: jsonb('recipients').$type<AlarmRecipients>().notNull().default({ userIds: [], groupIds: [] }),
    channels: jsonb('channels').$type<AlarmChannel[]>().notNull().default(['app']),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    /** every change moves it: other nodes refresh their rule index when the newest one moves */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('alarm_rules_company').on(t.companyId), index('alarm_rules_item').on(t.itemId)],
);

/**
 * The engine's state of each rule over its item: locked FOR UPDATE while a batch of samples
 * steps through it, so two nodes (or two flushes) never judge the same rule at once.
 */
export const alarmRuleStates = pgTable(
  'alarm_rule_states',
  {
    ruleId: integer('rule_id')
      .notNull()
      .references(() => alarmRules.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => dataItems.id, { onDelete: 'cascade' }),
    state: jsonb('state').$type<AlarmState>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.ruleId, t.itemId] })],
);

export const ALARM_STATUSES = ['active', 'acknowledged', 'cleared'] as const;
export type AlarmLogStatus = (typeof ALARM_STATUSES)[number];
export type AlarmOrigin = 'rule' | 'noData';

/**
 * The alarm log (cs_info). At most one OPEN alarm (not cleared) per dedupe key
 * (`origin:originId:itemId:deviceId`): the partial unique index makes a second raise an update
 * (INSERT … ON CONFLICT), whichever node or flush raises it.
 */
export const alarms = pgTable(
  'alarms',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    origin: varchar('origin', { length: 8 }).$type<AlarmOrigin>().notNull(),
    originId: integer('origin_id').notNull(),
    ruleId: integer('rule_id').references(() => alarmRules.id, { onDelete: 'set null' }),
    itemId: integer('item_id').references(() => dataItems.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    fieldKey: varchar('field_key', { length: 16 }),
    name: varchar('name', { length: 50 }).notNull(),
    dedupeKey: varchar('dedupe_key', { length: 64 }).notNull(),
    level: integer('level').notNull(),
    /** the highest level it reached while open */
    peakLevel: integer('peak_level').notNull(),
    value: doublePrecision('value'),
    status: varchar('status', { length: 12 }).$type<AlarmLogStatus>().notNull().default('active'),
    firedAt: timestamp('fired_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: integer('acknowledged_by').references(() => users.id, { onDelete: 'set null' }),
    ackComment: text('ack_comment'),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    /** null with clearedAt set: cleared by the engine (the value came back) */
    clearedBy: integer('cleared_by').references(() => users.id, { onDelete: 'set null' }),
    clearValue: doublePrecision('clear_value'),
    /** the users told when it fired (recipients, their groups and delegates) */
    notified: jsonb('notified').$type<number[]>().notNull().default([]),
  },
  (t) => [
    uniqueIndex('alarms_open_once').on(t.dedupeKey).where(sql`cleared_at is null`),
    index('alarms_company_fired').on(t.companyId, t.firedAt),
    index('alarms_item').on(t.itemId),
  ],
);
