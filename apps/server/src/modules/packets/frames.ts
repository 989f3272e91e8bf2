/**
 * Raw serial frames from gateways (docs/device-protocol.md, "Raw serial frames"; docs/serial-data.md):
 * `up/frame` carries `{port, packetId, frame, ts}` or `{frames: [...]}`. Each frame is decoded
 * with its packet's parser and its values become one record per bound item, written through the
 * one ingest pipeline (`app.ingest.writeEach`: field checks, group commit, jumps, live updates)
 * with source 'gateway'.
 *
 * Nothing a gateway sends stops its port: every frame is accounted for on its own, per gateway
 * and port (frame-stats.ts: stored, bad CRC, wrong length, bad answer, unknown packet, decode
 * errors, refused, malformed), and each kind of refusal is logged at most once a minute per port
 * with the number left out since. A frame with a bad CRC or the wrong length stores nothing.
 *
 * Who may write: the packet and parser must be of the gateway's company (another company's
 * packet is an unknown packet), and each bound item must still be writable by the person who
 * saved the parser last, read for each message like a submission key's holder
 * (frame-definitions.ts). A record the pipeline or this check refuses is counted as refused.
 *
 * Each frame, refused or decoded, and each record stored is also published on the live bus as a
 * device `flow` event (the device views, docs/devices.md): the device live socket relays it to
 * those who may read the device, each decoded value only to those who may read its item.
 *
 * The gateway module's MQTT wiring is one line:
 * `app.gateways.onUp('frame', (gateway, payload) => ingestFrames(app, gateway, payload))`.
 */
import {
  decodeFrame,
  type FrameProblem,
  messageFor,
  type RecordValues,
  recordsOfFrame,
} from '@platform/domain';
import type { App } from '../../platform/context';
import { AppError } from '../../platform/envelope';
import type { FlowEvent, FlowValue } from '../../platform/live';
import type { IngestRecord } from '../ingest/pipeline';
import { definitionsOf, writableBy } from './frame-definitions';
import { MAX_FRAMES_PER_MESSAGE, readFrames } from './frame-input';
import { emptyCounts, type FrameCounts, frameCountersOf, type PortTally } from './frame-stats';
import type { FrameReason } from './tables';

export { MAX_FRAMES_PER_MESSAGE };

/** how often one kind of refusal of one port is logged */
const LOG_EVERY_MS = 60_000;

export interface FrameGateway {
  /** the gateway's serial number */
  sn: string;
  /** the company that bound it */
  companyId: number;
  /** the gateway's registry id (the device id): live flow events are published only when known */
  id?: number;
}

export type FrameTally = FrameCounts & { records: number };

const PROBLEM_REASON: Record<FrameProblem, FrameReason> = {
  badHex: 'malformed',
  badCrc: 'badCrc',
  wrongLength: 'wrongLength',
  wrongAddress: 'badAnswer',
  wrongFunction: 'badAnswer',
  exception: 'badAnswer',
};

/** A decoded frame's records waiting for the pipeline, and what became of them. */
interface Pending {
  port: number;
  packetId: number;
  saver: number | null;
  records: IngestRecord[];
  written: number;
  refused: number;
  error: unknown;
}

/**
 * Decodes and stores the frames of one `up/frame` message of a bound gateway. Never throws for
 * anything the gateway sent; answers what became of each frame (also added to the counters).
 */
