/**
 * The size an image claims in its header, read before anything is decoded. A PNG of a single
 * colour compresses about a thousandfold, so a file well under the 3 MB upload limit can ask
 * for 16000 × 16000 pixels (768 MB of raw RGB): the byte limit alone does not bound the work.
 * Uploads are refused by the pixel count their header states; the server's decoder keeps the
 * same limit as a second line in case a header lies.
 *
 * 40 megapixels lets through every camera photo people take of a site or a document (a 48 MP
 * phone saves 12 MP by default; 8000 × 5000 is the largest common sensor shape below it), and
 * such a photo fits in 3 MB only as a JPEG anyway.
 */

export const IMAGE_MAX_PIXELS = 40_000_000;

export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function u16(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!;
}

function u32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) >>> 0) + (bytes[at + 1]! << 16) + (bytes[at + 2]! << 8) + bytes[at + 3]!;
}

/** PNG: the IHDR chunk must come first, right after the signature. */
function pngSize(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 24 || !PNG_SIGNATURE.every((b, i) => bytes[i] === b)) return null;
  const ihdr = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  if (ihdr !== 'IHDR') return null;
  return { width: u32(bytes, 16), height: u32(bytes, 20) };
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic; not DHT C4, JPG C8, DAC CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** JPEG: walk the marker segments up to the first start-of-frame, which holds the size. */
function jpegSize(bytes: Uint8Array): ImageSize | null {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 1 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    // any number of 0xFF fill bytes may precede a marker
    while (at < bytes.length && bytes[at] === 0xff) at += 1;
    if (at >= bytes.length) return null;
    const marker = bytes[at]!;
    at += 1;
    // markers without a length: TEM and the restart markers
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    // end of image or start of scan before any frame: not a JPEG we can size
    if (marker === 0xd9 || marker === 0xda) return null;
    if (at + 2 > bytes.length) return null;
    const length = u16(bytes, at);
    if (length < 2) return null;
    if (isStartOfFrame(marker)) {
      if (at + 7 > bytes.length) return null;
      return { height: u16(bytes, at + 3), width: u16(bytes, at + 5) };
    }
    at += length;
  }
  return null;
}

/**
 * The width and height a JPEG or PNG header states, or null when the bytes do not say (not one
 * of these formats, or the header lies beyond the bytes given).
 */
export function imageSize(bytes: Uint8Array): ImageSize | null {
  return pngSize(bytes) ?? jpegSize(bytes);
}

/** 'imageTooManyPixels' when the header states more than IMAGE_MAX_PIXELS, else null. */
export function checkImagePixels(bytes: Uint8Array): 'imageTooManyPixels' | null {
  const size = imageSize(bytes);
  return size && size.width * size.height > IMAGE_MAX_PIXELS ? 'imageTooManyPixels' : null;
}
