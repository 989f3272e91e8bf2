/**
 * Carrier adapters: how the platform learns a card's state, usage and as-of time from its
 * carrier, and asks the carrier to suspend or resume it (docs/sim-cards.md).
 *
 * The three Chinese carriers each run an IoT card platform with an HTTPS API (China Mobile
 * OneLink, China Unicom's Jasper-based platform, China Telecom's CMP): an adapter wraps one
 * of them behind `CarrierAdapter`. None of them can be reached from here, so the only adapter
 * built is the simulated carrier of the embedded default; `SIM_CARRIER_ADAPTER` picks the
 * adapter at start-up (`simulated`, or `off`), and a real one would be added under its own
 * name (say `onelink`) with its credentials in variables of its own.
 *
 * The simulated carrier is deterministic, a function of the card and the time only, so every
 * node and every test sees the same numbers:
 * - usage of the billing month (months begin at midnight in China, UTC+8) grows each day by a
 *   rate taken from the ICCID's hash (1-60 MB a day, whatever the plan: a device sends what it
 *   sends, so small plans run over), each day weighted 0.5-1.5 by the hash of the card and the day;
 * - the carrier's data lags: a reading is as of the last quarter hour;
 * - states: a card the carrier has not told a state yet starts normal, one in eleven in its
 *   test period and one in thirteen in its silent period (no data used); a test-period card
 *   becomes normal once it has used 50 MB; a normal card past 150 % of its plan is suspended;
 *   suspended cards stay so (usage frozen) until resumed;
 * - it knows only cards of its carrier: a card whose ICCID names another carrier's issuer
 *   is unknown to it (the card's sync then says so).
 */
import {
  canonicalSimState,
  carrierOfIccid,
  type SimCarrier,
  type SimState,
  type SimStateAction,
  simStateAfter,
} from '@platform/domain';

/** What the platform knows of a card when it asks (a real carrier needs only the ICCID). */
export interface CarrierCardQuery {
  iccid: string;
  carrier: SimCarrier;
  state: SimState;
  planMb: number | null;
  usedMb: number | null;
  usageAsOf: Date | null;
}

/** A card as its carrier reports it. */
export interface CarrierCard {
  iccid: string;
  state: SimState;
  /** the carrier's plan for the card, when it reports one */
  planMb: number | null;
  /** data used in the current billing month */
  usedMb: number;
  /** when the carrier's figures are from */
  asOf: Date;
}

export interface CarrierAdapter {
  readonly name: string;
  /** cards a call may ask about at once (the carriers' APIs take batches) */
  readonly batchSize: number;
  /** the cards it knows, in any order; a card it does not know is left out */
  getCards(cards: CarrierCardQuery[], now: Date): Promise<CarrierCard[]>;
  /** asks the carrier to suspend or resume a card; resolves with the state the card is in then */
  setState(card: CarrierCardQuery, action: SimStateAction): Promise<SimState>;
}

/** The adapters of a running server: one per carrier, or none (no connection set up). */
export interface Carriers {
  readonly mode: CarrierMode;
  forCarrier(carrier: SimCarrier): CarrierAdapter | null;
}

export type CarrierMode = 'simulated' | 'off';

declare module 'fastify' {
  interface FastifyInstance {
    /** the carrier adapters SIM_CARRIER_ADAPTER chose */
    simCarriers: Carriers;
  }
}

/** Thrown by an adapter that could not reach its carrier or was refused by it. */
export class CarrierError extends Error {}

/** Thrown by setState when the carrier does not allow the change from the card's state. */
export class CarrierRefusal extends Error {}

// ------------------------------------------------------------------ the simulated carrier

const DAY = 86_400_000;
const QUARTER_HOUR = 15 * 60_000;
/** China's clock: billing months begin at its midnight */
const CHINA_OFFSET = 8 * 3_600_000;

/** FNV-1a, 32 bits: a stable number per text */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function fraction(text: string): number {
  return hash(text) / 0x1_0000_0000;
}

