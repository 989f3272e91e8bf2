/**
 * What the serial debug assistant sends and shows, apart from React: the bytes a send box
 * makes (hex by the seed's hex packet rule, or ASCII; the CRC-16/Modbus appended on demand),
 * the receive log's lines and its text export.
 */
import { appendCrc, checkHexPacket, type ErrorKey, parseHex, toHex } from '@platform/domain';

export type SendMode = 'hex' | 'ascii';
export type ViewMode = 'hex' | 'ascii';

/** bytes one send may carry (the server's limit for a gateway's port too) */
export const MAX_SEND_BYTES = 256;

export type Built =
  | { ok: true; bytes: Uint8Array }
  | { ok: false; key: ErrorKey | 'tooLong' | 'empty' | 'notAscii' };

/** The bytes a send box holds, with the CRC appended when asked; or why it cannot be sent. */
export function buildBytes(text: string, mode: SendMode, crc: boolean): Built {
  if (text === '') return { ok: false, key: 'empty' };
  let bytes: Uint8Array;
  if (mode === 'hex') {
    const broken = checkHexPacket(text);
    if (broken) return { ok: false, key: broken };
    bytes = parseHex(text)!;
  } else {
    // printable ASCII, with \r \n \t written as escapes or typed
    const unescaped = text.replace(/\\r/g, '\r').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
    if (!/^[\x20-\x7e\r\n\t]*$/.test(unescaped)) return { ok: false, key: 'notAscii' };
    bytes = new TextEncoder().encode(unescaped);
  }
  if (crc) bytes = appendCrc(bytes);
  if (bytes.length > MAX_SEND_BYTES) return { ok: false, key: 'tooLong' };
  return { ok: true, bytes };
}

/** Bytes as ASCII for the log: printable characters as they are, others as \xNN. */
export function asAscii(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) {
    if (b === 0x0d) out += '\\r';
    else if (b === 0x0a) out += '\\n';
    else if (b >= 0x20 && b < 0x7f) out += String.fromCharCode(b);
    else out += `\\x${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export interface LogLine {
  id: number;
  dir: 'TX' | 'RX';
  /** ISO time the platform (gateway) or this browser (Web Serial) saw it */
  at: string;
  bytes: Uint8Array;
}

/** `17:03:05.123` in the browser's time zone */
export function clock(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function lineText(line: LogLine, view: ViewMode): string {
  return view === 'hex' ? toHex(line.bytes) : asAscii(line.bytes);
}

/** The log as a text file: one line per TX/RX with its date and time to the millisecond. */
export function exportText(lines: readonly LogLine[], view: ViewMode): string {
  return lines
    .map((l) => `${l.at.replace('T', ' ').replace('Z', '')} ${l.dir} ${lineText(l, view)}`)
    .join('\n')
    .concat(lines.length ? '\n' : '');
}

/** A Modbus RTU read of holding registers (function 03), without its CRC. */
export function modbusRead(slave: number, address: number, count: number): string {
  return toHex([slave & 0xff, 3, (address >> 8) & 0xff, address & 0xff, (count >> 8) & 0xff, count & 0xff]);
}

/** Baud rates offered for a port of this computer. */
export const BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;
export const DATA_BITS = [7, 8] as const;
export const STOP_BITS = [1, 2] as const;
/** seed point 3: none 0, odd 1, even 2 */
export const PARITIES = [
  { id: 0, web: 'none' },
  { id: 1, web: 'odd' },
  { id: 2, web: 'even' },
] as const;
