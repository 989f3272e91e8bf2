import {
  checkGatewayConfig,
  DATA_PERMISSION,
  type DataPermission,
  type GatewayConfig,
  messageFor,
} from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { Envelope, Id, Page, Paging, paging } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import { requireDeviceLevel } from '../devices/access';
import { DEVICE_CODES } from '../devices/schemas';
import { deviceView, unboundOrRethrow } from './device';
import { checkLookups, companyLookups } from './lookups';
import { registerPacketUse } from './packages';
import { configAnswerHandler, lastPush, listPushes, pushById, pushConfig, sweepDeadlines } from './push';
import {
  BaseVersion,
  Config,
  ConfigOut,
  DeviceQuery,
  DeviceState,
  Lookups,
  Problem,
  PushView,
  SaveResult,
  VersionMeta,
} from './schemas';
import { headMeta, listVersions, restoreVersion, saveVersion, versionWithMeta } from './versions';

/**
 * Gateway configuration (docs/gateway-config.md): the editor's routes carry the editor pages'
 * code (sd_capsule: the data cabin opens a device's configuration); pushing is an operation on
 * a device like the others, so the push routes take either devices menu's code (dm_list, the
 * push page's, or cd_device). Every route then needs the device's data permission: read to see
 * and check, read-write to save, restore and push.
 */
const EDITOR = 'sd_capsule';
const PUSH = DEVICE_CODES;

