/**
 * Test fixtures of document / rich-text templates: a cabin node with its templates row made
 * straight in the tables (no route, no sanitising, no permission check). Not imported by
 * production code.
 */
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../test/helper';
import { cabinNodes } from '../cabin/tables';
import { templates } from './tables';

let counter = 0;

export async function makeDocTemplate(
  t: TestApp,
  companyId: number,
  opts: {
    type?: 'docTemplate' | 'richTemplate';
    name?: string;
    html?: string;
    itemId?: number | null;
    parentId?: number | null;
    createdBy?: number | null;
  } = {},
): Promise<{ nodeId: number; templateId: number }> {
  counter += 1;
  const type = opts.type ?? 'docTemplate';
  return t.db.transaction(async (tx) => {
    const [node] = await tx
      .insert(cabinNodes)
      .values({
        companyId,
        parentId: opts.parentId ?? null,
        type,
        name: opts.name ?? `tpl ${counter}`,
        createdBy: opts.createdBy ?? null,
      })
      .returning({ id: cabinNodes.id });
    const [template] = await tx
      .insert(templates)
      .values({
        companyId,
        nodeId: node!.id,
        type,
        content: { html: opts.html ?? '', itemId: opts.itemId ?? null },
      })
      .returning({ id: templates.id });
    await tx.update(cabinNodes).set({ refId: template!.id }).where(eq(cabinNodes.id, node!.id));
    return { nodeId: node!.id, templateId: template!.id };
  });
}

export async function templateRow(t: TestApp, nodeId: number) {
  const [row] = await t.db.select().from(templates).where(eq(templates.nodeId, nodeId));
  return row!;
}
