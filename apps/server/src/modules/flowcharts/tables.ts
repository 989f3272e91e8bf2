import type { CommandMap, FamilyLang, FamilyRole, RoleMap, ScreenBody } from '@platform/domain';
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, timestamp, unique, varchar } from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { gateways } from '../gateways/tables';
import { users } from '../users/tables';

/**
 * Device-family templates (issue 13 point 7, system maintenance systemnss3dfw): flow charts
 * drawn once per family of devices over the family's roles, platform-wide. `builtin` ones were
 * put there by the platform (packages/domain scada/family-builtins.ts) and are kept up to date
 * with it until someone edits them; `body` is a screen body whose bindings name roles.
 */
export const familyTemplates = pgTable('family_templates', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  code: varchar('code', { length: 32 }).notNull().unique(),
  name: jsonb('name').$type<Record<FamilyLang, string>>().notNull(),
  roles: jsonb('roles').$type<FamilyRole[]>().notNull(),
  body: jsonb('body').$type<ScreenBody>().notNull(),
  builtin: boolean('builtin').notNull().default(false),
  version: integer('version').notNull().default(1),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});

/**
 * A device's flow chart: the family template chosen for it, each role mapped onto one of its
 * points and each command of the template's switches onto one of its commands. One per device and company, like its configuration screen; a template in use is not
 * deleted (the delete is refused and names how many devices use it).
 */
export const deviceFlowcharts = pgTable(
  'device_flowcharts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    gatewayId: integer('gateway_id')
      .notNull()
      .references(() => gateways.id, { onDelete: 'cascade' }),
    templateId: integer('template_id')
      .notNull()
      .references(() => familyTemplates.id, { onDelete: 'restrict' }),
    map: jsonb('map').$type<RoleMap>().notNull(),
    /** each command the template's switches name, mapped onto one of the device's (or null) */
    commands: jsonb('commands').$type<CommandMap>().notNull().default({}),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('device_flowcharts_device').on(t.companyId, t.gatewayId)],
);
