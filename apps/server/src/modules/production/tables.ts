import type { ScheduleStatus } from '@platform/domain';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, timestamp, unique, varchar } from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { inventoryCategories } from '../inventory/tables';
import { users } from '../users/tables';

/**
 * A production plan (scheduling, pm_scheduling): so many units of an own product on a line
 * between two days, made through its process steps. The units it makes are inventory units
 * (inventory_units.schedule_id), the same serial numbers that are stocked, shipped and bound.
 */
export const productionSchedules = pgTable(
  'production_schedules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    number: varchar('number', { length: 30 }).notNull(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => inventoryCategories.id),
    quantity: integer('quantity').notNull(),
    line: varchar('line', { length: 50 }).notNull(),
    /** calendar days, YYYY-MM-DD */
    startOn: varchar('start_on', { length: 10 }).notNull(),
    endOn: varchar('end_on', { length: 10 }).notNull(),
    status: varchar('status', { length: 20 }).$type<ScheduleStatus>().notNull().default('planned'),
    /** the process steps a unit goes through, in order */
    steps: jsonb('steps').$type<string[]>().notNull().default([]),
    notes: varchar('notes', { length: 500 }).notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    unique('production_schedules_company_number').on(t.companyId, t.number),
    index('production_schedules_company_status').on(t.companyId, t.status),
  ],
);
