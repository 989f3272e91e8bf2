import { sql } from 'drizzle-orm';
import { integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { cabinNodes } from '../cabin/tables';
import { companies } from '../companies/tables';
import { users } from '../users/tables';

/**
 * The body of a template entry of the data cabin (node types `report`, `docTemplate`,
 * `richTemplate`): one row per node, created with the node and deleted with it. `content`
 * holds the template as its module defines it (a report's grid and cell bindings, a document
 * or rich-text template's sanitised HTML).
 */
export const templates = pgTable('templates', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  nodeId: integer('node_id')
    .notNull()
    .unique()
    .references(() => cabinNodes.id, { onDelete: 'cascade' }),
  type: varchar('type', { length: 24 }).notNull(),
  content: jsonb('content').$type<Record<string, unknown>>().notNull().default({}),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});
