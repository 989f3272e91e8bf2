/**
 * Parsers of serial packets (one per packet) and the kind-13 items their values may be bound
 * to. Binding a value to an item's field needs write permission on the item (cabin
 * permissions, read now) and a field whose type holds the value type; the values are later
 * written with the permission of whoever saved the parser last (frames.ts).
 */
import {
  answerLayout,
  checkAnswerLength,
  checkParserValues,
  DATA_PERMISSION,
  type DataPermission,
  type FieldDef,
  fieldFitsValueType,
  type ParserValue,
} from '@platform/domain';
import { and, asc, eq, ilike, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import { likePattern } from '../../platform/like';
import { type DataCaller, levelsFor } from '../cabin/permissions';
import { dataItems } from '../dataitems/tables';
import { users } from '../users/tables';
import { invalidatePacket } from './frame-definitions';
import { type PackageRow, packageFor } from './service';
import { serialParsers } from './tables';

/** The IoT data list kind (spec point 3): only these take device values. */
export const IOT_KIND = 13;
/** items offered by the picker at most (a keyword narrows them) */
export const PICKER_LIMIT = 200;

export interface ItemOption {
  id: number;
  name: string;
  fields: Array<Pick<FieldDef, 'key' | 'name' | 'type' | 'unit' | 'decimals'>>;
  level: DataPermission;
}

export interface ParserView {
  answerLength: number | null;
  values: ParserValue[];
  updatedAt: string | null;
  /** who saved it last: values are written with this person's data permission */
  updatedBy: string | null;
  /** the bound items the caller can read (an unreadable one is named by id only) */
  items: ItemOption[];
}

function option(item: { id: number; name: string; fields: FieldDef[] }, level: DataPermission): ItemOption {
  return {
    id: item.id,
    name: item.name,
    fields: item.fields.map((f) => ({
      key: f.key,
      name: f.name,
      type: f.type,
      unit: f.unit,
      decimals: f.decimals,
    })),
    level,
  };
}

/** The kind-13 items of the caller's company the caller may write, by name. */
export async function writableIotItems(db: Db, caller: DataCaller, keyword?: string): Promise<ItemOption[]> {
  const text = keyword?.trim();
  const rows = await db
    .select({ id: dataItems.id, name: dataItems.name, fields: dataItems.fields, nodeId: dataItems.nodeId })
    .from(dataItems)
    .where(
      and(
        eq(dataItems.companyId, caller.companyId),
        eq(dataItems.kind, IOT_KIND),
        text ? ilike(dataItems.name, likePattern(text)) : undefined,
      ),
    )
    .orderBy(asc(dataItems.name), asc(dataItems.id));
  const levels = await levelsFor(
    db,
    caller,
    rows.map((r) => r.nodeId),
  );
  const out: ItemOption[] = [];
  for (const row of rows) {
    const level = levels.get(row.nodeId) ?? DATA_PERMISSION.none;
    if (level >= DATA_PERMISSION.write) out.push(option(row, level));
    if (out.length >= PICKER_LIMIT) break;
  }
  return out;
}

export async function getParser(db: Db, caller: DataCaller, pkg: PackageRow): Promise<ParserView> {
  const [row] = await db
    .select({
      answerLength: serialParsers.answerLength,
      values: serialParsers.values,
      updatedAt: serialParsers.updatedAt,
      updatedBy: users.userName,
    })
    .from(serialParsers)
    .leftJoin(users, eq(users.id, serialParsers.updatedBy))
    .where(and(eq(serialParsers.packageId, pkg.id), eq(serialParsers.companyId, caller.companyId)));
  if (!row) return { answerLength: null, values: [], updatedAt: null, updatedBy: null, items: [] };
  const itemIds = [...new Set(row.values.map((v) => v.itemId).filter((id): id is number => id != null))];
  const items =
    itemIds.length === 0
      ? []
      : await db
          .select({
            id: dataItems.id,
            name: dataItems.name,
            fields: dataItems.fields,
            nodeId: dataItems.nodeId,
          })
          .from(dataItems)
          .where(and(inArray(dataItems.id, itemIds), eq(dataItems.companyId, caller.companyId)));
  const levels = await levelsFor(
    db,
    caller,
    items.map((i) => i.nodeId),
  );
  return {
    answerLength: row.answerLength,
    values: row.values,
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
    items: items.flatMap((item) => {
      const level = levels.get(item.nodeId) ?? DATA_PERMISSION.none;
      return level >= DATA_PERMISSION.read ? [option(item, level)] : [];
    }),
  };
}

/**
 * Saves a packet's parser: the values' own rules (domain checkParserValues, a value past the
 * answer's data named), then each binding: the item is of the caller's company and readable
 * (else 40400), writable by the caller (else 40300), an IoT data list, and has the field, of
 * a type that holds the value. The first problem names `values[i].<property>`; nothing is
 * written unless all pass.
 */
export async function saveParser(
  db: Db,
  caller: DataCaller,
  packageId: number,
  input: { answerLength?: number | null; values: ReadonlyArray<Record<string, unknown>> },
): Promise<void> {
  const pkg = await packageFor(db, caller.companyId, packageId, 'dataPkgId');
  const answerLength = input.answerLength ?? null;
  if (!checkAnswerLength(answerLength)) throw fieldError('answerLength');
  const layout = answerLayout(pkg, answerLength);
  const checked = checkParserValues(input.values, layout);
  if (!checked.ok) {
    throw new AppError(checked.key, { ...checked.params, field: checked.field }, { field: checked.field });
  }
  const values = checked.value;
  const itemIds = [...new Set(values.map((v) => v.itemId!))];
  const items = new Map(
    (itemIds.length === 0
      ? []
      : await db
          .select({
            id: dataItems.id,
            kind: dataItems.kind,
            fields: dataItems.fields,
            nodeId: dataItems.nodeId,
          })
          .from(dataItems)
          .where(and(inArray(dataItems.id, itemIds), eq(dataItems.companyId, caller.companyId)))
    ).map((item) => [item.id, item]),
  );
  const levels = await levelsFor(
    db,
    caller,
    [...items.values()].map((i) => i.nodeId),
  );
  for (const [index, value] of values.entries()) {
    const at = (property: string) => `values[${index}].${property}`;
    const item = items.get(value.itemId!);
    const level = item ? (levels.get(item.nodeId) ?? DATA_PERMISSION.none) : DATA_PERMISSION.none;
    if (!item || level === DATA_PERMISSION.none) throw new AppError('notFound', {}, { field: at('itemId') });
    if (level < DATA_PERMISSION.write) {
      throw new AppError('parserItemNotWritable', { value: value.name }, { field: at('itemId') });
    }
    if (item.kind !== IOT_KIND)
      throw new AppError('parserItemNotIot', { value: value.name }, { field: at('itemId') });
    const field = item.fields.find((f) => f.key === value.fieldKey);
    if (!field) throw new AppError('parserFieldMissing', { value: value.name }, { field: at('fieldKey') });
    if (!fieldFitsValueType(value.valueType, field.type)) {
      throw new AppError(
        'parserFieldMismatch',
        { value: value.name, fieldName: field.name },
        { field: at('fieldKey') },
      );
    }
  }
  const row = {
    packageId: pkg.id,
    companyId: caller.companyId,
    // a Modbus read fixes its answer's length itself
    answerLength: layout.kind === 'modbus' ? null : answerLength,
    values,
    updatedBy: caller.userId,
    updatedAt: new Date(),
  };
  await db
    .insert(serialParsers)
    .values(row)
    .onConflictDoUpdate({
      target: serialParsers.packageId,
      set: { answerLength: row.answerLength, values, updatedBy: row.updatedBy, updatedAt: row.updatedAt },
    });
  invalidatePacket(db, pkg.id);
}
