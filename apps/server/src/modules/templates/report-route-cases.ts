import { ERROR_CODES, type ReportTemplate } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import type { RouteCases } from '../../test/route-cases';
import { cabinNodes } from '../cabin/tables';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { makeRecords } from '../records/test-support';
import { templates } from './tables';

/** A report node with its templates row, made straight in the tables; returns the node id. */
export async function makeReport(
  t: TestApp,
  companyId: number,
  opts: { name?: string; template?: ReportTemplate | Record<string, unknown>; parentId?: number | null } = {},
): Promise<{ nodeId: number; templateId: number }> {
  return t.db.transaction(async (tx) => {
    const [node] = await tx
      .insert(cabinNodes)
      .values({ companyId, parentId: opts.parentId ?? null, type: 'report', name: opts.name ?? '日报' })
      .returning({ id: cabinNodes.id });
    const [row] = await tx
      .insert(templates)
      .values({
        companyId,
        nodeId: node!.id,
        type: 'report',
        content: (opts.template ?? {}) as Record<string, unknown>,
      })
      .returning({ id: templates.id });
    await tx.update(cabinNodes).set({ refId: row!.id }).where(eq(cabinNodes.id, node!.id));
    return { nodeId: node!.id, templateId: row!.id };
  });
}

/** A one-cell report bound to the latest f1 of a fresh item. */
export function oneCell(itemId: number, text = 'SECRET-A'): ReportTemplate {
  return {
    title: text,
    rows: 1,
    cols: 2,
    colWidths: [120, 120],
    merges: [],
    cells: [
      { row: 0, col: 0, kind: 'text', text },
      { row: 0, col: 1, kind: 'bind', itemId, field: 'f1', method: 'latest' },
    ],
  };
}

/** Company A's report bound to its item holding 4242.5. */
async function victim(t: TestApp, companyId: number) {
  const { itemId } = await makeItem(t, companyId, { fields: SAMPLE_FIELDS });
  await makeRecords(t, companyId, itemId, [{ values: { f1: 4242.5 } }]);
  const report = await makeReport(t, companyId, { template: oneCell(itemId) });
  const [row] = await t.db.select().from(templates).where(eq(templates.id, report.templateId));
  return { itemId, ...report, row: row! };
}

export const reportRouteCases: RouteCases = {
  'GET /general/smartdata/report/get': {
    attack: async ({ t, a, b }) => {
      const v = await victim(t, a.id);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/report/get?id=${v.nodeId}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain('SECRET-A');
        },
      };
    },
  },
  'POST /general/smartdata/report/save': {
    attack: async ({ t, a, b }) => {
      const v = await victim(t, a.id);
      return {
        request: {
          method: 'POST',
          url: '/general/smartdata/report/save',
          payload: { id: v.nodeId, template: { rows: 1, cols: 1, cells: [] } },
          headers: bearer(b.admin.token),
        },
        verify: async (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          const [after] = await t.db.select().from(templates).where(eq(templates.id, v.templateId));
          expect(after).toEqual(v.row);
        },
      };
    },
  },
  'GET /general/smartdata/report/preview': {
    attack: async ({ t, a, b }) => {
      const v = await victim(t, a.id);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/report/preview?id=${v.nodeId}`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
          expect(res.body).not.toContain('SECRET-A');
          expect(res.body).not.toContain('4242');
        },
      };
    },
  },
  'GET /general/smartdata/report/export': {
    attack: async ({ t, a, b }) => {
      const v = await victim(t, a.id);
      return {
        request: {
          method: 'GET',
          url: `/general/smartdata/report/export?id=${v.nodeId}&format=xlsx`,
          headers: bearer(b.admin.token),
        },
        verify: (res) => {
          expect(res.headers['content-type']).toContain('application/json');
          expect(res.json()).toMatchObject({ code: ERROR_CODES.NOT_FOUND, data: { field: 'id' } });
        },
      };
    },
  },
};
