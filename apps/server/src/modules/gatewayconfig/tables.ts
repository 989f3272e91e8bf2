import type { ConfigPushState, GatewayConfig } from '@platform/domain';
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  timestamp,
  unique,
  varchar,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { gateways } from '../gateways/tables';
import { users } from '../users/tables';

/**
 * The saved versions of a gateway's configuration, per company (another company binding the
 * gateway later starts from nothing). Each save of new content is version head + 1; the unique
 * (company, gateway, version) is what refuses the second of two saves on the same base.
 * `config` is what the editor saved (positions kept, packet frames not: they come from the
 * definitions when pushed); `hash` is the SHA-256 of its canonical form (no positions).
 */
export const gatewayConfigVersions = pgTable(
  'gateway_config_versions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    config: jsonb('config').$type<GatewayConfig>().notNull(),
    hash: varchar('hash', { length: 64 }).notNull(),
    nodeCount: smallint('node_count').notNull(),
    /** the version whose content this one restored; null for an ordinary save */
    restoredFrom: integer('restored_from'),
    savedBy: integer('saved_by').references(() => users.id, { onDelete: 'set null' }),
    savedAt: timestamp('saved_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('gateway_config_versions_version').on(t.companyId, t.gatewayId, t.version)],
);

export type ConfigVersionRow = typeof gatewayConfigVersions.$inferSelect;

/**
 * Pushes of a version to the gateway and how each ended (packages/domain config-push.ts).
 * `hash` is the hash of what was pushed: the version with its packets' frames filled in, the
 * text the gateway compares with what it runs. `deadline` is when the platform stops waiting
 * (any server node's sweep marks it noAnswer then).
 */
export const gatewayConfigPushes = pgTable(
  'gateway_config_pushes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    hash: varchar('hash', { length: 64 }).notNull(),
    state: varchar('state', { length: 12 }).$type<ConfigPushState>().notNull().default('waiting'),
    confirmWithin: integer('confirm_within').notNull(),
    errors: jsonb('errors')
      .$type<Array<{ node: string | null; field: string | null; message: string }>>()
      .notNull()
      .default([]),
    runningVersion: integer('running_version'),
    /** the entry of the device's operation log this push settles */
    operationId: bigint('operation_id', { mode: 'number' }),
    pushedBy: integer('pushed_by').references(() => users.id, { onDelete: 'set null' }),
    pushedAt: timestamp('pushed_at', { withTimezone: true }).notNull().default(sql`now()`),
    deadline: timestamp('deadline', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    index('gateway_config_pushes_gateway').on(t.companyId, t.gatewayId, t.pushedAt),
    index('gateway_config_pushes_waiting').on(t.state, t.deadline),
  ],
);

export type ConfigPushRow = typeof gatewayConfigPushes.$inferSelect;
