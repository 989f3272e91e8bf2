import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
  varchar,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';

/**
 * A company's gas components and their molar masses (gas properties, gm_gas_info). The
 * defaults of domain-facts.md are written on the company's first use and are editable; the
 * calculations use the company's own table. Other tables name a component by its formula.
 */
export const gasComponents = pgTable(
  'gas_components',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    formula: varchar('formula', { length: 20 }).notNull(),
    name: varchar('name', { length: 50 }).notNull(),
    /** g/mol */
    molarMass: doublePrecision('molar_mass').notNull(),
    builtIn: boolean('built_in').notNull().default(false),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('gas_components_company_formula').on(t.companyId, t.formula)],
);

export interface Impurity {
  component: string;
  umolPerMol: number;
}

/** A parent ("pure") gas and its purity table: the main component is the rest of the impurities. */
export const pureGases = pgTable(
  'pure_gases',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    main: varchar('main', { length: 20 }).notNull(),
    impurities: jsonb('impurities').$type<Impurity[]>().notNull().default([]),
    supplier: varchar('supplier', { length: 100 }).notNull().default(''),
    lot: varchar('lot', { length: 50 }).notNull().default(''),
    cylinder: varchar('cylinder', { length: 50 }).notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('pure_gases_company_name').on(t.companyId, t.name)],
);

export interface ProductComponent {
  component: string;
  /** amount fraction, mol/mol */
  fraction: number;
}

/** A mixture recipe (product list, gm_product): the components and the balance gas, the cylinder's fill. */
export const gasProducts = pgTable(
  'gas_products',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    code: varchar('code', { length: 50 }).notNull().default(''),
    balance: varchar('balance', { length: 20 }).notNull(),
    components: jsonb('components').$type<ProductComponent[]>().notNull().default([]),
    volumeL: doublePrecision('volume_l').notNull(),
    pressureMPa: doublePrecision('pressure_mpa').notNull(),
    temperatureC: doublePrecision('temperature_c').notNull(),
    z: doublePrecision('z').notNull().default(1),
    notes: text('notes').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('gas_products_company_name').on(t.companyId, t.name)],
);
