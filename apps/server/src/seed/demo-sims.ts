/**
 * The demo's SIM cards: eight in the demo company's gateways (the three carriers, plans from
 * 100 MB to 2 GB, one card moved from one gateway to another and not yet acknowledged) and
 * four in the platform's stock, with three weeks of usage readings every four hours, as the
 * simulated carrier would have reported them, so the list and the usage charts show data at once.
 */
import { luhnCheckDigit, type SimState } from '@platform/domain';
import type { DemoLang } from '../config';
import { SimulatedCarrier } from '../modules/sims/carrier';
import { simCards, simSightings, simUsage } from '../modules/sims/tables';
import type { Db } from '../platform/db';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function withCheckDigit(body: string): string {
  return `${body}${luhnCheckDigit(body)}`;
}

interface DemoCard {
  iccid: string;
  carrier: 1 | 2 | 3;
  planMb: number | null;
  msisdn: string | null;
  holder: string | null;
  notes: Record<DemoLang, string>;
  /** a gateway the card was in before its holder (the move is flagged) */
  movedFrom?: string;
}

const COMPANY_CARDS: DemoCard[] = [
  {
    iccid: withCheckDigit('8986002219180012345'),
    carrier: 1,
    planMb: 1024,
    msisdn: '1064812345601',
    holder: 'SDG2000001',
    notes: { zh: '1号锅炉房', en: 'Boiler room 1' },
  },
  {
    iccid: withCheckDigit('8986042219180012346'),
    carrier: 1,
    planMb: 500,
    msisdn: '1064812345602',
    holder: 'SDG2000002',
    notes: { zh: '产线 A 电表', en: 'Line A meters' },
  },
  {
    iccid: withCheckDigit('8986012219180012347'),
    carrier: 2,
    planMb: 2048,
    msisdn: '1440123456703',
    holder: 'SDG2000003',
    notes: { zh: '蒸汽计量', en: 'Steam metering' },
  },
  {
    iccid: withCheckDigit('8986062219180012348'),
    carrier: 2,
    planMb: 100,
    msisdn: null,
    holder: 'SDG2000005',
    notes: { zh: '从 2 号泵房移来？', en: 'Taken from pump house 2?' },
    movedFrom: 'SDG2000004',
  },
  {
    iccid: '89860319180012345609',
    carrier: 3,
    planMb: 300,
    msisdn: '1410012345609',
    holder: 'SDG2000006',
    notes: { zh: '仓库温湿度', en: 'Warehouse climate' },
  },
  {
    iccid: '89861119180012345610',
    carrier: 3,
    planMb: 1024,
    msisdn: null,
    holder: 'SDG2000007',
    notes: { zh: '', en: '' },
  },
  {
    iccid: withCheckDigit('8986002219180012351'),
    carrier: 1,
    planMb: 200,
    msisdn: '1064812345611',
    holder: 'SDG2000008',
    notes: { zh: '备用网关', en: 'Spare gateway' },
  },
  {
    iccid: withCheckDigit('8986012219180012352'),
    carrier: 2,
    planMb: null,
    msisdn: null,
    holder: null,
    notes: { zh: '未装入网关', en: 'Not in a gateway yet' },
  },
];

const STOCK_CARDS: DemoCard[] = [0, 1, 2, 3].map((i) => ({
  iccid: withCheckDigit(`89860022191800200${String(i).padStart(2, '0')}`),
  carrier: 1,
  planMb: 1024,
  msisdn: null,
  holder: null,
  notes: { zh: '', en: '' },
}));

export async function seedDemoSims(
  db: Db,
  opts: { companyId: number; lang: DemoLang; now?: Date; days?: number },
): Promise<void> {
  const now = opts.now?.getTime() ?? Date.now();
  const days = opts.days ?? 21;
  const start = now - days * DAY;
  const carriers = { 1: new SimulatedCarrier(1), 2: new SimulatedCarrier(2), 3: new SimulatedCarrier(3) };
  for (const [list, companyId] of [
    [COMPANY_CARDS, opts.companyId],
    [STOCK_CARDS, null],
  ] as const) {
    for (const spec of list) {
      // the carrier's answers every four hours: the history the sync would have written
      let state: SimState = 0;
      let usedMb: number | null = null;
      let usageAsOf: Date | null = null;
      const readings: Array<{ asOf: Date; usedMb: number; state: number }> = [];
      for (let at = start; at <= now; at += 4 * HOUR) {
        const [answer] = await carriers[spec.carrier].getCards(
          [{ iccid: spec.iccid, carrier: spec.carrier, state, planMb: spec.planMb, usedMb, usageAsOf }],
          new Date(at),
        );
        if (!answer) break;
        state = answer.state;
        usedMb = answer.usedMb;
        usageAsOf = answer.asOf;
        readings.push({ asOf: answer.asOf, usedMb: answer.usedMb, state: answer.state });
      }
      const movedAt = new Date(now - 2 * DAY);
      const since = spec.movedFrom ? movedAt : new Date(start);
      const [card] = await db
        .insert(simCards)
        .values({
          iccid: spec.iccid,
          companyId,
          assignedAt: companyId === null ? null : new Date(start - DAY),
          carrier: spec.carrier,
          state,
          msisdn: spec.msisdn,
          planMb: spec.planMb,
          usedMb,
          usageAsOf,
          notes: spec.notes[opts.lang],
          holderSn: spec.holder,
          holderSince: spec.holder ? since : null,
          holderSeenAt: spec.holder ? new Date(now - HOUR) : null,
          moved: Boolean(spec.movedFrom),
          movedFrom: spec.movedFrom ?? null,
          movedTo: spec.movedFrom ? spec.holder : null,
          movedAt: spec.movedFrom ? movedAt : null,
          syncedAt: usageAsOf,
          createdAt: new Date(start - DAY),
        })
        .returning({ id: simCards.id });
      const simId = card!.id;
      if (readings.length > 0) {
        await db
          .insert(simUsage)
          .values(readings.map((r) => ({ simId, ...r })))
          .onConflictDoNothing();
      }
      const stays = [
        ...(spec.movedFrom
          ? [
              {
                simId,
                gatewaySn: spec.movedFrom,
                firstSeen: new Date(start),
                lastSeen: new Date(movedAt.getTime() - 6 * HOUR),
              },
            ]
          : []),
        ...(spec.holder
          ? [{ simId, gatewaySn: spec.holder, firstSeen: since, lastSeen: new Date(now - HOUR) }]
          : []),
      ];
      if (stays.length > 0) await db.insert(simSightings).values(stays);
    }
  }
}
