import type { TouPrices, TouSchedule } from '@platform/domain';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  timestamp,
  unique,
  varchar,
} from 'drizzle-orm/pg-core';
import { cabinNodes } from '../cabin/tables';
import { companies } from '../companies/tables';
import { dataItems } from '../dataitems/tables';
import { users } from '../users/tables';

/**
 * Electricity meters (docs/energy.md): one row per cabin node of type `meter`, deleted with it.
 * `type` 101 standard (reads a data item's cumulative energy field), 100 virtual (a formula over
 * other meters' codes). `code` is how formulas name the meter: unique in the company and kept
 * when the node is renamed, so a rename never breaks a formula.
 */
export const meters = pgTable(
  'meters',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    nodeId: integer('node_id')
      .notNull()
      .unique()
      .references(() => cabinNodes.id, { onDelete: 'cascade' }),
    type: smallint('type').notNull(),
    code: varchar('code', { length: 25 }).notNull(),
    /** standard: the data item whose records carry the readings (null once the item is deleted) */
    itemId: integer('item_id').references(() => dataItems.id, { onDelete: 'set null' }),
    /** standard: meter point (energy, power, voltageA…) → field key of the item */
    points: jsonb('points').$type<Record<string, string>>().notNull().default({}),
    ctPrimary: doublePrecision('ct_primary').notNull().default(1),
    ctSecondary: doublePrecision('ct_secondary').notNull().default(1),
    ptPrimary: doublePrecision('pt_primary').notNull().default(1),
    ptSecondary: doublePrecision('pt_secondary').notNull().default(1),
    /** integer digits of the energy register (5: 99999.99 wraps at 100000); null: never wraps */
    registerDigits: smallint('register_digits'),
    /** sampling frequency id of the spec: 1 = 1 min, 2 = 5, 3 = 10, 4 = 15 */
    samplingId: smallint('sampling_id'),
    /** virtual: the formula as typed, and the meter codes it names */
    formula: varchar('formula', { length: 1000 }),
    refs: jsonb('refs').$type<string[]>().notNull().default([]),
    /** the meter this one is a child of (the balance of a parent against its children) */
    parentMeterId: integer('parent_meter_id').references((): AnyPgColumn => meters.id, {
      onDelete: 'set null',
    }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('meters_company_code').on(t.companyId, t.code), index('meters_company').on(t.companyId)],
);

/**
 * The meter log (system maintenance systememeterlog): replacements recorded by a person and
 * register rollovers found while reading energy, each with who and when. `at` is the event's
 * instant (the replacement time, the first reading after a wrap); one event of a kind per
 * meter and instant, so a rollover seen by many reads is logged once.
 */
export const meterEvents = pgTable(
  'meter_events',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    meterId: integer('meter_id')
      .notNull()
      .references(() => meters.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 16 }).$type<'replacement' | 'rollover'>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    note: varchar('note', { length: 200 }).notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    unique('meter_events_meter_kind_at').on(t.meterId, t.kind, t.at),
    index('meter_events_company_at').on(t.companyId, t.at),
  ],
);

/**
 * A company's time-of-use tariff: the hours of the sharp, peak, flat and valley periods and the
 * price of each in integer cents per kWh. `largeLoadGap`: the peak-valley load difference
 * exceeds 40 %, so the peak price should be 4 times the valley's (a warning, not a refusal).
 */
export const touSettings = pgTable('tou_settings', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  schedule: jsonb('schedule').$type<TouSchedule>().notNull().default({}),
  prices: jsonb('prices').$type<TouPrices>().notNull().default({}),
  largeLoadGap: boolean('large_load_gap').notNull().default(false),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});
