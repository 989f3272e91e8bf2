/**
 * Report templates (cabin node type `report`): the grid of packages/domain reports/template.ts
 * stored in the node's templates row. Read level 1 on the node to see, preview and export it,
 * write level 2 to save it. Bound cells name numeric fields of items of the company that the
 * saving user can read; a preview resolves each binding with the analysis scheduler's
 * acquisition code (acquireSql) for the *viewing* user: an item that user cannot read, or that
 * is gone, shows no value, never another company's data.
 */
import {
  type AcquisitionMethod,
  cellKey,
  checkReportTemplate,
  DATA_PERMISSION,
  type DataPermission,
  DEFAULT_TIME_ZONE,
  fieldReportDecimals,
  NUMERIC_FIELD_TYPES,
  type ReportTemplate,
  type ResolvedReport,
  renderGrid,
  reportBindings,
  storedReportTemplate,
} from '@platform/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import { acquireSql } from '../analysis/acquire';
import { checkSources } from '../analysis/service';
import { type DataCaller, levelsFor, requireLevel } from '../cabin/permissions';
import { cabinNodes } from '../cabin/tables';
import { companyTimeZone } from '../companies/service';
import { dataItems } from '../dataitems/tables';
import { templates } from './tables';

export interface ReportRef {
  nodeId: number;
  templateId: number;
  name: string;
  content: Record<string, unknown>;
  updatedAt: Date;
  level: DataPermission;
}

/**
 * The report node of the caller's company with at least `level` on it. Another company's node,
 * a node of another type and an unreadable one are 40400 naming `field`; too low a level 40300.
 */
export async function reportFor(
  db: Db,
  caller: DataCaller,
  nodeId: number,
  level: DataPermission,
  field = 'id',
): Promise<ReportRef> {
  const [row] = await db
    .select({
      nodeId: cabinNodes.id,
      templateId: templates.id,
      name: cabinNodes.name,
      content: templates.content,
      updatedAt: templates.updatedAt,
    })
    .from(cabinNodes)
    .innerJoin(templates, eq(templates.nodeId, cabinNodes.id))
    .where(
      and(
        eq(cabinNodes.id, nodeId),
        eq(cabinNodes.companyId, caller.companyId),
        eq(cabinNodes.type, 'report'),
        eq(templates.companyId, caller.companyId),
      ),
    );
  if (!row) throw new AppError('notFound', {}, { field });
  const held = await requireLevel(db, caller, row.nodeId, level, field);
  return { ...row, level: held };
}

export interface ReportView {
  id: number;
  name: string;
  level: DataPermission;
  template: ReportTemplate;
  updatedAt: string;
}

export function reportView(report: ReportRef): ReportView {
  return {
    id: report.nodeId,
    name: report.name,
    level: report.level,
    template: storedReportTemplate(report.content),
    updatedAt: report.updatedAt.toISOString(),
  };
}

/**
 * Checks and stores a template; nothing is written when any part is bad. Errors name the part
 * of the request body: `template.cells.3.method`, `template.cells.3.itemId` (an item of another
 * company, a missing or unreadable one), `template.cells.3.field` (not a numeric field of it).
 */
export async function saveReport(
  db: Db,
  caller: DataCaller,
  report: ReportRef,
  input: unknown,
): Promise<void> {
  const checked = checkReportTemplate(input);
  if (!checked.ok) {
    throw fieldError(checked.field === 'template' ? 'template' : `template.${checked.field}`, checked.key);
  }
  const template = checked.template;
  // the input index of each bound cell, so an error names the cell as it was sent
  const sent = (input as { cells?: Array<{ row?: unknown; col?: unknown }> }).cells ?? [];
  const refs = reportBindings(template).map((cell) => ({
    path: `template.cells.${sent.findIndex((c) => c?.row === cell.row && c?.col === cell.col)}`,
    itemId: cell.itemId,
    field: cell.field,
  }));
  await checkSources(db, caller, refs);
  await db
    .update(templates)
    .set({
      content: template as unknown as Record<string, unknown>,
      updatedBy: caller.userId,
      updatedAt: new Date(),
    })
    .where(eq(templates.id, report.templateId));
}

export interface PreviewView extends ResolvedReport {
  id: number;
  name: string;
  /** the instant the "now"-relative windows were computed for */
  generatedAt: string;
  /** the company's IANA time zone: the days and months of every window begin at its midnight */
  timeZone: string;
}

/**
 * Every bound cell's value for the viewing caller at `now`; with `decimals`, also the decimals
 * of each readable bound field (what a cell naming none shows).
 */
export async function resolveValues(
  db: Db,
  caller: DataCaller,
  template: ReportTemplate,
  now: Date,
  tz: string = DEFAULT_TIME_ZONE,
  decimals?: Map<string, number | undefined>,
): Promise<Map<string, number | null>> {
  const bound = reportBindings(template);
  const values = new Map<string, number | null>();
  if (bound.length === 0) return values;
  const ids = [...new Set(bound.map((c) => c.itemId))];
  const items = await db
    .select({ id: dataItems.id, nodeId: dataItems.nodeId, fields: dataItems.fields })
    .from(dataItems)
    .where(and(eq(dataItems.companyId, caller.companyId), inArray(dataItems.id, ids)));
  const levels = await levelsFor(
    db,
    caller,
    items.map((i) => i.nodeId),
  );
  const readable = new Map(
    items
      .filter((i) => (levels.get(i.nodeId) ?? 0) >= DATA_PERMISSION.read)
      .map((i) => [
        i.id,
        new Map(i.fields.filter((f) => NUMERIC_FIELD_TYPES.includes(f.type)).map((f) => [f.key, f])),
      ]),
  );
  // the same acquisition in several cells is computed once
  const computed = new Map<string, Promise<number | null>>();
  for (const cell of bound) {
    const field = readable.get(cell.itemId)?.get(cell.field);
    if (!field) {
      values.set(cellKey(cell.row, cell.col), null);
      continue;
    }
    decimals?.set(cellKey(cell.row, cell.col), fieldReportDecimals(field));
    const key = JSON.stringify([cell.itemId, cell.field, cell.method, cell.range, cell.from, cell.to]);
    let pending = computed.get(key);
    if (!pending) {
      pending = acquireSql(db, {
        itemId: cell.itemId,
        field: cell.field,
        method: cell.method as AcquisitionMethod,
        range: cell.range,
        from: cell.from,
        to: cell.to,
        now,
        tz,
      });
      computed.set(key, pending);
    }
    values.set(cellKey(cell.row, cell.col), await pending);
  }
  return values;
}

export async function previewReport(
  db: Db,
  caller: DataCaller,
  report: ReportRef,
  now: Date,
): Promise<PreviewView> {
  const template = storedReportTemplate(report.content);
  const timeZone = await companyTimeZone(db, caller.companyId);
  const decimals = new Map<string, number | undefined>();
  const values = await resolveValues(db, caller, template, now, timeZone, decimals);
  return {
    id: report.nodeId,
    name: report.name,
    generatedAt: now.toISOString(),
    timeZone,
    ...renderGrid(template, values, decimals),
  };
}
