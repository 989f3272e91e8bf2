/**
 * Multipart forms of the record routes: text fields plus one `file`, in any order. The file is
 * read up to `maxBytes`; past it the form reports `tooLarge` instead of the bytes, so the route
 * can answer with the message that fits the field (picture, file, import).
 */
import type { FastifyRequest } from 'fastify';
import { fieldError } from '../../platform/envelope';

export interface UploadForm {
  fields: Record<string, string>;
  file: { bytes: Buffer; name: string } | { tooLarge: true; name: string } | null;
}

const MAX_TEXT_FIELDS = 10;

export async function readForm(request: FastifyRequest, maxBytes: number): Promise<UploadForm> {
  if (!request.isMultipart()) throw fieldError('file', 'fieldRequired');
  const form: UploadForm = { fields: {}, file: null };
  const parts = request.parts({
    limits: { fileSize: maxBytes, files: 1, fields: MAX_TEXT_FIELDS, fieldSize: 1000 },
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
      form.file = part.file.truncated
        ? { tooLarge: true, name: part.filename }
        : { bytes, name: part.filename };
    } catch (error) {
      if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
      // the rest of the body is not read: what we know so far must do
      form.file = { tooLarge: true, name: part.filename };
      return form;
    }
  }
  return form;
}

/** A positive integer text field of the form, or a field error naming it. */
export function formId(form: UploadForm, name: string): number {
  const text = form.fields[name];
  if (text === undefined || text.trim() === '') throw fieldError(name, 'fieldRequired');
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1 || n > 2 ** 31 - 1) throw fieldError(name);
  return n;
}
