import {
  CABIN_NODE_TYPES,
  type CabinNodeType,
  checkCabinName,
  checkDataItemName,
  DATA_PERMISSION,
  ITEM_KINDS,
  type PermissionEntry,
} from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { assertField, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import type { DataCaller } from './permissions';
import { levelOf } from './permissions';
import {
  cabinSearch,
  cabinTree,
  checkEntries,
  copyNodes,
  createNode,
  deleteNodes,
  moveNodes,
  nodeFor,
  permissionsOf,
  renameNode,
  setPermissions,
} from './service';

const TreeRow = Type.Object({
  id: Type.Integer(),
  parentId: Type.Union([Type.Integer(), Type.Null()]),
  type: Type.String(),
  name: Type.String(),
  refId: Type.Union([Type.Integer(), Type.Null()]),
  sortOrder: Type.Integer(),
  level: Type.Integer(),
  updatedAt: Type.String(),
  kind: Type.Optional(Type.Integer()),
});

const SearchRow = Type.Object({ ...TreeRow.properties, path: Type.Array(Type.String()) });

const Ids = Type.Array(Id, { maxItems: 500 });

const Entry = Type.Object({
  scope: Type.Union([Type.Literal('company'), Type.Literal('group'), Type.Literal('user')]),
  subjectId: Type.Optional(Type.Union([Id, Type.Null()])),
  level: Type.Integer({ minimum: 0, maximum: 3 }),
});

export function dataCaller(request: FastifyRequest): DataCaller {
  return { companyId: callerCompany(request), userId: caller(request).userId };
}

/** Cabin names: checkCabinName always, checkDataItemName too for data items. */
export function checkNodeName(type: string, name: string): void {
  assertField('name', type === 'dataItem' ? checkDataItemName(name) : checkCabinName(name));
}

function uniqueIds(
  ids: readonly number[] | undefined,
  emptyKey: 'selectMoveObjects' | 'fieldRequired',
): number[] {
  if (!ids || ids.length === 0) throw fieldError('ids', emptyKey);
  return [...new Set(ids)];
}

export default async function cabinRoutes(app: App): Promise<void> {
  app.get(
    '/smartdata/cabin/tree',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['cabin'],
        summary: "Every node of the company's data cabin the caller can read",
        response: { 200: Envelope(Type.Array(TreeRow)) },
      },
    },
    async (request) => ok(await cabinTree(app.db, dataCaller(request))),
  );

  app.get(
    '/smartdata/cabin/search',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['cabin'],
        summary: 'Readable nodes whose name contains the keyword, with their path',
        querystring: Type.Object({ keyword: Type.String({ minLength: 1, maxLength: 50 }) }),
        response: { 200: Envelope(Type.Array(SearchRow)) },
      },
    },
    async (request) => ok(await cabinSearch(app.db, dataCaller(request), request.query.keyword)),
  );

  app.post(
    '/smartdata/cabin/create',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['cabin'],
        summary: 'Create a node (a dataItem node creates its data item)',
        body: Type.Object({
          parentId: Type.Optional(Type.Union([Id, Type.Null()])),
          type: Type.Optional(Type.String({ maxLength: 24 })),
          name: Type.Optional(Type.String({ maxLength: 200 })),
          kind: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
        }),
        response: {
          200: Envelope(
            Type.Object({ id: Type.Integer(), refId: Type.Union([Type.Integer(), Type.Null()]) }),
          ),
        },
      },
    },
    async (request) => {
      const { parentId, type, kind } = request.body;
      if (!type || !(CABIN_NODE_TYPES as readonly string[]).includes(type))
        throw fieldError('type', 'typeRequired');
      // a device's node is made by binding its gateway, never by hand
      if (type === 'device') throw fieldError('type', 'deviceNodeByBinding');
      // a meter's node is made with its meter (its kind, code and points), never bare
      if (type === 'meter') throw fieldError('type', 'meterNodeByMeterPage');
      const name = (request.body.name ?? '').trim();
      checkNodeName(type, name);
      if (type === 'dataItem' && (kind == null || !(ITEM_KINDS as readonly number[]).includes(kind))) {
        throw fieldError('kind', 'typeRequired');
      }
      const created = await createNode(app.db, dataCaller(request), {
        parentId: parentId ?? null,
        type: type as CabinNodeType,
        name,
        kind: type === 'dataItem' ? (kind ?? null) : null,
      });
      return ok(created, 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/cabin/rename',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['cabin'],
        summary: 'Rename a node (level 3)',
        body: Type.Object({ id: Id, name: Type.String({ maxLength: 200 }) }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const name = request.body.name.trim();
      const node = await nodeFor(app.db, dataCaller(request), request.body.id, DATA_PERMISSION.admin);
      checkNodeName(node.type, name);
      await renameNode(app.db, node, name);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/cabin/move',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['cabin'],
        summary: 'Move nodes into a directory (targetId null: the top); all or nothing',
        body: Type.Object({
          ids: Type.Optional(Ids),
          targetId: Type.Optional(Type.Union([Id, Type.Null()])),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const ids = uniqueIds(request.body.ids, 'selectMoveObjects');
      if (request.body.targetId === undefined) throw fieldError('targetId', 'selectDirectory');
      await moveNodes(app.db, dataCaller(request), ids, request.body.targetId);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/cabin/copy',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['cabin'],
        summary: 'Deep-copy directories and data items (definitions, not records) into a directory',
        body: Type.Object({
          ids: Type.Optional(Ids),
          targetId: Type.Optional(Type.Union([Id, Type.Null()])),
        }),
        response: { 200: Envelope(Type.Object({ ids: Type.Array(Type.Integer()) })) },
      },
    },
    async (request) => {
      const ids = uniqueIds(request.body.ids, 'fieldRequired');
      if (request.body.targetId === undefined) throw fieldError('targetId', 'selectDirectory');
      const copied = await copyNodes(app.db, dataCaller(request), ids, request.body.targetId);
      return ok({ ids: copied }, 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/cabin/delete',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['cabin'],
        summary: 'Delete nodes with everything below them; data items lose their records',
        body: Type.Object({ ids: Type.Optional(Ids) }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const ids = uniqueIds(request.body.ids, 'fieldRequired');
      await deleteNodes(app.db, dataCaller(request), ids);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.get(
    '/smartdata/cabin/permission',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['cabin'],
        summary: "A node's data permissions (level 3)",
        querystring: Type.Object({ nodeId: Id }),
        response: {
          200: Envelope(
            Type.Object({
              mode: Type.Union([Type.Literal('inherit'), Type.Literal('custom')]),
              entries: Type.Array(
                Type.Object({
                  scope: Type.String(),
                  subjectId: Type.Union([Type.Integer(), Type.Null()]),
                  level: Type.Integer(),
                }),
              ),
              level: Type.Integer(),
            }),
          ),
        },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const node = await nodeFor(app.db, who, request.query.nodeId, DATA_PERMISSION.admin, 'nodeId');
      const level = await levelOf(app.db, who, node.id);
      return ok({ ...(await permissionsOf(app.db, node)), level });
    },
  );

  app.post(
    '/smartdata/cabin/permission',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['cabin'],
        summary: "Set a node's data permissions (level 3); 'inherit' drops the entries",
        body: Type.Object({
          nodeId: Id,
          mode: Type.Union([Type.Literal('inherit'), Type.Literal('custom')]),
          entries: Type.Optional(Type.Array(Entry, { maxItems: 500 })),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const { nodeId, mode } = request.body;
      const node = await nodeFor(app.db, who, nodeId, DATA_PERMISSION.admin, 'nodeId');
      const entries = (request.body.entries ?? []).map((e) => ({
        ...e,
        subjectId: e.subjectId ?? null,
      })) as PermissionEntry[];
      if (mode === 'custom') await checkEntries(app.db, who.companyId, entries);
      await setPermissions(app.db, node.id, mode, mode === 'custom' ? entries : []);
      return ok(null, 'operation', request.lang);
    },
  );
}
