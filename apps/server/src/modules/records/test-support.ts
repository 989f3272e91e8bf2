/**
 * Test fixtures of records: rows written straight through the ingest store (rollups included),
 * no route and no permission check. Not imported by production code.
 */
import { randomBytes } from 'node:crypto';
import type { RecordValues } from '@platform/domain';
import { asc, eq } from 'drizzle-orm';
import type { TestApp } from '../../test/helper';
import { insertRecords } from '../ingest/store';
import { dataRecords } from './tables';

export async function makeRecords(
  t: TestApp,
  companyId: number,
  itemId: number,
  rows: Array<{ ts?: string; values: RecordValues; parentId?: number | null }>,
): Promise<number[]> {
  return insertRecords(
    t.db,
    rows.map((r, i) => ({
      companyId,
      itemId,
      ts: new Date(r.ts ?? Date.UTC(2026, 0, 1, 0, i)),
      values: r.values,
      parentId: r.parentId ?? null,
      source: 'manual',
    })),
  );
}

/** Every record of an item, oldest id first. */
export async function recordsOf(t: TestApp, itemId: number) {
  return t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId)).orderBy(asc(dataRecords.id));
}

/** A multipart/form-data body with text fields first, then an optional file, as a browser sends it. */
export function multipartForm(
  fields: Record<string, string | number>,
  file?: { bytes: Buffer; filename?: string; contentType?: string },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----records${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  if (file) {
    const name = file.filename ?? 'data.csv';
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
          `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
