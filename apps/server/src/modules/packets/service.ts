/**
 * Serial packet definitions of a company: list, read, create, change, delete. Every query is
 * scoped to the caller's company; another company's packet is answered as absent (40400).
 */
import {
  answerLayout,
  crcOfFrame,
  type Encoding,
  type PacketDef,
  type ParserValue,
  type SamplingId,
  type SerialValueType,
  valueProblems,
} from '@platform/domain';
import { and, count, desc, eq, ilike, sql } from 'drizzle-orm';
import { type Db, isUniqueViolation } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { likePattern } from '../../platform/like';
import { invalidatePacket } from './frame-definitions';
import { serialPackages, serialParsers } from './tables';

export type PackageRow = typeof serialPackages.$inferSelect;

export interface PackageView extends PacketDef {
  id: number;
  /** the CRC bytes appended when sent ("C4 0B"), null when none is appended */
  crc: string | null;
  /** values of the packet's parser; null when it has none */
  parserValues: number | null;
  createdAt: string;
  updatedAt: string;
}

export function packageView(row: PackageRow, parserValues: number | null): PackageView {
  return {
    id: row.id,
    name: row.name,
    frame: row.frame,
    appendCrc: row.appendCrc,
    crc: row.appendCrc ? crcOfFrame(row.frame) : null,
    valueType: row.valueType as SerialValueType,
    encoding: row.encoding as Encoding,
    samplingId: row.samplingId as SamplingId,
    parserValues,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listPackages(
  db: Db,
  companyId: number,
  query: { keyword?: string; limit: number; offset: number },
): Promise<{ list: PackageView[]; total: number }> {
  const keyword = query.keyword?.trim();
  const where = and(
    eq(serialPackages.companyId, companyId),
    keyword ? ilike(serialPackages.name, likePattern(keyword)) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(serialPackages).where(where);
  const rows = await db
    .select({
      row: serialPackages,
      values: sql<number | null>`jsonb_array_length(${serialParsers.values})`,
    })
    .from(serialPackages)
    .leftJoin(serialParsers, eq(serialParsers.packageId, serialPackages.id))
    .where(where)
    .orderBy(desc(serialPackages.updatedAt), desc(serialPackages.id))
    .limit(query.limit)
    .offset(query.offset);
  return {
    list: rows.map((r) => packageView(r.row, r.values == null ? null : Number(r.values))),
    total: total?.n ?? 0,
  };
}

/** The packet of the caller's company, or 40400 naming `field`. */
export async function packageFor(db: Db, companyId: number, id: number, field = 'id'): Promise<PackageRow> {
  const [row] = await db
    .select()
    .from(serialPackages)
    .where(and(eq(serialPackages.id, id), eq(serialPackages.companyId, companyId)));
  if (!row) throw new AppError('notFound', {}, { field });
  return row;
}

/** The packet of the caller's company as the list shows it (with its parser's value count), or 40400. */
export async function packageViewOf(
  db: Db,
  companyId: number,
  id: number,
  field = 'id',
): Promise<PackageView> {
  const [r] = await db
    .select({
      row: serialPackages,
      values: sql<number | null>`jsonb_array_length(${serialParsers.values})`,
    })
    .from(serialPackages)
    .leftJoin(serialParsers, eq(serialParsers.packageId, serialPackages.id))
    .where(and(eq(serialPackages.id, id), eq(serialPackages.companyId, companyId)));
  if (!r) throw new AppError('notFound', {}, { field });
  return packageView(r.row, r.values == null ? null : Number(r.values));
}

async function assertNameFree(db: Db, companyId: number, name: string, exceptId?: number): Promise<void> {
  const [taken] = await db
    .select({ id: serialPackages.id })
    .from(serialPackages)
    .where(and(eq(serialPackages.companyId, companyId), eq(serialPackages.name, name)));
  if (taken && taken.id !== exceptId) throw new AppError('packageNameTaken', {}, { field: 'name' });
}

export async function addPackage(
  db: Db,
  companyId: number,
  userId: number,
  packet: PacketDef,
): Promise<PackageRow> {
  await assertNameFree(db, companyId, packet.name);
  try {
    const [row] = await db
      .insert(serialPackages)
      .values({ companyId, createdBy: userId, ...packet })
      .returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('packageNameTaken', {}, { field: 'name' });
    throw error;
  }
}

/**
 * Changes a packet. A new frame must still hold every value of its parser: a Modbus read of
 * fewer registers would leave a value reading past the answer's data, refused naming it.
 */
export async function updatePackage(
  db: Db,
  companyId: number,
  id: number,
  packet: PacketDef,
): Promise<PackageRow> {
  await packageFor(db, companyId, id);
  await assertNameFree(db, companyId, packet.name, id);
  const [parser] = await db
    .select({ values: serialParsers.values, answerLength: serialParsers.answerLength })
    .from(serialParsers)
    .where(eq(serialParsers.packageId, id));
  if (parser) assertValuesFit(parser.values, answerLayout(packet, parser.answerLength));
  try {
    const [row] = await db
      .update(serialPackages)
      .set({ ...packet, updatedAt: new Date() })
      .where(and(eq(serialPackages.id, id), eq(serialPackages.companyId, companyId)))
      .returning();
    invalidatePacket(db, id);
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('packageNameTaken', {}, { field: 'name' });
    throw error;
  }
}

function assertValuesFit(values: readonly ParserValue[], layout: ReturnType<typeof answerLayout>): void {
  for (const value of values) {
    const past = valueProblems(value, layout).find((p) => p.key === 'parserValuePastEnd');
    if (past) throw new AppError('parserValuePastEnd', past.params, { field: 'frame' });
  }
}

/** Deletes a packet and its parser, unless something that sends it still names it (uses.ts). */
export async function deletePackage(
  db: Db,
  companyId: number,
  id: number,
  whereUsed: (packageId: number) => Promise<string | null>,
): Promise<void> {
  await packageFor(db, companyId, id);
  const where = await whereUsed(id);
  if (where) throw new AppError('packageInUse', { where }, { field: 'id', where });
  await db
    .delete(serialPackages)
    .where(and(eq(serialPackages.id, id), eq(serialPackages.companyId, companyId)));
}
