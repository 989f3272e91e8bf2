/**
 * Writing an import's good rows, in one transaction: all of them or, if the database fails
 * midway, none. A row whose ICCID is new to the platform makes a card (the company's own when
 * a company imports; the platform's stock when system maintenance does); a row of a card the
 * importer already has updates the cells it fills. A company's row naming a card that is
 * registered elsewhere (another company's, or the stock) is rejected: cards from the stock
 * reach a company by the operator's assignment, not by typing their numbers.
 */
import { carrierOfIccid, type Lang, messageFor } from '@platform/domain';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { reportedHolders } from './gateway-link';
import type { Scope } from './service';
import type { CheckedSim, Rejected } from './sim-io';
import { simCards, simSightings } from './tables';

const CHUNK = 500;

export async function writeImport(
  db: Db,
  scope: Scope,
  rows: CheckedSim[],
  lang: Lang,
  now = new Date(),
): Promise<{ inserted: number; updated: number; rejected: Rejected[] }> {
  const rejected: Rejected[] = [];
  let inserted = 0;
  let updated = 0;
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      const fresh: CheckedSim[] = [];
      const lockExisting = async (batch: CheckedSim[]) =>
        new Map(
          (
            await tx
              .select({ id: simCards.id, iccid: simCards.iccid, companyId: simCards.companyId })
              .from(simCards)
              .where(
                inArray(
                  simCards.iccid,
                  batch.map((r) => r.iccid),
                ),
              )
              .for('update')
          ).map((c) => [c.iccid, c]),
        );
      const applyToExisting = async (row: CheckedSim, card: { id: number; companyId: number | null }) => {
        if (scope.kind === 'company' && card.companyId !== scope.companyId) {
          rejected.push({ row: row.row, column: 'iccid', message: messageFor('simOwnedElsewhere', lang) });
          return;
        }
        const set: Partial<typeof simCards.$inferInsert> = { updatedAt: now };
        if (row.carrier !== undefined) set.carrier = row.carrier;
        if (row.state !== undefined) set.state = row.state;
        if (row.planMb !== undefined) set.planMb = row.planMb;
        if (row.msisdn !== undefined) set.msisdn = row.msisdn;
        if (row.notes !== undefined) set.notes = row.notes;
        await tx.update(simCards).set(set).where(eq(simCards.id, card.id));
        updated += 1;
      };
      const existing = await lockExisting(chunk);
      for (const row of chunk) {
        const card = existing.get(row.iccid);
        if (card) await applyToExisting(row, card);
        else fresh.push(row);
      }
      if (fresh.length === 0) continue;
      const holders = await reportedHolders(
        tx,
        fresh.map((r) => r.iccid),
      );
      const made = await tx
        .insert(simCards)
        .values(
          fresh.map((row) => {
            const holder = holders.get(row.iccid);
            return {
              iccid: row.iccid,
              companyId: scope.kind === 'company' ? scope.companyId : null,
              assignedAt: scope.kind === 'company' ? now : null,
              carrier: row.carrier ?? carrierOfIccid(row.iccid) ?? 0,
              state: row.state ?? 0,
              planMb: row.planMb ?? null,
              msisdn: row.msisdn ?? null,
              notes: row.notes ?? '',
              holderSn: holder?.serialNumber ?? null,
              holderSince: holder ? holder.seenAt : null,
              holderSeenAt: holder ? holder.seenAt : null,
              createdAt: now,
              updatedAt: now,
            };
          }),
        )
        // another import may have registered the same ICCID since the lock above (a row that
        // did not exist could not be locked): its row waits for that import to commit, is then
        // left alone here, and is taken below as the card it now is
        .onConflictDoNothing({ target: simCards.iccid })
        .returning({ id: simCards.id, iccid: simCards.iccid });
      inserted += made.length;
      if (made.length < fresh.length) {
        const madeHere = new Set(made.map((c) => c.iccid));
        const raced = fresh.filter((r) => !madeHere.has(r.iccid));
        const settled = await lockExisting(raced);
        for (const row of raced) {
          const card = settled.get(row.iccid);
          if (card) await applyToExisting(row, card);
        }
      }
      const sightings = made.flatMap((card) => {
        const holder = holders.get(card.iccid);
        return holder
          ? [
              {
                simId: card.id,
                gatewaySn: holder.serialNumber,
                firstSeen: holder.seenAt,
                lastSeen: holder.seenAt,
              },
            ]
          : [];
      });
      if (sightings.length > 0) await tx.insert(simSightings).values(sightings);
    }
  });
  rejected.sort((x, y) => x.row - y.row);
  return { inserted, updated, rejected };
}
