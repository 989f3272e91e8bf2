import type { UpgradeFailureReason, UpgradeState, UpgradeTimeouts } from '@platform/domain';
import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { gateways } from '../gateways/tables';
import { users } from '../users/tables';

/**
 * Firmware versions uploaded in system maintenance (the platform operator's): one image per
 * (model, version), kept in the private bucket under `firmware/`; `sha256` and `size` are the
 * server's own measure of the bytes it stored, what the gateway checks its download against.
 */
export const firmwareVersions = pgTable(
  'firmware_versions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    model: varchar('model', { length: 32 }).notNull(),
    version: varchar('version', { length: 32 }).notNull(),
    size: integer('size').notNull(),
    sha256: varchar('sha256', { length: 64 }).notNull(),
    storageKey: varchar('storage_key', { length: 300 }).notNull(),
    fileName: varchar('file_name', { length: 200 }).notNull(),
    notesZh: text('notes_zh').notNull().default(''),
    notesEn: text('notes_en').notNull().default(''),
    uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('firmware_versions_model_version').on(t.model, t.version)],
);

export type FirmwareVersionRow = typeof firmwareVersions.$inferSelect;

/** Upgrades started together from the device list (each device's upgrade is its own row). */
export const firmwareBatches = pgTable(
  'firmware_batches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    versionId: integer('version_id').references(() => firmwareVersions.id, { onDelete: 'set null' }),
    version: varchar('version', { length: 32 }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('firmware_batches_company').on(t.companyId, t.id)],
);

/**
 * One upgrade of one gateway (packages/domain devices/upgrade.ts decides every move). `rev`
 * goes up with each move: a move applies only to the row as it was read, so two nodes (or a
 * report racing a timer) never both move it. The three deadlines are the timers, kept here so
 * any node's sweep ends an upgrade whose gateway went silent, across restarts too.
 * At most one live upgrade per gateway: the partial unique index says so to the database.
 */
export const firmwareUpgrades = pgTable(
  'firmware_upgrades',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    versionId: integer('version_id').references(() => firmwareVersions.id, { onDelete: 'set null' }),
    batchId: integer('batch_id').references(() => firmwareBatches.id, { onDelete: 'set null' }),
    version: varchar('version', { length: 32 }).notNull(),
    fromVersion: varchar('from_version', { length: 32 }),
    state: varchar('state', { length: 12 }).$type<UpgradeState>().notNull().default('queued'),
    progress: smallint('progress'),
    reason: varchar('reason', { length: 20 }).$type<UpgradeFailureReason>(),
    /** the gateway's own words about a failure */
    detail: varchar('detail', { length: 300 }),
    timeouts: jsonb('timeouts').$type<UpgradeTimeouts>().notNull(),
    /** the origin the gateway downloads from (PUBLIC_URL, else the starting request's) */
    linkBase: varchar('link_base', { length: 300 }).notNull(),
    rev: integer('rev').notNull().default(0),
    /** the entry of the device's operation log this upgrade settles */
    operationId: bigint('operation_id', { mode: 'number' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    ackDeadline: timestamp('ack_deadline', { withTimezone: true }),
    progressDeadline: timestamp('progress_deadline', { withTimezone: true }),
    totalDeadline: timestamp('total_deadline', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('firmware_upgrades_one_live')
      .on(t.gatewayId)
      .where(sql`${t.state} not in ('success', 'failed')`),
    index('firmware_upgrades_device').on(t.companyId, t.gatewayId, t.id),
    index('firmware_upgrades_state').on(t.state, t.id),
    index('firmware_upgrades_batch').on(t.batchId),
  ],
);

export type UpgradeRow = typeof firmwareUpgrades.$inferSelect;
