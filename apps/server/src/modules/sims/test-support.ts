/**
 * Test fixtures of SIM cards: cards written straight into the tables, and ICCIDs that pass
 * the domain's rules. Not imported by production code.
 */
import { luhnCheckDigit } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../test/helper';
import { simCards, simSightings, simUsage } from './tables';

let serial = 0;

/** A China Mobile ICCID (898600…), 20 digits with its Luhn digit, new on each call. */
export function testIccid(seed?: number): string {
  serial += 1;
  const n = seed ?? (process.pid % 100_000) * 100_000 + serial;
  const body = `898600${String(n).padStart(13, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
}

export async function makeCard(
  t: TestApp,
  companyId: number | null,
  values: Partial<typeof simCards.$inferInsert> = {},
): Promise<typeof simCards.$inferSelect> {
  const now = new Date();
  const [card] = await t.db
    .insert(simCards)
    .values({
      iccid: testIccid(),
      companyId,
      assignedAt: companyId === null ? null : new Date(now.getTime() - 30 * 86_400_000),
      carrier: 1,
      state: 1,
      planMb: 1024,
      usedMb: 512,
      usageAsOf: new Date(now.getTime() - 3_600_000),
      notes: 'victim card',
      ...values,
    })
    .returning();
  return card!;
}

/** A card that was in gateway GWA00001 and is now in GWB00002 (flagged), with readings. */
export async function makeMovedCard(t: TestApp, companyId: number | null) {
  const hour = 3_600_000;
  const now = Date.now();
  const card = await makeCard(t, companyId, {
    holderSn: 'GWB00002',
    holderSince: new Date(now - hour),
    holderSeenAt: new Date(now - hour),
    moved: true,
    movedFrom: 'GWA00001',
    movedTo: 'GWB00002',
    movedAt: new Date(now - hour),
  });
  await t.db.insert(simSightings).values([
    {
      simId: card.id,
      gatewaySn: 'GWA00001',
      firstSeen: new Date(now - 5 * hour),
      lastSeen: new Date(now - 2 * hour),
    },
    {
      simId: card.id,
      gatewaySn: 'GWB00002',
      firstSeen: new Date(now - hour),
      lastSeen: new Date(now - hour),
    },
  ]);
  await t.db.insert(simUsage).values([
    { simId: card.id, asOf: new Date(now - 4 * hour), usedMb: 400, state: 1 },
    { simId: card.id, asOf: new Date(now - hour), usedMb: 512, state: 1 },
  ]);
  return card;
}

export async function cardById(t: TestApp, id: number) {
  const [card] = await t.db.select().from(simCards).where(eq(simCards.id, id));
  return card!;
}
