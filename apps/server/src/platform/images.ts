/** Image uploads: checked by their bytes (JPG or PNG, at most 3 MB), thumbnailed to 150 px. */
import { checkImage, sniffImage, THUMBNAIL_MAX_SIDE } from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { assertField, fieldError } from './envelope';

export interface CheckedImage {
  kind: 'jpeg' | 'png';
  bytes: Buffer;
  thumbnail: Buffer;
}

export async function checkAndThumbnail(field: string, bytes: Buffer): Promise<CheckedImage> {
  assertField(field, checkImage(bytes));
  const kind = sniffImage(bytes)!;
  let thumbnail: Buffer;
  try {
    thumbnail = await sharp(bytes)
      .rotate()
      .resize(THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .toFormat(kind === 'png' ? 'png' : 'jpeg')
      .toBuffer();
  } catch {
    // right magic bytes but not a decodable image
    assertField(field, 'imageFormat');
    throw new Error('unreachable');
  }
  return { kind, bytes, thumbnail };
}

/**
 * The multipart `file` part of an image upload, checked by its bytes. The multipart limit stops
 * reading just past 3 MB, so a larger upload arrives truncated (or as the plugin's too-large
 * error): both answer the spec's size message and nothing is stored.
 */
export async function uploadedImage(request: FastifyRequest): Promise<CheckedImage> {
  if (!request.isMultipart()) throw fieldError('file', 'fieldRequired');
  const file = await request.file();
  if (file?.fieldname !== 'file') throw fieldError('file', 'fieldRequired');
  let bytes: Buffer;
  try {
    bytes = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw fieldError('file', 'imageTooLarge');
    throw error;
  }
  if (file.file.truncated) throw fieldError('file', 'imageTooLarge');
  return checkAndThumbnail('file', bytes);
}
