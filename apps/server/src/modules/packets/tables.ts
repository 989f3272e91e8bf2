import type { ParserValue } from '@platform/domain';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { companies } from '../companies/tables';
import { users } from '../users/tables';

/**
 * Serial packet definitions (Device communication → data packages, cd_data_package). `frame`
 * is hex by the seed's rule, upper case, without the CRC that `appendCrc` adds when sent.
 * Names are unique per company: gateway configurations and pickers show them.
 */
export const serialPackages = pgTable(
  'serial_packages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 25 }).notNull(),
    /** at most 256 bytes: 767 characters of hex */
    frame: varchar('frame', { length: 800 }).notNull(),
    appendCrc: boolean('append_crc').notNull().default(true),
    /** byte | bit | string */
    valueType: varchar('value_type', { length: 8 }).notNull(),
    /** ASCII | HEX */
    encoding: varchar('encoding', { length: 5 }).notNull(),
    /** 1 = 1 min, 2 = 5 min, 3 = 10 min, 4 = 15 min */
    samplingId: smallint('sampling_id').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`now()`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [uniqueIndex('serial_packages_company_name').on(t.companyId, t.name)],
);

/**
 * The parser of a packet (Device communication → parsing, cd_parsing): one per packet. Values
 * are written into their bound items with the data permission of `updatedBy`, the person who
 * last saved the parser, read afresh for every frame (like a submission key's holder).
 */
export const serialParsers = pgTable(
  'serial_parsers',
  {
    packageId: integer('package_id')
      .primaryKey()
      .references(() => serialPackages.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    /** raw (non-Modbus) packets only: the answer's whole length, CRC included; null = long enough */
    answerLength: integer('answer_length'),
    values: jsonb('values').$type<ParserValue[]>().notNull().default([]),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
  },
  (t) => [index('serial_parsers_company').on(t.companyId)],
);

/**
 * What became of the frames each gateway port sent (frames.ts): counted per company, gateway
 * serial number and port (0 = a message without a usable port), kept across restarts and
 * shared by every server node. A frame may count twice: stored and decodeErrors when some of
 * its values could not be decoded, stored and refused when one of its items refused its record.
 */
export const frameStats = pgTable(
  'frame_stats',
  {
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    sn: varchar('sn', { length: 32 }).notNull(),
    port: integer('port').notNull(),
    stored: integer('stored').notNull().default(0),
    badCrc: integer('bad_crc').notNull().default(0),
    wrongLength: integer('wrong_length').notNull().default(0),
    badAnswer: integer('bad_answer').notNull().default(0),
    unknownPacket: integer('unknown_packet').notNull().default(0),
    decodeErrors: integer('decode_errors').notNull().default(0),
    refused: integer('refused').notNull().default(0),
    malformed: integer('malformed').notNull().default(0),
    /** the latest refusal: { reason, packetId, message, at } */
    lastError: jsonb('last_error').$type<FrameRefusal | null>(),
    lastFrameAt: timestamp('last_frame_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.sn, t.port] })],
);

export interface FrameRefusal {
  reason: FrameReason;
  packetId: number | null;
  /** English, for the device page and logs (the reason is the key to translate) */
  message: string;
  at: string;
}

export const FRAME_REASONS = [
  'badCrc',
  'wrongLength',
  'badAnswer',
  'unknownPacket',
  'decodeErrors',
  'refused',
  'malformed',
] as const;
export type FrameReason = (typeof FRAME_REASONS)[number];
