/**
 * Decoding reuses what it can between frames (the permutation of a byte order, one scratch
 * buffer for floats, the answer layout of a packet): the answers are those of computing each
 * afresh, whatever the bytes, the order and the packets seen before.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BYTE_ORDERS, byteOrderPermutation, fromBigEndian, toBigEndian } from './byte-order';
import { decodeFrame } from './decode';
import { toHex } from './hex';
import { answerLayout } from './packet';
import { decodeFloat } from './registers';

const order = fc.constantFrom(...BYTE_ORDERS);

/** decodeFloat as it was: a fresh big-endian copy read through its own DataView */
function referenceFloat(received: Uint8Array, o: (typeof BYTE_ORDERS)[number]): number {
  if (received.length !== 4 && received.length !== 8) return Number.NaN;
  const bytes = toBigEndian(received, o);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return bytes.length === 4 ? view.getFloat32(0, false) : view.getFloat64(0, false);
}

describe('floats read through the shared scratch buffer', () => {
  it('give what a fresh copy gives, for any 4 or 8 bytes in any order, one after another', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.uint8Array({ minLength: 4, maxLength: 4 }),
            fc.uint8Array({ minLength: 8, maxLength: 8 }),
            order,
          ),
          {
            minLength: 1,
            maxLength: 5,
          },
        ),
        (reads) => {
          for (const [four, eight, o] of reads) {
            expect(Object.is(decodeFloat(four, o), referenceFloat(four, o))).toBe(true);
            expect(Object.is(decodeFloat(eight, o), referenceFloat(eight, o))).toBe(true);
          }
        },
      ),
    );
  });

  it('a short read after a long one sees none of the long one’s bytes', () => {
    const eight = Uint8Array.from([0x40, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18]);
    expect(decodeFloat(eight, 'ABCD')).toBe(Math.PI);
    expect(decodeFloat(Uint8Array.from([0x3f, 0x80, 0, 0]), 'ABCD')).toBe(1);
    expect(decodeFloat(Uint8Array.from([0, 0, 0x3f, 0x80]), 'CDAB')).toBe(1);
  });
});

describe('byte-order permutations kept between calls', () => {
  it('a permutation handed out may be changed by its caller without changing later decoding', () => {
    const p = byteOrderPermutation('CDAB', 4);
    expect(p).toEqual([2, 3, 0, 1]);
    p.reverse();
    expect(byteOrderPermutation('CDAB', 4)).toEqual([2, 3, 0, 1]);
    expect([...toBigEndian([0xcc, 0xdd, 0xaa, 0xbb], 'CDAB')]).toEqual([0xaa, 0xbb, 0xcc, 0xdd]);
  });

  it('to and from big-endian stay inverse for every order and length, including lengths not kept', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 40 }), order, (bytes, o) => {
        expect([...fromBigEndian(toBigEndian(bytes, o), o)]).toEqual([...bytes]);
      }),
    );
  });
});

describe('answer layouts kept per packet', () => {
  const packet = fc.record({
    frame: fc
      .uint8Array({ minLength: 1, maxLength: 8 })
      .chain((b) =>
        fc.constantFrom(toHex(b), toHex(Uint8Array.from([1, 3, 0, 0, 0, Math.max(1, b[0]! % 120)]))),
      ),
    appendCrc: fc.boolean(),
  });

  it('equal a layout computed afresh, whatever packets came before', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(packet, fc.option(fc.integer({ min: 0, max: 300 }), { nil: null })), {
          minLength: 1,
          maxLength: 6,
        }),
        (seen) => {
          for (const [p, answerLength] of seen) {
            const decoded = decodeFrame('01 03 02 00 01 79 84', p, { answerLength, values: [] });
            expect(decoded.layout).toEqual(answerLayout(p, answerLength));
          }
        },
      ),
    );
  });

  it('a packet whose frame changed in place is read again', () => {
    const p = { frame: '01 03 00 00 00 01', appendCrc: true };
    expect(decodeFrame('01 03 02 00 01 79 84', p, { values: [] }).layout).toMatchObject({ dataLength: 2 });
    p.frame = '01 03 00 00 00 02';
    expect(decodeFrame('01 03 02 00 01 79 84', p, { values: [] }).layout).toMatchObject({ dataLength: 4 });
  });

  it('a shared layout cannot be changed by one who receives it', () => {
    const layout = decodeFrame(
      '01 03 02 00 01 79 84',
      { frame: '01 03 00 00 00 01', appendCrc: true },
      { values: [] },
    ).layout;
    expect(Object.isFrozen(layout)).toBe(true);
    if (layout.kind === 'modbus') expect(Object.isFrozen(layout.read)).toBe(true);
  });
});
