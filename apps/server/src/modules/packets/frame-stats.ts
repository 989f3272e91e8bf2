/** The frame counters of a company's gateway ports (frames.ts writes them), for the device page. */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { type FrameRefusal, frameStats } from './tables';

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
