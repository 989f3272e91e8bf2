import { parseHex, toHex } from '@platform/domain';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeValue, encodeValue, type PointType, WORD_ORDERS, type WordOrder } from './registers';

const bytes = (hex: string) => Array.from(parseHex(hex)!);

// shared/reference domain-facts: register decoding
const VECTORS: Array<[string, WordOrder, PointType, number]> = [
  ['41 20 00 00', 'ABCD', 'float32', 10],
  ['00 00 41 20', 'CDAB', 'float32', 10],
  ['20 41 00 00', 'BADC', 'float32', 10],
  ['00 00 20 41', 'DCBA', 'float32', 10],
  ['42 F6 E9 79', 'ABCD', 'float32', 123.456],
  ['E9 79 42 F6', 'CDAB', 'float32', 123.456],
  ['43 6C 66 66', 'ABCD', 'float32', 236.4],
  ['FF 38', 'ABCD', 'int16', -200],
  ['FF 38', 'ABCD', 'uint16', 65336],
  ['FF FF', 'ABCD', 'int16', -1],
  ['FF FF', 'ABCD', 'uint16', 65535],
  ['00 01 E2 40', 'ABCD', 'uint32', 123456],
  ['FF FE 1D C0', 'ABCD', 'int32', -123456],
  ['12 34 56 78', 'ABCD', 'uint32', 0x12345678],
  ['12 34 56 78', 'CDAB', 'uint32', 0x56781234],
  ['12 34 56 78', 'BADC', 'uint32', 0x34127856],
  ['12 34 56 78', 'DCBA', 'uint32', 0x78563412],
  ['47 F1 20 00', 'ABCD', 'float32', 123456],
  ['20 00 47 F1', 'CDAB', 'float32', 123456],
  ['F1 47 00 20', 'BADC', 'float32', 123456],
  ['00 20 F1 47', 'DCBA', 'float32', 123456],
];

describe('register encoding', () => {
  it.each(VECTORS)('%s is %s %s %d', (hex, order, type, value) => {
    expect(toHex(encodeValue(type, value, order))).toBe(hex);
    const decoded = decodeValue(type, bytes(hex), order);
    if (type === 'float32') expect(decoded).toBeCloseTo(value, 3);
    else expect(decoded).toBe(value);
  });

  it('clamps integers to their type instead of wrapping', () => {
    expect(toHex(encodeValue('int16', 40_000))).toBe('7F FF');
    expect(toHex(encodeValue('uint16', -5))).toBe('00 00');
    expect(toHex(encodeValue('uint32', 2 ** 33))).toBe('FF FF FF FF');
  });

  it('round-trips any 32-bit value in every order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff_ffff }), fc.constantFrom(...WORD_ORDERS), (n, order) => {
        expect(decodeValue('uint32', encodeValue('uint32', n, order), order)).toBe(n);
      }),
    );
    fc.assert(
      fc.property(
        fc.float({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom(...WORD_ORDERS),
        (x, order) => {
          expect(decodeValue('float32', encodeValue('float32', x, order), order)).toBe(Math.fround(x));
        },
      ),
    );
  });
});
