/**
 * The demo's SIM cards: eight in the demo company's gateways (the three carriers, plans that
 * put the usage bars in every colour of the scale, one card moved from one gateway to another
 * and not yet acknowledged, one suspended keeping its number) and four unused in the
 * platform's stock, with three weeks of usage readings every four hours, as the
 * simulated carrier would have reported them, so the list and the usage charts show data at once.
 */
import { luhnCheckDigit, type SimState } from '@platform/domain';
import type { DemoLang } from '../config';
import { billingMonthStart, SimulatedCarrier, simulatedUsage } from '../modules/sims/carrier';
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
  /**
   * the plan: a fixed one, or `fill`, the share of its plan the card would have used by the end
   * of the month (the plan is chosen from the simulated usage, so the bars show every colour)
   */
  plan: { mb: number | null } | { fill: number };
  msisdn: string | null;
  holder: string | null;
  notes: Record<DemoLang, string>;
  /** a gateway the card was in before its holder (the move is flagged) */
  movedFrom?: string;
  /** the state the carrier starts from (else the simulated carrier's own pick) */
  state?: SimState;
}

// ICCIDs picked so the simulated carrier starts each in a normal state (the last one silent)
const COMPANY_CARDS: DemoCard[] = [
  // the cards of the demo fleet's gateways (seed/demo-gateways.ts when present): the same
  // serial numbers, and the ICCIDs their birth messages should name
  {
    iccid: '89860012345678900107',
    carrier: 1,
    plan: { fill: 0.2 },
    msisdn: '1064812345601',
    holder: 'SDG2024000101',
    notes: { zh: '锅炉房采集网关', en: 'Boiler room gateway' },
  },
  {
    iccid: '89860012345678900115',
    carrier: 1,
    plan: { fill: 0.45 },
    msisdn: '1064812345602',
    holder: 'SDG2024000102',
    notes: { zh: '空压站网关', en: 'Compressor room gateway' },
  },
  {
    iccid: '89860012345678900123',
    carrier: 1,
    plan: { fill: 0.65 },
    msisdn: '1440123456703',
    holder: 'SDG4024000103',
    notes: { zh: '配电室网关', en: 'Switch room gateway' },
  },
  {
    iccid: '89860622191800123107',
    carrier: 2,
    plan: { fill: 1.25 },
    msisdn: null,
    holder: 'SDG2024000202',
    notes: { zh: '从 2 号泵房移来？', en: 'Taken from pump house 2?' },
    movedFrom: 'SDG2024000201',
  },
  {
    iccid: '89860319180012345609',
    carrier: 3,
    plan: { fill: 0.85 },
    msisdn: '1410012345609',
    holder: 'SDG2024000203',
    notes: { zh: '仓库温湿度', en: 'Warehouse climate' },
  },
  {
    iccid: '89861119180012345610',
    carrier: 3,
    plan: { fill: 0.3 },
    msisdn: null,
    holder: 'SDG2024000204',
    notes: { zh: '', en: '' },
  },
  {
    iccid: '89860012345678900131',
    carrier: 1,
    plan: { mb: 200 },
    msisdn: '1064812345611',
    holder: 'SDG2024000104',
    notes: { zh: '备用网关，停机保号', en: 'Spare gateway, suspended keeping its number' },
    state: 6,
  },
  {
    iccid: '89860122191800124373',
    carrier: 2,
    plan: { mb: null },
    msisdn: null,
    holder: null,
    notes: { zh: '未装入网关', en: 'Not in a gateway yet' },
  },
];

// cards waiting in the platform's stock have not been used: silent period
const STOCK_CARDS: DemoCard[] = [0, 1, 2, 3].map((i) => ({
  iccid: withCheckDigit(`89860022191800200${String(i).padStart(2, '0')}`),
  carrier: 1,
  plan: { mb: 1024 },
  msisdn: null,
  holder: null,
  notes: { zh: '', en: '' },
  state: 3,
}));

const NICE_PLANS = [100, 200, 300, 500, 1024, 2048, 3072, 5120, 10240, 20480];

/** The usual plan size that makes `used` the share `fill` of it. */
function planFor(used: number, fill: number): number {
  const wanted = used / fill;
  return NICE_PLANS.reduce((best, plan) => (Math.abs(plan - wanted) < Math.abs(best - wanted) ? plan : best));
}

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
      // the 28th day is in every month: what the card will have used by then
      const monthEnd = billingMonthStart(now) + 28 * DAY;
      const planMb =
        'fill' in spec.plan ? planFor(simulatedUsage(spec.iccid, monthEnd), spec.plan.fill) : spec.plan.mb;
      // the carrier's answers every four hours: the history the sync would have written
      let state: SimState = spec.state ?? 0;
      let usedMb: number | null = null;
      let usageAsOf: Date | null = null;
      const readings: Array<{ asOf: Date; usedMb: number; state: number }> = [];
      for (let at = start; at <= now; at += 4 * HOUR) {
        const [answer] = await carriers[spec.carrier].getCards(
          [{ iccid: spec.iccid, carrier: spec.carrier, state, planMb, usedMb, usageAsOf }],
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
          planMb,
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
