import { sql } from 'drizzle-orm';
import { index, integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { users } from '../users/tables';

/**
 * Submission keys for the HTTPS and MQTT interfaces. Shown once at creation; only the
 * SHA-256 of the key is stored. kind 'user': acts with its user's data permissions;
 * kind 'device': may write only to items whose data sources name its deviceId.
 */
export const submissionKeys = pgTable(
  'submission_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 8 }).notNull(),
    name: varchar('name', { length: 25 }).notNull(),
    deviceId: varchar('device_id', { length: 64 }),
    /** the first characters of the key, to recognise it in the list */
    prefix: varchar('prefix', { length: 12 }).notNull(),
    keyHash: varchar('key_hash', { length: 64 }).notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('submission_keys_company').on(t.companyId)],
);
