/**
 * A company's devices (codes dm_list or cd_device: both menus show them): list, detail, edit,
 * picture, bind by serial number with the device's confirmation, unbind, operation log.
 * Every route checks the caller's data permission on the device's cabin node (access.ts).
 * Also plugs the device protocol's bind, telemetry and event messages into the dispatcher.
 */
import { DATA_PERMISSION, GATEWAY_STATUSES, OPERATION_KINDS, type SuccessKey } from '@platform/domain';
import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { fieldError, ok } from '../../platform/envelope';
import { uploadedImage } from '../../platform/images';
import { EmptyEnvelope, Envelope, Id, Literals, Page, Paging, paging } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import { deviceFor } from './access';
import { Binding } from './binding';
import { eventHandler, readLog } from './operation-log';
import { DEVICE_CODES, DeviceDetailSchema, DeviceRowSchema, PictureSchema } from './schemas';
import { deviceDetail, listDevices, setDevicePicture, updateDevice } from './service';
import { Telemetry } from './telemetry';

const RequestId = Type.String({ maxLength: 64, description: 'the id the bind answer gave' });

const LogRow = Type.Object({
  id: Type.Integer(),
  kind: Type.String(),
  at: Type.String(),
  result: Type.String(),
  actor: Type.Union([
    Type.Object({
      type: Type.Literal('user'),
      id: Type.Union([Type.Integer(), Type.Null()]),
      name: Type.Union([Type.String(), Type.Null()]),
    }),
    Type.Object({ type: Type.Union([Type.Literal('device'), Type.Literal('system')]) }),
  ]),
  detail: Type.String(),
  data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
});

const BindStatusSchema = Type.Object({
  requestId: Type.String(),
  state: Literals(['waiting', 'bound', 'expired', 'cancelled'] as const),
  secondsLeft: Type.Integer(),
  expiresAt: Type.String(),
  deviceId: Type.Union([Type.Integer(), Type.Null()]),
});

/** a date or time bound of a log query */
function instant(value: string | undefined, field: string): Date | undefined {
  if (value === undefined) return undefined;
  const t = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(t.getTime())) throw fieldError(field);
  return t;
}

export default async function deviceRoutes(app: App): Promise<void> {
  const binding = new Binding(app);
  await binding.attach();
  new Telemetry(app).attach();
  app.gateways.onUp('event', eventHandler(app));
  app.addHook('onReady', () => binding.resume());

  app.get(
    '/devicemanagement/device/list',
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary: "The company's devices the caller can read, with search, filters, sort and paging",
        querystring: Type.Object({
          ...Paging,
          keyword: Type.Optional(
            Type.String({ maxLength: 50, description: 'serial number, name or address' }),
          ),
          online: Type.Optional(Type.Boolean()),
          status: Type.Optional(Literals(GATEWAY_STATUSES)),
          sort: Type.Optional(
            Literals(['name', 'serialNumber', 'boundAt', 'lastSeenAt', 'status', 'updatedAt'] as const),
          ),
          order: Type.Optional(Literals(['asc', 'desc'] as const)),
        }),
        response: { 200: Envelope(Page(DeviceRowSchema)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listDevices(app, dataCaller(request), {
        ...request.query,
        limit: page.limit,
        offset: page.offset,
      });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    '/devicemanagement/device/detail',
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary: 'One device: its state, what it reported, where it is in the cabin, its telemetry counts',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(DeviceDetailSchema) },
      },
    },
    async (request) => ok(await deviceDetail(app, dataCaller(request), request.query.id, request.lang)),
  );

  app.post(
    '/devicemanagement/device/update',
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary: "Edit a device's name, address or picture preset (read-write level)",
        body: Type.Object({
          id: Id,
          name: Type.Optional(Type.String({ maxLength: 200 })),
          address: Type.Optional(Type.String({ maxLength: 500 })),
          picture: Type.Optional(
            Type.String({ maxLength: 32, description: 'a preset id (DEVICE_PICTURE_PRESETS)' }),
          ),
        }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await updateDevice(app, dataCaller(request), request.body);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/devicemanagement/device/uploadPicture',
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary:
          "Upload a device's picture (multipart `file`, JPG or PNG by its bytes, at most 3 MB; read-write level)",
        consumes: ['multipart/form-data'],
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(Type.Object({ picture: PictureSchema })) },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      // permission first: a caller who may not change the device gets nothing decoded
      await deviceFor(app.db, who, request.query.id, DATA_PERMISSION.write);
      const image = await uploadedImage(request);
      return ok(
        { picture: await setDevicePicture(app, who, request.query.id, image) },
        'operation',
        request.lang,
      );
    },
  );

  app.post(
    '/devicemanagement/device/bind',
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary:
          'Ask to bind a gateway by its serial number; the person at the gateway confirms with its bind button within the answer’s expiry',
        body: Type.Object({
          serialNumber: Type.Optional(Type.String({ maxLength: 64 })),
          name: Type.Optional(Type.String({ maxLength: 200 })),
          parentId: Type.Optional(Type.Union([Id, Type.Null()])),
        }),
        response: {
          200: Envelope(
            Type.Object({ requestId: Type.String(), expiresAt: Type.String(), secondsLeft: Type.Integer() }),
          ),
        },
      },
    },
    async (request) =>
      ok(await binding.request(dataCaller(request), request.body), 'bindRequested', request.lang),
  );

  app.get(
    '/devicemanagement/device/bindStatus',
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary:
          "Where a bind request of the caller's company stands (waiting with seconds left, bound, expired, cancelled)",
        querystring: Type.Object({ requestId: RequestId }),
        response: { 200: Envelope(BindStatusSchema) },
      },
    },
    async (request) => {
      const status = await binding.status(dataCaller(request), request.query.requestId);
      const message: SuccessKey | null = status.state === 'bound' ? 'bound' : null;
      return ok(status, message, request.lang);
    },
  );

  app.post(
    '/devicemanagement/device/bindCancel',
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary: "Cancel a waiting bind request of the caller's company",
        body: Type.Object({ requestId: RequestId }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await binding.cancel(dataCaller(request), request.body.requestId);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/devicemanagement/device/unbind',
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary: 'Unbind a device (administrator level): its node leaves the cabin, the gateway is told',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await binding.unbind(dataCaller(request), request.body.id);
      return ok(null, 'unbound', request.lang);
    },
  );

  app.get(
    '/devicemanagement/device/log',
    {
      config: { permission: DEVICE_CODES },
      schema: {
        tags: ['devices'],
        summary: "A device's operation log, newest first, by kind and time",
        querystring: Type.Object({
          ...Paging,
          id: Id,
          kind: Type.Optional(Literals(OPERATION_KINDS)),
          from: Type.Optional(Type.String({ maxLength: 40, description: 'a date or time, inclusive' })),
          to: Type.Optional(Type.String({ maxLength: 40, description: 'a date or time, exclusive' })),
        }),
        response: { 200: Envelope(Page(LogRow)) },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const { id, kind } = request.query;
      const from = instant(request.query.from, 'from');
      const to = instant(request.query.to, 'to');
      await deviceFor(app.db, who, id, DATA_PERMISSION.read);
      const page = paging(request.query);
      const { list, total } = await readLog(app.db, who.companyId, id, { kind, from, to, ...page });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );
}
