import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendCrc, crc16Modbus, hasValidCrc } from './crc';
import { parseHex, toHex } from './hex';

const bytes = (hex: string) => parseHex(hex)!;

// shared/reference domain-facts: CRC-16/MODBUS vectors, CRC bytes as sent (low byte first)
const VECTORS: Array<[string, string]> = [
  ['01 03 00 00 00 0A', 'C5 CD'],
  ['01 03 00 00 00 02', 'C4 0B'],
  ['11 03 00 6B 00 03', '76 87'],
  ['11 03 06 AE 41 56 52 43 40', '49 AD'],
  ['11 01 00 13 00 25', '0E 84'],
  ['11 06 00 01 00 03', '9A 9B'],
  ['01 06 00 01 00 03', '98 0B'],
  ['02 07', '41 12'],
  ['02 03 00 00 00 0A', 'C5 FE'],
  ['03 03 00 00 00 0A', 'C4 2F'],
  ['01 03 00 00 00 01', '84 0A'],
  ['01 03 00 85 00 01', '95 E3'],
];

describe('CRC-16/MODBUS', () => {
  it('checks "123456789" to 0x4B37', () => {
    expect(crc16Modbus(new TextEncoder().encode('123456789'))).toBe(0x4b37);
  });

  it.each(VECTORS)('%s is followed by %s on the wire', (frame, crc) => {
    expect(toHex(appendCrc(bytes(frame)))).toBe(`${frame} ${crc}`);
    expect(hasValidCrc(bytes(`${frame} ${crc}`))).toBe(true);
    expect(crc16Modbus(bytes(`${frame} ${crc}`))).toBe(0);
  });

  it('refuses the published frame with a wrong CRC', () => {
    expect(hasValidCrc(bytes('01 03 00 6B 00 03 76 87'))).toBe(false);
    expect(hasValidCrc(bytes('01 03 00 6B 00 03 74 17'))).toBe(true);
  });

  it('refuses frames too short to hold a CRC and anything with one byte changed', () => {
    expect(hasValidCrc(bytes('FF FF'))).toBe(false);
    expect(hasValidCrc(new Uint8Array())).toBe(false);
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (data, at, flip) => {
          const framed = appendCrc(data);
          expect(hasValidCrc(framed)).toBe(true);
          const broken = framed.slice();
          broken[at % broken.length]! ^= flip;
          // a CRC-16 detects every single-byte error
          expect(hasValidCrc(broken)).toBe(false);
        },
      ),
    );
  });
});

describe('hex packets', () => {
  it('reads and writes pairs of hex digits separated by single spaces', () => {
    expect(toHex(parseHex('01 03 00 6b 00 03')!)).toBe('01 03 00 6B 00 03');
    expect(toHex([0, 255, 16])).toBe('00 FF 10');
  });

  it.each(['', ' 01', '01 ', '01  03', '1 03', '010 3', '0G', '01\t03'])('refuses %j', (text) => {
    expect(parseHex(text)).toBeNull();
  });

  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 1, maxLength: 300 }), (data) => {
        expect(Array.from(parseHex(toHex(data))!)).toEqual(Array.from(data));
      }),
    );
  });
});
