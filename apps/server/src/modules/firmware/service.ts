/**
 * Firmware versions (system maintenance) and upgrades as the device pages ask for them
 * (docs/firmware.md). Route handlers check the caller; these functions do the work.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  compareFirmwareVersions,
  DATA_PERMISSION,
  isFirmwareVersion,
  type Lang,
  messageFor,
  UPGRADE_LIVE,
} from '@platform/domain';
import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { AppError, fieldError } from '../../platform/envelope';
import type { DataCaller } from '../cabin/permissions';
import { deviceFor, readableDevices } from '../devices/access';
import { unboundOrRethrow } from '../gatewayconfig/device';
import { gateways } from '../gateways/tables';
import { linkBase } from './links';
import {
  type FirmwareVersionRow,
  firmwareBatches,
  firmwareUpgrades,
  firmwareVersions,
  type UpgradeRow,
} from './tables';
import { type UpgradeView, upgradeViews, versionViews } from './views';

/** a model name as the registry keeps it: printable ASCII, at most 32 characters */
const MODEL = /^[\x20-\x7e]{1,32}$/;
export const NOTES_MAX = 5000;

// ---------------------------------------------------------------------------------------------
// versions

export interface UploadForm {
  fields: Record<string, string>;
  file: { bytes: Buffer; name: string } | { tooLarge: true } | null;
}

/** Reads the upload form: text fields and one `file` of at most `maxBytes`. */
export async function readUpload(request: FastifyRequest, maxBytes: number): Promise<UploadForm> {
  if (!request.isMultipart()) throw fieldError('file', 'fieldRequired');
  const form: UploadForm = { fields: {}, file: null };
  const parts = request.parts({
    limits: { fileSize: maxBytes, files: 1, fields: 8, fieldSize: NOTES_MAX * 4 + 16 },
  });
  for await (const part of parts) {
    if (part.type === 'field') {
      form.fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== 'file') {
      part.file.resume();
      continue;
    }
    try {
      const bytes = await part.toBuffer();
      form.file = part.file.truncated ? { tooLarge: true } : { bytes, name: part.filename };
    } catch (error) {
      if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
      form.file = { tooLarge: true };
      return form;
    }
  }
  return form;
}

/**
 * What a firmware image is not, by its first bytes: a picture, a PDF, an archive, a web page
 * or plain text (someone picked the wrong file); null when it may be an image.
 */
export function notFirmware(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 8);
  const starts = (...sig: number[]) => sig.every((b, i) => head[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'gif';
  if (starts(0x25, 0x50, 0x44, 0x46)) return 'pdf';
  if (starts(0x50, 0x4b, 0x03, 0x04)) return 'zip';
  if (starts(0x42, 0x4d) && bytes.length > 14) return 'bmp';
  const sample = bytes.subarray(0, 4096);
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(sample);
    // a cut in the middle of a character at the sample's end is still text
    if (!hasControlCharacters(text)) return /<html|<!doctype/i.test(text) ? 'html' : 'text';
  } catch {
    // not UTF-8: binary, as an image is
  }
  return null;
}

function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true;
  }
  return false;
}

function textField(fields: Record<string, string>, name: string, max: number, required: boolean): string {
  const value = (fields[name] ?? '').trim();
  if (required && value === '') throw fieldError(name, 'fieldRequired');
  if ([...value].length > max) throw fieldError(name);
  return value;
}

