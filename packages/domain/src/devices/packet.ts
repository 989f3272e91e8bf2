/**
 * Serial packet definitions (Device communication → data packages, code cd_data_package): the
 * bytes a gateway sends on a port, written in hex by seed point 5's rule, with the CRC-16/Modbus
 * appended when asked (seed point 9), and what their answers look like, so the parser knows
 * where the data starts and how long a good answer is.
 *
 * - `frame` is the packet without the appended CRC. With `appendCrc` the gateway sends the
 *   frame followed by its CRC (low byte first); the editor shows those two bytes.
 * - `valueType` (seed point 3: byte, bit, string) says what the answer carries: registers,
 *   coils or inputs, or text. It picks the parser's defaults; it does not change the checks.
 * - `encoding` (ASCII or HEX) says how a string value of the answers is read: ASCII text or a
 *   HEX string of the bytes. The packet itself is always written in hex.
 * - `samplingId` is how often the gateway sends it: 1 = 1 min, 2 = 5 min, 3 = 10 min, 4 = 15 min.
 *   A packet definition offers all four; the shorter list of seed point 3 (1 and 15 minutes,
 *   SAMPLING_IDS_SHORT) is not used here.
 */
import type { ErrorKey } from '../errors';
import { checkName } from '../validation';
import { ENCODINGS, type Encoding, type SamplingId } from './config-types';
import { appendCrc, crc16Modbus, hasValidCrc } from './crc';
import { parseHex, toHex } from './hex';
import { type ModbusRead, modbusReadOf } from './modbus';

export const SERIAL_VALUE_TYPES = ['byte', 'bit', 'string'] as const;
export type SerialValueType = (typeof SERIAL_VALUE_TYPES)[number];

/** The longest packet sent, CRC included (a Modbus RTU frame is at most 256 bytes). */
export const MAX_PACKET_BYTES = 256;
/** The longest answer a parser accepts (Modbus RTU frames are at most 256 bytes; other protocols get room). */
export const MAX_ANSWER_BYTES = 1024;

export const SAMPLING_IDS: readonly SamplingId[] = [1, 2, 3, 4];

export interface PacketDef {
  name: string;
  /** hex by the seed's rule, upper case, without the appended CRC */
  frame: string;
  appendCrc: boolean;
  valueType: SerialValueType;
  encoding: Encoding;
  samplingId: SamplingId;
}

export type Checked<T> =
  | { ok: true; value: T }
  | { ok: false; field: string; key: ErrorKey; params?: Record<string, string | number> };

/** Checks a packet definition; the first broken rule names its field. The frame comes back upper case. */
export function checkPacket(input: {
  name?: unknown;
  frame?: unknown;
  appendCrc?: unknown;
  valueType?: unknown;
  encoding?: unknown;
  samplingId?: unknown;
}): Checked<PacketDef> {
  const name = typeof input.name === 'string' ? input.name.trim() : null;
  const nameProblem = checkName(name);
  if (nameProblem) return { ok: false, field: 'name', key: nameProblem };
  if (typeof input.frame !== 'string' || input.frame === '') {
    return { ok: false, field: 'frame', key: 'fieldRequired', params: { field: 'frame' } };
  }
  const bytes = parseHex(input.frame);
  if (!bytes) return { ok: false, field: 'frame', key: 'hexPacketInvalid' };
  const appendCrc = input.appendCrc === true;
  if (bytes.length + (appendCrc ? 2 : 0) > MAX_PACKET_BYTES) {
    return { ok: false, field: 'frame', key: 'packetTooLong', params: { max: MAX_PACKET_BYTES } };
  }
  if (!SERIAL_VALUE_TYPES.includes(input.valueType as SerialValueType)) {
    return { ok: false, field: 'valueType', key: 'validation', params: { field: 'valueType' } };
  }
  if (!ENCODINGS.includes(input.encoding as Encoding)) {
    return { ok: false, field: 'encoding', key: 'validation', params: { field: 'encoding' } };
  }
  if (!SAMPLING_IDS.includes(input.samplingId as SamplingId)) {
    return { ok: false, field: 'samplingId', key: 'validation', params: { field: 'samplingId' } };
  }
  return {
    ok: true,
    value: {
      name: name!,
      frame: toHex(bytes),
      appendCrc,
      valueType: input.valueType as SerialValueType,
      encoding: input.encoding as Encoding,
      samplingId: input.samplingId as SamplingId,
    },
  };
}

