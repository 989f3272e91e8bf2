/**
 * Test fixtures of meters: rows made straight in the tables (no route, no check). Not imported
 * by production code.
 */
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../test/helper';
import { cabinNodes } from '../cabin/tables';
import { meters } from './tables';

let counter = 0;

export async function makeMeter(
  t: TestApp,
  companyId: number,
  opts: {
    name?: string;
    code?: string;
    type?: 101 | 100;
    itemId?: number | null;
    energy?: string;
    formula?: string;
    refs?: string[];
    parentMeterId?: number | null;
  } = {},
): Promise<{ nodeId: number; meterId: number; code: string }> {
  counter += 1;
  const code = opts.code ?? `M${counter}`;
  return t.db.transaction(async (tx) => {
    const [node] = await tx
      .insert(cabinNodes)
      .values({ companyId, type: 'meter', name: opts.name ?? `meter ${counter}` })
      .returning({ id: cabinNodes.id });
    const [row] = await tx
      .insert(meters)
      .values({
        companyId,
        nodeId: node!.id,
        type: opts.type ?? 101,
        code,
        itemId: opts.itemId ?? null,
        points: opts.energy ? { energy: opts.energy } : {},
        formula: opts.formula ?? null,
        refs: opts.refs ?? [],
        parentMeterId: opts.parentMeterId ?? null,
      })
      .returning({ id: meters.id });
    await tx.update(cabinNodes).set({ refId: row!.id }).where(eq(cabinNodes.id, node!.id));
    return { nodeId: node!.id, meterId: row!.id, code };
  });
}

export async function meterRow(t: TestApp, nodeId: number) {
  const [row] = await t.db.select().from(meters).where(eq(meters.nodeId, nodeId));
  return row;
}
