/**
 * Bytes as people and the device protocol write them: pairs of hex digits separated by single
 * spaces (`01 03 00 00 00 0A`), the form of seed point 5's hex packet rule (checkHexPacket).
 */
import { checkHexPacket } from '../validation';

/** `01 03 00 6B` for [1, 3, 0, 0x6b]: upper case, single spaces. */
export function toHex(bytes: ArrayLike<number>): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0) out += ' ';
    out += bytes[i]!.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** The bytes of a hex packet, or null when the text breaks the hex packet rule. */
export function parseHex(text: string): Uint8Array | null {
  if (checkHexPacket(text) !== null) return null;
  const out = new Uint8Array((text.length + 1) / 3);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(text.slice(i * 3, i * 3 + 2), 16);
  return out;
}
