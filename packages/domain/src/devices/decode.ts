/**
 * `decodeFrame`: an answer frame, its packet and its parser → each value's result or its
 * error, and the frame's own error (bad hex, bad CRC, wrong length, wrong address or function,
 * a Modbus exception). Total: it never throws and runs in time linear in the frame and the
 * values, whatever the input (random bytes and random definitions included), so the server can
 * run it on anything a gateway sends and the editor on every key press.
 *
 * Values are decoded even when the frame has an error (the preview shows what the bytes would
 * give); whoever stores them must store nothing from a frame with an error.
 */

import { MAX_DECIMALS } from '../data/fields';
import { isRecordTime, roundTo } from '../data/values';
import type { ErrorKey } from '../errors';
import { hasValidCrc } from './crc';
import { parseHex } from './hex';
import { checkModbusAnswer } from './modbus';
import { type AnswerLayout, answerLayout, MAX_ANSWER_BYTES, type PacketDef } from './packet';
import { formatFitsValueType, type ParserValue } from './parser';
import {
  asciiText,
  decodeFloat,
  decodeSigned,
  decodeUnsigned,
  extractBit,
  formatFitsLength,
  hexString,
  type RawInteger,
} from './registers';

export type FrameProblem =
  | 'badHex'
  | 'wrongLength'
  | 'badCrc'
  | 'wrongAddress'
  | 'wrongFunction'
  | 'exception';

export interface FrameError {
  problem: FrameProblem;
  key: ErrorKey;
  params: Record<string, string | number>;
}

interface ValueSpan {
  index: number;
  name: string;
  /** the first byte read, counted from the start of the frame (for highlighting) */
  start: number;
  length: number;
}

export type FrameValueResult =
  | (ValueSpan & { ok: true; value: number | string; raw: number | string })
  | (ValueSpan & { ok: false; key: ErrorKey; params: Record<string, string | number> });

export interface DecodedFrame {
  bytes: Uint8Array | null;
  layout: AnswerLayout;
  frameError: FrameError | null;
  /** the data bytes: [dataStart, dataEnd) of the frame */
  dataStart: number;
  dataEnd: number;
  values: FrameValueResult[];
}

const FRAME_KEYS: Record<FrameProblem, ErrorKey> = {
  badHex: 'hexPacketInvalid',
  wrongLength: 'frameWrongLength',
  badCrc: 'frameBadCrc',
  wrongAddress: 'frameWrongAddress',
  wrongFunction: 'frameWrongFunction',
  exception: 'frameException',
};

function frameError(problem: FrameProblem, params: Record<string, string | number> = {}): FrameError {
  return { problem, key: FRAME_KEYS[problem], params };
}

type DecodePacket = Pick<PacketDef, 'frame' | 'appendCrc'> & Partial<Pick<PacketDef, 'encoding'>>;

export function decodeFrame(
  frame: string | ArrayLike<number>,
  packet: DecodePacket,
  parser: { answerLength?: number | null; values: readonly ParserValue[] },
): DecodedFrame {
  const layout = layoutOf(packet, parser.answerLength ?? null);
  const bytes = typeof frame === 'string' ? parseHex(frame) : Uint8Array.from(frame, (b) => b & 0xff);
  if (!bytes) {
    return { bytes: null, layout, frameError: frameError('badHex'), dataStart: 0, dataEnd: 0, values: [] };
  }
  const length = bytes.length;
  let error: FrameError | null = null;
  let dataStart = 0;
  let dataEnd = length;
  if (length > MAX_ANSWER_BYTES) {
    error = frameError('wrongLength', { length, expected: layout.answerLength ?? MAX_ANSWER_BYTES });
    dataEnd = 0;
  } else if (layout.kind === 'modbus') {
    dataStart = 3;
    dataEnd = Math.max(3, length - 2);
    const check = checkModbusAnswer(bytes, layout.read);
    if (!check.ok) error = frameError(check.problem, check.params);
    else dataEnd = 3 + check.dataLength;
    if (check.ok === false && check.problem === 'exception') dataEnd = 3;
  } else {
    if (layout.crc) dataEnd = Math.max(0, length - 2);
    const need = neededLength(parser.values);
    if (layout.crc && length < 3)
      error = frameError('wrongLength', { length, expected: layout.answerLength ?? 3 });
    else if (layout.crc && !hasValidCrc(bytes)) error = frameError('badCrc');
    else if (layout.answerLength != null && length !== layout.answerLength) {
      error = frameError('wrongLength', { length, expected: layout.answerLength });
    } else if (dataEnd < need) {
      error = frameError('wrongLength', { length, expected: need + (layout.crc ? 2 : 0) });
    }
  }
  const encoding = packet.encoding ?? 'HEX';
  const values = parser.values.map((value, index) =>
    decodeValue(bytes, value, index, dataStart, dataEnd, encoding),
  );
  return { bytes, layout, frameError: error, dataStart, dataEnd, values };
}

/**
 * answerLayout, kept for the packets seen last: a server decodes many frames of few packets,
 * and reading the packet's hex again for each frame cost as much as decoding its values. The
 * layouts are frozen, as they are shared.
 */
const LAYOUTS = new Map<string, AnswerLayout>();
const LAYOUTS_KEPT = 256;

