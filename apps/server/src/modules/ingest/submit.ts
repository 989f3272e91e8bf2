/**
 * Submission from outside (HTTP and MQTT share this path): resolve the key, read the body
 * (one record or an array, each `{itemId, ts?, <field name or key>: value…}`), check the key
 * may write every item, then write through the pipeline. All or nothing; the answer comes
 * after commit.
 */
import { DATA_PERMISSION, type Lang } from '@platform/domain';
import type { App } from '../../platform/context';
import { AppError, type Envelope, errorEnvelope, ok } from '../../platform/envelope';
import { inFlightPer } from '../../platform/in-flight';
import { levelsFor } from '../cabin/permissions';
import { type KeyHolder, resolveKey, touchKey } from './keys';
import { type IngestRecord, localizeRecordError } from './pipeline';

export const SUBMIT_LIMIT = 5_000;

/** Reads the body into pipeline records; a bad shape names its index and field. */
export function parseSubmission(body: unknown): IngestRecord[] {
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0) throw new AppError('fieldRequired', { field: 'records' }, { field: 'records' });
  if (list.length > SUBMIT_LIMIT) {
    throw new AppError('submitTooMany', { max: SUBMIT_LIMIT }, { field: 'records', max: SUBMIT_LIMIT });
  }
  return list.map((entry, index) => {
    const bad = (field: string, key: 'validation' | 'fieldRequired' = 'validation') =>
      new AppError(key, { field }, { index, itemId: null, field, message: '' });
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw bad('record');
    const { itemId, ts, ...values } = entry as Record<string, unknown>;
    if (itemId === undefined || itemId === null) throw bad('itemId', 'fieldRequired');
    const id = typeof itemId === 'string' && /^\d+$/.test(itemId) ? Number(itemId) : itemId;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1 || id > 2 ** 31 - 1)
      throw bad('itemId');
    if (ts !== undefined && ts !== null && typeof ts !== 'string' && typeof ts !== 'number') throw bad('ts');
    return {
      itemId: id,
      ts: typeof ts === 'number' ? new Date(ts) : (ts ?? null),
      values,
    };
  });
}

const levelChecks = inFlightPer<App['db'], Map<number, number>>();

/** Refuses unless the key may write every item: 40400 when absent or not readable, 40300 otherwise. */
async function checkAccess(app: App, holder: KeyHolder, records: IngestRecord[]): Promise<void> {
  const defs = await app.ingest.itemDefs(records.map((r) => r.itemId));
  let levels = new Map<number, number>();
  if (holder.kind === 'user') {
    const nodeIds = [...defs.values()].flatMap((d) =>
      d && d.companyId === holder.companyId ? [d.nodeId] : [],
    );
    const who = { companyId: holder.companyId, userId: holder.userId };
    const key = `${who.companyId}:${who.userId}:${[...new Set(nodeIds)].sort((x, y) => x - y).join(',')}`;
    // concurrent submissions of one holder to the same items share the permission read
    levels = await levelChecks(app.db).run(key, () => levelsFor(app.db, who, nodeIds));
  }
  for (const [index, record] of records.entries()) {
    const item = defs.get(record.itemId);
    const fail = (key: 'notFound' | 'forbidden') =>
      new AppError(key, {}, { index, itemId: record.itemId, field: 'itemId' });
    if (!item || item.companyId !== holder.companyId) throw fail('notFound');
    if (item.publicCollect) continue;
    if (holder.kind === 'device') {
      if (!item.sources.some((s) => s.deviceId === holder.deviceId)) throw fail('forbidden');
      continue;
    }
    const level = levels.get(item.nodeId) ?? DATA_PERMISSION.none;
    if (level === DATA_PERMISSION.none) throw fail('notFound');
    if (level < DATA_PERMISSION.write) throw fail('forbidden');
  }
}

/** The whole submission; throws AppError for the caller's envelope. */
export async function submit(
  app: App,
  rawKey: string | undefined | null,
  body: unknown,
  source: 'http' | 'mqtt',
): Promise<{ count: number }> {
  const holder = await resolveKey(app.db, rawKey);
  const records = parseSubmission(body);
  await checkAccess(app, holder, records);
  const { ids } = await app.ingest.write({
    companyId: holder.companyId,
    userId: holder.userId,
    source,
    records,
  });
  touchKey(app.db, holder.id).catch((err) => app.log.warn({ err }, 'could not record key use'));
  return { count: ids.length };
}

/** The envelope answering a submission, in `lang`, errors included (MQTT has no error handler). */
export async function submitEnvelope(
  app: App,
  rawKey: string | undefined | null,
  body: unknown,
  source: 'http' | 'mqtt',
  lang: Lang,
): Promise<Envelope> {
  try {
    return ok(await submit(app, rawKey, body, source), 'submitted', lang);
  } catch (error) {
    if (error instanceof AppError) return errorEnvelope(localizeRecordError(error, lang), lang);
    app.log.error({ err: error }, 'submission failed');
    return errorEnvelope(new AppError('internal'), lang);
  }
}
