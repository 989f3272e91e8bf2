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
  /** standard uncertainty of the purity analysis, µmol/mol (absent: none stated) */
  uUmolPerMol?: number;
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

/** A weighed parent gas of a cylinder, as it was when the cylinder was saved. */
export interface CylinderParent {
  pureGasId: number;
  name: string;
  massG: number;
  /** standard uncertainty of the weighing, g */
  uMassG: number;
}

/** A certified (gravimetric) value: amount fraction and its uncertainties (k = 1 and k = 2). */
export interface CylinderValue {
  component: string;
  fraction: number;
  standard: number;
  expanded: number;
}

/** An analysis result of quality control, both values at k = 2. */
export interface CylinderAnalysis {
  component: string;
  analysed: number;
  analysedU: number;
  referenceMaterialId: number | null;
}

/** What a certificate of analysis states beyond the values (domain-facts.md). */
export interface CylinderCertificate {
  number: string;
  certifiedOn: string;
  expiresOn: string;
  pressureMPa: number;
  tempMinC: number;
  tempMaxC: number;
  laboratory: string;
  referenceIds: number[];
  issuedAt: string;
  /** the revoked certificate this one replaces (a reissue), if any */
  replaces?: string;
}

/** A certificate withdrawn: as it was issued, and when, by whom and why it was revoked. */
export interface RevokedCertificate extends CylinderCertificate {
  revokedAt: string;
  revokedBy: number;
  reason: string;
}

export const CYLINDER_STATUSES = ['weighed', 'passed', 'failed', 'certified'] as const;
export type CylinderStatus = (typeof CYLINDER_STATUSES)[number];

/**
 * A filled cylinder (a batch of a product): its weighed parents and gravimetric composition,
 * then quality control's analyses (gm_quality_ctrl), then its certificate (gm_cert_report).
 * A certified cylinder's record no longer changes.
 */
export const gasCylinders = pgTable(
  'gas_cylinders',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    serialNumber: varchar('serial_number', { length: 50 }).notNull(),
    productId: integer('product_id').references(() => gasProducts.id, { onDelete: 'set null' }),
    productName: varchar('product_name', { length: 50 }).notNull().default(''),
    balance: varchar('balance', { length: 20 }).notNull(),
    parents: jsonb('parents').$type<CylinderParent[]>().notNull(),
    certifiedValues: jsonb('certified_values').$type<CylinderValue[]>().notNull(),
    analyses: jsonb('analyses').$type<CylinderAnalysis[]>().notNull().default([]),
    status: varchar('status', { length: 12 }).$type<CylinderStatus>().notNull().default('weighed'),
    analysedAt: timestamp('analysed_at', { withTimezone: true }),
    certificate: jsonb('certificate').$type<CylinderCertificate>(),
    /** certificates revoked, oldest first: a reissue numbers itself after them */
    revokedCertificates: jsonb('revoked_certificates').$type<RevokedCertificate[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('gas_cylinders_company_serial').on(t.companyId, t.serialNumber)],
);

export interface ReferenceValue {
  component: string;
  fraction: number;
  /** expanded uncertainty (k = 2), amount fraction */
  expanded: number;
}

/**
 * A certified reference material (gm_ref_material): the standards quality control analyses
 * against, named on a certificate's traceability statement.
 */
export const gasReferenceMaterials = pgTable(
  'gas_reference_materials',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 50 }).notNull(),
    certificateNo: varchar('certificate_no', { length: 50 }).notNull(),
    issuer: varchar('issuer', { length: 100 }).notNull().default(''),
    balance: varchar('balance', { length: 20 }).notNull(),
    components: jsonb('components').$type<ReferenceValue[]>().notNull().default([]),
    expiresOn: varchar('expires_on', { length: 10 }).notNull(),
    notes: text('notes').notNull().default(''),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [unique('gas_reference_materials_company_name').on(t.companyId, t.name)],
);
