/**
 * Firmware (docs/firmware.md): versions uploaded in system maintenance (system_gateway, the
 * platform operator's), the device page's upgrade (the device menus' codes plus the device's
 * data permission: read to see, read-write to upgrade), and the gateway's signed download.
 */
import { DATA_PERMISSION } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { caller } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id, Page, Paging, paging } from '../../platform/schemas';
import { dataCaller } from '../cabin/routes';
import { requireDeviceLevel } from '../devices/access';
import { DEVICE_CODES } from '../devices/schemas';
import { checkDownload } from './links';
import {
  BatchResultSchema,
  BatchViewSchema,
  DevicePageSchema,
  Model,
  Notes,
  SerialNumber,
  UpgradeSchema,
  VersionSchema,
  VersionText,
} from './schemas';
import {
  batchView,
  deleteVersion,
  deviceIdOf,
  devicePage,
  listUpgrades,
  listVersions,
  readUpload,
  releaseNote,
  retryUpgrade,
  startBatch,
  startUpgrade,
  updateNotes,
  upgradeOf,
  uploadVersion,
} from './service';
import { firmwareUpgrades, firmwareVersions } from './tables';
import { upgradeViews, versionViews } from './views';

const SYSTEM = 'system_gateway';
const DEVICE = DEVICE_CODES;
const FileBytes = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'the image' });
export const BATCH_MAX = 1000;

