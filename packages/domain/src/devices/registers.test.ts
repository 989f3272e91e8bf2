import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BYTE_ORDERS,
  type ByteOrder,
  byteOrderPermutation,
  describeByteOrder,
  distinctByteOrders,
  fromBigEndian,
  toBigEndian,
} from './byte-order';
import { parseHex } from './hex';
import {
  asciiText,
  decodeFloat,
  decodeSigned,
  decodeUnsigned,
  encodeNumber,
  extractBit,
  hexString,
} from './registers';

const bytes = (hex: string) => parseHex(hex)!;

// shared/reference domain-facts.md, "Register decoding"
describe('register decoding vectors', () => {
  it.each<[string, ByteOrder, number]>([
    ['41 20 00 00', 'ABCD', 10],
    ['00 00 41 20', 'CDAB', 10],
    ['20 41 00 00', 'BADC', 10],
    ['00 00 20 41', 'DCBA', 10],
    ['42 F6 E9 79', 'ABCD', Math.fround(123.456)],
    ['E9 79 42 F6', 'CDAB', Math.fround(123.456)],
    ['43 6C 66 66', 'ABCD', Math.fround(236.4)],
    ['47 F1 20 00', 'ABCD', 123456],
    ['20 00 47 F1', 'CDAB', 123456],
    ['F1 47 00 20', 'BADC', 123456],
    ['00 20 F1 47', 'DCBA', 123456],
  ])('float32 %s in %s is %d', (hex, order, value) => {
    expect(decodeFloat(bytes(hex), order)).toBe(value);
  });

  it('reads 123.456 from 42 F6 E9 79 as 123.45600128...', () => {
    expect(decodeFloat(bytes('42 F6 E9 79'), 'ABCD')).toBeCloseTo(123.45600128, 8);
    expect(decodeFloat(bytes('43 6C 66 66'), 'ABCD')).toBeCloseTo(236.39999, 4);
  });

  it.each<[string, number]>([
    ['40 24 00 00 00 00 00 00', 10],
    ['40 5E DD 2F 1A 9F BE 77', 123.456],
    ['40 FE 24 00 00 00 00 00', 123456],
  ])('float64 %s in ABCD is %d', (hex, value) => {
    expect(decodeFloat(bytes(hex), 'ABCD')).toBe(value);
  });

  it('reads 16-bit registers unsigned and signed', () => {
    expect(decodeUnsigned(bytes('FF 38'), 'ABCD')).toBe(65336);
    expect(decodeSigned(bytes('FF 38'), 'ABCD')).toBe(-200);
    expect(decodeUnsigned(bytes('FF FF'), 'ABCD')).toBe(65535);
    expect(decodeSigned(bytes('FF FF'), 'ABCD')).toBe(-1);
    // on 2 bytes CDAB is AB and DCBA is BA
    expect(decodeUnsigned(bytes('FF 38'), 'CDAB')).toBe(65336);
    expect(decodeSigned(bytes('38 FF'), 'DCBA')).toBe(-200);
    expect(decodeSigned(bytes('38 FF'), 'BADC')).toBe(-200);
  });

  it('reads 32-bit integers', () => {
    expect(decodeUnsigned(bytes('00 01 E2 40'), 'ABCD')).toBe(123456);
    expect(decodeSigned(bytes('FF FE 1D C0'), 'ABCD')).toBe(-123456);
  });

  it.each<[ByteOrder, number]>([
    ['ABCD', 0x12345678],
    ['CDAB', 0x56781234],
    ['BADC', 0x34127856],
    ['DCBA', 0x78563412],
  ])('12 34 56 78 as uint32 in %s is %i', (order, value) => {
    expect(decodeUnsigned(bytes('12 34 56 78'), order)).toBe(value);
  });

  it('reads bits from the least significant: 0x00A5 is 1,0,1,0,0,1,0,1', () => {
    const register = bytes('00 A5');
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => extractBit(register, 'ABCD', i))).toEqual([
      1, 0, 1, 0, 0, 1, 0, 1,
    ]);
    expect(extractBit(register, 'ABCD', 8)).toBe(0);
    // the same register sent little-endian
    expect(extractBit(bytes('A5 00'), 'BADC', 7)).toBe(1);
    expect(extractBit(bytes('A5 00'), 'BADC', 15)).toBe(0);
    expect(extractBit(register, 'ABCD', 16)).toBeNull();
    expect(extractBit(register, 'ABCD', -1)).toBeNull();
    expect(extractBit(register, 'ABCD', 1.5)).toBeNull();
  });

  it('writes HEX strings as received, upper case', () => {
    expect(hexString(bytes('00 a5'))).toBe('00A5');
    expect(hexString([])).toBe('');
  });

  it('reads ASCII text without its padding and refuses other bytes', () => {
    expect(asciiText(bytes('53 4E 2D 31 00 00'))).toBe('SN-1');
    expect(asciiText(bytes('41 20 20'))).toBe('A');
    expect(asciiText(bytes('41 FF'))).toBeNull();
    expect(asciiText(bytes('41 0A 42'))).toBeNull();
  });

  it('reads 64-bit integers beyond 2^53 as bigint', () => {
    expect(decodeUnsigned(bytes('FF FF FF FF FF FF FF FF'), 'ABCD')).toBe(2n ** 64n - 1n);
    expect(decodeSigned(bytes('FF FF FF FF FF FF FF FF'), 'ABCD')).toBe(-1);
    expect(decodeSigned(bytes('80 00 00 00 00 00 00 00'), 'ABCD')).toBe(-(2n ** 63n));
    expect(decodeUnsigned(bytes('00 1F FF FF FF FF FF FF'), 'ABCD')).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('byte order permutations', () => {
  it.each<[ByteOrder, string, string, string]>([
    ['ABCD', 'A B', 'A B C D', 'A B C D E F G H'],
    ['CDAB', 'A B', 'C D A B', 'G H E F C D A B'],
    ['BADC', 'B A', 'B A D C', 'B A D C F E H G'],
    ['DCBA', 'B A', 'D C B A', 'H G F E D C B A'],
  ])('%s arrives as %s / %s / %s', (order, two, four, eight) => {
    expect(describeByteOrder(order, 2)).toBe(two);
    expect(describeByteOrder(order, 4)).toBe(four);
    expect(describeByteOrder(order, 8)).toBe(eight);
    expect(describeByteOrder(order, 1)).toBe('A');
  });

  it('gives the positions: CDAB on 4 bytes is [2, 3, 0, 1]', () => {
    expect(byteOrderPermutation('CDAB', 4)).toEqual([2, 3, 0, 1]);
    expect(byteOrderPermutation('DCBA', 3)).toEqual([0, 1, 2]);
  });

  it('offers AB and BA only on 2 bytes, all four on 4 and 8', () => {
    expect(distinctByteOrders(2).map((o) => o.permutation)).toEqual(['A B', 'B A']);
    expect(distinctByteOrders(4)).toHaveLength(4);
    expect(distinctByteOrders(8)).toHaveLength(4);
    expect(distinctByteOrders(1)).toHaveLength(1);
  });

  it('each permutation is a bijection and fromBigEndian undoes toBigEndian', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BYTE_ORDERS),
        fc.uint8Array({ minLength: 0, maxLength: 16 }),
        (order, data) => {
          const p = byteOrderPermutation(order, data.length);
          expect([...p].sort((x, y) => x - y)).toEqual(p.map((_, i) => i));
          expect(Array.from(fromBigEndian(toBigEndian(data, order), order))).toEqual(Array.from(data));
        },
      ),
    );
  });
});

