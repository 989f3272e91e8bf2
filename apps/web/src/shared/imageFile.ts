/**
 * Client-side image checks before an upload (spec point 5: JPG or PNG, at most 3 MB). The
 * file is judged by its first bytes as well as its name: a browser reports a text file named
 * `x.png` as image/png, and the server would refuse it anyway. The pixel count the header states
 * is checked too (a small PNG can claim 16000 × 16000). Returns the catalogue key of the rule
 * broken, or null when the file may be sent.
 */
import { checkImagePixels, IMAGE_MAX_BYTES, sniffImage } from '@platform/domain';
import { type Envelope, request } from '../app/http/client';

export type ImageProblem = 'imageFormat' | 'imageTooLarge' | 'imageTooManyPixels';

/** where a JPEG's frame header is found: after its EXIF, ICC and XMP segments */
const HEADER_BYTES = 256 * 1024;

const SUFFIX = /\.(jpe?g|png)$/i;

export async function checkImageFile(file: Blob & { name?: string }): Promise<ImageProblem | null> {
  if (file.name != null && !SUFFIX.test(file.name)) return 'imageFormat';
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  if (sniffImage(head) == null) return 'imageFormat';
  if (file.size > IMAGE_MAX_BYTES) return 'imageTooLarge';
  return checkImagePixels(new Uint8Array(await file.slice(0, HEADER_BYTES).arrayBuffer()));
}

/** The accept attribute of image pickers. */
export const IMAGE_ACCEPT = '.jpg,.jpeg,.png,image/jpeg,image/png';

/** POST one image as multipart `file`; resolves to the whole envelope (its message is the success text). */
export async function uploadImage<T>(url: string, file: Blob, name = 'image.png'): Promise<Envelope<T>> {
  const form = new FormData();
  form.append('file', file, (file as Blob & { name?: string }).name ?? name);
  return request<T>({ method: 'POST', url, data: form });
}