export async function uploadVersion(app: App, userId: number, form: UploadForm): Promise<FirmwareVersionRow> {
  const model = textField(form.fields, 'model', 32, true);
  if (!MODEL.test(model)) throw fieldError('model');
  const version = textField(form.fields, 'version', 32, true);
  if (!isFirmwareVersion(version)) throw fieldError('version', 'firmwareVersionInvalid');
  const notesZh = textField(form.fields, 'notesZh', NOTES_MAX, false);
  const notesEn = textField(form.fields, 'notesEn', NOTES_MAX, false);
  if (!form.file) throw fieldError('file', 'fieldRequired');
  if ('tooLarge' in form.file) {
    const max = Math.floor(app.config.firmwareMaxBytes / (1024 * 1024)) || 1;
    throw new AppError('firmwareTooLarge', { max }, { field: 'file' });
  }
  const { bytes, name } = form.file;
  if (bytes.length === 0) throw fieldError('file', 'fieldRequired');
  if (notFirmware(bytes)) throw fieldError('file', 'firmwareImageInvalid');
  const [exists] = await app.db
    .select({ id: firmwareVersions.id })
    .from(firmwareVersions)
    .where(and(eq(firmwareVersions.model, model), eq(firmwareVersions.version, version)));
  if (exists) throw new AppError('firmwareVersionExists', { model, version }, { field: 'version' });
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const storageKey = `firmware/${randomUUID()}.bin`;
  await app.storage.put('private', storageKey, bytes, 'application/octet-stream');
  try {
    const [row] = await app.db
      .insert(firmwareVersions)
      .values({
        model,
        version,
        size: bytes.length,
        sha256,
        storageKey,
        fileName: [...(name || 'firmware.bin')].slice(0, 200).join(''),
        notesZh,
        notesEn,
        uploadedBy: userId,
      })
      .returning();
    return row!;
  } catch (error) {
    await app.storage.remove('private', storageKey);
    const e = error as { code?: string; cause?: { code?: string } };
    if (e.code === '23505' || e.cause?.code === '23505')
      throw new AppError('firmwareVersionExists', { model, version }, { field: 'version' });
    throw error;
  }
}

export async function listVersions(db: Db, model: string | undefined, limit: number, offset: number) {
  const where = model ? eq(firmwareVersions.model, model) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(firmwareVersions)
      .where(where)
      .orderBy(desc(firmwareVersions.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(firmwareVersions).where(where),
  ]);
  return { list: await versionViews(db, rows), total: Number(total?.n ?? 0) };
}

export async function versionById(db: Db, id: number, field = 'id'): Promise<FirmwareVersionRow> {
  const [row] = await db.select().from(firmwareVersions).where(eq(firmwareVersions.id, id));
  if (!row) throw new AppError('notFound', {}, { field });
  return row;
}

export async function updateNotes(db: Db, id: number, notesZh: string, notesEn: string) {
  const [row] = await db
    .update(firmwareVersions)
    .set({ notesZh, notesEn })
    .where(eq(firmwareVersions.id, id))
    .returning();
  if (!row) throw new AppError('notFound', {}, { field: 'id' });
  return row;
}

export async function deleteVersion(app: App, id: number): Promise<void> {
  const row = await versionById(app.db, id);
  const [live] = await app.db
    .select({ id: firmwareUpgrades.id })
    .from(firmwareUpgrades)
    .where(and(eq(firmwareUpgrades.versionId, id), inArray(firmwareUpgrades.state, [...UPGRADE_LIVE])))
    .limit(1);
  if (live) throw new AppError('firmwareInUse', {}, { field: 'id' });
  await app.db.delete(firmwareVersions).where(eq(firmwareVersions.id, id));
  await app.storage.remove('private', row.storageKey);
}

export async function releaseNote(db: Db, version: string, model: string) {
  const [row] = await db
    .select()
    .from(firmwareVersions)
    .where(and(eq(firmwareVersions.model, model), eq(firmwareVersions.version, version)));
  if (!row) throw new AppError('notFound', {}, { field: 'version' });
  return (await versionViews(db, [row]))[0]!;
}

// ---------------------------------------------------------------------------------------------
// a device's upgrades

/** The device id of a serial number bound to the caller's company (40400 naming it otherwise). */
export async function deviceIdOf(db: Db, companyId: number, serialNumber: string): Promise<number> {
  const [row] = await db
    .select({ id: gateways.id })
    .from(gateways)
    .where(and(eq(gateways.serialNumber, serialNumber), eq(gateways.companyId, companyId)));
  if (!row) throw new AppError('notFound', {}, { field: 'serialNumber' });
  return row.id;
}

export async function lastUpgrade(db: Db, companyId: number, gatewayId: number): Promise<UpgradeRow | null> {
  const scope = and(eq(firmwareUpgrades.companyId, companyId), eq(firmwareUpgrades.gatewayId, gatewayId));
  const [live] = await db
    .select()
    .from(firmwareUpgrades)
    .where(and(scope, inArray(firmwareUpgrades.state, [...UPGRADE_LIVE])));
  if (live) return live;
  const [last] = await db
    .select()
    .from(firmwareUpgrades)
    .where(scope)
    .orderBy(desc(firmwareUpgrades.id))
    .limit(1);
  return last ?? null;
}

