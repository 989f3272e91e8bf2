/**
 * The frame counters of gateway ports (frames.ts adds to them), kept in `frame_stats`. Counts
 * are added in memory and written at most once a second per server node, one statement for
 * every port touched since (increments, so several nodes add up): a busy fleet does not turn
 * every message into a write. A crash loses at most the last second of counts, never records.
 */

import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { FRAME_REASONS, type FrameReason, type FrameRefusal, frameStats } from './tables';

export type FrameCounts = Record<'stored' | FrameReason, number>;

export function emptyCounts(): FrameCounts {
  const counts = { stored: 0 } as FrameCounts;
  for (const reason of FRAME_REASONS) counts[reason] = 0;
  return counts;
}

export interface PortTally {
  counts: FrameCounts;
  lastError: FrameRefusal | null;
  lastFrameAt: Date | null;
}

const FLUSH_EVERY_MS = 1_000;

interface Pending extends PortTally {
  companyId: number;
  sn: string;
  port: number;
}

class FrameCounters {
  private pending = new Map<string, Pending>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  add(companyId: number, sn: string, port: number, tally: PortTally): void {
    const key = `${companyId}:${sn}:${port}`;
    let p = this.pending.get(key);
    if (!p) {
      p = { companyId, sn, port, counts: emptyCounts(), lastError: null, lastFrameAt: null };
      this.pending.set(key, p);
    }
    for (const k of Object.keys(p.counts) as Array<keyof FrameCounts>) p.counts[k] += tally.counts[k];
    if (tally.lastError) p.lastError = tally.lastError;
    if (tally.lastFrameAt) p.lastFrameAt = tally.lastFrameAt;
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
      this.timer.unref?.();
    }
  }

  /** Writes what is pending; resolves once it (and any write before it) is done. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const rows = [...this.pending.values()].map((p) => ({
      companyId: p.companyId,
      sn: p.sn,
      port: p.port,
      ...p.counts,
      lastError: p.lastError,
      lastFrameAt: p.lastFrameAt,
    }));
    this.pending = new Map();
    this.writing = this.writing.then(() => (rows.length > 0 ? this.write(rows) : undefined));
    return this.writing;
  }

  private async write(rows: Array<typeof frameStats.$inferInsert>): Promise<void> {
    const add = (column: string) => sql.raw(`frame_stats.${column} + excluded.${column}`);
    try {
      await this.db
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
      // counters are for people: a failed write is logged, the frames' records are not touched
      this.log.warn({ err: error, ports: rows.length }, 'frame counters could not be saved');
    }
  }
}

const counters = new WeakMap<Db, FrameCounters>();

/** The counters of this server node for the app's database. */
export function frameCountersOf(app: Pick<App, 'db' | 'log'>): FrameCounters {
  let found = counters.get(app.db);
  if (!found) {
    found = new FrameCounters(app.db, app.log);
    counters.set(app.db, found);
  }
  return found;
}

/** Writes the counts still in memory (before reading them, and when the server stops). */
export function flushFrameCounters(app: Pick<App, 'db' | 'log'>): Promise<void> {
  return counters.get(app.db)?.flush() ?? Promise.resolve();
}

export interface PortStats {
  sn: string;
  port: number;
  stored: number;
  badCrc: number;
  wrongLength: number;
  badAnswer: number;
  unknownPacket: number;
  decodeErrors: number;
  refused: number;
  malformed: number;
  lastError: FrameRefusal | null;
  lastFrameAt: string | null;
}

/** Every port of the company's gateways, or of one gateway (serial numbers are upper case). */
export async function frameStatsOf(db: Db, companyId: number, sn?: string): Promise<PortStats[]> {
  const rows = await db
    .select()
    .from(frameStats)
    .where(
      and(eq(frameStats.companyId, companyId), sn ? eq(frameStats.sn, sn.trim().toUpperCase()) : undefined),
    )
    .orderBy(asc(frameStats.sn), asc(frameStats.port))
    .limit(2000);
  return rows.map(({ companyId: _, lastFrameAt, ...row }) => ({
    ...row,
    lastFrameAt: lastFrameAt ? lastFrameAt.toISOString() : null,
  }));
}
