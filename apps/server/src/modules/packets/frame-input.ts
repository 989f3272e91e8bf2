/**
 * What an `up/frame` message holds, read defensively: it comes from a device on the internet.
 * `{port, packetId, frame, ts}` or `{frames: [ … ]}`, as parsed JSON, JSON bytes or JSON text.
 */
import { isRecordTime, isRowId, MAX_ANSWER_BYTES } from '@platform/domain';
import type { FrameReason } from './tables';

/** frames of one message beyond this are counted as malformed and not read */
export const MAX_FRAMES_PER_MESSAGE = 500;
/** the highest port number a gateway has; a frame naming no usable port counts under port 0 */
export const MAX_PORT = 255;

export interface FrameEntry {
  port: number;
  packetId: number | null;
  frame: string | null;
  ts: Date;
  /** why the entry is refused before decoding */
  refusal: { reason: FrameReason; message: string } | null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The payload as JSON: already parsed, or bytes or text of JSON (null when it is not). */
function payloadOf(message: unknown): unknown {
  if (typeof message === 'string' || message instanceof Uint8Array) {
    try {
      return JSON.parse(typeof message === 'string' ? message : Buffer.from(message).toString('utf8'));
    } catch {
      return null;
    }
  }
  return message;
}

function timeOf(ts: unknown, arrival: Date): Date | null {
  if (ts === undefined || ts === null) return arrival;
  let date: Date;
  if (typeof ts === 'number') date = new Date(ts);
  else if (typeof ts === 'string' && /^\d{4}-\d{2}-\d{2}/.test(ts)) date = new Date(ts);
  else return null;
  return isRecordTime(date.getTime()) ? date : null;
}

function readEntry(raw: unknown, arrival: Date): FrameEntry {
  const bad = (reason: FrameReason, message: string, port = 0): FrameEntry => ({
    port,
    packetId: null,
    frame: null,
    ts: arrival,
    refusal: { reason, message },
  });
  if (!isObject(raw)) return bad('malformed', 'a frame entry is not a JSON object');
  const port = raw.port;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > MAX_PORT) {
    return bad('malformed', 'no port number between 1 and 255');
  }
  const packetId = raw.packetId;
  if (!isRowId(packetId)) {
    return bad('malformed', 'no packetId', port);
  }
  const frame = raw.frame;
  if (typeof frame !== 'string') return { ...bad('malformed', 'no frame', port), packetId };
  // the longest answer is MAX_ANSWER_BYTES: 3 characters a byte in hex
  if (frame.length > MAX_ANSWER_BYTES * 3) {
    return { ...bad('wrongLength', `a frame of more than ${MAX_ANSWER_BYTES} bytes`, port), packetId };
  }
  const ts = timeOf(raw.ts, arrival);
  if (!ts) return { ...bad('malformed', 'ts is not a time between 1970 and 9999', port), packetId };
  return { port, packetId, frame, ts, refusal: null };
}

/** The frames of a message, each read or refused on its own, and how many were beyond the limit. */
export function readFrames(message: unknown, arrival: Date): { entries: FrameEntry[]; beyond: number } {
  const payload = payloadOf(message);
  let raws: unknown[];
  if (isObject(payload) && 'frames' in payload) {
    raws = Array.isArray(payload.frames) ? payload.frames : [null];
  } else raws = [payload];
  const beyond = Math.max(0, raws.length - MAX_FRAMES_PER_MESSAGE);
  return { entries: raws.slice(0, MAX_FRAMES_PER_MESSAGE).map((raw) => readEntry(raw, arrival)), beyond };
}
