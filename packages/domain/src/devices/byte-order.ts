/**
 * Byte orders of multi-byte register values. Modbus registers are 16-bit big-endian; the order
 * of the registers (words) of a 32- or 64-bit value is the vendor's choice, and vendors and
 * tools name the same order differently (shared reference: "Byte-order names in the wild").
 * So the platform shows each name beside the actual permutation of the received bytes, and a
 * pasted frame is decoded live: a wrong choice is seen at once.
 *
 * A name is read as two independent choices, which makes it apply to every even length:
 *
 * - word order: ABCD and BADC keep the registers in big-endian order, CDAB and DCBA reverse them;
 * - byte order inside each register: ABCD and CDAB keep it, BADC and DCBA swap the two bytes.
 *
 * If a value's big-endian bytes are A B C D (E F G H), the bytes arrive as:
 *
 * | name | 2 bytes | 4 bytes | 8 bytes |
 * |---|---|---|---|
 * | ABCD | A B | A B C D | A B C D E F G H |
 * | CDAB | A B | C D A B | G H E F C D A B |
 * | BADC | B A | B A D C | B A D C F E H G |
 * | DCBA | B A | D C B A | H G F E D C B A |
 *
 * On 2 bytes there is a single register, so reversing the registers changes nothing: ABCD and
 * CDAB both mean AB (big-endian), BADC and DCBA both mean BA (little-endian). One byte has no
 * order. Odd lengths above one have no registers to speak of: they are read as received.
 */

export const BYTE_ORDERS = ['ABCD', 'CDAB', 'BADC', 'DCBA'] as const;
export type ByteOrder = (typeof BYTE_ORDERS)[number];

const WORDS_REVERSED: Record<ByteOrder, boolean> = { ABCD: false, CDAB: true, BADC: false, DCBA: true };
const BYTES_SWAPPED: Record<ByteOrder, boolean> = { ABCD: false, CDAB: false, BADC: true, DCBA: true };

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Where each received byte comes from: `p[i]` is the big-endian position of the byte received
 * at position i. For CDAB on 4 bytes: [2, 3, 0, 1].
 */
export function byteOrderPermutation(order: ByteOrder, length: number): number[] {
  return computePermutation(order, length);
}

/** the permutations of the four orders on the lengths values have (1-16 bytes), made once */
const PERMUTATIONS = new Map<string, readonly number[]>();
const CACHED_UP_TO = 16;

/** byteOrderPermutation, shared and read-only: decoding a frame allocates no permutation */
function permutationOf(order: ByteOrder, length: number): readonly number[] {
  if (length > CACHED_UP_TO || !BYTE_ORDERS.includes(order)) return computePermutation(order, length);
  const key = `${order}${length}`;
  let p = PERMUTATIONS.get(key);
  if (!p) {
    p = Object.freeze(computePermutation(order, length));
    PERMUTATIONS.set(key, p);
  }
  return p;
}

function computePermutation(order: ByteOrder, length: number): number[] {
  const identity = Array.from({ length: Math.max(0, length) }, (_, i) => i);
  if (length < 2 || length % 2 !== 0) return identity;
  const words = length / 2;
  const out: number[] = [];
  for (let w = 0; w < words; w++) {
    // `=== true`: an order named "__proto__" by a request is read as ABCD, not as an object
    const source = WORDS_REVERSED[order] === true ? words - 1 - w : w;
    const hi = source * 2;
    const lo = hi + 1;
    if (BYTES_SWAPPED[order] === true) out.push(lo, hi);
    else out.push(hi, lo);
  }
  return out;
}

/**
 * The permutation as people read it: the big-endian letters in the order they arrive, e.g.
 * "C D A B" for CDAB on 4 bytes, "G H E F C D A B" on 8, "B A" for BADC on 2.
 */
export function describeByteOrder(order: ByteOrder, length: number): string {
  return byteOrderPermutation(order, Math.min(length, LETTERS.length))
    .map((i) => LETTERS[i])
    .join(' ');
}

/** The orders that differ on this many bytes (2 bytes: AB and BA only), each with its permutation. */
export function distinctByteOrders(length: number): Array<{ order: ByteOrder; permutation: string }> {
  const seen = new Set<string>();
  const out: Array<{ order: ByteOrder; permutation: string }> = [];
  for (const order of BYTE_ORDERS) {
    const permutation = describeByteOrder(order, length);
    if (seen.has(permutation)) continue;
    seen.add(permutation);
    out.push({ order, permutation });
  }
  return out;
}

/** The received bytes put back into big-endian order. */
export function toBigEndian(received: ArrayLike<number>, order: ByteOrder): Uint8Array {
  const p = permutationOf(order, received.length);
  const out = new Uint8Array(received.length);
  for (let i = 0; i < received.length; i++) out[p[i]!] = received[i]!;
  return out;
}

/** Big-endian bytes in the order a device using `order` sends them. */
export function fromBigEndian(bigEndian: ArrayLike<number>, order: ByteOrder): Uint8Array {
  const p = permutationOf(order, bigEndian.length);
  const out = new Uint8Array(bigEndian.length);
  for (let i = 0; i < bigEndian.length; i++) out[i] = bigEndian[p[i]!]!;
  return out;
}

/**
 * The received bytes put back into big-endian order in `into` (at least as long), for a reader
 * that decodes them at once: no allocation.
 */
export function toBigEndianInto(received: ArrayLike<number>, order: ByteOrder, into: Uint8Array): void {
  const p = permutationOf(order, received.length);
  for (let i = 0; i < received.length; i++) into[p[i]!] = received[i]!;
}
