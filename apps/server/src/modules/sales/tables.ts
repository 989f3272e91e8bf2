import type { ContractStatus, SalesStatus } from '@platform/domain';
import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, unique, varchar } from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { inventoryCategories } from '../inventory/tables';
import { users } from '../users/tables';

/**
 * A sales order (submit order, ss_submit_order; order management, ss_order_management): what a
 * customer buys of the seller (the company that made it). A customer that is a company of the
 * platform (`customerCompanyId`) gets the service it paid for: its subscription orders (the
 * `orders` table, its users' "my orders") and its service end date.
 */
export const salesOrders = pgTable(
  'sales_orders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    number: varchar('number', { length: 30 }).notNull(),
    customerCompanyId: integer('customer_company_id').references(() => companies.id, {
      onDelete: 'set null',
    }),
    customer: varchar('customer', { length: 100 }).notNull(),
    contact: varchar('contact', { length: 50 }).notNull().default(''),
    phone: varchar('phone', { length: 30 }).notNull().default(''),
    address: varchar('address', { length: 200 }).notNull().default(''),
    status: varchar('status', { length: 12 }).$type<SalesStatus>().notNull().default('submitted'),
    totalCents: integer('total_cents').notNull().default(0),
    /** the calendar day it was paid, in the seller's zone */
    paidOn: varchar('paid_on', { length: 10 }),
    notes: varchar('notes', { length: 500 }).notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    unique('sales_orders_company_number').on(t.companyId, t.number),
    index('sales_orders_company_status').on(t.companyId, t.status),
  ],
);

/** A line: a product (a category of the inventory) or a service plan for so many months. */
export const salesOrderLines = pgTable(
  'sales_order_lines',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    orderId: integer('order_id')
      .notNull()
      .references(() => salesOrders.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 10 }).$type<'product' | 'service'>().notNull(),
    categoryId: integer('category_id').references(() => inventoryCategories.id, { onDelete: 'set null' }),
    swProductId: integer('sw_product_id'),
    subTypeId: integer('sub_type_id'),
    name: varchar('name', { length: 100 }).notNull(),
    /** products: how many; services: how many periods of `months` */
    quantity: integer('quantity').notNull(),
    months: integer('months'),
    unitPriceCents: integer('unit_price_cents').notNull(),
    amountCents: integer('amount_cents').notNull(),
  },
  (t) => [index('sales_order_lines_order').on(t.orderId)],
);

/**
 * A contract template (saletemplate, ss_sale_contract): an HTML body, sanitised like a document
 * template's, whose placeholders name the fields of an order (domain CONTRACT_FIELDS).
 */
export const salesContractTemplates = pgTable(
  'sales_contract_templates',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    html: text('html').notNull(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('sales_contract_templates_company_name').on(t.companyId, t.name)],
);

/**
 * A contract (salecontract): a template filled from one order, kept as filled. Signed contracts
 * are kept; a draft may be deleted. An order has at most one contract.
 */
export const salesContracts = pgTable(
  'sales_contracts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    number: varchar('number', { length: 30 }).notNull(),
    orderId: integer('order_id')
      .notNull()
      .references(() => salesOrders.id, { onDelete: 'cascade' }),
    templateId: integer('template_id').references(() => salesContractTemplates.id, { onDelete: 'set null' }),
    /** the template's name when the contract was made */
    templateName: varchar('template_name', { length: 100 }).notNull(),
    html: text('html').notNull(),
    status: varchar('status', { length: 10 }).$type<ContractStatus>().notNull().default('draft'),
    /** the day it was signed, in the seller's zone */
    signedOn: varchar('signed_on', { length: 10 }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [
    unique('sales_contracts_company_number').on(t.companyId, t.number),
    unique('sales_contracts_order').on(t.orderId),
  ],
);
