/**
 * Document and rich-text templates (cabin node types docTemplate / richTemplate): listing,
 * reading, saving and filling. The template is addressed by its cabin node id, and every call
 * goes through the node's data permission (read to list, get and render; write to save). The
 * body lives in `templates.content` as { html, itemId } (DocTemplateContent of packages/domain).
 */

import { randomBytes } from 'node:crypto';
import {
  DATA_PERMISSION,
  type DataPermission,
  DOC_TEMPLATE_TYPES,
  type DocTemplateContent,
  type DocTemplateRow,
  type DocTemplateType,
  type DocTemplateView,
  formatInstant,
  type RenderedDoc,
  renderDocTemplate,
  TEMPLATE_HTML_MAX_LENGTH,
  unknownPlaceholder,
} from '@platform/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import type { FileLinks } from '../../platform/file-links';
import type { CheckedImage } from '../../platform/images';
import type { Storage } from '../../platform/storage';
import { type DataCaller, levelsFor } from '../cabin/permissions';
import { nodeFor } from '../cabin/service';
import { cabinNodes } from '../cabin/tables';
import { companyTimeZone } from '../companies/service';
import { dataItems } from '../dataitems/tables';
import { itemFor, visibleValues } from '../records/service';
import { withFileLinks } from '../records/stored-files';
import { dataRecords } from '../records/tables';
import { sanitizeTemplateHtml } from './doc-sanitize';
import { templates } from './tables';

function contentOf(raw: Record<string, unknown> | null | undefined): DocTemplateContent {
  const html = typeof raw?.html === 'string' ? raw.html : '';
  const itemId = typeof raw?.itemId === 'number' && Number.isInteger(raw.itemId) ? raw.itemId : null;
  return { html, itemId };
}

const isDocType = (type: string): type is DocTemplateType =>
  (DOC_TEMPLATE_TYPES as readonly string[]).includes(type);

const later = (a: Date, b: Date) => (a > b ? a : b).toISOString();

/** Names of the given items of the company that the caller can read. */
async function readableItemNames(
  db: Db,
  companyId: number,
  itemIds: number[],
  levels: Map<number, DataPermission>,
): Promise<Map<number, string>> {
  if (itemIds.length === 0) return new Map();
  const rows = await db
    .select({ id: dataItems.id, nodeId: dataItems.nodeId, name: dataItems.name })
    .from(dataItems)
    .where(and(eq(dataItems.companyId, companyId), inArray(dataItems.id, itemIds)));
  return new Map(
    rows
      .filter((r) => (levels.get(r.nodeId) ?? DATA_PERMISSION.none) > DATA_PERMISSION.none)
      .map((r) => [r.id, r.name]),
  );
}

/**
 * The company's docTemplate / richTemplate nodes the caller can read, newest change first;
 * with `itemId`, only those bound to that item.
 */
export async function listDocTemplates(
  db: Db,
  caller: DataCaller,
  itemId?: number,
): Promise<DocTemplateRow[]> {
  const [levels, rows] = await Promise.all([
    levelsFor(db, caller),
    db
      .select({ node: cabinNodes, template: templates })
      .from(cabinNodes)
      .innerJoin(templates, eq(templates.nodeId, cabinNodes.id))
      .where(
        and(eq(cabinNodes.companyId, caller.companyId), inArray(cabinNodes.type, [...DOC_TEMPLATE_TYPES])),
      ),
  ]);
  const readable = rows
    .map((r) => ({ ...r, content: contentOf(r.template.content) }))
    .filter((r) => (levels.get(r.node.id) ?? DATA_PERMISSION.none) > DATA_PERMISSION.none)
    .filter((r) => itemId === undefined || r.content.itemId === itemId);
  const names = await readableItemNames(
    db,
    caller.companyId,
    [...new Set(readable.map((r) => r.content.itemId).filter((id): id is number => id != null))],
    levels,
  );
  return readable
    .map(
      (r): DocTemplateRow => ({
        id: r.node.id,
        templateId: r.template.id,
        type: r.node.type as DocTemplateType,
        name: r.node.name,
        parentId: r.node.parentId,
        itemId: r.content.itemId,
        itemName: r.content.itemId == null ? null : (names.get(r.content.itemId) ?? null),
        level: levels.get(r.node.id) ?? DATA_PERMISSION.none,
        updatedAt: later(r.node.updatedAt, r.template.updatedAt),
      }),
    )
    .sort((x, y) => y.updatedAt.localeCompare(x.updatedAt) || y.id - x.id);
}

