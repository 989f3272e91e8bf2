import {
  checkFields,
  checkIp,
  checkName,
  DATA_PERMISSION,
  type DataSource,
  type FieldInput,
  type JumpCondition,
  type JumpMapping,
} from '@platform/domain';
import { Type } from 'typebox';
import { callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { assertField, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Page, Paging, paging } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import { checkFormElements, checkJumpInput, formStillValid } from './checks';
import {
  deleteItemGroup,
  deleteJump,
  getItemGroup,
  itemFor,
  itemView,
  listItemGroups,
  listJumps,
  saveItemGroup,
  saveJump,
  updateItem,
} from './service';

export const SOURCE_TEXT_MAX = 64;
export const DESCRIPTION_MAX = 500;

const Json = Type.Unknown();

const ItemOut = Type.Object({
  id: Type.Integer(),
  nodeId: Type.Integer(),
  name: Type.String(),
  kind: Type.Integer(),
  fields: Type.Array(Json),
  sources: Type.Array(Json),
  form: Type.Array(Json),
  titleField: Type.Union([Type.String(), Type.Null()]),
  publicCollect: Type.Boolean(),
  description: Type.Union([Type.String(), Type.Null()]),
  level: Type.Integer(),
});

const FieldIn = Type.Object({
  key: Type.Optional(Type.String({ maxLength: 16 })),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  unit: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
  type: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  dateFormat: Type.Optional(Type.Union([Type.String({ maxLength: 32 }), Type.Null()])),
  required: Type.Optional(Type.Boolean()),
  decimals: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
});

const SourceIn = Type.Object({
  deviceId: Type.Optional(Type.String({ maxLength: 200 })),
  deviceName: Type.Optional(Type.String({ maxLength: 200 })),
  ip: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
});

const JumpOut = Type.Object({
  id: Type.Integer(),
  priority: Type.Integer(),
  name: Type.String(),
  conditions: Type.Array(Json),
  targetItemId: Type.Integer(),
  targetName: Type.String(),
  mapping: Type.Array(Json),
  enabled: Type.Boolean(),
});

const GroupItem = Type.Object({
  itemId: Type.Integer(),
  name: Type.String(),
  kind: Type.Integer(),
  nodeId: Type.Integer(),
});

function checkSources(
  sources: ReadonlyArray<{ deviceId?: string; deviceName?: string; ip?: string | null }>,
) {
  return sources.map((s, i): DataSource => {
    const deviceId = (s.deviceId ?? '').trim();
    const deviceName = (s.deviceName ?? '').trim();
    if (deviceId === '') throw fieldError(`sources[${i}].deviceId`, 'fieldRequired');
    if ([...deviceId].length > SOURCE_TEXT_MAX) throw fieldError(`sources[${i}].deviceId`);
    if (deviceName === '') throw fieldError(`sources[${i}].deviceName`, 'fieldRequired');
    if ([...deviceName].length > SOURCE_TEXT_MAX) throw fieldError(`sources[${i}].deviceName`);
    const ip = s.ip?.trim();
    const out: DataSource = { deviceId, deviceName };
    if (ip) {
      assertField(`sources[${i}].ip`, checkIp(ip));
      out.ip = ip;
    }
    return out;
  });
}

export default async function dataItemRoutes(app: App): Promise<void> {
  app.get(
    '/smartdata/item/get',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['dataitems'],
        summary: 'A data item with its definition and the caller level (level 1)',
        querystring: Type.Object({ itemId: Id }),
        response: { 200: Envelope(ItemOut) },
      },
    },
    async (request) => {
      const { item, level } = await itemFor(
        app.db,
        dataCaller(request),
        request.query.itemId,
        DATA_PERMISSION.read,
      );
      return ok(itemView(item, level));
    },
  );

  app.post(
    '/smartdata/item/update',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['dataitems'],
        summary: 'Change fields, sources, title field, public collection, description (level 3)',
        body: Type.Object({
          itemId: Id,
          fields: Type.Optional(Type.Array(FieldIn, { maxItems: 200 })),
          sources: Type.Optional(Type.Array(SourceIn, { maxItems: 200 })),
          titleField: Type.Optional(Type.Union([Type.String({ maxLength: 16 }), Type.Null()])),
          publicCollect: Type.Optional(Type.Boolean()),
          description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
        }),
        response: { 200: Envelope(ItemOut) },
      },
    },
    async (request) => {
      const body = request.body;
      const { item, level } = await itemFor(app.db, dataCaller(request), body.itemId, DATA_PERMISSION.admin);
      const patch: Parameters<typeof updateItem>[2] = {};
      let fields = item.fields;
      if (body.fields !== undefined) {
        const known = new Set(item.fields.map((f) => f.key));
        for (const [i, f] of body.fields.entries()) {
          // a key names an existing field; a removed key never comes back with another meaning
          if (f.key !== undefined && !known.has(f.key)) throw fieldError(`fields[${i}].key`);
        }
        const input = body.fields.map((f) => {
          const out: Record<string, unknown> = { ...f };
          for (const k of Object.keys(out)) if (out[k] === null) delete out[k];
          return out as unknown as FieldInput;
        });
        const checked = checkFields(input, item.nextFieldNo);
        if (!checked.ok) throw fieldError(`fields[${checked.index}].${checked.field}`, checked.key);
        fields = checked.fields;
        patch.fields = checked.fields;
        patch.nextFieldNo = checked.nextFieldNo;
        // form elements bound to a removed field, or to one whose type no longer fits, go
        const form = formStillValid(item.form, fields);
        if (form.length !== item.form.length) patch.form = form;
      }
      if (body.sources !== undefined) patch.sources = checkSources(body.sources);
      if (body.titleField !== undefined) {
        const titleField = body.titleField?.trim() || null;
        if (titleField != null && !fields.some((f) => f.key === titleField)) throw fieldError('titleField');
        patch.titleField = titleField;
      } else if (item.titleField != null && !fields.some((f) => f.key === item.titleField)) {
        // the title field was removed with its field
        patch.titleField = null;
      }
      if (body.publicCollect !== undefined) patch.publicCollect = body.publicCollect;
      if (body.description !== undefined) {
        const description = body.description?.trim() || null;
        if (description != null && [...description].length > DESCRIPTION_MAX) throw fieldError('description');
        patch.description = description;
      }
      const updated = await updateItem(app.db, item.id, patch);
      return ok(itemView(updated, level), 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/item/updateForm',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['dataitems'],
        summary: 'Save the form of a form item, each element bound to a fitting field (level 3)',
        body: Type.Object({ itemId: Id, form: Type.Array(Type.Unknown(), { maxItems: 200 }) }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { item } = await itemFor(app.db, dataCaller(request), request.body.itemId, DATA_PERMISSION.admin);
      const form = checkFormElements(request.body.form, item.fields);
      await updateItem(app.db, item.id, { form });
      return ok(null, 'operation', request.lang);
    },
  );

  app.get(
    '/smartdata/item/jumps',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['dataitems'],
        summary: 'Jump associations of an item, highest priority first (level 1)',
        querystring: Type.Object({ itemId: Id }),
        response: { 200: Envelope(Type.Array(JumpOut)) },
      },
    },
    async (request) => {
      const { item } = await itemFor(app.db, dataCaller(request), request.query.itemId, DATA_PERMISSION.read);
      return ok(await listJumps(app.db, item.id));
    },
  );

  app.post(
    '/smartdata/item/saveJump',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['dataitems'],
        summary: 'Create or change a jump association (level 3 on the item, 2 on the target)',
        body: Type.Object({
          itemId: Id,
          id: Type.Optional(Id),
          priority: Type.Optional(Type.Integer({ minimum: -1000000, maximum: 1000000 })),
          name: Type.Optional(Type.String({ maxLength: 200 })),
          conditions: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 50 })),
          targetItemId: Type.Optional(Type.Union([Id, Type.Null()])),
          mapping: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 200 })),
          enabled: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const body = request.body;
      const { item } = await itemFor(app.db, who, body.itemId, DATA_PERMISSION.admin);
      if (body.targetItemId == null) throw fieldError('targetItemId', 'jumpIncomplete');
      if (body.targetItemId === item.id) throw fieldError('targetItemId', 'jumpSelf');
      const { item: target } = await itemFor(
        app.db,
        who,
        body.targetItemId,
        DATA_PERMISSION.write,
        'targetItemId',
      );
      const checked = checkJumpInput(
        {
          name: body.name ?? '',
          conditions: (body.conditions ?? []) as JumpCondition[],
          mapping: (body.mapping ?? []) as JumpMapping[],
        },
        item.fields,
        target.fields,
      );
      const id = await saveJump(app.db, item.id, body.id, {
        priority: body.priority ?? 0,
        name: checked.name,
        conditions: checked.conditions,
        targetItemId: target.id,
        mapping: checked.mapping,
        enabled: body.enabled ?? true,
      });
      return ok({ id }, 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/item/deleteJump',
    {
      config: { permission: 'sd_capsule' },
      schema: {
        tags: ['dataitems'],
        summary: 'Delete a jump association (level 3)',
        body: Type.Object({ itemId: Id, id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      const { item } = await itemFor(app.db, dataCaller(request), request.body.itemId, DATA_PERMISSION.admin);
      await deleteJump(app.db, item.id, request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.get(
    '/smartdata/itemgroup/list',
    {
      config: { permission: 'sd_item_group' },
      schema: {
        tags: ['dataitems'],
        summary: "The company's item groups",
        querystring: Type.Object({ ...Paging }),
        response: {
          200: Envelope(
            Page(
              Type.Object({
                id: Type.Integer(),
                name: Type.String(),
                itemCount: Type.Integer(),
                createdAt: Type.String(),
              }),
            ),
          ),
        },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listItemGroups(app.db, callerCompany(request), page);
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.post(
    '/smartdata/itemgroup/save',
    {
      config: { permission: 'sd_item_group' },
      schema: {
        tags: ['dataitems'],
        summary: 'Create or change an item group (items readable by the caller)',
        body: Type.Object({
          id: Type.Optional(Id),
          name: Type.String({ maxLength: 200 }),
          itemIds: Type.Array(Id, { maxItems: 500 }),
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer() })) },
      },
    },
    async (request) => {
      const name = request.body.name.trim();
      assertField('name', checkName(name));
      const id = await saveItemGroup(app.db, dataCaller(request), {
        id: request.body.id,
        name,
        itemIds: request.body.itemIds,
      });
      return ok({ id }, 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/itemgroup/delete',
    {
      config: { permission: 'sd_item_group' },
      schema: {
        tags: ['dataitems'],
        summary: 'Delete an item group (the items stay)',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deleteItemGroup(app.db, callerCompany(request), request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  app.get(
    '/smartdata/itemgroup/get',
    {
      config: { permission: 'sd_item_group' },
      schema: {
        tags: ['dataitems'],
        summary: 'An item group with the items the caller can read',
        querystring: Type.Object({ groupId: Id }),
        response: {
          200: Envelope(
            Type.Object({ id: Type.Integer(), name: Type.String(), items: Type.Array(GroupItem) }),
          ),
        },
      },
    },
    async (request) => ok(await getItemGroup(app.db, dataCaller(request), request.query.groupId)),
  );
}