/** The two CRC bytes appended to a hex frame, as sent ("C4 0B"), or null when the text is no hex frame. */
export function crcOfFrame(frame: string): string | null {
  const bytes = parseHex(frame);
  if (!bytes) return null;
  const crc = crc16Modbus(bytes);
  return toHex([crc & 0xff, crc >>> 8]);
}

/** The bytes the gateway sends for this packet: the frame, then its CRC when appended. */
export function sentBytes(packet: Pick<PacketDef, 'frame' | 'appendCrc'>): Uint8Array | null {
  const bytes = parseHex(packet.frame);
  if (!bytes) return null;
  return packet.appendCrc ? appendCrc(bytes) : bytes;
}

/**
 * Whether the frame as typed already ends in its own CRC: with `appendCrc` on as well, the CRC
 * would be sent twice. The editor says so; it is not refused (some devices do want that).
 */
export function frameEndsInCrc(frame: string): boolean {
  const bytes = parseHex(frame);
  return bytes != null && bytes.length >= 4 && hasValidCrc(bytes);
}

/**
 * Whether the answers carry a CRC-16/Modbus to check: the packet appends one, or was typed
 * with its own (a device answers in the protocol it is asked in).
 */
export function packetHasCrc(packet: Pick<PacketDef, 'frame' | 'appendCrc'>): boolean {
  return packet.appendCrc || frameEndsInCrc(packet.frame);
}

/**
 * What the answer to a packet looks like:
 *
 * - `modbus`: the packet is a Modbus read request (01-04). The answer is checked as Modbus
 *   (CRC, address, function, exception, byte count); its data starts at byte 3 and is exactly
 *   as long as the request asks for. A parser's offsets count from the first data byte.
 * - `raw`: any other packet. The data is the whole answer (minus its CRC when the packet has
 *   one, checked); offsets count from the answer's first byte. Its length is the parser's
 *   `answerLength` when set (CRC included), else anything long enough for the values.
 */
export type AnswerLayout =
  | { kind: 'modbus'; read: ModbusRead; crc: true; dataStart: 3; dataLength: number; answerLength: number }
  | { kind: 'raw'; crc: boolean; dataStart: 0; dataLength: number | null; answerLength: number | null };

export function answerLayout(
  packet: Pick<PacketDef, 'frame' | 'appendCrc'>,
  answerLength: number | null = null,
): AnswerLayout {
  const sent = sentBytes(packet);
  const read = sent ? modbusReadOf(sent) : null;
  if (read) {
    return {
      kind: 'modbus',
      read,
      crc: true,
      dataStart: 3,
      dataLength: read.dataLength,
      answerLength: read.answerLength,
    };
  }
  const crc = packetHasCrc(packet);
  const length = answerLength != null && answerLength >= (crc ? 3 : 1) ? answerLength : null;
  return {
    kind: 'raw',
    crc,
    dataStart: 0,
    answerLength: length,
    dataLength: length == null ? null : length - (crc ? 2 : 0),
  };
}

/**
 * A well-formed answer to a Modbus read, with zeros for data (or the given data bytes), for
 * the preview's "fill from the packet".
 */
export function sampleModbusAnswer(read: ModbusRead, data: ArrayLike<number> = []): string {
  const body = new Uint8Array(3 + read.dataLength);
  body[0] = read.address;
  body[1] = read.fn;
  body[2] = read.dataLength;
  for (let i = 0; i < Math.min(data.length, read.dataLength); i++) body[3 + i] = data[i]!;
  return toHex(appendCrc(body));
}
