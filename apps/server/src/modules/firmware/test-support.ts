/**
 * Fixtures of the firmware tests: an image (random bytes, so no content check mistakes it for
 * text or a picture), a version uploaded through the API by the platform operator, and calls.
 * Not imported by production code.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { bearer, type TestApp } from '../../test/helper';
import { multipartForm } from '../records/test-support';

export const BASE = '/general/devicemanagement/firmware';
export const SYSTEM_BASE = '/general/system/firmware';

/** Bytes that look like a firmware image: binary, starting with no known file signature. */
export function image(size = 4096): Buffer {
  const bytes = randomBytes(size);
  bytes[0] = 0x7f;
  bytes[1] = 0x00;
  return bytes;
}

export function uploadRequest(
  token: string,
  fields: Record<string, string>,
  file?: { bytes: Buffer; filename?: string },
) {
  const form = multipartForm(fields, file ? { filename: 'fw.bin', ...file } : undefined);
  return {
    method: 'POST' as const,
    url: `${SYSTEM_BASE}/upload`,
    payload: form.payload,
    headers: { ...form.headers, ...bearer(token), 'accept-language': 'en' },
  };
}

/** Uploads a version as the operator; its id and bytes. */
export async function uploadVersion(
  t: TestApp,
  operatorToken: string,
  version: string,
  opts: { model?: string; bytes?: Buffer; notesZh?: string; notesEn?: string } = {},
): Promise<{ id: number; bytes: Buffer; sha256: string; version: string }> {
  const bytes = opts.bytes ?? image();
  const res = await t.app.inject(
    uploadRequest(
      operatorToken,
      {
        model: opts.model ?? 'SDG-200',
        version,
        notesZh: opts.notesZh ?? `修复了若干问题 ${version}`,
        notesEn: opts.notesEn ?? `Fixes ${version}`,
      },
      { bytes },
    ),
  );
  expect(res.json().code, res.body).toBe(0);
  return { id: res.json().data.id, bytes, sha256: res.json().data.sha256, version };
}

export function call(t: TestApp, token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  return t.app.inject({
    method,
    url: `${BASE}/${path}`,
    ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
}
