import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  index,
  integer,
  pgTable,
  smallint,
  timestamp,
  unique,
  varchar,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { users } from '../users/tables';

/**
 * The data cabin: one directory tree per company. Every entry is a node; entries of a
 * module (a data item, later a dashboard, device, meter, template…) point at their module
 * row through `refId`. `type` is a CabinNodeType of packages/domain (data/cabin.ts).
 */
export const cabinNodes = pgTable(
  'cabin_nodes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** null: at the top of the company's tree */
    parentId: integer('parent_id').references((): AnyPgColumn => cabinNodes.id, { onDelete: 'cascade' }),
    type: varchar('type', { length: 24 }).notNull(),
    name: varchar('name', { length: 25 }).notNull(),
    /** id of the module row behind the entry (data_items.id for a data item) */
    refId: integer('ref_id'),
    sortOrder: integer('sort_order').notNull().default(0),
    /** 'inherit': permissions come from the parent; 'custom': from cabin_permissions of this node */
    permissionMode: varchar('permission_mode', { length: 8 }).notNull().default('inherit'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('cabin_nodes_company_parent').on(t.companyId, t.parentId)],
);

/**
 * Data permissions of a node whose permissionMode is 'custom'. scope: 'company' (every member,
 * subjectId null), 'group' (a user group), 'user'. level: 0 none, 1 read only, 2 read and
 * write, 3 administrator (DataPermission of packages/domain).
 */
export const cabinPermissions = pgTable(
  'cabin_permissions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    nodeId: integer('node_id')
      .notNull()
      .references(() => cabinNodes.id, { onDelete: 'cascade' }),
    scope: varchar('scope', { length: 8 }).notNull(),
    subjectId: integer('subject_id'),
    level: smallint('level').notNull(),
  },
  (t) => [unique('cabin_permissions_subject').on(t.nodeId, t.scope, t.subjectId).nullsNotDistinct()],
);
