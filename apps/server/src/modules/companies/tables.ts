import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, primaryKey, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from '../users/tables';

export const companies = pgTable('companies', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: varchar('name', { length: 100 }).notNull(),
  displayName: varchar('display_name', { length: 100 }).notNull(),
  /** JSON text; holds logoThumbnailUri (spec point 3) */
  cfg: text('cfg').notNull().default('{}'),
  /** the platform operator's company: only its roles may carry system_* codes */
  isPlatform: boolean('is_platform').notNull().default(false),
  /**
   * The company's IANA time zone: every time shown, entered, reported or rendered for the
   * company reads in it, and the days of reports and analyses begin at its midnight.
   */
  timeZone: varchar('time_zone', { length: 64 }).notNull().default('Asia/Shanghai'),
  serviceExpiresAt: timestamp('service_expires_at', { withTimezone: true }),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});

/** status: invited | active | refused. A user may be an active member of several companies. */
export const companyMembers = pgTable(
  'company_members',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: varchar('status', { length: 16 }).notNull().default('active'),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Roles to grant when an invitation is accepted. Kept here, not in member_roles, so an
     * invited user holds no codes in the company until they agree.
     */
    invitedRoleIds: jsonb('invited_role_ids').$type<number[]>(),
    /**
     * The name the inviter gave the person, shown to the company while the invitation is
     * pending: the account's own name (and whether the phone has an account at all) is not the
     * company's to see until the person agrees.
     */
    invitedName: varchar('invited_name', { length: 50 }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    joinedAt: timestamp('joined_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.userId] })],
);
