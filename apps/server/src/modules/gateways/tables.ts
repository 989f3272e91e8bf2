import type { PortHealth } from '@platform/domain';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { users } from '../users/tables';

/** The last telemetry message refused for a gateway, as the device page shows it. */
export interface TelemetryRefusal {
  at: string;
  code: number;
  message: string;
  field: string | null;
  index: number | null;
  itemId: number | null;
  /** the catalogue key and parameters, so the message reads in each caller's language */
  key?: string;
  params?: Record<string, string | number>;
}

/**
 * The gateway registry (system maintenance → gateways): one row per serial number the platform
 * knows, whoever owns it, and what the gateway last said about itself. The secret is kept only
 * as its SHA-256. `companyId`/`boundAt` are the current binding (the binding state machine of
 * packages/domain decides them); everything a company keeps about its device lives in the
 * devices module's tables, per company.
 */
export const gateways = pgTable(
  'gateways',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    serialNumber: varchar('serial_number', { length: 32 }).notNull().unique(),
    model: varchar('model', { length: 32 }).notNull(),
    secretHash: varchar('secret_hash', { length: 64 }).notNull(),
    secretSetAt: timestamp('secret_set_at', { withTimezone: true }).notNull().default(sql`now()`),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull().default(sql`now()`),
    registeredBy: integer('registered_by').references(() => users.id, { onDelete: 'set null' }),
    /** the company it is bound to now; null while unbound */
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'set null' }),
    boundAt: timestamp('bound_at', { withTimezone: true }),
    // what the gateway reports about itself (status messages)
    firmware: varchar('firmware', { length: 32 }),
    iccid: varchar('iccid', { length: 32 }),
    configVersion: integer('config_version'),
    configHash: varchar('config_hash', { length: 64 }),
    ports: jsonb('ports').$type<PortHealth[]>().notNull().default([]),
    online: boolean('online').notNull().default(false),
    onlineAt: timestamp('online_at', { withTimezone: true }),
    offlineAt: timestamp('offline_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
    /** the session its birth message named: a will of an older session does not take it offline */
    session: varchar('session', { length: 64 }),
    /** last change of online state, firmware, ports or configuration */
    statusAt: timestamp('status_at', { withTimezone: true }),
    // JSON telemetry since the current binding
    telemetryOk: integer('telemetry_ok').notNull().default(0),
    telemetryRefused: integer('telemetry_refused').notNull().default(0),
    telemetryDropped: integer('telemetry_dropped').notNull().default(0),
    telemetryAt: timestamp('telemetry_at', { withTimezone: true }),
    lastRefusal: jsonb('last_refusal').$type<TelemetryRefusal>(),
  },
  (t) => [index('gateways_company').on(t.companyId)],
);

export type GatewayRow = typeof gateways.$inferSelect;