/** The template behind a node the caller holds `needed` on; another node type is 40400. */
export async function docTemplateFor(
  db: Db,
  caller: DataCaller,
  nodeId: number,
  needed: DataPermission,
): Promise<DocTemplateView> {
  const node = await nodeFor(db, caller, nodeId, needed, 'id');
  if (!isDocType(node.type)) throw new AppError('notFound', {}, { field: 'id' });
  const [template] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.nodeId, node.id), eq(templates.companyId, caller.companyId)));
  if (!template) throw new AppError('notFound', {}, { field: 'id' });
  const content = contentOf(template.content);
  const levels = await levelsFor(db, caller);
  const names = await readableItemNames(
    db,
    caller.companyId,
    content.itemId == null ? [] : [content.itemId],
    levels,
  );
  return {
    id: node.id,
    templateId: template.id,
    type: node.type,
    name: node.name,
    parentId: node.parentId,
    itemId: content.itemId,
    itemName: content.itemId == null ? null : (names.get(content.itemId) ?? null),
    level: levels.get(node.id) ?? DATA_PERMISSION.none,
    updatedAt: later(node.updatedAt, template.updatedAt),
    html: content.html,
  };
}

/**
 * Saves a body (sanitised here) and its bound item. Checks, in order and before writing:
 * write level on the node; the item readable by the caller (40400 on itemId); every
 * placeholder bound to a field of that item (unknownField on html), and an item when the body
 * has placeholders (fieldRequired on itemId); the cleaned body within the length limit.
 */
export async function saveDocTemplate(
  db: Db,
  caller: DataCaller,
  input: { id: number; html: string; itemId: number | null },
): Promise<DocTemplateView> {
  const current = await docTemplateFor(db, caller, input.id, DATA_PERMISSION.write);
  const item = input.itemId == null ? null : await itemFor(db, caller, input.itemId, DATA_PERMISSION.read);
  const html = sanitizeTemplateHtml(input.html);
  if (html.length > TEMPLATE_HTML_MAX_LENGTH) throw fieldError('html', 'valueTooLong');
  const unknown = unknownPlaceholder(html, item?.fields ?? []);
  if (unknown !== null) {
    if (!item) throw fieldError('itemId', 'fieldRequired');
    throw new AppError('unknownField', { field: unknown }, { field: 'html' });
  }
  const content: DocTemplateContent = { html, itemId: item?.id ?? null };
  const now = new Date();
  await db.transaction(async (tx) => {
    await tx
      .update(templates)
      .set({ content: { ...content }, updatedBy: caller.userId, updatedAt: now })
      .where(eq(templates.id, current.templateId));
    await tx.update(cabinNodes).set({ updatedAt: now }).where(eq(cabinNodes.id, current.id));
  });
  return docTemplateFor(db, caller, input.id, DATA_PERMISSION.read);
}

/**
 * A template filled with one record: read level on the template and on the item; the record
 * must belong to the item (40400 on recordId); a template bound to another item is refused
 * (templateNotBound on itemId), an unbound one (no placeholders) fills with any item. Pictures
 * and files show through signed links, valid as long as those of the record list.
 */
export async function renderDocFor(
  db: Db,
  links: FileLinks,
  caller: DataCaller,
  input: { id: number; itemId: number; recordId: number },
): Promise<RenderedDoc> {
  const template = await docTemplateFor(db, caller, input.id, DATA_PERMISSION.read);
  const item = await itemFor(db, caller, input.itemId, DATA_PERMISSION.read);
  if (template.itemId != null && template.itemId !== item.id) throw fieldError('itemId', 'templateNotBound');
  const [record] = await db
    .select({ id: dataRecords.id, ts: dataRecords.ts, values: dataRecords.values })
    .from(dataRecords)
    .where(
      and(
        eq(dataRecords.id, input.recordId),
        eq(dataRecords.itemId, item.id),
        eq(dataRecords.companyId, caller.companyId),
      ),
    );
  if (!record) throw new AppError('notFound', {}, { field: 'recordId' });
  const ts = record.ts.toISOString();
  const timeZone = await companyTimeZone(db, caller.companyId);
  return {
    id: template.id,
    name: template.name,
    type: template.type,
    itemId: item.id,
    itemName: item.name,
    recordId: record.id,
    ts,
    tsText: formatInstant(record.ts.getTime(), 'yyyy-MM-dd HH:mm:ss', timeZone),
    timeZone,
    html: renderDocTemplate(
      template.html,
      item.fields,
      withFileLinks(links, visibleValues(record.values, item.fields), caller.companyId),
      { ts, tz: timeZone },
    ),
  };
}

/**
 * Stores an image for the body of a template the caller may write (`writable`, as
 * docTemplateFor(…, write) answered it): in the public bucket under
 * templates/<companyId>/<node id>/ with a random name, so only someone who has the template (or
 * a document made from it) knows its address. Answers the URL the body uses. Replaced or
 * removed images stay stored: a rendered document may still show them.
 */
export async function storeTemplateImage(
  storage: Storage,
  caller: DataCaller,
  writable: DocTemplateView,
  image: CheckedImage,
): Promise<{ url: string }> {
  if (writable.level < DATA_PERMISSION.write) throw new AppError('forbidden', {}, { field: 'id' });
  const ext = image.kind === 'png' ? 'png' : 'jpg';
  const key = `templates/${caller.companyId}/${writable.id}/${randomBytes(16).toString('hex')}.${ext}`;
  const url = await storage.put(
    'public',
    key,
    image.bytes,
    image.kind === 'png' ? 'image/png' : 'image/jpeg',
  );
  return { url };
}
