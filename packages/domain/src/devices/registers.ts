/**
 * Register decoding: the number formats of seed point 3 (unsigned int, signed int, single
 * float, double float, bit, HEX string) read from bytes as received, in one of the four byte
 * orders (byte-order.ts). Pure and total: every function answers for any input, the errors
 * are values, nothing throws.
 */
import { type ByteOrder, fromBigEndian, toBigEndian, toBigEndianInto } from './byte-order';
import { toHex } from './hex';

export const NUMBER_FORMATS = ['uint', 'int', 'float', 'double', 'bit', 'hex'] as const;
export type NumberFormat = (typeof NUMBER_FORMATS)[number];

/** The longest value a parser reads (a Modbus RTU frame is at most 256 bytes). */
export const MAX_VALUE_BYTES = 256;

/** The lengths (bytes) each format reads; HEX strings read 1 to MAX_VALUE_BYTES. */
export const FORMAT_LENGTHS: Record<Exclude<NumberFormat, 'hex'>, readonly number[]> = {
  uint: [1, 2, 4, 8],
  int: [1, 2, 4, 8],
  float: [4],
  double: [8],
  bit: [1, 2, 4],
};

export function formatFitsLength(format: NumberFormat, length: number): boolean {
  if (!Number.isInteger(length) || length < 1 || !NUMBER_FORMATS.includes(format)) return false;
  if (format === 'hex') return length <= MAX_VALUE_BYTES;
  return FORMAT_LENGTHS[format].includes(length);
}

/** The length a format reads unless told otherwise (the editor's default on a change of format). */
export const DEFAULT_LENGTH: Record<NumberFormat, number> = {
  uint: 2,
  int: 2,
  float: 4,
  double: 8,
  bit: 2,
  hex: 2,
};

/** An integer read from bytes: a number when it is safe, else a bigint (64-bit values). */
export type RawInteger = number | bigint;

function readUnsigned(bigEndian: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bigEndian) value = (value << 8n) | BigInt(byte);
  return value;
}

function narrow(value: bigint): RawInteger {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
    ? Number(value)
    : value;
}

/** Unsigned integer of 1-8 bytes received in `order`. */
export function decodeUnsigned(received: ArrayLike<number>, order: ByteOrder): RawInteger {
  return narrow(readUnsigned(toBigEndian(received, order)));
}

/** Two's complement signed integer of 1-8 bytes received in `order`. */
export function decodeSigned(received: ArrayLike<number>, order: ByteOrder): RawInteger {
  const unsigned = readUnsigned(toBigEndian(received, order));
  const bits = BigInt(received.length * 8);
  if (bits === 0n) return 0;
  const signBit = 1n << (bits - 1n);
  return narrow(unsigned & signBit ? unsigned - (1n << bits) : unsigned);
}

/** IEEE 754 single (4 bytes) or double (8 bytes) received in `order`; NaN for any other length. */
export function decodeFloat(received: ArrayLike<number>, order: ByteOrder): number {
  if (received.length !== 4 && received.length !== 8) return Number.NaN;
  // read through one scratch buffer: a frame's values decode without allocating
  toBigEndianInto(received, order, SCRATCH);
  return received.length === 4 ? SCRATCH_VIEW.getFloat32(0, false) : SCRATCH_VIEW.getFloat64(0, false);
}

const SCRATCH = new Uint8Array(8);
const SCRATCH_VIEW = new DataView(SCRATCH.buffer);

/**
 * Bit `index` of the bytes read as an unsigned integer in `order`, counted from the least
 * significant bit (register 0x00A5: bits 0..7 are 1,0,1,0,0,1,0,1). 0 or 1; null when the index
 * is outside the value.
 */
export function extractBit(received: ArrayLike<number>, order: ByteOrder, index: number): 0 | 1 | null {
  if (!Number.isInteger(index) || index < 0 || index >= received.length * 8) return null;
  const bigEndian = toBigEndian(received, order);
  const byte = bigEndian[bigEndian.length - 1 - Math.floor(index / 8)]!;
  return ((byte >> (index % 8)) & 1) as 0 | 1;
}

/** The bytes as received, upper case, no separators ("00A5"). Byte order does not apply. */
export function hexString(received: ArrayLike<number>): string {
  return toHex(received).replace(/ /g, '');
}

/**
 * ASCII text of the bytes as received: printable characters (0x20-0x7E), trailing NUL and
 * space padding dropped (registers are filled to an even length). Null when another byte is in it.
 */
export function asciiText(received: ArrayLike<number>): string | null {
  let end = received.length;
  while (end > 0 && (received[end - 1] === 0 || received[end - 1] === 0x20)) end--;
  let out = '';
  for (let i = 0; i < end; i++) {
    const byte = received[i]!;
    if (byte < 0x20 || byte > 0x7e) return null;
    out += String.fromCharCode(byte);
  }
  return out;
}

/**
 * The bytes a device using `order` sends for `value` in this format and length (the inverse
 * of the decoders, for tests, the simulator and sample frames). Integers out of range wrap as
 * the device's register would; a float is rounded to single precision for 4 bytes.
 */
export function encodeNumber(
  value: number | bigint,
  format: 'uint' | 'int' | 'float' | 'double',
  length: number,
  order: ByteOrder,
): Uint8Array {
  const bigEndian = new Uint8Array(Math.max(0, length));
  const view = new DataView(bigEndian.buffer);
  if (format === 'float' || format === 'double') {
    if (length === 4) view.setFloat32(0, Number(value), false);
    else if (length === 8) view.setFloat64(0, Number(value), false);
  } else {
    let n = BigInt.asUintN(
      length * 8,
      typeof value === 'bigint' ? value : BigInt(Math.trunc(Number.isFinite(value) ? value : 0)),
    );
    for (let i = length - 1; i >= 0; i--) {
      bigEndian[i] = Number(n & 0xffn);
      n >>= 8n;
    }
  }
  return fromBigEndian(bigEndian, order);
}
