/**
 * Image uploads (company logo, avatar, record pictures, template images): checked by their bytes
 * (JPG or PNG, at most 3 MB), by the pixel count their header states (at most IMAGE_MAX_PIXELS,
 * see packages/domain image-header.ts), then thumbnailed to 150 px.
 *
 * Decoding is the expensive part and an upload's size says little about it, so nothing reaches
 * the decoder before the header check, the decoder itself refuses more pixels than the limit
 * (should a header lie), and image work is bounded: IMAGE_JOBS at once, IMAGE_QUEUE waiting, and
 * past that the upload is answered "busy" at once instead of queueing without end.
 */
import {
  checkImage,
  checkImagePixels,
  IMAGE_MAX_PIXELS,
  sniffImage,
  THUMBNAIL_MAX_SIDE,
} from '@platform/domain';
import type { FastifyRequest } from 'fastify';
import sharp from 'sharp';
import { AppError, assertField, fieldError } from './envelope';
import { WorkLimit } from './work-limit';

/** image jobs decoding at once; each uses one libvips thread (below), so one core each */
export const IMAGE_JOBS = 2;
/** uploads waiting for a slot before new ones are answered busy */
export const IMAGE_QUEUE = 8;

// One thread per image: the parallelism is IMAGE_JOBS, not libvips' per-image thread pool.
sharp.concurrency(1);
// Every upload is a different image: the operation cache would only hold memory.
sharp.cache(false);

export const imageWork = new WorkLimit(
  IMAGE_JOBS,
  IMAGE_QUEUE,
  () => new AppError('imageBusy', {}, { field: 'file' }),
);

export interface CheckedImage {
  kind: 'jpeg' | 'png';
  bytes: Buffer;
  thumbnail: Buffer;
}

/** The 150 px thumbnail; the decoder refuses more than IMAGE_MAX_PIXELS on its own too. */
export async function decodeThumbnail(
  field: string,
  bytes: Buffer,
  kind: CheckedImage['kind'],
): Promise<Buffer> {
  try {
    return await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS })
      .rotate()
      .resize(THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .toFormat(kind === 'png' ? 'png' : 'jpeg')
      .toBuffer();
  } catch (error) {
    // the decoder found more pixels than the header said
    if (/pixel limit/i.test(String(error))) throw fieldError(field, 'imageTooManyPixels');
    // right magic bytes but not a decodable image
    throw fieldError(field, 'imageFormat');
  }
}

export async function checkAndThumbnail(field: string, bytes: Buffer): Promise<CheckedImage> {
  assertField(field, checkImage(bytes));
  assertField(field, checkImagePixels(bytes));
  const kind = sniffImage(bytes)!;
  const thumbnail = await imageWork.run(() => decodeThumbnail(field, bytes, kind));
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
