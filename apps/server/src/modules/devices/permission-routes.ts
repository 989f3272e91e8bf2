/**
 * Device permissions (/devicemanagement/devicemanagementpermission, code dm_permission): the
 * company's devices with their data permissions, which are the data cabin's permissions on
 * each device's node. One permission system: reading and writing go through the cabin's own
 * services (checkEntries, setPermissions, permissionsOf), with the cabin's rules.
 */
import { DATA_PERMISSION, type PermissionEntry } from '@platform/domain';
import { inArray } from 'drizzle-orm';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Literals, Page, Paging, paging } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import { checkEntries, permissionsOf, setPermissions } from '../cabin/service';
import { cabinNodes } from '../cabin/tables';
import { deviceFor, readableDevices } from './access';

const PERMISSION = 'dm_permission';

const Entry = Type.Object({
  scope: Literals(['company', 'group', 'user'] as const),
  subjectId: Type.Optional(Type.Union([Id, Type.Null()])),
  level: Type.Integer({ minimum: 0, maximum: 3 }),
});

const EntryOut = Type.Object({
  scope: Type.String(),
  subjectId: Type.Union([Type.Integer(), Type.Null()]),
  level: Type.Integer(),
});

const Row = Type.Object({
  id: Type.Integer(),
  serialNumber: Type.String(),
  name: Type.String(),
  nodeId: Type.Integer(),
  level: Type.Integer({ description: "the caller's level on the device" }),
  mode: Type.Union([Literals(['inherit', 'custom'] as const), Type.Null()]),
  entries: Type.Union([Type.Array(EntryOut), Type.Null()]),
});

export default async function devicePermissionRoutes(app: App): Promise<void> {
  app.get(
    '/devicemanagement/permission/list',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['devices'],
        summary:
          "The company's devices the caller can read, with their data permissions where the caller administers them",
        querystring: Type.Object({ ...Paging, keyword: Type.Optional(Type.String({ maxLength: 50 })) }),
        response: { 200: Envelope(Page(Row)) },
      },
    },
    async (request) => {
      const keyword = request.query.keyword?.trim().toLowerCase();
      const page = paging(request.query);
      const rows = (await readableDevices(app.db, dataCaller(request)))
        .filter(
          (r) =>
            !keyword ||
            r.gateway.serialNumber.toLowerCase().includes(keyword) ||
            r.device.name.toLowerCase().includes(keyword),
        )
        .sort((a, b) => a.device.name.localeCompare(b.device.name, 'zh') || a.gateway.id - b.gateway.id);
      const shown = rows.slice(page.offset, page.offset + page.limit);
      const nodes =
        shown.length === 0
          ? []
          : await app.db
              .select()
              .from(cabinNodes)
              .where(
                inArray(
                  cabinNodes.id,
                  shown.map((r) => r.device.nodeId!),
                ),
              );
      const nodeById = new Map(nodes.map((n) => [n.id, n]));
      const list = [];
      for (const r of shown) {
        const node = nodeById.get(r.device.nodeId!);
        const settings = node && r.level === DATA_PERMISSION.admin ? await permissionsOf(app.db, node) : null;
        list.push({
          id: r.gateway.id,
          serialNumber: r.gateway.serialNumber,
          name: r.device.name,
          nodeId: r.device.nodeId!,
          level: r.level,
          mode: settings?.mode ?? null,
          entries: settings?.entries ?? null,
        });
      }
      return ok({ list, total: rows.length, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.post(
    '/devicemanagement/permission/set',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['devices'],
        summary: "Set a device's data permissions (administrator level); 'inherit' takes its directory's",
        body: Type.Object({
          id: Id,
          mode: Literals(['inherit', 'custom'] as const),
          entries: Type.Optional(Type.Array(Entry, { maxItems: 500 })),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const { id, mode } = request.body;
      const device = await deviceFor(app.db, who, id, DATA_PERMISSION.admin);
      const entries = (request.body.entries ?? []).map((e) => ({
        ...e,
        subjectId: e.subjectId ?? null,
      })) as PermissionEntry[];
      if (mode === 'custom') await checkEntries(app.db, who.companyId, entries);
      await setPermissions(app.db, device.nodeId, mode, mode === 'custom' ? entries : []);
      return ok(null, 'operation', request.lang);
    },
  );
}
