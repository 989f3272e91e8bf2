import { sql } from 'drizzle-orm';
import {
  bigint,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  timestamp,
  unique,
  varchar,
} from 'drizzle-orm/pg-core';
import { cabinNodes } from '../cabin/tables';
import { companies } from '../companies/tables';
import { gateways } from '../gateways/tables';
import { users } from '../users/tables';

/**
 * Bind requests waiting for the button on a gateway (docs/devices.md, "Binding"): the id is
 * the protocol's requestId. status: waiting | bound | expired | cancelled. What the device will
 * be called and where its node goes travel with the request until the gateway confirms.
 */
export const bindRequests = pgTable(
  'bind_requests',
  {
    id: varchar('id', { length: 32 }).primaryKey(),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    name: varchar('name', { length: 25 }).notNull(),
    parentId: integer('parent_id').references(() => cabinNodes.id, { onDelete: 'set null' }),
    status: varchar('status', { length: 10 }).notNull().default('waiting'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (t) => [index('bind_requests_gateway_status').on(t.gatewayId, t.status)],
);

/**
 * A company's device: what the company keeps about a gateway it bound (one row per company
 * and gateway, kept after an unbind so the same company finds its records again; another
 * company binding the gateway gets a row of its own). nodeId and boundAt are set while bound.
 * picture: 'preset:<id>' or a private storage key of an uploaded photo.
 */
export const devices = pgTable(
  'devices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    nodeId: integer('node_id').references(() => cabinNodes.id, { onDelete: 'set null' }),
    name: varchar('name', { length: 25 }).notNull(),
    address: varchar('address', { length: 100 }).notNull().default(''),
    picture: varchar('picture', { length: 300 }),
    firstBoundAt: timestamp('first_bound_at', { withTimezone: true }).notNull(),
    boundAt: timestamp('bound_at', { withTimezone: true }),
    boundBy: integer('bound_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('devices_company_gateway').on(t.companyId, t.gatewayId), index('devices_node').on(t.nodeId)],
);

/**
 * The operation log of a company's device (/operationLog): who did what to it and what it
 * reported. actorType: user | device | system. result: ok | failed | pending.
 */
export const deviceOperations = pgTable(
  'device_operations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 16 }).notNull(),
    actorType: varchar('actor_type', { length: 8 }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    result: varchar('result', { length: 8 }).notNull().default('ok'),
    detail: varchar('detail', { length: 500 }).notNull().default(''),
    data: jsonb('data').$type<Record<string, unknown>>(),
    at: timestamp('at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('device_operations_device_at').on(t.companyId, t.gatewayId, t.at)],
);

/** Maintenance work done on a company's device. cost in cents. */
export const maintenanceRecords = pgTable(
  'maintenance_records',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    date: date('date', { mode: 'string' }).notNull(),
    kind: varchar('kind', { length: 16 }).notNull(),
    description: varchar('description', { length: 500 }).notNull(),
    performedBy: varchar('performed_by', { length: 50 }).notNull().default(''),
    costCents: bigint('cost_cents', { mode: 'number' }),
    planId: integer('plan_id').references(() => maintenancePlans.id, { onDelete: 'set null' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('maintenance_records_device').on(t.companyId, t.gatewayId, t.date)],
);

/** Maintenance that comes due every intervalDays; done moves nextDue on. */
export const maintenancePlans = pgTable(
  'maintenance_plans',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    title: varchar('title', { length: 50 }).notNull(),
    intervalDays: integer('interval_days').notNull(),
    nextDue: date('next_due', { mode: 'string' }).notNull(),
    lastDoneOn: date('last_done_on', { mode: 'string' }),
    assigneeId: integer('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    note: varchar('note', { length: 200 }).notNull().default(''),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('maintenance_plans_device').on(t.companyId, t.gatewayId, t.nextDue)],
);
