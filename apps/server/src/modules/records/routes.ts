/**
 * Records of a data item (docs/api-data-engine.md, "Records"). Every route needs the menu code
 * sd_capsule, an item of the caller's company and a data permission level on its node: read
 * for list and export, write for add, update, delete, import and upload, administrator to clear.
 * Pictures and files come with signed links (stored-files.ts).
 */
import { DATA_PERMISSION } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { AppError, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Page, Paging, paging } from '../../platform/schemas';
import fileRoutes from './file-routes';
import liveRoutes from './live-routes';
import { orderOf, parseFilters, parseInstant, whereOf } from './query';
import { dataCaller, PERMISSION, QueryWindow, RecordRow } from './schemas';
import { clearRecords, deleteRecords, itemFor, listRecords, requireParent } from './service';
import { withFileLinks } from './stored-files';
import writeRoutes from './write-routes';

export const MAX_DELETE_IDS = 1000;

export default async function recordRoutes(app: App): Promise<void> {
  app.get(
    '/smartdata/record/list',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['records'],
        summary: "A page of an item's records (children of `parentId` when given)",
        querystring: Type.Object({
          itemId: Id,
          ...Paging,
          sortField: Type.Optional(Type.String({ maxLength: 16, description: "'ts' or a field key" })),
          sortOrder: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
          ...QueryWindow,
          parentId: Type.Optional(Id),
        }),
        response: { 200: Envelope(Page(RecordRow)) },
      },
    },
    async (request) => {
      const q = request.query;
      const who = dataCaller(request);
      const item = await itemFor(app.db, who, q.itemId, DATA_PERMISSION.read);
      const filters = parseFilters(q.filters, item.fields);
      const order = orderOf(q.sortField, q.sortOrder ?? 'desc', item.fields);
      const query = {
        itemId: item.id,
        from: parseInstant('from', q.from),
        to: parseInstant('to', q.to),
        filters,
        parentId: q.parentId,
      };
      if (q.parentId !== undefined) await requireParent(app.db, who, q.parentId);
      const page = paging(q);
      const { list, total } = await listRecords(app.db, item, whereOf(query, item.fields), order, page);
      const linked = list.map((r) => ({
        ...r,
        values: withFileLinks(app.fileLinks, r.values, who.companyId),
      }));
      return ok({ list: linked, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.post(
    '/smartdata/record/delete',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['records'],
        summary: 'Delete records of an item (all or nothing)',
        body: Type.Object({ itemId: Id, ids: Type.Array(Id, { maxItems: MAX_DELETE_IDS }) }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { itemId, ids } = request.body;
      const item = await itemFor(app.db, dataCaller(request), itemId, DATA_PERMISSION.write);
      if (ids.length === 0) throw fieldError('ids', 'fieldRequired');
      await deleteRecords(app.db, item, [...new Set(ids)]);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.post(
    '/smartdata/record/clear',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['records'],
        summary: "Delete every record of an item; confirmName must be the item's exact name",
        body: Type.Object({ itemId: Id, confirmName: Type.String({ maxLength: 100 }) }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { itemId, confirmName } = request.body;
      const item = await itemFor(app.db, dataCaller(request), itemId, DATA_PERMISSION.admin);
      if (confirmName !== item.name) throw new AppError('clearNameMismatch', {}, { field: 'confirmName' });
      await clearRecords(app.db, item);
      return ok(null, 'deleted', request.lang);
    },
  );

  await writeRoutes(app);
  await fileRoutes(app);
  await liveRoutes(app);
}
