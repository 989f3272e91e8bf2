/**
 * Modbus RTU read requests and their answers (Modbus Application Protocol v1.1b3 §6.1-6.4,
 * Modbus over Serial Line v1.02). A read request is `addr fn startHi startLo qtyHi qtyLo crcLo
 * crcHi`; its normal answer is `addr fn byteCount data… crcLo crcHi`, 5 + byteCount bytes,
 * where byteCount is 2N for N registers (functions 03, 04) and ceil(N/8) for N coils or
 * inputs (01, 02). An exception answer is `addr fn|0x80 code crcLo crcHi`.
 */
import { hasValidCrc } from './crc';

export const READ_FUNCTIONS = [1, 2, 3, 4] as const;
/** the most a request may ask for (registers for 03/04, bits for 01/02) */
export const MAX_READ_QUANTITY: Record<1 | 2 | 3 | 4, number> = { 1: 2000, 2: 2000, 3: 125, 4: 125 };

export interface ModbusRead {
  address: number;
  fn: 1 | 2 | 3 | 4;
  start: number;
  quantity: number;
  /** bytes of data in the normal answer */
  dataLength: number;
  /** the whole normal answer: 5 + dataLength */
  answerLength: number;
}

/**
 * The read request these bytes are (the bytes sent, CRC included), or null when they are not
 * one: not 8 bytes, a bad CRC, a broadcast (address 0 gets no answer), another function, or a
 * quantity out of range.
 */
export function modbusReadOf(sent: ArrayLike<number>): ModbusRead | null {
  if (sent.length !== 8 || !hasValidCrc(sent)) return null;
  const address = sent[0]!;
  const fn = sent[1]!;
  if (address < 1 || address > 247) return null;
  if (fn !== 1 && fn !== 2 && fn !== 3 && fn !== 4) return null;
  const start = (sent[2]! << 8) | sent[3]!;
  const quantity = (sent[4]! << 8) | sent[5]!;
  if (quantity < 1 || quantity > MAX_READ_QUANTITY[fn]) return null;
  const dataLength = fn <= 2 ? Math.ceil(quantity / 8) : quantity * 2;
  return { address, fn, start, quantity, dataLength, answerLength: 5 + dataLength };
}

/** Exception codes of Modbus Application Protocol §7, by number. */
export const MODBUS_EXCEPTIONS: Record<number, string> = {
  1: 'illegal function',
  2: 'illegal data address',
  3: 'illegal data value',
  4: 'server device failure',
  5: 'acknowledge',
  6: 'server device busy',
  8: 'memory parity error',
  10: 'gateway path unavailable',
  11: 'gateway target device failed to respond',
};

export type AnswerProblem = 'wrongLength' | 'badCrc' | 'wrongAddress' | 'wrongFunction' | 'exception';

export type AnswerCheck =
  | { ok: true; dataStart: 3; dataLength: number }
  | { ok: false; problem: AnswerProblem; params: Record<string, string | number> };

/**
 * Checks an answer to `request`, in this order: long enough to be an answer, CRC, address,
 * exception answer, function, byte count (against both the frame and the request).
 */
export function checkModbusAnswer(answer: ArrayLike<number>, request: ModbusRead): AnswerCheck {
  const length = answer.length;
  if (length < 5)
    return { ok: false, problem: 'wrongLength', params: { length, expected: request.answerLength } };
  if (!hasValidCrc(answer)) return { ok: false, problem: 'badCrc', params: {} };
  const address = answer[0]!;
  if (address !== request.address) {
    return { ok: false, problem: 'wrongAddress', params: { address, expected: request.address } };
  }
  const fn = answer[1]!;
  if (fn === (request.fn | 0x80)) {
    if (length !== 5) return { ok: false, problem: 'wrongLength', params: { length, expected: 5 } };
    const code = answer[2]!;
    return {
      ok: false,
      problem: 'exception',
      params: { code, meaning: MODBUS_EXCEPTIONS[code] ?? 'unknown exception' },
    };
  }
  if (fn !== request.fn) return { ok: false, problem: 'wrongFunction', params: { fn, expected: request.fn } };
  const byteCount = answer[2]!;
  if (byteCount !== length - 5 || length !== request.answerLength) {
    return { ok: false, problem: 'wrongLength', params: { length, expected: request.answerLength } };
  }
  return { ok: true, dataStart: 3, dataLength: byteCount };
}
