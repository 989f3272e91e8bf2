/**
 * Raw serial frames from gateways (docs/device-protocol.md, "Raw serial frames"; docs/serial-data.md):
 * `up/frame` carries `{port, packetId, frame, ts}` or `{frames: [...]}`. Each frame is decoded
 * with its packet's parser and its values become one record per bound item, written through the
 * one ingest pipeline (`app.ingest.write`: field checks, group commit, jumps, live updates) with
 * source 'device'.
 *
 * Nothing a gateway sends stops its port: every frame is accounted for on its own, per gateway
 * and port, in `frame_stats` (stored, bad CRC, wrong length, bad answer, unknown packet, decode
 * errors, refused, malformed), and each kind of refusal is logged at most once a minute per port
 * with the number left out since. A frame with a bad CRC or the wrong length stores nothing.
 *
 * Who may write: the packet and parser must be of the gateway's company (another company's
 * packet is an unknown packet), and each bound item must still be writable by the person who
 * saved the parser last, read afresh for each message, like a submission key's holder: they
 * are an active member holding the parsing code (cd_parsing) with write permission on the
 * item. A record the pipeline or this check refuses is counted as refused.
 *
 * The gateway module's MQTT wiring is one line:
 * `app.gateways.onUp('frame', (gateway, payload) => ingestFrames(app, gateway, payload))`.
 */
import {
  DATA_PERMISSION,
  decodeFrame,
  type FrameProblem,
  isRecordTime,
  MAX_ANSWER_BYTES,
  messageFor,
  type ParserValue,
  recordsOfFrame,
} from '@platform/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { menuCodesOf } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import { levelsFor } from '../cabin/permissions';
import type { IngestRecord } from '../ingest/pipeline';
import { users } from '../users/tables';
import { type FrameReason, type FrameRefusal, frameStats, serialPackages, serialParsers } from './tables';

/** frames of one message beyond this are counted as malformed and not read */
export const MAX_FRAMES_PER_MESSAGE = 500;
/** the highest port number a gateway has; a frame naming no usable port counts under port 0 */
export const MAX_PORT = 255;
/** how often one kind of refusal of one port is logged */
const LOG_EVERY_MS = 60_000;

export interface FrameGateway {
  /** the gateway's serial number */
  sn: string;
  /** the company that bound it */
  companyId: number;
}

export type FrameTally = Record<'stored' | FrameReason, number> & { records: number };

interface PortTally {
  counts: Record<'stored' | FrameReason, number>;
  lastError: FrameRefusal | null;
  lastFrameAt: Date | null;
}

const PROBLEM_REASON: Record<FrameProblem, FrameReason> = {
  badHex: 'malformed',
  badCrc: 'badCrc',
  wrongLength: 'wrongLength',
  wrongAddress: 'badAnswer',
  wrongFunction: 'badAnswer',
  exception: 'badAnswer',
};

interface Entry {
  port: number;
  packetId: number | null;
  frame: string | null;
  ts: Date;
  /** why the entry is refused before decoding */
  refusal: { reason: FrameReason; message: string } | null;
}

