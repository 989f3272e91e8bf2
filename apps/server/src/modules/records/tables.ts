import type { RecordValues } from '@platform/domain';
import { sql } from 'drizzle-orm';
import {
  bigint,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core';
import { users } from '../users/tables';

/**
 * Records of every data item. `values` is keyed by field key ("f1"…); `ts` is the record's
 * time (given by the submitter or the arrival time). `parentId` links a child record
 * (ChildValue) to its parent record. No foreign key to data_items on purpose: clearing or
 * deleting an item deletes its records in bulk, and ingest stays one insert per batch.
 * source: manual | form | http | mqtt | jump | analysis | import | gateway
 */
export const dataRecords = pgTable(
  'data_records',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id').notNull(),
    itemId: integer('item_id').notNull(),
    ts: timestamp('ts', { withTimezone: true, mode: 'date' }).notNull(),
    values: jsonb('values').$type<RecordValues>().notNull(),
    parentId: bigint('parent_id', { mode: 'number' }),
    source: varchar('source', { length: 10 }).notNull().default('manual'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }),
  },
  (t) => [index('data_records_item_ts').on(t.itemId, t.ts), index('data_records_parent').on(t.parentId)],
);

/**
 * Rollups of numeric fields per hour and per day (grain 'h' | 'd'), kept current on ingest
 * and recomputed from raw rows for the buckets an edit or delete touches. Long-range
 * acquisition methods read these, not raw rows. Buckets are UTC hours / days in the
 * company's time zone (bucket = local midnight as an instant).
 */
export const dataRollups = pgTable(
  'data_rollups',
  {
    itemId: integer('item_id').notNull(),
    fieldKey: varchar('field_key', { length: 16 }).notNull(),
    grain: varchar('grain', { length: 1 }).notNull(),
    bucket: timestamp('bucket', { withTimezone: true, mode: 'date' }).notNull(),
    count: integer('count').notNull(),
    sum: doublePrecision('sum').notNull(),
    min: doublePrecision('min').notNull(),
    max: doublePrecision('max').notNull(),
    firstTs: timestamp('first_ts', { withTimezone: true, mode: 'date' }).notNull(),
    firstValue: doublePrecision('first_value').notNull(),
    lastTs: timestamp('last_ts', { withTimezone: true, mode: 'date' }).notNull(),
    lastValue: doublePrecision('last_value').notNull(),
    /**
     * Steps inside the bucket, in time order, that go down or share the instant of the one
     * before; null when not known (rows merged out of order, rollups older than the column).
     * With `places` and `subs`, a meter's month reads its day rollups instead of every reading
     * when nothing in them went down (meters/balance.ts).
     */
    falls: integer('falls'),
    /** the most decimal places a value of the bucket has (null: not known) */
    places: smallint('places'),
    /** how many of the bucket's rows are sub-records (parent_id set; null: not known) */
    subs: integer('subs'),
  },
  (t) => [primaryKey({ columns: [t.itemId, t.fieldKey, t.grain, t.bucket] })],
);
