/**
 * The carrier sync: asks each card's carrier for its state and usage, and keeps a usage
 * reading per card and as-of time (the detail page's chart).
 *
 * Scheduled every SIM_SYNC_MINUTES (240 by default, 0 = never), the way the analysis
 * scheduler fires its jobs once across nodes: every node ticks once a minute; a tick computes
 * the current slot (the time divided into whole intervals since 1970) and claims it by
 * inserting its sim_sync_runs row, whose unique (fire time, manual) lets exactly one tick on
 * one node win (platform/period-claim.ts). A node that was down runs the current slot when it comes back, never the
 * missed ones (usage is a running figure: the latest reading says it all). "Sync now" in
 * system maintenance runs at once, with a run row of its own.
 */
import type { SimCarrier, SimState, SimStateAction } from '@platform/domain';
import { and, asc, eq, gt, inArray, ne } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { claimOnce, periodicTask, periodStart } from '../../platform/period-claim';
import {
  type CarrierAdapter,
  type CarrierCardQuery,
  CarrierError,
  CarrierRefusal,
  type Carriers,
} from './carrier';
import { simCards, simSyncRuns, simUsage } from './tables';

/** cards read from the database at once */
const PAGE = 500;

export interface SyncResult {
  cards: number;
  updated: number;
  failed: number;
}

type Card = typeof simCards.$inferSelect;

function queryOf(card: Card): CarrierCardQuery {
  return {
    iccid: card.iccid,
    carrier: card.carrier as SimCarrier,
    state: card.state as SimState,
    planMb: card.planMb,
    usedMb: card.usedMb,
    usageAsOf: card.usageAsOf,
  };
}

async function syncBatch(db: Db, adapter: CarrierAdapter, cards: Card[], now: Date): Promise<SyncResult> {
  const result: SyncResult = { cards: cards.length, updated: 0, failed: 0 };
  let answers: Awaited<ReturnType<CarrierAdapter['getCards']>>;
  try {
    answers = await adapter.getCards(cards.map(queryOf), now);
  } catch {
    await db
      .update(simCards)
      .set({ syncError: 'carrierFailed' })
      .where(
        inArray(
          simCards.id,
          cards.map((c) => c.id),
        ),
      );
    return { ...result, failed: cards.length };
  }
  const byIccid = new Map(answers.map((a) => [a.iccid, a]));
  await db.transaction(async (tx) => {
    for (const card of cards) {
      const answer = byIccid.get(card.iccid);
      if (!answer) {
        result.failed += 1;
        await tx
          .update(simCards)
          .set({ syncError: 'unknownToCarrier', syncedAt: now })
          .where(eq(simCards.id, card.id));
        continue;
      }
      result.updated += 1;
      await tx
        .update(simCards)
        .set({
          state: answer.state,
          usedMb: answer.usedMb,
          usageAsOf: answer.asOf,
          // the plan is the platform's record; a carrier's plan only fills a card that has none
          planMb: card.planMb ?? answer.planMb,
          syncedAt: now,
          syncError: null,
        })
        .where(eq(simCards.id, card.id));
      await tx
        .insert(simUsage)
        .values({ simId: card.id, asOf: answer.asOf, usedMb: answer.usedMb, state: answer.state })
        .onConflictDoNothing();
    }
  });
  return result;
}

/**
 * Syncs the cards (all, or those of `ids`) whose carrier has an adapter; cards of carrier
 * "none" have nobody to ask and are left alone.
 */
export async function syncCards(
  db: Db,
  carriers: Carriers,
  opts: { ids?: number[]; now?: Date } = {},
): Promise<SyncResult> {
  const now = opts.now ?? new Date();
  const total: SyncResult = { cards: 0, updated: 0, failed: 0 };
  let after = 0;
  for (;;) {
    const page = await db
      .select()
      .from(simCards)
      .where(
        and(
          gt(simCards.id, after),
          ne(simCards.carrier, 0),
          opts.ids ? inArray(simCards.id, opts.ids) : undefined,
        ),
      )
      .orderBy(asc(simCards.id))
      .limit(PAGE);
    if (page.length === 0) break;
    after = page[page.length - 1]!.id;
    const byCarrier = new Map<number, Card[]>();
    for (const card of page) byCarrier.set(card.carrier, [...(byCarrier.get(card.carrier) ?? []), card]);
    for (const [carrier, cards] of byCarrier) {
      const adapter = carriers.forCarrier(carrier as SimCarrier);
      if (!adapter) continue;
      for (let i = 0; i < cards.length; i += adapter.batchSize) {
        const part = await syncBatch(db, adapter, cards.slice(i, i + adapter.batchSize), now);
        total.cards += part.cards;
        total.updated += part.updated;
        total.failed += part.failed;
      }
    }
    if (page.length < PAGE) break;
  }
  return total;
}

/** Runs a sync under a run row (claimed by the caller) and logs its outcome there. */
async function runLogged(app: App, runId: number, ids: number[] | undefined, now: Date): Promise<SyncResult> {
  try {
    const result = await syncCards(app.db, app.simCarriers, { ids, now });
    await app.db
      .update(simSyncRuns)
      .set({ status: 'ok', finishedAt: new Date(), ...result })
      .where(eq(simSyncRuns.id, runId));
    return result;
  } catch (error) {
    await app.db
      .update(simSyncRuns)
      .set({ status: 'failed', finishedAt: new Date(), message: String(error).slice(0, 1000) })
      .where(eq(simSyncRuns.id, runId));
    throw error;
  }
}

/** "Sync now": the cards of `ids`, or every card. */
export async function syncNow(app: App, ids: number[] | undefined, now = new Date()): Promise<SyncResult> {
  const run = await claimOnce(app.db, simSyncRuns, { fireTime: now, manual: true, status: 'running' });
  if (!run) return { cards: 0, updated: 0, failed: 0 };
  return runLogged(app, run.id, ids, now);
}

/** Asks the card's carrier to suspend or resume it, and keeps the state the carrier answers. */
export async function setCardState(app: App, card: Card, action: SimStateAction): Promise<SimState> {
  const adapter = app.simCarriers.forCarrier(card.carrier as SimCarrier);
  if (!adapter) throw new CarrierError('no adapter');
  const state = await adapter.setState(queryOf(card), action);
  await app.db.update(simCards).set({ state, updatedAt: new Date() }).where(eq(simCards.id, card.id));
  return state;
}

export { CarrierError, CarrierRefusal };

export interface SimSyncScheduler {
  /** one pass at `now`: runs the current slot's sync unless some node ran it; true when this call ran it */
  tick(now?: Date): Promise<boolean>;
  start(): void;
  stop(): Promise<void>;
}

/** The slot `now` falls in: the start of the current interval since 1970. */
export function currentSlot(now: Date, intervalMinutes: number): Date {
  return periodStart(now, intervalMinutes * 60_000);
}

export function createSimSyncScheduler(
  app: App,
  opts: { intervalMinutes: number; tickMs?: number },
): SimSyncScheduler {
  async function tick(now = new Date()): Promise<boolean> {
    if (opts.intervalMinutes <= 0 || app.simCarriers.mode === 'off') return false;
    const run = await claimOnce(app.db, simSyncRuns, {
      fireTime: currentSlot(now, opts.intervalMinutes),
      manual: false,
      status: 'running',
    });
    if (!run) return false;
    await runLogged(app, run.id, undefined, now);
    return true;
  }

  const task = periodicTask(app.log, 'SIM card sync', opts.tickMs ?? 60_000, () => tick());
  return {
    tick,
    start() {
      if (opts.intervalMinutes > 0) task.start();
    },
    stop: task.stop,
  };
}