/** The device, the versions of its model (newest first) and its live or last upgrade. */
export async function devicePage(app: App, caller: DataCaller, deviceId: number, field: string, lang: Lang) {
  const ref = await deviceFor(app.db, caller, deviceId, DATA_PERMISSION.read, field);
  const versions = await app.db
    .select()
    .from(firmwareVersions)
    .where(eq(firmwareVersions.model, ref.gateway.model));
  versions.sort((x, y) => compareFirmwareVersions(y.version, x.version));
  const running = ref.gateway.firmware;
  const upgrade = await lastUpgrade(app.db, caller.companyId, ref.id);
  return {
    device: {
      id: ref.id,
      name: ref.name,
      serialNumber: ref.serialNumber,
      model: ref.gateway.model,
      firmware: running,
      online: ref.online,
      level: ref.level,
    },
    versions: (await versionViews(app.db, versions)).map((v) => ({
      ...v,
      newer: running === null || compareFirmwareVersions(v.version, running) > 0,
    })),
    upgrade: upgrade ? (await upgradeViews(app.db, [upgrade], lang))[0]! : null,
  };
}

/**
 * Every check of starting an upgrade, in the order the person is told: the device and the
 * caller's read-write level on it, bound, online, the version known for its model. Nothing is
 * written before all pass.
 */
async function startable(app: App, caller: DataCaller, deviceId: number, versionId: number, field = 'id') {
  const ref = await deviceFor(app.db, caller, deviceId, DATA_PERMISSION.write, field).catch(
    (error: unknown) => unboundOrRethrow(app.db, caller.companyId, deviceId, error),
  );
  if (!ref.online) throw new AppError('gatewayOfflineUpgrade');
  const [version] = await app.db.select().from(firmwareVersions).where(eq(firmwareVersions.id, versionId));
  if (!version) throw new AppError('downloadInfoFailed', {}, { field: 'versionId' });
  if (version.model !== ref.gateway.model)
    throw new AppError('firmwareWrongModel', { model: version.model }, { field: 'versionId' });
  return { ref, version };
}

export async function startUpgrade(
  app: App,
  request: FastifyRequest,
  caller: DataCaller,
  deviceId: number,
  versionId: number,
  batchId: number | null = null,
): Promise<UpgradeRow> {
  const { ref, version } = await startable(app, caller, deviceId, versionId);
  return app.firmware.start({
    companyId: caller.companyId,
    userId: caller.userId,
    gatewayId: ref.id,
    version,
    fromVersion: ref.gateway.firmware,
    linkBase: linkBase(app, request),
    batchId,
  });
}

export async function upgradeOf(
  db: Db,
  companyId: number,
  gatewayId: number,
  upgradeId: number,
): Promise<UpgradeRow> {
  const [row] = await db
    .select()
    .from(firmwareUpgrades)
    .where(
      and(
        eq(firmwareUpgrades.id, upgradeId),
        eq(firmwareUpgrades.companyId, companyId),
        eq(firmwareUpgrades.gatewayId, gatewayId),
      ),
    );
  if (!row) throw new AppError('notFound', {}, { field: 'upgradeId' });
  return row;
}

/** A failed upgrade again: a new upgrade of the same version, through every check of a start. */
export async function retryUpgrade(
  app: App,
  request: FastifyRequest,
  caller: DataCaller,
  deviceId: number,
  upgradeId: number,
): Promise<UpgradeRow> {
  // the device first: another company's upgrade id must not say whether it exists
  await deviceFor(app.db, caller, deviceId, DATA_PERMISSION.read).catch((error: unknown) =>
    unboundOrRethrow(app.db, caller.companyId, deviceId, error),
  );
  const failed = await upgradeOf(app.db, caller.companyId, deviceId, upgradeId);
  if (failed.state !== 'failed') {
    if (failed.state !== 'success') throw new AppError('upgradeLive', {}, { upgradeId: failed.id });
    throw fieldError('upgradeId');
  }
  if (failed.versionId === null) throw new AppError('downloadInfoFailed', {}, { field: 'upgradeId' });
  return startUpgrade(app, request, caller, deviceId, failed.versionId);
}