export async function ingestFrames(app: App, gateway: FrameGateway, message: unknown): Promise<FrameTally> {
  const arrival = new Date();
  const ports = new Map<number, PortTally>();
  const tallyOf = (port: number): PortTally => {
    let tally = ports.get(port);
    if (!tally) {
      tally = { counts: emptyCounts(), lastError: null, lastFrameAt: null };
      ports.set(port, tally);
    }
    return tally;
  };
  const flow = (event: FlowEvent) => publishFlow(app, gateway, event);
  const frameSeen = (
    port: number,
    packetId: number | null,
    frame: string | null,
    result: string,
    values: FlowValue[] = [],
  ) =>
    flow({
      kind: 'frame',
      at: arrival.toISOString(),
      port,
      packetId,
      bytes: frame ? Math.ceil(frame.length / 3) : 0,
      result,
      values,
    });
  const refuse = (port: number, reason: FrameReason, packetId: number | null, text: string, times = 1) => {
    const tally = tallyOf(port);
    tally.counts[reason] += times;
    tally.lastError = { reason, packetId, message: text, at: arrival.toISOString() };
    logRefusal(app, gateway, port, reason, packetId, text);
  };

  const { entries, beyond } = readFrames(message, arrival);
  if (beyond > 0)
    refuse(0, 'malformed', null, `${beyond} frames beyond ${MAX_FRAMES_PER_MESSAGE} in one message`, beyond);
  for (const e of entries) {
    if (!e.refusal) continue;
    refuse(e.port, e.refusal.reason, e.packetId, e.refusal.message);
    frameSeen(e.port, e.packetId, e.frame, e.refusal.reason);
  }
  const live = entries.filter((e) => !e.refusal);

  let records = 0;
  try {
    const defs = await definitionsOf(app, gateway.companyId, [...new Set(live.map((e) => e.packetId!))]);
    const pending: Pending[] = [];
    for (const entry of live) {
      const { port } = entry;
      const packetId = entry.packetId!;
      tallyOf(port).lastFrameAt = arrival;
      const def = defs.get(packetId);
      if (!def) {
        refuse(port, 'unknownPacket', packetId, `packet ${packetId} is not one of the company's`);
        frameSeen(port, packetId, entry.frame, 'unknownPacket');
        continue;
      }
      if (!def.parser || def.parser.values.length === 0) {
        refuse(port, 'unknownPacket', packetId, `packet ${packetId} has no parser`);
        frameSeen(port, packetId, entry.frame, 'unknownPacket');
        continue;
      }
      const decoded = decodeFrame(entry.frame!, def.packet, def.parser);
      if (decoded.frameError) {
        const { problem, key, params } = decoded.frameError;
        refuse(port, PROBLEM_REASON[problem], packetId, messageFor(key, 'en', params));
        frameSeen(port, packetId, entry.frame, PROBLEM_REASON[problem]);
        continue;
      }
      const parserValues = def.parser.values;
      frameSeen(
        port,
        packetId,
        entry.frame,
        'ok',
        decoded.values.map((v): FlowValue => {
          const bound = parserValues[v.index];
          return {
            name: bound?.name ?? '',
            value: v.ok ? v.value : null,
            error: v.ok ? null : v.key,
            itemId: bound?.itemId ?? null,
            fieldKey: bound?.fieldKey ?? null,
          };
        }),
      );
      const failed = decoded.values.find((v) => !v.ok);
      if (failed && !failed.ok)
        refuse(port, 'decodeErrors', packetId, messageFor(failed.key, 'en', failed.params));
      const frameRecords = recordsOfFrame(decoded, def.parser.values).map(
        (r): IngestRecord => ({ itemId: r.itemId, ts: entry.ts, values: r.values }),
      );
      if (frameRecords.length === 0) continue;
      pending.push({
        port,
        packetId,
        saver: def.parser.updatedBy,
        records: frameRecords,
        written: 0,
        refused: 0,
        error: null,
      });
    }
    records = await writeRecords(app, gateway, pending);
    for (const p of pending) {
      if (p.written > 0) tallyOf(p.port).counts.stored += 1;
      if (p.refused > 0) {
        const text = p.error
          ? describeError(p.error)
          : 'the person who saved the parser may no longer write into a bound item';
        refuse(p.port, 'refused', p.packetId, text);
      }
    }
  } catch (error) {
    // the database is away: count what was in flight, never throw at the gateway's message loop
    app.log.error({ err: error, sn: gateway.sn }, 'frames could not be stored');
    for (const e of live) refuse(e.port, 'refused', e.packetId, 'the platform could not store the frame');
  }

  const counters = frameCountersOf(app);
  for (const [port, tally] of ports) counters.add(gateway.companyId, gateway.sn.slice(0, 32), port, tally);
  const total: FrameTally = { ...emptyCounts(), records };
  for (const t of ports.values())
    for (const k of Object.keys(t.counts) as Array<keyof FrameCounts>) total[k] += t.counts[k];
  return total;
}

/**
 * Writes the decoded records: those the saver may no longer write are refused, the others go
 * through the pipeline, one call per record so that an item refusing its record keeps none of
 * the frame's other items from theirs. Answers the number of records written.
 */
async function writeRecords(app: App, gateway: FrameGateway, pending: Pending[]): Promise<number> {
  if (pending.length === 0) return 0;
  const allowed = new Map<number, Set<number>>();
  for (const saver of new Set(pending.map((p) => p.saver))) {
    if (saver == null) continue;
    const itemIds = pending.filter((p) => p.saver === saver).flatMap((p) => p.records.map((r) => r.itemId));
    allowed.set(saver, await writableBy(app, gateway.companyId, saver, itemIds));
  }
  const calls: IngestRecord[][] = [];
  const owners: Pending[] = [];
  for (const p of pending) {
    const may = p.saver == null ? undefined : allowed.get(p.saver);
    for (const record of p.records) {
      if (!may?.has(record.itemId)) {
        p.refused += 1;
        continue;
      }
      calls.push([record]);
      owners.push(p);
    }
  }
  if (calls.length === 0) return 0;
  const results = await app.ingest.writeEach(
    { companyId: gateway.companyId, userId: null, source: 'gateway' },
    calls,
  );
  let written = 0;
  const at = new Date().toISOString();
  results.forEach((result, i) => {
    const owner = owners[i]!;
    if ('ids' in result) {
      owner.written += 1;
      written += result.ids.length;
      for (const record of calls[i]!)
        publishFlow(app, gateway, {
          kind: 'record',
          at,
          itemId: record.itemId,
          ts: new Date(record.ts ?? at).toISOString(),
          values: record.values as RecordValues,
        });
    } else {
      owner.refused += 1;
      owner.error ??= result.error;
    }
  });
  return written;
}

function describeError(error: unknown): string {
  if (error instanceof AppError) {
    const data = error.data as { message?: string } | null;
    return data?.message || messageFor(error.key, 'en', error.params);
  }
  return 'the platform could not store the record';
}

/** the last log time and what was left out since, per company, gateway, port and reason */
const logged = new Map<string, { at: number; suppressed: number }>();

function logRefusal(
  app: App,
  gateway: FrameGateway,
  port: number,
  reason: FrameReason,
  packetId: number | null,
  text: string,
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
    `serial frame not stored: ${text}`,
  );
}

/** A flow event of the gateway on the live bus (nothing when nobody of the company listens). */
function publishFlow(app: App, gateway: FrameGateway, flow: FlowEvent): void {
  if (gateway.id === undefined) return;
  app.live.publishDevice({ type: 'flow', companyId: gateway.companyId, gatewayId: gateway.id, flow });
}
