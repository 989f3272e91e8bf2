import type { ScreenBody } from '@platform/domain';
import { sql } from 'drizzle-orm';
import {
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  timestamp,
  unique,
  varchar,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { gateways } from '../gateways/tables';
import { users } from '../users/tables';

/**
 * A device's configuration screen (issue 13 point 6, docs/configuration-screens.md): one per
 * device and company, so another company binding the gateway later starts from nothing and
 * never sees this one. `body` is what checkScreenBody of packages/domain accepted; `version`
 * counts saves.
 */
export const configScreens = pgTable(
  'config_screens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    body: jsonb('body').$type<ScreenBody>().notNull(),
    elementCount: smallint('element_count').notNull(),
    version: integer('version').notNull().default(1),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('config_screens_device').on(t.companyId, t.gatewayId)],
);

/**
 * The editing lease of a device's screen: one editor at a time. The holder renews it while the
 * editor is open; once `expiresAt` has passed anyone who may edit can take it. `leaseId` is
 * the editor window's (a second window of the same person is a second editor).
 */
export const configScreenLeases = pgTable(
  'config_screen_leases',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    leaseId: varchar('lease_id', { length: 32 }).notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    acquiredAt: timestamp('acquired_at', { withTimezone: true }).notNull().default(sql`now()`),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.gatewayId] })],
);