export async function listUpgrades(
  db: Db,
  companyId: number,
  gatewayId: number,
  limit: number,
  offset: number,
  lang: Lang,
) {
  const scope = and(eq(firmwareUpgrades.companyId, companyId), eq(firmwareUpgrades.gatewayId, gatewayId));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(firmwareUpgrades)
      .where(scope)
      .orderBy(desc(firmwareUpgrades.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(firmwareUpgrades).where(scope),
  ]);
  return { list: await upgradeViews(db, rows, lang), total: Number(total?.n ?? 0) };
}

// ---------------------------------------------------------------------------------------------
// many at once

export interface BatchResult {
  id: number;
  upgrade: UpgradeView | null;
  error: { code: number; message: string } | null;
}

/**
 * Starts the version on each device on its own: a device that cannot (not bound, offline, no
 * permission, another model, an upgrade already live) is named with its reason and the others
 * go ahead. All are queued first, then dispatched as the limit allows.
 */
export async function startBatch(
  app: App,
  request: FastifyRequest,
  caller: DataCaller,
  ids: number[],
  versionId: number,
  lang: Lang,
): Promise<{ batchId: number; results: BatchResult[] }> {
  const version = await versionById(app.db, versionId, 'versionId').catch(() => {
    throw new AppError('downloadInfoFailed', {}, { field: 'versionId' });
  });
  const [batch] = await app.db
    .insert(firmwareBatches)
    .values({
      companyId: caller.companyId,
      versionId: version.id,
      version: version.version,
      createdBy: caller.userId,
    })
    .returning();
  const base = linkBase(app, request);
  const rows: Array<{ id: number; row: UpgradeRow | null; error: AppError | null }> = [];
  for (const id of ids) {
    try {
      const { ref } = await startable(app, caller, id, versionId);
      const row = await app.firmware.start(
        {
          companyId: caller.companyId,
          userId: caller.userId,
          gatewayId: ref.id,
          version,
          fromVersion: ref.gateway.firmware,
          linkBase: base,
          batchId: batch!.id,
        },
        { dispatch: false },
      );
      rows.push({ id, row, error: null });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      rows.push({ id, row: null, error });
    }
  }
  await app.firmware.pump();
  const fresh = await batchRows(app.db, caller.companyId, batch!.id);
  const views = new Map((await upgradeViews(app.db, fresh, lang)).map((v) => [v.id, v] as const));
  return {
    batchId: batch!.id,
    results: rows.map(({ id, row, error }) => ({
      id,
      upgrade: row ? (views.get(row.id) ?? null) : null,
      error: error ? { code: error.code, message: messageFor(error.key, lang, error.params) } : null,
    })),
  };
}

async function batchRows(db: Db, companyId: number, batchId: number) {
  return db
    .select()
    .from(firmwareUpgrades)
    .where(and(eq(firmwareUpgrades.companyId, companyId), eq(firmwareUpgrades.batchId, batchId)))
    .orderBy(asc(firmwareUpgrades.id));
}

/** A batch as the caller may see it: only the devices the caller can read. */
export async function batchView(app: App, caller: DataCaller, batchId: number, lang: Lang) {
  const [batch] = await app.db
    .select()
    .from(firmwareBatches)
    .where(and(eq(firmwareBatches.id, batchId), eq(firmwareBatches.companyId, caller.companyId)));
  if (!batch) throw new AppError('notFound', {}, { field: 'batchId' });
  const readable = new Set((await readableDevices(app.db, caller)).map((d) => d.gateway.id));
  const rows = (await batchRows(app.db, caller.companyId, batchId)).filter((r) => readable.has(r.gatewayId));
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.state] = (counts[r.state] ?? 0) + 1;
  return {
    batchId: batch.id,
    versionId: batch.versionId,
    version: batch.version,
    createdAt: batch.createdAt.toISOString(),
    counts,
    list: await upgradeViews(app.db, rows, lang),
  };
}
