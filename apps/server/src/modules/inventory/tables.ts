import type { ProductionStatus } from '@platform/domain';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, timestamp, unique, varchar } from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { salesOrders } from '../sales/tables';
import { users } from '../users/tables';

/** What a category holds: own products (gateways, meters), SIM cards, or other goods. */
export const CATEGORY_KINDS = ['own', 'sim', 'other'] as const;
export type CategoryKind = (typeof CATEGORY_KINDS)[number];

export const ORDER_KINDS = ['entry', 'exit'] as const;
export const ORDER_STATES = ['open', 'confirmed', 'cancelled'] as const;

/**
 * A category of goods (im_category). Serial-numbered goods are kept one unit per serial number;
 * the others are counted (order lines with quantities). Own products and SIM cards always
 * carry serial numbers (a SIM's is its ICCID).
 */
export const inventoryCategories = pgTable(
  'inventory_categories',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    kind: varchar('kind', { length: 10 }).$type<CategoryKind>().notNull(),
    serialized: boolean('serialized').notNull().default(true),
    /** the model a unit of it is (a gateway's model, a meter type) */
    model: varchar('model', { length: 50 }).notNull().default(''),
    /** what one of it is counted in: 台, 张, 个, m */
    unit: varchar('unit', { length: 10 }).notNull().default(''),
    notes: varchar('notes', { length: 200 }).notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('inventory_categories_company_name').on(t.companyId, t.name)],
);

/**
 * One serial-numbered unit, for its whole life (packages/domain business/stock.ts decides every
 * move). `status` is the production status; registered and bound are never stored: they come
 * from the gateway registry when the unit is read (`withRegistry`).
 */
export const inventoryUnits = pgTable(
  'inventory_units',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => inventoryCategories.id),
    sn: varchar('sn', { length: 50 }).notNull(),
    status: varchar('status', { length: 20 }).$type<ProductionStatus>().notNull(),
    disabled: boolean('disabled').notNull().default(false),
    /** the open order it is in */
    orderId: integer('order_id'),
    /** where it is kept once stocked */
    warehouse: varchar('warehouse', { length: 50 }).notNull().default(''),
    /** the production plan that made it (production_schedules; none for purchased goods) */
    scheduleId: integer('schedule_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    unique('inventory_units_company_sn').on(t.companyId, t.sn),
    index('inventory_units_category').on(t.categoryId),
    index('inventory_units_order').on(t.orderId),
    index('inventory_units_schedule').on(t.scheduleId),
  ],
);

/**
 * A warehouse entry order (own products from production, purchased SIM cards, other goods) or
 * an exit (delivery) order to a customer. `source` is an entry's kind of goods; exits take any.
 */
export const inventoryOrders = pgTable(
  'inventory_orders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 10 }).$type<(typeof ORDER_KINDS)[number]>().notNull(),
    source: varchar('source', { length: 10 }).$type<CategoryKind>(),
    number: varchar('number', { length: 30 }).notNull(),
    state: varchar('state', { length: 10 }).$type<(typeof ORDER_STATES)[number]>().notNull().default('open'),
    warehouse: varchar('warehouse', { length: 50 }).notNull().default(''),
    customer: varchar('customer', { length: 100 }).notNull().default(''),
    contact: varchar('contact', { length: 50 }).notNull().default(''),
    phone: varchar('phone', { length: 30 }).notNull().default(''),
    address: varchar('address', { length: 200 }).notNull().default(''),
    notes: varchar('notes', { length: 500 }).notNull().default(''),
    /** an exit order: the sales order it delivers (of the same company), if any */
    salesOrderId: integer('sales_order_id').references(() => salesOrders.id, { onDelete: 'set null' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    unique('inventory_orders_company_number').on(t.companyId, t.number),
    index('inventory_orders_company_kind').on(t.companyId, t.kind),
  ],
);

/**
 * What an order holds: one line per serial-numbered unit (kept after the order closes, for its
 * delivery note), or a counted quantity of a category that has no serial numbers.
 */
export const inventoryOrderLines = pgTable(
  'inventory_order_lines',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    orderId: integer('order_id')
      .notNull()
      .references(() => inventoryOrders.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id')
      .notNull()
      .references(() => inventoryCategories.id),
    unitId: integer('unit_id').references(() => inventoryUnits.id),
    sn: varchar('sn', { length: 50 }),
    quantity: integer('quantity').notNull().default(1),
  },
  (t) => [
    index('inventory_order_lines_order').on(t.orderId),
    unique('inventory_order_lines_unit').on(t.orderId, t.unitId),
  ],
);

/** The production log (im_production_log): every move of every unit, who made it and when. */
export const inventoryUnitEvents = pgTable(
  'inventory_unit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    unitId: integer('unit_id')
      .notNull()
      .references(() => inventoryUnits.id, { onDelete: 'cascade' }),
    sn: varchar('sn', { length: 50 }).notNull(),
    action: varchar('action', { length: 20 }).notNull(),
    fromStatus: varchar('from_status', { length: 20 }),
    toStatus: varchar('to_status', { length: 20 }).notNull(),
    disabled: boolean('disabled').notNull().default(false),
    orderId: integer('order_id'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('inventory_unit_events_company_at').on(t.companyId, t.at)],
);