function emptyCounts(): Record<'stored' | FrameReason, number> {
  return {
    stored: 0,
    badCrc: 0,
    wrongLength: 0,
    badAnswer: 0,
    unknownPacket: 0,
    decodeErrors: 0,
    refused: 0,
    malformed: 0,
  };
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

function readEntry(raw: unknown, arrival: Date): Entry {
  const bad = (reason: FrameReason, message: string, port = 0): Entry => ({
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
  if (typeof packetId !== 'number' || !Number.isInteger(packetId) || packetId < 1 || packetId > 2 ** 31 - 1) {
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

interface Definition {
  packet: { frame: string; appendCrc: boolean; encoding: 'ASCII' | 'HEX' };
  parser: { answerLength: number | null; values: ParserValue[]; updatedBy: number | null } | null;
}

async function definitionsOf(
  app: App,
  companyId: number,
  packetIds: number[],
): Promise<Map<number, Definition>> {
  if (packetIds.length === 0) return new Map();
  const rows = await app.db
    .select({
      id: serialPackages.id,
      frame: serialPackages.frame,
      appendCrc: serialPackages.appendCrc,
      encoding: serialPackages.encoding,
      answerLength: serialParsers.answerLength,
      values: serialParsers.values,
      updatedBy: serialParsers.updatedBy,
    })
    .from(serialPackages)
    .leftJoin(serialParsers, eq(serialParsers.packageId, serialPackages.id))
    .where(and(inArray(serialPackages.id, packetIds), eq(serialPackages.companyId, companyId)));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        packet: {
          frame: r.frame,
          appendCrc: r.appendCrc,
          encoding: r.encoding === 'ASCII' ? 'ASCII' : 'HEX',
        },
        parser: r.values ? { answerLength: r.answerLength, values: r.values, updatedBy: r.updatedBy } : null,
      },
    ]),
  );
}

/**
 * The items each parser's last saver may write now: an enabled account, an active member
 * holding cd_parsing, with write permission on the item. One read per saver and message.
 */
async function writableBy(
  app: App,
  companyId: number,
  userId: number,
  itemIds: number[],
): Promise<Set<number>> {
  const [user] = await app.db.select({ status: users.status }).from(users).where(eq(users.id, userId));
  if (user?.status !== 1) return new Set();
  const codes = await menuCodesOf(app.db, userId, companyId);
  if (!codes.has('cd_parsing')) return new Set();
  const defs = await app.ingest.itemDefs(itemIds);
  const nodeOf = new Map<number, number>();
  for (const [id, def] of defs) if (def && def.companyId === companyId) nodeOf.set(id, def.nodeId);
  const levels = await levelsFor(app.db, { companyId, userId }, [...new Set(nodeOf.values())]);
  return new Set(
    [...nodeOf].filter(([, nodeId]) => (levels.get(nodeId) ?? 0) >= DATA_PERMISSION.write).map(([id]) => id),
  );
}

/**
 * Decodes and stores the frames of one `up/frame` message of a bound gateway. Never throws for
 * anything the gateway sent; answers what became of each frame (also added to frame_stats).
 */
export async function ingestFrames(app: App, gateway: FrameGateway, message: unknown): Promise<FrameTally> {
  const arrival = new Date();
  const payload = payloadOf(message);
  const ports = new Map<number, PortTally>();
  const tallyOf = (port: number): PortTally => {
    let tally = ports.get(port);
    if (!tally) {
      tally = { counts: emptyCounts(), lastError: null, lastFrameAt: null };
      ports.set(port, tally);
    }
    return tally;
  };
  const refuse = (port: number, reason: FrameReason, packetId: number | null, message: string) => {
    const tally = tallyOf(port);
    tally.counts[reason] += 1;
    tally.lastError = { reason, packetId, message, at: arrival.toISOString() };
    logRefusal(app, gateway, port, reason, packetId, message);
  };

  let raws: unknown[];
  if (isObject(payload) && 'frames' in payload) {
    raws = Array.isArray(payload.frames) ? payload.frames : [null];
  } else raws = [payload];
  if (raws.length > MAX_FRAMES_PER_MESSAGE) {
    const beyond = raws.length - MAX_FRAMES_PER_MESSAGE;
    refuse(0, 'malformed', null, `${beyond} frames beyond ${MAX_FRAMES_PER_MESSAGE} in one message`);
    // one refusal logged for all of them, each counted
    tallyOf(0).counts.malformed += beyond - 1;
    raws = raws.slice(0, MAX_FRAMES_PER_MESSAGE);
  }
  const entries = raws.map((raw) => readEntry(raw, arrival));
  for (const e of entries) if (e.refusal) refuse(e.port, e.refusal.reason, e.packetId, e.refusal.message);
  const live = entries.filter((e) => !e.refusal);

  let records = 0;
  try {
    const defs = await definitionsOf(app, gateway.companyId, [...new Set(live.map((e) => e.packetId!))]);
    const allowedBySaver = new Map<number, Set<number>>();
    for (const def of defs.values()) {
      const saver = def.parser?.updatedBy;
      if (saver == null || allowedBySaver.has(saver)) continue;
      const itemIds = [...defs.values()]
        .filter((d) => d.parser?.updatedBy === saver)
        .flatMap((d) => d.parser!.values.map((v) => v.itemId!));
      allowedBySaver.set(saver, await writableBy(app, gateway.companyId, saver, [...new Set(itemIds)]));
    }

    // one call per (frame, item): a record one item refuses leaves the others
    const calls: IngestRecord[][] = [];
    const owners: Array<{ frame: number }> = [];
    const frameState = new Map<
      number,
      { port: number; packetId: number; written: number; refused: number; error: unknown }
    >();
    for (const [n, entry] of live.entries()) {
      const port = entry.port;
      const packetId = entry.packetId!;
      tallyOf(port).lastFrameAt = arrival;
      const def = defs.get(packetId);
      if (!def) {
        refuse(port, 'unknownPacket', packetId, `packet ${packetId} is not one of the company's`);
        continue;
      }
      if (!def.parser || def.parser.values.length === 0) {
        refuse(port, 'unknownPacket', packetId, `packet ${packetId} has no parser`);
        continue;
      }
      const decoded = decodeFrame(entry.frame!, def.packet, def.parser);
      if (decoded.frameError) {
        const { problem, key, params } = decoded.frameError;
        refuse(port, PROBLEM_REASON[problem], packetId, messageFor(key, 'en', params));
        continue;
      }
      const failed = decoded.values.find((v) => !v.ok);
      if (failed && !failed.ok)
        refuse(port, 'decodeErrors', packetId, messageFor(failed.key, 'en', failed.params));
      const allowed = allowedBySaver.get(def.parser.updatedBy ?? -1) ?? new Set<number>();
      const state = { port, packetId, written: 0, refused: 0, error: null as unknown };
      frameState.set(n, state);
      for (const record of recordsOfFrame(decoded, def.parser.values)) {
        if (!allowed.has(record.itemId)) {
          state.refused += 1;
          continue;
        }
        calls.push([{ itemId: record.itemId, ts: entry.ts, values: record.values }]);
        owners.push({ frame: n });
      }
    }

    const results =
      calls.length === 0
        ? []
        : await app.ingest.writeEach({ companyId: gateway.companyId, userId: null, source: 'device' }, calls);
    results.forEach((result, i) => {
      const state = frameState.get(owners[i]!.frame)!;
      if ('ids' in result) {
        state.written += 1;
        records += result.ids.length;
      } else {
        state.refused += 1;
        state.error ??= result.error;
      }
    });
    for (const state of frameState.values()) {
      if (state.written > 0) tallyOf(state.port).counts.stored += 1;
      if (state.refused > 0) {
        const detail = state.error
          ? describeError(state.error)
          : 'the person who saved the parser may no longer write into a bound item';
        refuse(state.port, 'refused', state.packetId, detail);
      }
    }
  } catch (error) {
    // the database is away: count what was in flight, never throw at the gateway's message loop
    app.log.error({ err: error, sn: gateway.sn }, 'frames could not be stored');
    for (const e of live) refuse(e.port, 'refused', e.packetId, 'the platform could not store the frame');
  }

  await saveStats(app, gateway, ports);
  const tally: FrameTally = { ...emptyCounts(), records };
  for (const t of ports.values())
    for (const k of Object.keys(t.counts) as Array<keyof typeof t.counts>) tally[k] += t.counts[k];
  return tally;
}

function describeError(error: unknown): string {
  if (error instanceof AppError) {
    const data = error.data as { message?: string } | null;
    return data?.message || messageFor(error.key, 'en', error.params);
  }
  return 'the platform could not store the record';
}

async function saveStats(app: App, gateway: FrameGateway, ports: Map<number, PortTally>): Promise<void> {
  if (ports.size === 0) return;
  const rows = [...ports].map(([port, t]) => ({
    companyId: gateway.companyId,
    sn: gateway.sn.slice(0, 32),
    port,
    ...t.counts,
    lastError: t.lastError,
    lastFrameAt: t.lastFrameAt,
  }));
  const add = (column: string) => sql.raw(`frame_stats.${column} + excluded.${column}`);
  try {
    await app.db
      .insert(frameStats)
      .values(rows)
      .onConflictDoUpdate({
        target: [frameStats.companyId, frameStats.sn, frameStats.port],
        set: {
          stored: add('stored'),
          badCrc: add('bad_crc'),
          wrongLength: add('wrong_length'),
          badAnswer: add('bad_answer'),
          unknownPacket: add('unknown_packet'),
          decodeErrors: add('decode_errors'),
          refused: add('refused'),
          malformed: add('malformed'),
          lastError: sql`coalesce(excluded.last_error, frame_stats.last_error)`,
          lastFrameAt: sql`coalesce(excluded.last_frame_at, frame_stats.last_frame_at)`,
        },
      });
  } catch (error) {
    // counters are for people; losing one update must not lose the frames' records
    app.log.warn({ err: error, sn: gateway.sn }, 'frame counters could not be saved');
  }
}

/** the last log time and what was left out since, per company, gateway, port and reason */
const logged = new Map<string, { at: number; suppressed: number }>();

function logRefusal(
  app: App,
  gateway: FrameGateway,
  port: number,
  reason: FrameReason,
  packetId: number | null,
  message: string,
): void {
  const key = `${gateway.companyId}:${gateway.sn}:${port}:${reason}`;
  const now = Date.now();
  const last = logged.get(key);
  if (last && now - last.at < LOG_EVERY_MS) {
    last.suppressed += 1;
    return;
  }
  if (logged.size > 10_000) logged.clear();
  logged.set(key, { at: now, suppressed: 0 });
  app.log.warn(
    { sn: gateway.sn, port, packetId, reason, sinceLastLog: last?.suppressed ?? 0 },
    `serial frame not stored: ${message}`,
  );
}