export default async function gatewayConfigRoutes(app: App): Promise<void> {
  app.gateways.onUp('config', configAnswerHandler(app));
  registerPacketUse(app);
  const sweepMs = Math.max(500, Math.min(5000, (app.config.configConfirmWithinS * 1000) / 4));
  const sweep = setInterval(() => {
    sweepDeadlines(app).catch((error: unknown) =>
      app.log.warn({ err: error }, 'configuration push sweep failed'),
    );
  }, sweepMs);
  sweep.unref();
  app.addHook('onClose', async () => clearInterval(sweep));

  const device = (request: FastifyRequest, id: number, level: DataPermission) =>
    requireDeviceLevel(app, request, id, level);
  const who = (request: FastifyRequest) => dataCaller(request);

  app.get(
    '/devicemanagement/gatewayconfig/get',
    {
      config: { permission: EDITOR },
      schema: {
        tags: ['gateway configuration'],
        summary:
          'The latest saved configuration of a gateway, the gateway as the editor shows it, its last push',
        querystring: DeviceQuery,
        response: { 200: Envelope(Type.Object({ ...DeviceState.properties, config: ConfigOut })) },
      },
    },
    async (request) => {
      const ref = await device(request, request.query.id, DATA_PERMISSION.read);
      const caller = who(request);
      const head = await headMeta(app.db, caller, ref.id);
      return ok({
        device: await deviceView(app.db, ref),
        head: head?.meta ?? null,
        config: head?.row.config ?? { nodes: [], links: [] },
        lastPush: await lastPush(app.db, caller.companyId, ref.id),
        confirmWithin: app.config.configConfirmWithinS,
      });
    },
  );

  app.get(
    '/devicemanagement/gatewayconfig/lookups',
    {
      config: { permission: EDITOR },
      schema: {
        tags: ['gateway configuration'],
        summary:
          "The company's data packages and the IoT data items the caller can read, for the editor's pickers",
        querystring: DeviceQuery,
        response: { 200: Envelope(Lookups) },
      },
    },
    async (request) => {
      await device(request, request.query.id, DATA_PERMISSION.read);
      const data = await companyLookups(app.db, who(request));
      return ok({
        packages: data.packages.map(({ id, name, parserValues }) => ({ id, name, parserValues })),
        items: data.items,
      });
    },
  );

  app.get(
    '/devicemanagement/gatewayconfig/versions',
    {
      config: { permission: EDITOR },
      schema: {
        tags: ['gateway configuration'],
        summary: 'Saved versions, newest first',
        querystring: Type.Object({ id: Id, ...Paging }),
        response: { 200: Envelope(Page(VersionMeta)) },
      },
    },
    async (request) => {
      const ref = await device(request, request.query.id, DATA_PERMISSION.read);
      const page = paging(request.query);
      const { list, total } = await listVersions(app.db, who(request), ref.id, page.limit, page.offset);
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    '/devicemanagement/gatewayconfig/version',
    {
      config: { permission: EDITOR },
      schema: {
        tags: ['gateway configuration'],
        summary: 'One saved version',
        querystring: Type.Object({ id: Id, version: Id }),
        response: { 200: Envelope(Type.Object({ meta: VersionMeta, config: ConfigOut })) },
      },
    },
    async (request) => {
      const ref = await device(request, request.query.id, DATA_PERMISSION.read);
      return ok(await versionWithMeta(app.db, who(request), ref.id, request.query.version));
    },
  );

  app.post(
    '/devicemanagement/gatewayconfig/save',
    {
      config: { permission: EDITOR },
      schema: {
        tags: ['gateway configuration'],
        summary:
          'Save on top of the version the editor loaded: a new version, or the same one when only the layout changed; a stale base is refused (40900) naming who saved what when',
        body: Type.Object(
          { id: Id, baseVersion: BaseVersion, config: Config },
          { additionalProperties: false },
        ),
        response: { 200: Envelope(SaveResult) },
      },
    },
    async (request) => {
      const ref = await device(request, request.body.id, DATA_PERMISSION.write);
      const result = await saveVersion(
        app.db,
        who(request),
        ref.id,
        request.body.baseVersion,
        request.body.config as unknown as GatewayConfig,
      );
      return ok(result, 'operation', request.lang);
    },
  );

  app.post(
    '/devicemanagement/gatewayconfig/restore',
    {
      config: { permission: EDITOR },
      schema: {
        tags: ['gateway configuration'],
        summary: 'Save the content of an old version as a new version',
        body: Type.Object({ id: Id, version: Id, baseVersion: BaseVersion }, { additionalProperties: false }),
        response: { 200: Envelope(SaveResult) },
      },
    },
    async (request) => {
      const ref = await device(request, request.body.id, DATA_PERMISSION.write);
      const { version, baseVersion } = request.body;
      return ok(
        await restoreVersion(app.db, who(request), ref.id, version, baseVersion),
        'operation',
        request.lang,
      );
    },
  );

  app.post(
    '/devicemanagement/gatewayconfig/check',
    {
      config: { permission: EDITOR },
      schema: {
        tags: ['gateway configuration'],
        summary:
          "Every problem of a configuration, each naming its node and field, checked against the company's data",
        body: Type.Object({ id: Id, config: Config }, { additionalProperties: false }),
        response: { 200: Envelope(Type.Object({ ok: Type.Boolean(), problems: Type.Array(Problem) })) },
      },
    },
    async (request) => {
      await device(request, request.body.id, DATA_PERMISSION.read);
      const lookups = checkLookups(await companyLookups(app.db, who(request)));
      const problems = checkGatewayConfig(request.body.config, lookups).map((p) => ({
        ...p,
        message: messageFor(p.key, request.lang, p.params),
      }));
      return ok({ ok: !problems.some((p) => p.severity === 'error'), problems });
    },
  );

  app.get(
    '/devicemanagement/gatewayconfig/pushState',
    {
      config: { permission: PUSH },
      schema: {
        tags: ['gateway configuration'],
        summary: 'The gateway, its latest saved version and its last push (the push page)',
        querystring: DeviceQuery,
        response: { 200: Envelope(DeviceState) },
      },
    },
    async (request) => {
      const ref = await device(request, request.query.id, DATA_PERMISSION.read);
      const caller = who(request);
      const head = await headMeta(app.db, caller, ref.id);
      return ok({
        device: await deviceView(app.db, ref),
        head: head?.meta ?? null,
        lastPush: await lastPush(app.db, caller.companyId, ref.id),
        confirmWithin: app.config.configConfirmWithinS,
      });
    },
  );

  app.post(
    '/devicemanagement/gatewayconfig/push',
    {
      config: { permission: PUSH },
      schema: {
        tags: ['gateway configuration'],
        summary:
          'Save the editor’s configuration (when given) and push the latest version to the gateway: refused offline, on a stale base, when the check fails, while a push waits',
        body: Type.Object(
          { id: Id, baseVersion: BaseVersion, config: Type.Optional(Config) },
          { additionalProperties: false },
        ),
        response: { 200: Envelope(Type.Object({ push: PushView, saved: SaveResult })) },
      },
    },
    async (request) => {
      const caller = who(request);
      const ref = await device(request, request.body.id, DATA_PERMISSION.write).catch((error: unknown) =>
        unboundOrRethrow(app.db, caller.companyId, request.body.id, error),
      );
      const { baseVersion, config } = request.body;
      return ok(
        await pushConfig(app, caller, ref, baseVersion, config as unknown as GatewayConfig | undefined),
      );
    },
  );

  app.get(
    '/devicemanagement/gatewayconfig/pushes',
    {
      config: { permission: PUSH },
      schema: {
        tags: ['gateway configuration'],
        summary: 'Pushes of the gateway’s configuration and how each ended, newest first',
        querystring: Type.Object({ id: Id, ...Paging }),
        response: { 200: Envelope(Page(PushView)) },
      },
    },
    async (request) => {
      const ref = await device(request, request.query.id, DATA_PERMISSION.read);
      const page = paging(request.query);
      const { list, total } = await listPushes(
        app.db,
        callerCompany(request),
        ref.id,
        page.limit,
        page.offset,
      );
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.get(
    '/devicemanagement/gatewayconfig/push',
    {
      config: { permission: PUSH },
      schema: {
        tags: ['gateway configuration'],
        summary: 'One push, as it stands (the page polls it until it ends)',
        querystring: Type.Object({ id: Id, pushId: Id }),
        response: { 200: Envelope(PushView) },
      },
    },
    async (request) => {
      const ref = await device(request, request.query.id, DATA_PERMISSION.read);
      return ok(await pushById(app.db, callerCompany(request), ref.id, request.query.pushId));
    },
  );
}
