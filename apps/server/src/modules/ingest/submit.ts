/**
 * Submission from outside (HTTP and MQTT share this path): resolve the key, read the body
 * (one record or an array, each `{itemId, ts?, <field name or key>: value…}`), check the key
 * may write every item, then write through the pipeline. All or nothing; the answer comes
 * after commit.
 *
 * A key writes only where its holder may write, read afresh at each submission: the holder
 * still holds the data cabin's code (holder.ts), and has write permission on each item (a
 * device key, in addition, only on items naming its device), unless the item is public for
 * collection.
 *
 * Over HTTP the Authorization header may also carry the user's login token instead of a key
 * (spec point 1: "an Authorization header carrying the login key"): the token's user is then
 * the holder, with exactly the same checks. Keys remain the way for devices and scripts: a
 * token expires and ends at logout.
 */
import { DATA_PERMISSION, type Lang } from '@platform/domain';
import { authenticate } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, type Envelope, errorEnvelope, ok } from '../../platform/envelope';
import { inFlightPer } from '../../platform/in-flight';
import { levelsFor } from '../cabin/permissions';
import { holdsKeyCode } from './holder';
import { KEY_PREFIX, type KeyHolder, resolveKey, touchKey } from './keys';
import { type IngestRecord, type ItemDef, localizeRecordError } from './pipeline';

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

/** a key's holder, or a login token's user (no key id) */
type Submitter = KeyHolder | Omit<KeyHolder, 'id'>;

const levelChecks = inFlightPer<App['db'], Map<number, number>>();

interface Access {
  defs: Map<number, ItemDef | null>;
  /** the holder's data permission on each item's node */
  levels: Map<number, number>;
}

/**
 * What the holder may do with these items: one definition read and one permission read.
 * A holder without the data cabin's code is refused outright (40300), whatever the items.
 */
async function loadAccess(app: App, holder: Submitter, itemIds: number[]): Promise<Access> {
  const [defs, holdsCode] = await Promise.all([app.ingest.itemDefs(itemIds), holdsKeyCode(app.db, holder)]);
  if (!holdsCode) throw new AppError('forbidden');
  const nodeIds = [...defs.values()].flatMap((d) =>
    d && d.companyId === holder.companyId ? [d.nodeId] : [],
  );
  const who = { companyId: holder.companyId, userId: holder.userId };
  const key = `${who.companyId}:${who.userId}:${[...new Set(nodeIds)].sort((x, y) => x - y).join(',')}`;
  // concurrent submissions of one holder to the same items share the permission read
  const levels = await levelChecks(app.db).run(key, () => levelsFor(app.db, who, nodeIds));
  return { defs, levels };
}

/** Refuses unless the key may write every item: 40400 when absent or not readable, 40300 otherwise. */
function checkAccess(holder: Submitter, access: Access, records: IngestRecord[]): void {
  for (const [index, record] of records.entries()) {
    const item = access.defs.get(record.itemId);
    const fail = (key: 'notFound' | 'forbidden') =>
      new AppError(key, {}, { index, itemId: record.itemId, field: 'itemId' });
    if (!item || item.companyId !== holder.companyId) throw fail('notFound');
    if (item.publicCollect) continue;
    if (holder.kind === 'device' && !item.sources.some((s) => s.deviceId === holder.deviceId)) {
      throw fail('forbidden');
    }
    const level = access.levels.get(item.nodeId) ?? DATA_PERMISSION.none;
    if (level === DATA_PERMISSION.none) throw fail('notFound');
    if (level < DATA_PERMISSION.write) throw fail('forbidden');
  }
}

/**
 * Who submits: the holder of a submission key, or (no key prefix) the user of a login token,
 * whose current company is the one written to. Null key id for a token.
 */
async function submitter(app: App, raw: string | undefined | null): Promise<Submitter> {
  const value = raw?.replace(/^Bearer\s+/i, '').trim();
  if (!value || value.startsWith(KEY_PREFIX) || value.length > 200) return resolveKey(app.db, value);
  // tokenInvalid / tokenExpired, as on every other route
  const auth = await authenticate(app.db, value);
  if (auth.companyId == null) throw new AppError('noCompany');
  return { companyId: auth.companyId, userId: auth.userId, kind: 'user', deviceId: null };
}

/** The whole submission; throws AppError for the caller's envelope. */
export async function submit(
  app: App,
  rawKey: string | undefined | null,
  body: unknown,
  source: 'http' | 'mqtt',
): Promise<{ count: number }> {
  // MQTT clients sign in with keys only
  const holder = source === 'http' ? await submitter(app, rawKey) : await resolveKey(app.db, rawKey);
  const records = parseSubmission(body);
  checkAccess(
    holder,
    await loadAccess(
      app,
      holder,
      records.map((r) => r.itemId),
    ),
    records,
  );
  const { ids } = await app.ingest.write({
    companyId: holder.companyId,
    userId: holder.userId,
    source,
    records,
  });
  if ('id' in holder) {
    touchKey(app.db, holder.id).catch((err) => app.log.warn({ err }, 'could not record key use'));
  }
  return { count: ids.length };
}

function envelopeOf(error: unknown, app: App, lang: Lang): Envelope {
  if (error instanceof AppError) return errorEnvelope(localizeRecordError(error, lang), lang);
  app.log.error({ err: error }, 'submission failed');
  return errorEnvelope(new AppError('internal'), lang);
}

/**
 * Several submissions with one key at once (the MQTT messages of a device that arrive
 * together), each answered with the envelope `submit` would give it alone, errors included
 * (MQTT has no error handler): one key lookup, one access read and one group commit for all
 * of them, and a bad one refuses only itself.
 */
export async function submitEach(
  app: App,
  /** the raw key, or how to find its holder (MQTT: by the id the broker authenticated) */
  key: string | undefined | null | (() => Promise<KeyHolder>),
  bodies: unknown[],
  source: 'http' | 'mqtt',
  lang: Lang,
): Promise<Envelope[]> {
  let holder: KeyHolder;
  try {
    holder = typeof key === 'function' ? await key() : await resolveKey(app.db, key);
  } catch (error) {
    const refused = envelopeOf(error, app, lang);
    return bodies.map(() => refused);
  }
  const answers: Array<Envelope | null> = bodies.map(() => null);
  const parsed = bodies.map((body, i) => {
    try {
      return parseSubmission(body);
    } catch (error) {
      answers[i] = envelopeOf(error, app, lang);
      return [];
    }
  });
  let access: Access;
  try {
    access = await loadAccess(
      app,
      holder,
      parsed.flatMap((records) => records.map((r) => r.itemId)),
    );
  } catch (error) {
    const failed = envelopeOf(error, app, lang);
    return answers.map((a) => a ?? failed);
  }
  const accepted: number[] = [];
  parsed.forEach((records, i) => {
    if (answers[i]) return;
    try {
      checkAccess(holder, access, records);
      accepted.push(i);
    } catch (error) {
      answers[i] = envelopeOf(error, app, lang);
    }
  });
  if (accepted.length > 0) {
    const results = await app.ingest.writeEach(
      { companyId: holder.companyId, userId: holder.userId, source },
      accepted.map((i) => parsed[i]!),
    );
    accepted.forEach((i, n) => {
      const result = results[n]!;
      answers[i] =
        'error' in result
          ? envelopeOf(result.error, app, lang)
          : ok({ count: result.ids.length }, 'submitted', lang);
    });
    touchKey(app.db, holder.id).catch((err) => app.log.warn({ err }, 'could not record key use'));
  }
  return answers.map((a) => a!);
}
