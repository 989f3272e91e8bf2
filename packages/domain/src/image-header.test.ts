import { describe, expect, it } from 'vitest';
import { checkImagePixels, IMAGE_MAX_PIXELS, imageSize } from './image-header';

function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const view = new DataView(bytes.buffer);
  view.setUint32(8, 13);
  bytes.set(
    [...'IHDR'].map((c) => c.charCodeAt(0)),
    12,
  );
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([8, 2, 0, 0, 0], 24);
  return bytes;
}

/** SOI, an APP0 segment, a comment with fill bytes before its marker, then a frame header. */
function jpegHeader(width: number, height: number, sof = 0xc0): Uint8Array {
  const app0 = [
    0xff,
    0xe0,
    0x00,
    0x10,
    ...'JFIF'.split('').map((c) => c.charCodeAt(0)),
    0,
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
  ];
  const comment = [0xff, 0xff, 0xfe, 0x00, 0x05, 0x61, 0x62, 0x63];
  const frame = [0xff, sof, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 3];
  return new Uint8Array([0xff, 0xd8, ...app0, ...comment, ...frame, ...new Array(9).fill(0)]);
}

describe('imageSize', () => {
  it('reads the size a PNG header states', () => {
    expect(imageSize(pngHeader(16000, 16000))).toEqual({ width: 16000, height: 16000 });
    expect(imageSize(pngHeader(2 ** 31, 1))).toEqual({ width: 2 ** 31, height: 1 });
  });

  it('reads the size of baseline and progressive JPEG frames past other segments', () => {
    expect(imageSize(jpegHeader(4000, 3000))).toEqual({ width: 4000, height: 3000 });
    expect(imageSize(jpegHeader(65535, 65535, 0xc2))).toEqual({ width: 65535, height: 65535 });
  });

  it('says nothing for other bytes, a cut-off header or a scan before any frame', () => {
    expect(imageSize(new TextEncoder().encode('GIF89a and more bytes here'))).toBeNull();
    expect(imageSize(pngHeader(10, 10).slice(0, 20))).toBeNull();
    expect(imageSize(jpegHeader(10, 10).slice(0, 30))).toBeNull();
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0x00, 0x08, 1, 2, 3, 4, 5, 6]))).toBeNull();
    // a Huffman table segment (C4) is not a frame header
    const dht = new Uint8Array([0xff, 0xd8, 0xff, 0xc4, 0x00, 0x04, 0x00, 0x00, 0xff, 0xd9]);
    expect(imageSize(dht)).toBeNull();
  });
});

describe('checkImagePixels', () => {
  it('refuses a header that asks for more than 40 megapixels, whatever the file size', () => {
    expect(IMAGE_MAX_PIXELS).toBe(40_000_000);
    expect(checkImagePixels(pngHeader(16000, 16000))).toBe('imageTooManyPixels');
    expect(checkImagePixels(jpegHeader(8001, 5000))).toBe('imageTooManyPixels');
    expect(checkImagePixels(pngHeader(1, 40_000_001))).toBe('imageTooManyPixels');
  });

  it('lets real photos through, and leaves unreadable headers to the decoder', () => {
    expect(checkImagePixels(jpegHeader(8000, 5000))).toBeNull();
    expect(checkImagePixels(jpegHeader(4032, 3024))).toBeNull();
    expect(checkImagePixels(pngHeader(1920, 1080))).toBeNull();
    expect(checkImagePixels(new Uint8Array([1, 2, 3]))).toBeNull();
  });
});
