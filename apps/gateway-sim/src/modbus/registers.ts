/**
 * Numbers as a slave holds them in 16-bit registers. Modbus itself is big-endian; the order of
 * the words (and bytes) of a 32-bit value is the vendor's choice, named by where the value's
 * big-endian bytes A B C D end up on the wire (shared/reference/domain-facts.md):
 * ABCD `A B C D`, CDAB `C D A B`, BADC `B A D C`, DCBA `D C B A`.
 */

export const WORD_ORDERS = ['ABCD', 'CDAB', 'BADC', 'DCBA'] as const;
export type WordOrder = (typeof WORD_ORDERS)[number];

export const POINT_TYPES = ['int16', 'uint16', 'int32', 'uint32', 'float32'] as const;
export type PointType = (typeof POINT_TYPES)[number];

/** Registers a value of `type` takes. */
export function registerCount(type: PointType): 1 | 2 {
  return type === 'int16' || type === 'uint16' ? 1 : 2;
}

const scratch = new DataView(new ArrayBuffer(4));

/** The big-endian bytes A B C D of a 32-bit value. */
function bigEndian32(type: 'int32' | 'uint32' | 'float32', value: number): [number, number, number, number] {
  if (type === 'float32') scratch.setFloat32(0, value);
  else if (type === 'int32') scratch.setInt32(0, clampInt(value, -0x8000_0000, 0x7fff_ffff));
  else scratch.setUint32(0, clampInt(value, 0, 0xffff_ffff));
  return [scratch.getUint8(0), scratch.getUint8(1), scratch.getUint8(2), scratch.getUint8(3)];
}

function clampInt(value: number, min: number, max: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.min(max, Math.max(min, Math.round(value)));
}

/** The bytes of `value` as a slave sends them (`registerCount(type)` × 2 bytes). */
export function encodeValue(type: PointType, value: number, order: WordOrder = 'ABCD'): number[] {
  if (type === 'int16' || type === 'uint16') {
    const n = type === 'int16' ? clampInt(value, -0x8000, 0x7fff) & 0xffff : clampInt(value, 0, 0xffff);
    return [n >> 8, n & 0xff];
  }
  const [a, b, c, d] = bigEndian32(type, value);
  switch (order) {
    case 'ABCD':
      return [a, b, c, d];
    case 'CDAB':
      return [c, d, a, b];
    case 'BADC':
      return [b, a, d, c];
    case 'DCBA':
      return [d, c, b, a];
  }
}

/** The inverse of encodeValue (for tests and the JSON telemetry mode). */
export function decodeValue(type: PointType, bytes: ArrayLike<number>, order: WordOrder = 'ABCD'): number {
  if (type === 'int16' || type === 'uint16') {
    const n = (bytes[0]! << 8) | bytes[1]!;
    return type === 'int16' && n >= 0x8000 ? n - 0x10000 : n;
  }
  const [p, q, r, s] = [bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!];
  const abcd =
    order === 'ABCD'
      ? [p, q, r, s]
      : order === 'CDAB'
        ? [r, s, p, q]
        : order === 'BADC'
          ? [q, p, s, r]
          : [s, r, q, p];
  for (let i = 0; i < 4; i++) scratch.setUint8(i, abcd[i]!);
  if (type === 'float32') return scratch.getFloat32(0);
  return type === 'int32' ? scratch.getInt32(0) : scratch.getUint32(0);
}
