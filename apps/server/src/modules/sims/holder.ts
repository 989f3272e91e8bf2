/**
 * Where a card is. The holder of a card is the gateway that last reported its ICCID (the
 * birth message's `iccid`, docs/device-protocol.md). When another gateway reports it, the card
 * has moved: it is flagged with from, to and when, until someone acknowledges it on the
 * card's page. Each stay in a gateway is one sighting row, from the first report to the last.
 *
 * Reports of one card are serialised by a row lock on the card, so two server nodes handling
 * two gateways' birth messages at once cannot both take the card as "first" or lose a move.
 */
import { holderChange, normaliseIccid } from '@platform/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { simCards, simSightings } from './tables';

export interface SightingOutcome {
  kind: 'unknownCard' | 'stale' | 'first' | 'same' | 'moved';
  /** the card's ICCID as the platform keeps it */
  iccid: string;
  /** the holder before a move */
  from: string | null;
}

/** A gateway (by serial number) reported the card `iccid` at `at`. */
export async function recordSighting(
  db: Db,
  report: { iccid: string; serialNumber: string },
  at: Date,
): Promise<SightingOutcome> {
  const iccid = normaliseIccid(report.iccid);
  const sn = report.serialNumber.toUpperCase();
  return db.transaction(async (tx) => {
    const [card] = await tx.select().from(simCards).where(eq(simCards.iccid, iccid)).for('update');
    if (!card) return { kind: 'unknownCard', iccid, from: null };
    // a report older than what the card already knows (a delayed message) changes nothing
    if (card.holderSeenAt && card.holderSeenAt.getTime() > at.getTime())
      return { kind: 'stale', iccid, from: null };
    const change = holderChange(card.holderSn, sn);
    if (change === 'same') {
      await tx.update(simCards).set({ holderSeenAt: at }).where(eq(simCards.id, card.id));
      const [stay] = await tx
        .select({ id: simSightings.id })
        .from(simSightings)
        .where(and(eq(simSightings.simId, card.id), eq(simSightings.gatewaySn, sn)))
        .orderBy(desc(simSightings.firstSeen))
        .limit(1);
      if (stay) await tx.update(simSightings).set({ lastSeen: at }).where(eq(simSightings.id, stay.id));
      else
        await tx.insert(simSightings).values({ simId: card.id, gatewaySn: sn, firstSeen: at, lastSeen: at });
      return { kind: 'same', iccid, from: null };
    }
    await tx
      .update(simCards)
      .set({
        holderSn: sn,
        holderSince: at,
        holderSeenAt: at,
        updatedAt: new Date(),
        ...(change === 'moved' ? { moved: true, movedFrom: card.holderSn, movedTo: sn, movedAt: at } : {}),
      })
      .where(eq(simCards.id, card.id));
    await tx.insert(simSightings).values({ simId: card.id, gatewaySn: sn, firstSeen: at, lastSeen: at });
    return { kind: change, iccid, from: change === 'moved' ? card.holderSn : null };
  });
}
