/**
 * Electricity meters (docs/energy.md): a meter is a cabin entry (node type `meter`) with a row in
 * `meters`, addressed by its node id, so it takes the cabin's data permissions: read to see it
 * and its energy, write to change it or record a replacement, administrator to delete it.
 *
 * A standard meter (101) reads a data item the caller can read: its cumulative active energy
 * field (required) and optionally power, voltage, current and power factor fields, each a
 * numeric field of that item. A virtual meter (100) is a formula over other meters' codes,
 * checked by packages/domain checkFormula (unknown meters, cycles, syntax positions) and never
 * run as code. Meters name their parent meter, so a parent is balanced against its children and
 * the ready-made formulas (sum of children, parent minus children) know whom to add.
 */
import {
  aggregateFormula,
  checkFormula,
  DATA_PERMISSION,
  type DataPermission,
  type FieldDef,
  type FormulaRefusal,
  type FormulaResult,
  formatFormula,
  formulaRef,
  METER_POINTS,
  METER_TYPES,
  type MeterInput,
  type MeterPoint,
  type MeterSides,
  type MeterView,
  meterKindOf,
  NUMERIC_FIELD_TYPES,
  parseFormula,
  remainderFormula,
  transformerRatio,
} from '@platform/domain';
import { and, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { type DataCaller, levelsFor, requireLevel } from '../cabin/permissions';
import { createNode, deleteNodes, nodeFor } from '../cabin/service';
import { cabinNodes } from '../cabin/tables';
import { dataItems } from '../dataitems/tables';
import { itemFor } from '../records/service';
import { meters } from './tables';

/** declared in the domain, the web's too; named here for the routes, schemas and seeds */
export { METER_POINTS, type MeterInput, type MeterPoint, type MeterView } from '@platform/domain';

export type MeterRow = typeof meters.$inferSelect;

const sides = (primary: number, secondary: number): MeterSides => ({
  primary,
  secondary,
  ratio: primary / secondary,
});

/** Every meter of the company with its node (a handful to a few thousand rows). */
export async function companyMeters(db: Db, companyId: number) {
  return db
    .select({ meter: meters, name: cabinNodes.name, parentId: cabinNodes.parentId })
    .from(meters)
    .innerJoin(cabinNodes, eq(cabinNodes.id, meters.nodeId))
    .where(and(eq(meters.companyId, companyId), eq(cabinNodes.companyId, companyId)));
}

/** The meter row behind a node the caller holds `needed` on; a node of another type is 40400. */
export async function meterFor(
  db: Db,
  caller: DataCaller,
  nodeId: number,
  needed: DataPermission,
  field = 'id',
): Promise<{ meter: MeterRow; name: string; parentId: number | null }> {
  const node = await nodeFor(db, caller, nodeId, needed, field);
  if (node.type !== 'meter') throw new AppError('notAMeter', {}, { field });
  const [meter] = await db
    .select()
    .from(meters)
    .where(and(eq(meters.nodeId, node.id), eq(meters.companyId, caller.companyId)));
  // a meter node made through the cabin's own create route has no meter behind it yet
  if (!meter) throw new AppError('notAMeter', {}, { field });
  return { meter, name: node.name, parentId: node.parentId };
}

function toView(
  row: { meter: MeterRow; name: string; parentId: number | null },
  level: DataPermission,
  all: Awaited<ReturnType<typeof companyMeters>>,
  itemName: string | null,
): MeterView {
  const m = row.meter;
  const byId = new Map(all.map((r) => [r.meter.id, r]));
  const ct = sides(m.ctPrimary, m.ctSecondary);
  const pt = sides(m.ptPrimary, m.ptSecondary);
  return {
    id: m.nodeId,
    type: m.type as 101 | 100,
    kind: meterKindOf(m.type) ?? 'standard',
    name: row.name,
    code: m.code,
    parentId: row.parentId,
    level,
    itemId: m.itemId,
    itemName,
    points: m.points as Partial<Record<MeterPoint, string>>,
    ct,
    pt,
    multiplier: ct.ratio * pt.ratio,
    registerDigits: m.registerDigits,
    samplingId: m.samplingId,
    formula: m.formula,
    refs: m.refs,
    parentMeterId: m.parentMeterId == null ? null : (byId.get(m.parentMeterId)?.meter.nodeId ?? null),
    children: all
      .filter((r) => r.meter.parentMeterId === m.id)
      .map((r) => ({ id: r.meter.nodeId, name: r.name, code: r.meter.code }))
      .sort((a, b) => a.code.localeCompare(b.code)),
    updatedAt: m.updatedAt.toISOString(),
  };
}

/** One meter as the caller sees it (read level). */
export async function getMeter(db: Db, caller: DataCaller, nodeId: number): Promise<MeterView> {
  const row = await meterFor(db, caller, nodeId, DATA_PERMISSION.read);
  const [all, levels, item] = await Promise.all([
    companyMeters(db, caller.companyId),
    levelsFor(db, caller, [nodeId]),
    row.meter.itemId == null
      ? Promise.resolve([])
      : db.select({ name: dataItems.name }).from(dataItems).where(eq(dataItems.id, row.meter.itemId)),
  ]);
  return toView(row, levels.get(nodeId) ?? DATA_PERMISSION.read, all, item[0]?.name ?? null);
}

/** The company's meters the caller can read, by code. */
export async function listMeters(db: Db, caller: DataCaller): Promise<MeterView[]> {
  const all = await companyMeters(db, caller.companyId);
  if (all.length === 0) return [];
  const levels = await levelsFor(db, caller);
  const readable = all.filter((r) => (levels.get(r.meter.nodeId) ?? 0) > DATA_PERMISSION.none);
  const itemIds = [...new Set(readable.map((r) => r.meter.itemId).filter((id): id is number => id != null))];
  const items = itemIds.length
    ? await db
        .select({ id: dataItems.id, name: dataItems.name })
        .from(dataItems)
        .where(and(inArray(dataItems.id, itemIds), eq(dataItems.companyId, caller.companyId)))
    : [];
  const itemName = new Map(items.map((i) => [i.id, i.name]));
  return readable
    .map((r) =>
      toView(
        r,
        levels.get(r.meter.nodeId)!,
        all,
        r.meter.itemId == null ? null : (itemName.get(r.meter.itemId) ?? null),
      ),
    )
    .sort((a, b) => a.code.localeCompare(b.code) || a.id - b.id);
}

/** A formula's refusal as the catalogue's error on `field`. */
export function formulaError(refusal: FormulaRefusal, field = 'formula'): AppError {
  const at = 'at' in refusal && refusal.at !== undefined ? refusal.at : null;
  const data = { field, reason: refusal.reason, at, ...('name' in refusal ? { name: refusal.name } : {}) };
  // messages count characters from 1, data.at is the 0-based offset the editor marks
  const position = at === null ? '?' : at + 1;
  switch (refusal.reason) {
    case 'syntax':
      return new AppError('formulaSyntax', { field, at: position, detail: refusal.detail ?? '' }, data);
    case 'unsupported':
      return new AppError('formulaUnsupported', { field, name: refusal.name, at: position }, data);
    case 'unknownMeter':
      return new AppError('formulaUnknownMeter', { field, name: refusal.name, at: position }, data);
    case 'cycle':
      return new AppError(
        'formulaCycle',
        { field, path: refusal.path.join(' → ') },
        { ...data, path: refusal.path },
      );
  }
}

/**
 * A formula checked against the company's meters: known are the codes of the meters the
 * caller can read (others are unknown to them), cycles are followed through every virtual
 * meter of the company. `self` is the code of the meter being defined.
 */
export async function checkMeterFormula(
  db: Db,
  caller: DataCaller,
  text: string,
  self: string | undefined,
): Promise<FormulaResult> {
  const all = await companyMeters(db, caller.companyId);
  const levels = all.length ? await levelsFor(db, caller) : new Map<number, number>();
  const known = all
    .filter((r) => (levels.get(r.meter.nodeId) ?? 0) > DATA_PERMISSION.none)
    .map((r) => r.meter.code);
  const deps = new Map(
    all.filter((r) => r.meter.type === METER_TYPES.virtual).map((r) => [r.meter.code, r.meter.refs]),
  );
  return checkFormula(text, known, deps, self);
}

/** A code a formula can name: 1 to 25 characters that read back as one meter reference. */
function checkCode(code: string): void {
  const parsed = code.length >= 1 && code.length <= 25 ? parseFormula(formulaRef(code)) : null;
  if (!parsed?.ok || parsed.refs.length !== 1 || parsed.refs[0] !== code || parsed.ast.type !== 'meter')
    throw new AppError('meterCodeInvalid', { field: 'code' }, { field: 'code' });
}

function checkSides(input: MeterInput): { ct: [number, number]; pt: [number, number] } {
  const out = { ct: [1, 1] as [number, number], pt: [1, 1] as [number, number] };
  for (const kind of ['ct', 'pt'] as const) {
    const primary = input[`${kind}Primary`] ?? 1;
    const secondary = input[`${kind}Secondary`] ?? 1;
    const r = transformerRatio(primary, secondary);
    if (!r.ok) {
      const field = `${kind}${r.field === 'primary' ? 'Primary' : 'Secondary'}`;
      throw new AppError('meterRatioInvalid', { field }, { field });
    }
    out[kind] = [primary, secondary];
  }
  return out;
}

/** The item's field named by key or by name, numeric; else the error on `points.<point>`. */
function numericField(fields: FieldDef[], point: string, wanted: string): string {
  const field = `points.${point}`;
  const f = fields.find((x) => x.key === wanted) ?? fields.find((x) => x.name === wanted);
  if (!f) throw new AppError('meterFieldMissing', { field, name: wanted }, { field });
  if (!NUMERIC_FIELD_TYPES.includes(f.type))
    throw new AppError('meterFieldNotNumeric', { field, name: f.name }, { field });
  return f.key;
}

/** The parent meter's row id, checked: readable, of the company, and not the meter or below it. */
async function parentMeterOf(
  db: Db,
  caller: DataCaller,
  nodeId: number | null | undefined,
  selfId: number | null,
  all: Awaited<ReturnType<typeof companyMeters>>,
): Promise<number | null> {
  if (nodeId == null) return null;
  const parent = await meterFor(db, caller, nodeId, DATA_PERMISSION.read, 'parentMeterId');
  const byId = new Map(all.map((r) => [r.meter.id, r.meter]));
  for (let cur: MeterRow | undefined = parent.meter, n = 0; cur && n <= all.length; n++) {
    if (cur.id === selfId)
      throw new AppError('meterParentInvalid', { field: 'parentMeterId' }, { field: 'parentMeterId' });
    cur = cur.parentMeterId == null ? undefined : byId.get(cur.parentMeterId);
  }
  return parent.meter.id;
}

/** The formula of a virtual meter: typed, or ready-made over a meter's children. */
async function formulaText(
  db: Db,
  caller: DataCaller,
  input: MeterInput,
  all: Awaited<ReturnType<typeof companyMeters>>,
): Promise<string> {
  if (input.preset) {
    const base = await meterFor(db, caller, input.preset.meterId, DATA_PERMISSION.read, 'preset.meterId');
    const children = all.filter((r) => r.meter.parentMeterId === base.meter.id).map((r) => r.meter.code);
    if (children.length === 0)
      throw new AppError(
        'meterNoChildren',
        { field: 'preset.meterId', name: base.name },
        { field: 'preset.meterId' },
      );
    children.sort();
    return input.preset.kind === 'sum'
      ? aggregateFormula(children)
      : remainderFormula(base.meter.code, children);
  }
  const text = (input.formula ?? '').trim();
  if (!text) throw new AppError('fieldRequired', { field: 'formula' }, { field: 'formula' });
  return text;
}

/** The checked columns of a meter from its input (nothing written). */
async function columnsOf(db: Db, caller: DataCaller, input: MeterInput, self: MeterRow | null, code: string) {
  const all = await companyMeters(db, caller.companyId);
  const parentMeterId = await parentMeterOf(db, caller, input.parentMeterId, self?.id ?? null, all);
  if (input.type === METER_TYPES.standard) {
    const { ct, pt } = checkSides(input);
    if (input.itemId == null)
      throw new AppError('meterItemRequired', { field: 'itemId' }, { field: 'itemId' });
    // the item must be one the caller can read in their own company: another company's is 40400
    const item = await itemFor(db, caller, input.itemId, DATA_PERMISSION.read);
    const given = input.points ?? {};
    if (!given.energy?.trim())
      throw new AppError('fieldRequired', { field: 'points.energy' }, { field: 'points.energy' });
    const points: Record<string, string> = {};
    for (const point of METER_POINTS) {
      const wanted = given[point]?.trim();
      if (wanted) points[point] = numericField(item.fields, point, wanted);
    }
    return {
      type: METER_TYPES.standard,
      code,
      itemId: item.id,
      points,
      ctPrimary: ct[0],
      ctSecondary: ct[1],
      ptPrimary: pt[0],
      ptSecondary: pt[1],
      registerDigits: input.registerDigits ?? null,
      samplingId: input.samplingId ?? 4,
      formula: null,
      refs: [] as string[],
      parentMeterId,
    };
  }
  const text = await formulaText(db, caller, input, all);
  const checked = await checkMeterFormula(db, caller, text, code);
  if (!checked.ok) throw formulaError(checked);
  return {
    type: METER_TYPES.virtual,
    code,
    itemId: null,
    points: {},
    ctPrimary: 1,
    ctSecondary: 1,
    ptPrimary: 1,
    ptSecondary: 1,
    registerDigits: null,
    samplingId: input.samplingId ?? null,
    formula: input.preset ? formatFormula(checked.ast) : text,
    refs: checked.refs,
    parentMeterId,
  };
}

async function refuseTakenCode(db: Db, companyId: number, code: string, exceptId: number | null) {
  const [taken] = await db
    .select({ id: meters.id })
    .from(meters)
    .where(
      and(
        eq(meters.companyId, companyId),
        eq(meters.code, code),
        ...(exceptId == null ? [] : [ne(meters.id, exceptId)]),
      ),
    );
  if (taken) throw new AppError('meterCodeTaken', { code }, { field: 'code' });
}

/** A new meter in a directory (write level there); every field is checked before anything is written. */
export async function createMeter(
  db: Db,
  caller: DataCaller,
  input: MeterInput & { parentId: number | null },
): Promise<MeterView> {
  const code = (input.code ?? '').trim() || input.name;
  checkCode(code);
  const columns = await columnsOf(db, caller, input, null, code);
  await refuseTakenCode(db, caller.companyId, code, null);
  if (input.parentId != null)
    await requireLevel(db, caller, input.parentId, DATA_PERMISSION.write, 'parentId');
  const node = await createNode(db, caller, {
    parentId: input.parentId,
    type: 'meter',
    name: input.name,
    kind: null,
  });
  try {
    const [row] = await db
      .insert(meters)
      .values({
        companyId: caller.companyId,
        nodeId: node.id,
        ...columns,
        createdBy: caller.userId,
        updatedBy: caller.userId,
      })
      .returning({ id: meters.id });
    await db.update(cabinNodes).set({ refId: row!.id }).where(eq(cabinNodes.id, node.id));
  } catch (error) {
    // the code was taken in between: the node goes too, nothing stays half made
    await db.delete(cabinNodes).where(eq(cabinNodes.id, node.id));
    if (String((error as { cause?: unknown }).cause ?? error).includes('meters_company_code'))
      throw new AppError('meterCodeTaken', { code }, { field: 'code' });
    throw error;
  }
  return getMeter(db, caller, node.id);
}

/** The virtual meters whose formulas name `code`, other than `exceptId`. */
async function usersOf(db: Db, companyId: number, code: string, exceptId: number) {
  const all = await companyMeters(db, companyId);
  return all.filter((r) => r.meter.id !== exceptId && r.meter.refs.includes(code));
}

/** Changes a meter (write level): the kind stays, the code changes only while no formula names it. */
export async function updateMeter(
  db: Db,
  caller: DataCaller,
  nodeId: number,
  input: MeterInput,
): Promise<MeterView> {
  const current = await meterFor(db, caller, nodeId, DATA_PERMISSION.write);
  if (input.type !== current.meter.type)
    throw new AppError('validation', { field: 'type' }, { field: 'type' });
  const code = (input.code ?? '').trim() || current.meter.code;
  checkCode(code);
  const columns = await columnsOf(db, caller, input, current.meter, code);
  if (code !== current.meter.code) {
    await refuseTakenCode(db, caller.companyId, code, current.meter.id);
    const users = await usersOf(db, caller.companyId, current.meter.code, current.meter.id);
    if (users.length > 0)
      throw new AppError('meterInUse', { name: current.meter.code, user: users[0]!.name }, { field: 'code' });
  }
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(meters)
      .set({ ...columns, updatedBy: caller.userId, updatedAt: now })
      .where(and(eq(meters.id, current.meter.id), eq(meters.companyId, caller.companyId)));
    await tx.update(cabinNodes).set({ name: input.name, updatedAt: now }).where(eq(cabinNodes.id, nodeId));
  });
  return getMeter(db, caller, nodeId);
}

/** Deletes a meter (administrator level) unless a virtual meter's formula names it. */
export async function deleteMeter(db: Db, caller: DataCaller, nodeId: number): Promise<void> {
  const current = await meterFor(db, caller, nodeId, DATA_PERMISSION.admin);
  const users = await usersOf(db, caller.companyId, current.meter.code, current.meter.id);
  if (users.length > 0)
    throw new AppError('meterInUse', { name: current.name, user: users[0]!.name }, { field: 'id' });
  await deleteNodes(db, caller, [nodeId]);
}
