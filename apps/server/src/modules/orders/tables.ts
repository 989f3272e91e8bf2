import { sql } from 'drizzle-orm';
import { integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { users } from '../users/tables';

/** Service subscriptions bought by a company; the latest active one is the user's orderInfo. */
export const orders = pgTable('orders', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  orderNo: varchar('order_no', { length: 40 }).notNull().unique(),
  swProductId: integer('sw_product_id').notNull(),
  subTypeId: integer('sub_type_id').notNull(),
  productName: varchar('product_name', { length: 100 }).notNull(),
  amountCents: integer('amount_cents').notNull().default(0),
  /** paid | cancelled | refunded */
  status: varchar('status', { length: 16 }).notNull().default('paid'),
  startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
  endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});
