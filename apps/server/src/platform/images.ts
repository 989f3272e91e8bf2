/** Image uploads: checked by their bytes (JPG or PNG, at most 3 MB), thumbnailed to 150 px. */
import { checkImage, sniffImage, THUMBNAIL_MAX_SIDE } from '@platform/domain';
import sharp from 'sharp';
import { assertField } from './envelope';

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
