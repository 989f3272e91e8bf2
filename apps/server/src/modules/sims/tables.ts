import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  varchar,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { users } from '../users/tables';

/**
 * SIM data cards (docs/sim-cards.md). A card exists once on the platform (its ICCID is unique):
 * in the platform's stock (`companyId` null) until the operator assigns it to the company that
 * bought it, or imported by a company itself. Carrier facts (state, usage and its as-of time)
 * come from the carrier sync; the holder is the gateway that last reported the card's ICCID.
 */
export const simCards = pgTable(
  'sim_cards',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** normalised (packages/domain normaliseIccid) */
    iccid: varchar('iccid', { length: 20 }).notNull().unique(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    /** 0 none, 1 China Mobile, 2 China Unicom, 3 China Telecom */
    carrier: smallint('carrier').notNull().default(0),
    /** seed point 3's list by position; 4 is stored as 0 */
    state: smallint('state').notNull().default(0),
    msisdn: varchar('msisdn', { length: 13 }),
    /** monthly data plan; null = no plan */
    planMb: doublePrecision('plan_mb'),
    /** data used in the current billing month, as the carrier last said */
    usedMb: doublePrecision('used_mb'),
    usageAsOf: timestamp('usage_as_of', { withTimezone: true }),
    notes: varchar('notes', { length: 200 }).notNull().default(''),
    /** serial number of the gateway that last reported the card */
    holderSn: varchar('holder_sn', { length: 32 }),
    holderSince: timestamp('holder_since', { withTimezone: true }),
    holderSeenAt: timestamp('holder_seen_at', { withTimezone: true }),
    /** flagged when another gateway reported the card, until someone acknowledges it */
    moved: boolean('moved').notNull().default(false),
    movedFrom: varchar('moved_from', { length: 32 }),
    movedTo: varchar('moved_to', { length: 32 }),
    movedAt: timestamp('moved_at', { withTimezone: true }),
    moveAckAt: timestamp('move_ack_at', { withTimezone: true }),
    moveAckBy: integer('move_ack_by').references(() => users.id, { onDelete: 'set null' }),
    syncedAt: timestamp('synced_at', { withTimezone: true }),
    /** why the last sync did not update the card (the carrier does not know it, say) */
    syncError: varchar('sync_error', { length: 200 }),
    assignedAt: timestamp('assigned_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('sim_cards_company').on(t.companyId), index('sim_cards_holder').on(t.holderSn)],
);

/** Usage readings over time, one per card and carrier as-of time: the detail page's chart. */
export const simUsage = pgTable(
  'sim_usage',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    simId: integer('sim_id')
      .notNull()
      .references(() => simCards.id, { onDelete: 'cascade' }),
    asOf: timestamp('as_of', { withTimezone: true }).notNull(),
    usedMb: doublePrecision('used_mb').notNull(),
    state: smallint('state').notNull(),
  },
  (t) => [unique('sim_usage_reading').on(t.simId, t.asOf)],
);

/** The gateways a card was seen in: one row per stay, from the first report to the last. */
export const simSightings = pgTable(
  'sim_sightings',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    simId: integer('sim_id')
      .notNull()
      .references(() => simCards.id, { onDelete: 'cascade' }),
    gatewaySn: varchar('gateway_sn', { length: 32 }).notNull(),
    firstSeen: timestamp('first_seen', { withTimezone: true }).notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
  },
  (t) => [index('sim_sightings_sim').on(t.simId, t.firstSeen)],
);

/**
 * One row per carrier sync: a scheduled fire is claimed by inserting its slot time (unique),
 * so it runs once however many nodes tick; "sync now" adds a row of its own (manual).
 * status: running | ok | failed
 */
export const simSyncRuns = pgTable(
  'sim_sync_runs',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    fireTime: timestamp('fire_time', { withTimezone: true }).notNull(),
    manual: boolean('manual').notNull().default(false),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().default(sql`now()`),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    status: varchar('status', { length: 8 }).notNull(),
    cards: integer('cards').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    message: text('message'),
  },
  (t) => [unique('sim_sync_fire').on(t.fireTime, t.manual)],
);
