/**
 * Test fixtures of the data cabin for every module's tests: directories and data items made
 * straight in the tables (no route, no permission check). Not imported by production code.
 */
import type { FieldDef, ItemKind, PermissionEntry } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../test/helper';
import { dataItems } from '../dataitems/tables';
import { cabinNodes, cabinPermissions } from './tables';

let nodeCounter = 0;
function nextName(prefix: string): string {
  nodeCounter += 1;
  return `${prefix} ${nodeCounter}`;
}

/** A directory node; returns its node id. */
export async function makeDirectory(
  t: TestApp,
  companyId: number,
  opts: { parentId?: number | null; name?: string; createdBy?: number | null } = {},
): Promise<number> {
  const [row] = await t.db
    .insert(cabinNodes)
    .values({
      companyId,
      parentId: opts.parentId ?? null,
      type: 'directory',
      name: opts.name ?? nextName('dir'),
      createdBy: opts.createdBy ?? null,
    })
    .returning({ id: cabinNodes.id });
  return row!.id;
}

/** Two numeric fields and one text field: f1 温度 (decimal), f2 count (integer), f3 note (text) */
export const SAMPLE_FIELDS: FieldDef[] = [
  { key: 'f1', name: '温度', unit: '℃', type: 1, decimals: 2 },
  { key: 'f2', name: 'count', type: 10 },
  { key: 'f3', name: 'note', type: 5 },
];

/** A data item with its cabin node; `fields` default to none (nextFieldNo follows the keys). */
export async function makeItem(
  t: TestApp,
  companyId: number,
  opts: {
    parentId?: number | null;
    name?: string;
    kind?: ItemKind;
    fields?: FieldDef[];
    createdBy?: number | null;
  } = {},
): Promise<{ nodeId: number; itemId: number }> {
  const name = opts.name ?? nextName('item');
  const fields = opts.fields ?? [];
  const maxNo = fields.reduce((max, f) => Math.max(max, Number(/^f(\d+)$/.exec(f.key)?.[1] ?? 0)), 0);
  return t.db.transaction(async (tx) => {
    const [node] = await tx
      .insert(cabinNodes)
      .values({
        companyId,
        parentId: opts.parentId ?? null,
        type: 'dataItem',
        name,
        createdBy: opts.createdBy ?? null,
      })
      .returning({ id: cabinNodes.id });
    const [item] = await tx
      .insert(dataItems)
      .values({ companyId, nodeId: node!.id, name, kind: opts.kind ?? 10, fields, nextFieldNo: maxNo + 1 })
      .returning({ id: dataItems.id });
    await tx.update(cabinNodes).set({ refId: item!.id }).where(eq(cabinNodes.id, node!.id));
    return { nodeId: node!.id, itemId: item!.id };
  });
}

/** Makes a node's permissions custom with these entries (replacing any earlier ones). */
export async function setPermissions(t: TestApp, nodeId: number, entries: PermissionEntry[]): Promise<void> {
  await t.db.transaction(async (tx) => {
    await tx.update(cabinNodes).set({ permissionMode: 'custom' }).where(eq(cabinNodes.id, nodeId));
    await tx.delete(cabinPermissions).where(eq(cabinPermissions.nodeId, nodeId));
    if (entries.length > 0) await tx.insert(cabinPermissions).values(entries.map((e) => ({ nodeId, ...e })));
  });
}