export default async function firmwareRoutes(app: App): Promise<void> {
  app.firmware.attach(app);

  // ---- system maintenance: versions ----------------------------------------------------------

  app.post(
    '/system/firmware/upload',
    {
      config: { permission: SYSTEM },
      schema: {
        tags: ['firmware'],
        summary:
          'Upload a firmware version (multipart: file, model, version, notesZh, notesEn); the server computes its SHA-256',
        consumes: ['multipart/form-data'],
        response: { 200: Envelope(VersionSchema) },
      },
    },
    async (request) => {
      const form = await readUpload(request, app.config.firmwareMaxBytes);
      const row = await uploadVersion(app, caller(request).userId, form);
      return ok((await versionViews(app.db, [row]))[0]!, 'operation', request.lang);
    },
  );

  app.get(
    '/system/firmware/list',
    {
      config: { permission: SYSTEM },
      schema: {
        tags: ['firmware'],
        summary: 'Firmware versions, newest upload first',
        querystring: Type.Object({ model: Type.Optional(Model), ...Paging }),
        response: { 200: Envelope(Page(VersionSchema)) },
      },
    },
    async (request) => {
      const page = paging(request.query);
      const { list, total } = await listVersions(app.db, request.query.model, page.limit, page.offset);
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.post(
    '/system/firmware/update',
    {
      config: { permission: SYSTEM },
      schema: {
        tags: ['firmware'],
        summary: 'Change the release notes of a version (the image and its hash never change)',
        body: Type.Object({ id: Id, notesZh: Notes, notesEn: Notes }, { additionalProperties: false }),
        response: { 200: Envelope(VersionSchema) },
      },
    },
    async (request) => {
      const { id, notesZh, notesEn } = request.body;
      const row = await updateNotes(app.db, id, notesZh.trim(), notesEn.trim());
      return ok((await versionViews(app.db, [row]))[0]!, 'operation', request.lang);
    },
  );

  app.post(
    '/system/firmware/delete',
    {
      config: { permission: SYSTEM },
      schema: {
        tags: ['firmware'],
        summary: 'Delete a version and its image; refused while an upgrade to it is live',
        body: Type.Object({ id: Id }, { additionalProperties: false }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await deleteVersion(app, request.body.id);
      return ok(null, 'deleted', request.lang);
    },
  );

  // ---- the device page ---------------------------------------------------------------------

  app.get(
    '/devicemanagement/firmware/device',
    {
      config: { permission: DEVICE },
      schema: {
        tags: ['firmware'],
        summary:
          'A device (by id or serial number), the versions of its model and its live or last upgrade: what the upgrade page reads on load',
        querystring: Type.Object({ id: Type.Optional(Id), serialNumber: Type.Optional(SerialNumber) }),
        response: { 200: Envelope(DevicePageSchema) },
      },
    },
    async (request) => {
      const who = dataCaller(request);
      const { id, serialNumber } = request.query;
      if (id === undefined && serialNumber === undefined) throw fieldError('id', 'fieldRequired');
      const deviceId = id ?? (await deviceIdOf(app.db, who.companyId, serialNumber!));
      return ok(await devicePage(app, who, deviceId, id === undefined ? 'serialNumber' : 'id', request.lang));
    },
  );

  app.get(
    '/devicemanagement/firmware/releaseNote',
    {
      config: { permission: DEVICE },
      schema: {
        tags: ['firmware'],
        summary: 'The release note of a version of a model (typeId = the gateway model)',
        querystring: Type.Object({ version: VersionText, typeId: Model }),
        response: { 200: Envelope(VersionSchema) },
      },
    },
    async (request) => ok(await releaseNote(app.db, request.query.version, request.query.typeId)),
  );

  app.post(
    '/devicemanagement/firmware/upgrade',
    {
      config: { permission: DEVICE },
      schema: {
        tags: ['firmware'],
        summary:
          'Upgrade the gateway to a version: refused when not bound or offline, when the version is unknown for its model, while another upgrade is live',
        body: Type.Object({ id: Id, versionId: Id }, { additionalProperties: false }),
        response: { 200: Envelope(UpgradeSchema) },
      },
    },
    async (request) => {
      const row = await startUpgrade(
        app,
        request,
        dataCaller(request),
        request.body.id,
        request.body.versionId,
      );
      return ok((await upgradeViews(app.db, [row], request.lang))[0]!);
    },
  );

  app.post(
    '/devicemanagement/firmware/retry',
    {
      config: { permission: DEVICE },
      schema: {
        tags: ['firmware'],
        summary: 'Upgrade again to the version of a failed upgrade (a new upgrade, every check of a start)',
        body: Type.Object({ id: Id, upgradeId: Id }, { additionalProperties: false }),
        response: { 200: Envelope(UpgradeSchema) },
      },
    },
    async (request) => {
      const row = await retryUpgrade(
        app,
        request,
        dataCaller(request),
        request.body.id,
        request.body.upgradeId,
      );
      return ok((await upgradeViews(app.db, [row], request.lang))[0]!);
    },
  );

  app.get(
    '/devicemanagement/firmware/upgrade',
    {
      config: { permission: DEVICE },
      schema: {
        tags: ['firmware'],
        summary: 'One upgrade of the device as it stands',
        querystring: Type.Object({ id: Id, upgradeId: Id }),
        response: { 200: Envelope(UpgradeSchema) },
      },
    },
    async (request) => {
      const ref = await requireDeviceLevel(app, request, request.query.id, DATA_PERMISSION.read);
      const row = await upgradeOf(app.db, ref.companyId, ref.id, request.query.upgradeId);
      return ok((await upgradeViews(app.db, [row], request.lang))[0]!);
    },
  );

  app.get(
    '/devicemanagement/firmware/upgrades',
    {
      config: { permission: DEVICE },
      schema: {
        tags: ['firmware'],
        summary: 'Upgrades of the device, newest first',
        querystring: Type.Object({ id: Id, ...Paging }),
        response: { 200: Envelope(Page(UpgradeSchema)) },
      },
    },
    async (request) => {
      const ref = await requireDeviceLevel(app, request, request.query.id, DATA_PERMISSION.read);
      const page = paging(request.query);
      const { list, total } = await listUpgrades(
        app.db,
        ref.companyId,
        ref.id,
        page.limit,
        page.offset,
        request.lang,
      );
      return ok({ list, total, pageNum: page.pageNum, pageSize: page.pageSize });
    },
  );

  app.post(
    '/devicemanagement/firmware/batch',
    {
      config: { permission: DEVICE },
      schema: {
        tags: ['firmware'],
        summary:
          'Upgrade many gateways to a version: each device checked on its own (its refusal named), the rest queued and dispatched as the limit allows',
        body: Type.Object(
          { ids: Type.Array(Id, { minItems: 1, maxItems: BATCH_MAX, uniqueItems: true }), versionId: Id },
          { additionalProperties: false },
        ),
        response: { 200: Envelope(BatchResultSchema) },
      },
    },
    async (request) =>
      ok(
        await startBatch(
          app,
          request,
          dataCaller(request),
          request.body.ids,
          request.body.versionId,
          request.lang,
        ),
      ),
  );

  app.get(
    '/devicemanagement/firmware/batch',
    {
      config: { permission: DEVICE },
      schema: {
        tags: ['firmware'],
        summary: 'A batch: each readable device’s upgrade as it stands, and counts by state',
        querystring: Type.Object({ batchId: Id }),
        response: { 200: Envelope(BatchViewSchema) },
      },
    },
    async (request) => ok(await batchView(app, dataCaller(request), request.query.batchId, request.lang)),
  );

  // ---- the gateway's download --------------------------------------------------------------

  app.get(
    '/firmware/download/:upgradeId',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['firmware'],
        summary:
          'The image of an upgrade through the signed link of its order (no login; valid while the upgrade is live, until its expiry)',
        params: Type.Object({ upgradeId: Id }),
        querystring: Type.Object({
          exp: Type.Optional(Type.String({ maxLength: 20, description: 'expiry, unix seconds' })),
          sig: Type.Optional(Type.String({ maxLength: 100, description: 'signature' })),
        }),
        response: { 200: FileBytes, 403: EmptyEnvelope, 404: EmptyEnvelope },
      },
    },
    async (request, reply) => {
      const [row] = await app.db
        .select()
        .from(firmwareUpgrades)
        .where(eq(firmwareUpgrades.id, request.params.upgradeId));
      // a forged request learns nothing, not even whether the upgrade exists
      const check = row ? checkDownload(app, row, request.query.exp, request.query.sig) : 'invalid';
      if (check === 'invalid') throw new AppError('notFound');
      if (check === 'expired' || !row!.state || row!.state === 'success' || row!.state === 'failed')
        throw new AppError('fileLinkExpired');
      const [version] = await versionRow(app, row!.versionId!);
      const bytes = version ? await app.storage.get('private', version.storageKey) : null;
      if (!bytes) throw new AppError('notFound');
      return reply
        .header('content-type', 'application/octet-stream')
        .header('cache-control', 'no-store')
        .header('content-disposition', 'attachment; filename="firmware.bin"')
        .send(bytes);
    },
  );
}

function versionRow(app: App, id: number) {
  return app.db.select().from(firmwareVersions).where(eq(firmwareVersions.id, id));
}
