/**
 * CRC-16/MODBUS (width 16, reflected polynomial 0xA001, init 0xFFFF, no final xor), the check
 * of Modbus RTU frames (seed point 9). On the wire it goes low byte first (Modbus over Serial
 * Line v1.02 §2.5.1.2), unlike every other Modbus number, so a frame ending in its CRC
 * checks to 0x0000 when the CRC runs over all of it.
 */

const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** The CRC of `bytes` (a number 0..0xFFFF). */
export function crc16Modbus(bytes: ArrayLike<number>): number {
  let crc = 0xffff;
  for (let i = 0; i < bytes.length; i++) crc = (crc >>> 8) ^ TABLE[(crc ^ bytes[i]!) & 0xff]!;
  return crc;
}

/** `bytes` followed by their CRC as sent on the wire: low byte, then high byte. */
export function appendCrc(bytes: ArrayLike<number>): Uint8Array {
  const crc = crc16Modbus(bytes);
  const out = new Uint8Array(bytes.length + 2);
  out.set(Array.from(bytes));
  out[bytes.length] = crc & 0xff;
  out[bytes.length + 1] = crc >>> 8;
  return out;
}

/** Whether a frame that ends in its CRC (low byte first) is intact. Frames under 3 bytes are not. */
export function hasValidCrc(frame: ArrayLike<number>): boolean {
  return frame.length >= 3 && crc16Modbus(frame) === 0;
}