/** The start of the billing month `at` falls in (UTC+8 midnight of the 1st). */
export function billingMonthStart(at: number): number {
  const china = new Date(at + CHINA_OFFSET);
  return Date.UTC(china.getUTCFullYear(), china.getUTCMonth(), 1) - CHINA_OFFSET;
}

/** MB a day the card uses on average: what its device sends, whatever the plan */
function dailyRate(iccid: string): number {
  return 1 + 59 * fraction(`rate:${iccid}`);
}

/** The simulated card's usage of the billing month up to `at`, in MB (two decimals). */
export function simulatedUsage(iccid: string, at: number): number {
  const start = billingMonthStart(at);
  const rate = dailyRate(iccid);
  let used = 0;
  for (let day = start; day < at; day += DAY) {
    const weight = 0.5 + fraction(`day:${iccid}:${day}`);
    used += (rate * weight * (Math.min(at, day + DAY) - day)) / DAY;
  }
  return Math.round(used * 100) / 100;
}

export function simulatedInitialState(iccid: string): SimState {
  const h = hash(`state:${iccid}`);
  if (h % 11 === 0) return 5;
  if (h % 13 === 0) return 3;
  return 1;
}

export class SimulatedCarrier implements CarrierAdapter {
  readonly name = 'simulated';
  readonly batchSize = 100;

  constructor(readonly carrier: SimCarrier) {}

  private knows(iccid: string): boolean {
    const issuer = carrierOfIccid(iccid);
    return issuer === null || issuer === this.carrier;
  }

  async getCards(cards: CarrierCardQuery[], now: Date): Promise<CarrierCard[]> {
    const asOf = Math.floor(now.getTime() / QUARTER_HOUR) * QUARTER_HOUR;
    const known: CarrierCard[] = [];
    for (const card of cards) {
      if (!this.knows(card.iccid)) continue;
      let state = canonicalSimState(card.state);
      if (state === 0) state = simulatedInitialState(card.iccid);
      let usedMb: number;
      if (state === 2 || state === 6) {
        // a suspended card uses nothing: its figure stays, and starts again with a new month
        const sameMonth =
          card.usageAsOf !== null && billingMonthStart(card.usageAsOf.getTime()) === billingMonthStart(asOf);
        usedMb = sameMonth ? (card.usedMb ?? 0) : 0;
      } else if (state === 3) {
        usedMb = 0;
      } else {
        usedMb = simulatedUsage(card.iccid, asOf);
        if (state === 5 && usedMb >= 50) state = 1;
        if (state === 1 && card.planMb && usedMb > card.planMb * 1.5) state = 2;
      }
      known.push({ iccid: card.iccid, state, planMb: card.planMb, usedMb, asOf: new Date(asOf) });
    }
    return known;
  }

  async setState(card: CarrierCardQuery, action: SimStateAction): Promise<SimState> {
    if (!this.knows(card.iccid)) throw new CarrierError('unknown card');
    const next = simStateAfter(card.state, action);
    if (!next.ok) throw new CarrierRefusal(action);
    return next.state;
  }
}

/** The adapters SIM_CARRIER_ADAPTER names. */
export function createCarriers(mode: CarrierMode): Carriers {
  const adapters = new Map<SimCarrier, CarrierAdapter>();
  if (mode === 'simulated') {
    for (const carrier of [1, 2, 3] as const) adapters.set(carrier, new SimulatedCarrier(carrier));
  }
  return { mode, forCarrier: (carrier) => adapters.get(carrier) ?? null };
}

/** SIM_CARRIER_ADAPTER: `simulated` or `off`; anything else is refused naming the variable. */
export function carrierMode(value: string | undefined, production: boolean): CarrierMode {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return production ? 'off' : 'simulated';
  if (v === 'simulated' || v === 'off') return v;
  throw new Error(
    `SIM_CARRIER_ADAPTER must be simulated or off, not "${value}": no adapter of a real carrier is built in this version (docs/sim-cards.md says how to add one)`,
  );
}
