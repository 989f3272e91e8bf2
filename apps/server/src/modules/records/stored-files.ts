/**
 * Record pictures (type 8) and files (type 9) live in the private bucket under
 * records/<company>/<item>/<random name>. A record keeps a bucket-neutral reference,
 * `/general/files/records/…` (RECORD_FILES_PREFIX of packages/domain); whoever may read the
 * record gets signed links in its place (platform/file-links.ts), from every route that hands
 * out record values: the record list, the upload answer, the live stream and rendered documents.
 * A reference is signed only for the company it names, so a value pointing at another
 * company's file never opens it.
 *
 * Before, these files were in the public bucket and records kept their public address.
 * `moveRecordFilesToPrivate` moves them at start-up; until a record is rewritten, an old
 * address reads as the new reference (storedFileRef), so nothing is lost on the way.
 */
import {
  FILE_URL_PREFIX,
  RECORD_FILES_PREFIX,
  type RecordValues,
  type StoredFile,
  storedFileRef,
} from '@platform/domain';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db';
import type { FileLinks } from '../../platform/file-links';
import { RECORD_FILES_AREA, type Storage, safeStorageKey } from '../../platform/storage';

/** The storage key behind a record file reference of this company, or null for anything else. */
export function recordFileKey(ref: unknown, companyId: number): string | null {
  const url = storedFileRef(ref);
  if (typeof url !== 'string' || !url.startsWith(`${RECORD_FILES_PREFIX}${companyId}/`)) return null;
  return safeStorageKey(url.slice(FILE_URL_PREFIX.length));
}

/** The reference a record keeps for a key of the private bucket. */
export function recordFileRef(key: string): string {
  return `${FILE_URL_PREFIX}${key}`;
}

/** One stored file as a reader gets it: its company's references replaced by signed links. */
export function withFileLink(links: FileLinks, file: StoredFile, companyId: number): StoredFile {
  const link = (ref: string) => {
    const key = recordFileKey(ref, companyId);
    return key ? links.link(key) : ref;
  };
  const out: StoredFile = { ...file, url: link(file.url) };
  if (file.thumbUrl != null) out.thumbUrl = link(file.thumbUrl);
  return out;
}

/**
 * Values as a reader of the record gets them: the picture and file references of the company
 * (the arrays of stored files; no other field type holds an array) replaced by signed links.
 * Call only for a caller who may read the record.
 */
export function withFileLinks(links: FileLinks, values: RecordValues, companyId: number): RecordValues {
  let out: RecordValues | null = null;
  for (const [key, value] of Object.entries(values)) {
    if (!Array.isArray(value)) continue;
    out ??= { ...values };
    out[key] = value.map((file) =>
      typeof file === 'object' && file !== null && typeof file.url === 'string'
        ? withFileLink(links, file, companyId)
        : file,
    );
  }
  return out ?? values;
}

function contentTypeOf(key: string): string {
  if (/\.png$/i.test(key)) return 'image/png';
  if (/\.jpe?g$/i.test(key)) return 'image/jpeg';
  return 'application/octet-stream';
}

/**
 * Moves record files left in the public bucket (from before they were private) to the private
 * bucket, and rewrites the records' old public addresses to references. Runs at every start;
 * with nothing left in the public record area it is one folder listing. References first: if
 * the process stops half-way, the files still in the public bucket are moved on the next start,
 * and an old address in a record reads as the new reference meanwhile.
 */
export async function moveRecordFilesToPrivate(
  db: Db,
  storage: Storage,
  log: FastifyBaseLogger,
): Promise<number> {
  const keys: string[] = [];
  for await (const key of storage.list('public', RECORD_FILES_AREA)) keys.push(key);
  if (keys.length === 0) return 0;
  const oldPrefix = `"${FILE_URL_PREFIX}public/${RECORD_FILES_AREA}`;
  const newPrefix = `"${RECORD_FILES_PREFIX}`;
  await db.execute(sql`
    update data_records
       set "values" = replace("values"::text, ${oldPrefix}, ${newPrefix})::jsonb
     where strpos("values"::text, ${oldPrefix}) > 0`);
  let moved = 0;
  for (const key of keys) {
    if (safeStorageKey(key) == null) continue;
    const bytes = await storage.get('public', key);
    if (!bytes) continue;
    await storage.put('private', key, bytes, contentTypeOf(key));
    await storage.remove('public', key);
    moved += 1;
  }
  log.info({ moved }, 'record pictures and files moved to the private bucket');
  return moved;
}
