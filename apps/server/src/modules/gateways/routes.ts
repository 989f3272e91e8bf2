/**
 * System maintenance → gateways (code system_gateway, the platform operator's company only):
 * the registry of serial numbers and their secrets. Also attaches the device protocol's
 * presence handling (online, offline, status) to the dispatcher.
 */
import { Type } from 'typebox';
import { caller } from '../../platform/auth';
import type { App } from '../../platform/context';
import { assertField, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Literals, Page, Paging, paging } from '../../platform/schemas';
import { Presence } from './presence';
import { listRegistry, registerGateways, registryDetail, removeGateway, replaceSecret } from './registry';
import { PortHealthSchema, Status, TelemetrySchema } from './schemas';

const PERMISSION = 'system_gateway';

const Time = Type.Union([Type.String(), Type.Null()]);

const RegistryRow = Type.Object({
  id: Type.Integer(),
  serialNumber: Type.String(),
  model: Type.String(),
  firmware: Type.Union([Type.String(), Type.Null()]),
  company: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
  online: Type.Boolean(),
  status: Status,
  registeredAt: Type.String(),
  boundAt: Time,
  lastSeenAt: Time,
  onlineAt: Time,
  offlineAt: Time,
});

const RegistryDetail = Type.Object({
  ...RegistryRow.properties,
  iccid: Type.Union([Type.String(), Type.Null()]),
  configVersion: Type.Union([Type.Integer(), Type.Null()]),
  configHash: Type.Union([Type.String(), Type.Null()]),
  ports: Type.Array(PortHealthSchema),
  secretSetAt: Type.String(),
  pendingBind: Type.Union([
    Type.Object({ companyName: Type.String(), expiresAt: Type.String() }),
    Type.Null(),
  ]),
  telemetry: TelemetrySchema,
});

const Secret = Type.Object({
  id: Type.Integer(),
  serialNumber: Type.String(),
  model: Type.String(),
  secret: Type.String({ description: 'shown this once: the server keeps only its SHA-256' }),
});

/** a model name as the factory writes it: printable, at most 32 characters */
const MODEL = /^[\x20-\x7e]{1,32}$/;

export default async function gatewayRoutes(app: App): Promise<void> {
  new Presence(app).attach();

  app.get(
    '/system/gateway/list',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['gateways'],
        summary: "Every company's gateways in the registry, with search, filters and paging",
        querystring: Type.Object({
          ...Paging,
          keyword: Type.Optional(Type.String({ maxLength: 50 })),
          companyId: Type.Optional(Id),
          bound: Type.Optional(Type.Boolean()),
          online: Type.Optional(Type.Boolean()),
          status: Type.Optional(Status),
          sort: Type.Optional(
            Literals(['serialNumber', 'model', 'registeredAt', 'boundAt', 'lastSeenAt'] as const),
          ),
          order: Type.Optional(Literals(['asc', 'desc'] as const)),
        }),
        response: { 200: Envelope(Page(RegistryRow)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listRegistry(app.db, {
        ...request.query,
        limit: page.limit,
        offset: page.offset,
      });
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    '/system/gateway/detail',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['gateways'],
        summary: 'One gateway of the registry with what it last reported and its telemetry counts',
        querystring: Type.Object({ id: Id }),
        response: { 200: Envelope(RegistryDetail) },
      },
    },
    async (request) => ok(await registryDetail(app.db, request.query.id, request.lang)),
  );

  app.post(
    '/system/gateway/register',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['gateways'],
        summary:
          'Register a batch of serial numbers of one model; each gets a secret, shown in this answer only (all or nothing)',
        body: Type.Object({
          serialNumbers: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 500 }),
          model: Type.String({ maxLength: 64 }),
        }),
        response: { 200: Envelope(Type.Object({ gateways: Type.Array(Secret) })) },
      },
    },
    async (request) => {
      const model = request.body.model.trim();
      if (model === '') throw fieldError('model', 'fieldRequired');
      assertField('model', MODEL.test(model) ? null : 'validation');
      const registered = await registerGateways(app, {
        serialNumbers: request.body.serialNumbers,
        model,
        userId: caller(request).userId,
      });
      return ok({ gateways: registered }, 'operation', request.lang);
    },
  );

  app.post(
    '/system/gateway/replaceSecret',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['gateways'],
        summary:
          "Replace a gateway's secret: the old one stops at once and a gateway connected with it is disconnected",
        body: Type.Object({ id: Id }),
        response: { 200: Envelope(Secret) },
      },
    },
    async (request) => ok(await replaceSecret(app, request.body.id), 'operation', request.lang),
  );

  app.post(
    '/system/gateway/remove',
    {
      config: { permission: PERMISSION },
      schema: {
        tags: ['gateways'],
        summary: 'Remove a registration that is not bound and never was (a mistyped serial number)',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await removeGateway(app, request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );
}
