import type { CoalFactors } from '@platform/domain';
import { sql } from 'drizzle-orm';
import {
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  timestamp,
  unique,
  varchar,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { users } from '../users/tables';

/**
 * A site of the energy data platform (issue 13 point 5): a plant, a boiler house or a
 * workshop of the company whose consumption and output are recorded.
 */
export const energySites = pgTable(
  'energy_sites',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    /** plant, boilerHouse or workshop */
    type: varchar('type', { length: 20 }).notNull(),
    remark: varchar('remark', { length: 200 }).notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('energy_sites_company_name').on(t.companyId, t.name)],
);

/**
 * One figure of a site for one period: coal, gas or steam consumed, or steam produced, in the
 * kind's unit (t, m³, t, t). One record per site, kind and period (a day, or a month whose
 * period_on is its first day).
 */
export const energyRecords = pgTable(
  'energy_records',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    siteId: integer('site_id')
      .notNull()
      .references(() => energySites.id, { onDelete: 'restrict' }),
    /** coal, gas, steamConsume or steamOutput (one per page) */
    kind: varchar('kind', { length: 20 }).notNull(),
    /** day or month */
    periodType: varchar('period_type', { length: 10 }).notNull(),
    /** YYYY-MM-DD; a month's first day for a month */
    periodOn: varchar('period_on', { length: 10 }).notNull(),
    quantity: doublePrecision('quantity').notNull(),
    /** entry (by hand) or import (a CSV file) */
    source: varchar('source', { length: 10 }).notNull().default('entry'),
    remark: varchar('remark', { length: 200 }).notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    unique('energy_records_site_kind_period').on(t.siteId, t.kind, t.periodType, t.periodOn),
    index('energy_records_company_kind_period').on(t.companyId, t.kind, t.periodOn),
  ],
);

/** A company's own standard coal factors (tce per unit), kind by kind; the rest are defaults. */
export const energyCoalFactors = pgTable('energy_coal_factors', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  factors: jsonb('factors').$type<Partial<CoalFactors>>().notNull().default({}),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});