describe('encode then decode', () => {
  const order = fc.constantFrom(...BYTE_ORDERS);

  it('round-trips unsigned and signed integers of 1, 2, 4 and 8 bytes', () => {
    fc.assert(
      fc.property(fc.constantFrom(1, 2, 4, 8), order, fc.bigInt(), (length, o, n) => {
        const bits = BigInt(length * 8);
        const unsigned = BigInt.asUintN(Number(bits), n);
        const signed = BigInt.asIntN(Number(bits), n);
        expect(BigInt(decodeUnsigned(encodeNumber(unsigned, 'uint', length, o), o))).toBe(unsigned);
        expect(BigInt(decodeSigned(encodeNumber(signed, 'int', length, o), o))).toBe(signed);
      }),
    );
  });

  it('round-trips floats (single precision values for 4 bytes)', () => {
    fc.assert(
      fc.property(order, fc.double({ noNaN: true }), (o, x) => {
        expect(decodeFloat(encodeNumber(x, 'double', 8, o), o)).toBe(x);
        expect(decodeFloat(encodeNumber(x, 'float', 4, o), o)).toBe(Math.fround(x));
      }),
    );
  });

  it('writes the vectors back', () => {
    expect(Array.from(encodeNumber(10, 'float', 4, 'CDAB'))).toEqual(Array.from(bytes('00 00 41 20')));
    expect(Array.from(encodeNumber(-200, 'int', 2, 'ABCD'))).toEqual(Array.from(bytes('FF 38')));
    expect(Array.from(encodeNumber(0x12345678, 'uint', 4, 'BADC'))).toEqual(Array.from(bytes('34 12 78 56')));
  });
});
