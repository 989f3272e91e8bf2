import type { ChartConfig } from '@platform/domain';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { dataItems } from '../dataitems/tables';

/**
 * Charts of a data item (issue 11 point 1): a name and a configuration checked by the domain's
 * checkChartConfig. A chart lives and dies with its item and is read and written under the
 * item's data permissions (read: view; read and write: create, change, delete).
 */
export const charts = pgTable(
  'charts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => dataItems.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 25 }).notNull(),
    /** denormalised from config for lists and routes (chartpages' typeCode) */
    type: varchar('type', { length: 16 }).notNull(),
    config: jsonb('config').$type<ChartConfig>().notNull(),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('charts_item').on(t.itemId)],
);
