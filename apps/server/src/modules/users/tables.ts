import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';

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
  /**
   * Made for an invitation to a phone nobody had registered: no password, a default name.
   * It becomes the person's own when they prove the phone (registering with an SMS code sets
   * their name and password; logging in by SMS code or scan keeps the defaults). Until then
   * registering that phone is open, as for a phone without an account.
   */
  unclaimed: boolean('unclaimed').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});
