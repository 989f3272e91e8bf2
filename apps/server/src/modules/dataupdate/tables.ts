import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  smallint,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { dataItems } from '../dataitems/tables';
import { gateways } from '../gateways/tables';
import { users } from '../users/tables';

/**
 * Data-update monitors (cloud surveillance → data update): one per company and watched data
 * item, or per company and device (the gateway's registry id, as the device API names it).
 * The monitor keeps its no-data state between checks (packages/domain monitoring/no-data.ts):
 * state ok | late | alarm since when, and while in alarm the last update it fired on and the
 * window then. `version` grows with every state change: a check writes only over the version it
 * read, so two nodes checking at once change a monitor (and raise its alarm) once.
 */
export const dataUpdateMonitors = pgTable(
  'data_update_monitors',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    itemId: integer('item_id').references(() => dataItems.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id').references(() => gateways.id, { onDelete: 'cascade' }),
    windowMinutes: smallint('window_minutes').notNull(),
    state: varchar('state', { length: 8 }).notNull().default('late'),
    stateSince: timestamp('state_since', { withTimezone: true }).notNull().default(sql`now()`),
    /** the newest update seen by the last check (null: never any) */
    lastUpdateAt: timestamp('last_update_at', { withTimezone: true }),
    alarmLastUpdate: timestamp('alarm_last_update', { withTimezone: true }),
    alarmWindow: smallint('alarm_window'),
    /** the alarm log's row of the open no-data alarm, when the alarm module holds one */
    alarmId: bigint('alarm_id', { mode: 'number' }),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    version: integer('version').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    uniqueIndex('data_update_monitors_item').on(t.companyId, t.itemId).where(sql`${t.itemId} IS NOT NULL`),
    uniqueIndex('data_update_monitors_gateway')
      .on(t.companyId, t.gatewayId)
      .where(sql`${t.gatewayId} IS NOT NULL`),
    index('data_update_monitors_state').on(t.companyId, t.state),
    check('data_update_monitors_target', sql`(${t.itemId} IS NULL) <> (${t.gatewayId} IS NULL)`),
  ],
);

/** One row per check period (its start): the unique slot lets one tick on one node run the check. */
export const dataUpdateChecks = pgTable('data_update_checks', {
  slot: timestamp('slot', { withTimezone: true }).primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().default(sql`now()`),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  monitors: integer('monitors').notNull().default(0),
  changed: integer('changed').notNull().default(0),
});
