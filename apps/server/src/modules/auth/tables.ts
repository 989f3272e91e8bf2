import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from '../users/tables';

/** API tokens: only the SHA-256 of the token is stored. */
export const tokens = pgTable(
  'tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('tokens_user_idx').on(t.userId)],
);

/** One-time SMS codes, stored hashed; a code is used once and tried a few times at most. */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    phone: varchar('phone', { length: 20 }).notNull(),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    attempts: smallint('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('sms_codes_phone_idx').on(t.phone, t.createdAt)],
);

/**
 * Scan-code login sessions. status: waiting → scanned (→ verifying) → (confirmed | needPhone)
 * → done; or expired, or failed. The token is issued to the polling browser when it sees
 * `confirmed`. `id` (the scene id) is known only to the browser that polls; `state` is what
 * the phone or the provider sees (in the QR code, in the provider's redirect).
 */
export const scanSessions = pgTable('scan_sessions', {
  id: varchar('id', { length: 64 }).primaryKey(),
  state: varchar('state', { length: 64 }).notNull().unique(),
  /** the provider the session was opened for: 'standin' | 'wechat' */
  provider: varchar('provider', { length: 16 }).notNull(),
  status: varchar('status', { length: 16 }).notNull().default('waiting'),
  openId: varchar('open_id', { length: 64 }),
  nickname: text('nickname'),
  /** sha256 of the provider's authorization code: a code completes one session at most */
  codeHash: varchar('code_hash', { length: 64 }).unique(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/**
 * Per-phone attempt counters with backoff, shared by every node. kind 'verify' counts
 * checks of a password or an SMS code for the phone, 'sms' counts codes sent to it. The
 * phone need not have an account: unknown phones are counted alike.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    phone: varchar('phone', { length: 20 }).notNull(),
    kind: varchar('kind', { length: 8 }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [primaryKey({ columns: [t.phone, t.kind] })],
);
