import { sql } from 'drizzle-orm';
import { integer, pgTable, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  phone: varchar('phone', { length: 20 }).notNull().unique(),
  userName: varchar('user_name', { length: 50 }).notNull(),
  email: varchar('email', { length: 120 }),
  /** scrypt hash, `scrypt$N$r$p$salt$hash`; null for accounts created by SMS or scan without a password */
  passwordHash: text('password_hash'),
  headImgUrl: text('head_img_url'),
  /** the messaging-app identity bound by the scan-code flow */
  wxOpenId: varchar('wx_open_id', { length: 64 }).unique(),
  termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }),
  currentCompanyId: integer('current_company_id'),
  /** 1 active, 0 disabled */
  status: smallint('status').notNull().default(1),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});
