/**
 * Test fixtures of serial packets: packets, parsers and IoT items made straight in the tables
 * (no route, no permission check). Not imported by production code.
 */
import { type FieldDef, normalizeValue, type ParserValue } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../test/helper';
import { makeItem } from '../cabin/test-support';
import { serialPackages, serialParsers } from './tables';

/** f1 电压 (decimal, 2 places), f2 状态 (integer), f3 编号 (text), f4 时间 (dateTime) */
export const IOT_FIELDS: FieldDef[] = [
  { key: 'f1', name: '电压', unit: 'V', type: 1, decimals: 2 },
  { key: 'f2', name: '状态', type: 10 },
  { key: 'f3', name: '编号', type: 5 },
  { key: 'f4', name: '时间', type: 4 },
];

export function makeIotItem(t: TestApp, companyId: number, name?: string) {
  return makeItem(t, companyId, { kind: 13, fields: IOT_FIELDS, name });
}

let counter = 0;

/** A packet reading 2 holding registers from address 1 (answer `01 03 04 … CRC`), CRC appended. */
export async function makePackage(
  t: TestApp,
  companyId: number,
  patch: Partial<typeof serialPackages.$inferInsert> = {},
): Promise<number> {
  counter += 1;
  const [row] = await t.db
    .insert(serialPackages)
    .values({
      companyId,
      name: `packet ${counter}`,
      frame: '01 03 00 00 00 02',
      appendCrc: true,
      valueType: 'byte',
      encoding: 'HEX',
      samplingId: 1,
      ...patch,
    })
    .returning({ id: serialPackages.id });
  return row!.id;
}

/** A value reading the answer's 4 data bytes as a float (ABCD) into `itemId`'s f1. */
export function floatValue(itemId: number, patch: Partial<ParserValue> = {}): ParserValue {
  return normalizeValue({
    name: '电压',
    offset: 0,
    length: 4,
    valueType: 'decimal',
    format: 'float',
    order: 'ABCD',
    itemId,
    fieldKey: 'f1',
    ...patch,
  });
}

export async function makeParser(
  t: TestApp,
  companyId: number,
  packageId: number,
  values: ParserValue[],
  updatedBy: number | null,
  answerLength: number | null = null,
): Promise<void> {
  await t.db.insert(serialParsers).values({ packageId, companyId, values, updatedBy, answerLength });
}

export async function packageRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(serialPackages).where(eq(serialPackages.id, id));
  return row;
}

export async function parserRow(t: TestApp, packageId: number) {
  const [row] = await t.db.select().from(serialParsers).where(eq(serialParsers.packageId, packageId));
  return row;
}
