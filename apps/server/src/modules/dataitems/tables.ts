import type { DataSource, FieldDef, FormElement, JumpCondition, JumpMapping } from '@platform/domain';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { cabinNodes } from '../cabin/tables';
import { companies } from '../companies/tables';

/**
 * A data item: a user-defined typed table living in the cabin (node type 'dataItem').
 * kind: 10 manual list, 11 manual form, 13 IoT data list. `fields` are FieldDefs with
 * stable keys ("f1", "f2", …): renaming a field never touches its records.
 */
export const dataItems = pgTable(
  'data_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    nodeId: integer('node_id')
      .notNull()
      .unique()
      .references(() => cabinNodes.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 25 }).notNull(),
    kind: smallint('kind').notNull(),
    fields: jsonb('fields').$type<FieldDef[]>().notNull().default([]),
    /** next number for a new field key */
    nextFieldNo: integer('next_field_no').notNull().default(1),
    sources: jsonb('sources').$type<DataSource[]>().notNull().default([]),
    /** form items (kind 11): the form elements, each bound to a field */
    form: jsonb('form').$type<FormElement[]>().notNull().default([]),
    /** the field shown as a record's title in child-record links */
    titleField: varchar('title_field', { length: 16 }),
    publicCollect: boolean('public_collect').notNull().default(false),
    description: varchar('description', { length: 500 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('data_items_company').on(t.companyId)],
);

/** Jump associations: on each new record of `itemId`, in priority order (higher first). */
export const dataItemJumps = pgTable(
  'data_item_jumps',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    itemId: integer('item_id')
      .notNull()
      .references(() => dataItems.id, { onDelete: 'cascade' }),
    priority: integer('priority').notNull().default(0),
    /** the filter (jump data) name */
    name: varchar('name', { length: 25 }).notNull(),
    conditions: jsonb('conditions').$type<JumpCondition[]>().notNull().default([]),
    targetItemId: integer('target_item_id')
      .notNull()
      .references(() => dataItems.id, { onDelete: 'cascade' }),
    /** which target field receives which source field (or a fixed value) */
    mapping: jsonb('mapping').$type<JumpMapping[]>().notNull().default([]),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('data_item_jumps_item').on(t.itemId)],
);

/** Item groups (itemgroup/config, code sd_item_group): named sets of data items. */
export const itemGroups = pgTable('item_groups', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 25 }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});

export const itemGroupMembers = pgTable(
  'item_group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => itemGroups.id, { onDelete: 'cascade' }),
    itemId: integer('item_id')
      .notNull()
      .references(() => dataItems.id, { onDelete: 'cascade' }),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.itemId] })],
);