function layoutOf(packet: DecodePacket, answerLength: number | null): AnswerLayout {
  if (typeof packet.frame !== 'string') return answerLayout(packet, answerLength);
  const key = `${packet.appendCrc ? 1 : 0}|${answerLength}|${packet.frame}`;
  let layout = LAYOUTS.get(key);
  if (!layout) {
    layout = answerLayout(packet, answerLength);
    if (layout.kind === 'modbus') Object.freeze(layout.read);
    Object.freeze(layout);
    if (LAYOUTS.size >= LAYOUTS_KEPT) LAYOUTS.clear();
    LAYOUTS.set(key, layout);
  }
  return layout;
}

/** The data bytes the values need: the end of the furthest one (0 when none is sane). */
function neededLength(values: readonly ParserValue[]): number {
  let need = 0;
  for (const v of values) {
    if (Number.isSafeInteger(v.offset) && Number.isSafeInteger(v.length) && v.offset >= 0 && v.length > 0) {
      need = Math.max(need, Math.min(v.offset + v.length, MAX_ANSWER_BYTES + 1));
    }
  }
  return need;
}

function decodeValue(
  frame: Uint8Array,
  value: ParserValue,
  index: number,
  dataStart: number,
  dataEnd: number,
  encoding: 'ASCII' | 'HEX',
): FrameValueResult {
  const name = typeof value.name === 'string' ? value.name : '';
  const offset = Number.isSafeInteger(value.offset) && value.offset >= 0 ? value.offset : 0;
  const length =
    Number.isSafeInteger(value.length) && value.length > 0 ? Math.min(value.length, MAX_ANSWER_BYTES) : 0;
  const span: ValueSpan = { index, name, start: dataStart + offset, length };
  const fail = (key: ErrorKey, params: Record<string, string | number> = {}): FrameValueResult => ({
    ...span,
    ok: false,
    key,
    params: { value: name || '?', ...params },
  });
  if (!formatFitsValueType(value.format, value.valueType)) return fail('parserFormatMismatch');
  if (length === 0 || !formatFitsLength(value.format, length))
    return fail('parserLengthInvalid', { lengths: '' });
  if (span.start + length > dataEnd)
    return fail('parserValuePastEnd', { length: Math.max(0, dataEnd - dataStart) });
  const slice = frame.subarray(span.start, span.start + length);
  const order = value.order;

  if (value.format === 'hex') {
    if (encoding === 'ASCII') {
      const text = asciiText(slice);
      return text == null ? fail('valueNotAscii') : okValue(span, text, text);
    }
    const hex = hexString(slice);
    return okValue(span, hex, hex);
  }

  let raw: RawInteger;
  if (value.format === 'bit') {
    const bit = extractBit(slice, order, value.bit ?? -1);
    if (bit == null) return fail('parserBitInvalid', { max: length * 8 - 1 });
    raw = bit;
  } else if (value.format === 'float' || value.format === 'double') {
    raw = decodeFloat(slice, order);
    if (!Number.isFinite(raw)) return fail('valueNotFinite');
  } else {
    raw = value.format === 'int' ? decodeSigned(slice, order) : decodeUnsigned(slice, order);
  }
  if (typeof raw === 'bigint' && value.valueType !== 'decimal') return fail('valueTooLarge');
  const rawNumber = Number(raw);
  const scale = Number.isFinite(value.scale) && value.scale !== 0 ? value.scale : 1;
  const valueOffset = Number.isFinite(value.valueOffset) ? value.valueOffset : 0;
  const scaled = rawNumber * scale + valueOffset;
  if (!Number.isFinite(scaled)) return fail('valueNotFinite');

  if (value.valueType === 'integer') {
    if (!Number.isInteger(scaled)) return fail('parserIntegerScale');
    if (!Number.isSafeInteger(scaled)) return fail('valueTooLarge');
    return okValue(span, scaled, rawNumber);
  }
  if (value.valueType === 'timestamp') {
    const ms = scaled * 1000;
    if (!isRecordTime(ms)) return fail('valueNotTime');
    return okValue(span, new Date(Math.round(ms)).toISOString(), rawNumber);
  }
  return okValue(span, roundValue(scaled, value.decimals), rawNumber);
}

/** A decoded value: the literal of `{...span, ok, value, raw}` in the same key order, built without spreading (one per value of every frame). */
function okValue(span: ValueSpan, value: number | string, raw: number | string): FrameValueResult {
  return { index: span.index, name: span.name, start: span.start, length: span.length, ok: true, value, raw };
}

/**
 * Rounded to `decimals` places (half away from zero, as a person reads the digits); without,
 * to 15 significant digits, which removes the noise of binary fractions (2365 × 0.1 is
 * 236.50000000000003) and keeps every digit a double means.
 */
function roundValue(x: number, decimals: number | null | undefined): number {
  if (decimals != null && Number.isInteger(decimals) && decimals >= 0 && decimals <= MAX_DECIMALS) {
    return roundTo(x, decimals);
  }
  return Number(x.toPrecision(15));
}

/** The values of a frame without error, grouped by their bound item: what becomes one record per item. */
export function recordsOfFrame(
  decoded: DecodedFrame,
  values: readonly ParserValue[],
): Array<{ itemId: number; values: Record<string, number | string> }> {
  if (decoded.frameError) return [];
  const byItem = new Map<number, Record<string, number | string>>();
  for (const result of decoded.values) {
    if (!result.ok) continue;
    const def = values[result.index];
    if (!def || def.itemId == null || def.fieldKey == null) continue;
    let record = byItem.get(def.itemId);
    if (!record) {
      record = {};
      byItem.set(def.itemId, record);
    }
    record[def.fieldKey] = result.value;
  }
  return [...byItem].map(([itemId, record]) => ({ itemId, values: record }));
}
