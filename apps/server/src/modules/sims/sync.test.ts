import { ERROR_CODES } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import {
  billingMonthStart,
  type CarrierAdapter,
  type Carriers,
  carrierMode,
  SimulatedCarrier,
  simulatedUsage,
} from './carrier';
import { createSimSyncScheduler, currentSlot, syncCards } from './sync';
import { simCards, simSyncRuns, simUsage } from './tables';
import { cardById, makeCard, testIccid } from './test-support';

let t: TestApp;
let p: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  p = await makeCompany(t, 'Sync Platform', { isPlatform: true });
});

afterAll(async () => {
  await t.close();
});

const HOUR = 3_600_000;
/** 2026-03-10 12:07 in China */
const NOW = new Date('2026-03-10T04:07:00Z');

async function readings(simId: number) {
  return t.db.select().from(simUsage).where(eq(simUsage.simId, simId)).orderBy(simUsage.asOf);
}

describe('the simulated carrier', () => {
  const iccid = '89860070310112094320';

  it('grows a card’s usage through the billing month, the same on every call', () => {
    const start = billingMonthStart(NOW.getTime());
    expect(new Date(start).toISOString()).toBe('2026-02-28T16:00:00.000Z');
    const values = [1, 24, 100, 200].map((h) => simulatedUsage(iccid, start + h * HOUR));
    expect(values).toEqual([...values].sort((x, y) => x - y));
    expect(values[0]).toBeGreaterThan(0);
    expect(simulatedUsage(iccid, start + 100 * HOUR)).toBe(values[2]);
    // a new month starts from nothing
    expect(simulatedUsage(iccid, start)).toBe(0);
    // 1-60 MB a day, days weighted 0.5-1.5
    const month = simulatedUsage(iccid, start + 30 * 24 * HOUR);
    expect(month).toBeGreaterThan(30 * 0.5);
    expect(month).toBeLessThan(30 * 60 * 1.5);
  });

  it('answers as of the last quarter hour, and only for cards of its carrier', async () => {
    const mobile = new SimulatedCarrier(1);
    const query = { carrier: 1 as const, state: 1 as const, planMb: 1024, usedMb: null, usageAsOf: null };
    const answer = await mobile.getCards(
      [
        { ...query, iccid },
        { ...query, iccid: '89860318240212345678' },
      ],
      NOW,
    );
    expect(answer).toHaveLength(1);
    expect(answer[0]).toMatchObject({ iccid, state: 1, asOf: new Date('2026-03-10T04:00:00Z') });
    expect(answer[0]!.usedMb).toBe(simulatedUsage(iccid, Date.parse('2026-03-10T04:00:00Z')));
  });

  it('gives some new cards a test or silent period, suspends a card far over its plan, keeps suspended ones', async () => {
    const mobile = new SimulatedCarrier(1);
    const cards = Array.from({ length: 200 }, (_, i) => ({
      iccid: testIccid(10_000 + i),
      carrier: 1 as const,
      state: 0 as const,
      planMb: 1_000_000,
      usedMb: null,
      usageAsOf: null,
    }));
    // early in the month: few cards have used 50 MB of a huge plan, so test periods show
    const early = new Date(billingMonthStart(NOW.getTime()) + 5 * 60_000);
    const states = (await mobile.getCards(cards, early)).map((c) => c.state);
    expect(new Set(states)).toEqual(new Set([1, 3, 5]));
    expect(states.filter((s) => s === 1).length).toBeGreaterThan(150);
    const tiny = await mobile.getCards([{ ...cards[0]!, state: 1, planMb: 1 }], NOW);
    expect(tiny[0]!.state).toBe(2);
    const frozen = await mobile.getCards(
      [{ ...cards[0]!, state: 6, usedMb: 77, usageAsOf: new Date(NOW.getTime() - HOUR) }],
      NOW,
    );
    expect(frozen[0]).toMatchObject({ state: 6, usedMb: 77 });
  });

  it('reads SIM_CARRIER_ADAPTER, refusing a carrier it does not have', () => {
    expect(carrierMode(undefined, false)).toBe('simulated');
    expect(carrierMode('', true)).toBe('off');
    expect(carrierMode('Simulated', true)).toBe('simulated');
    expect(() => carrierMode('onelink', false)).toThrow(/SIM_CARRIER_ADAPTER/);
  });
});

describe('the sync', () => {
  it('updates state, usage and as-of time, one reading per as-of time, and leaves carrier "none" alone', async () => {
    const card = await makeCard(t, null, { state: 1, usedMb: null, usageAsOf: null, planMb: 2048 });
    const none = await makeCard(t, null, { carrier: 0, usedMb: 3, usageAsOf: null });
    const result = await syncCards(t.db, t.app.simCarriers, { ids: [card.id, none.id], now: NOW });
    expect(result).toEqual({ cards: 1, updated: 1, failed: 0 });
    const after = await cardById(t, card.id);
    expect(after).toMatchObject({
      state: 1,
      usedMb: simulatedUsage(card.iccid, Date.parse('2026-03-10T04:00:00Z')),
      usageAsOf: new Date('2026-03-10T04:00:00Z'),
      syncedAt: NOW,
      syncError: null,
    });
    expect(await cardById(t, none.id)).toMatchObject({ usedMb: 3, syncedAt: null });
    // the same quarter hour again: no second reading
    await syncCards(t.db, t.app.simCarriers, { ids: [card.id], now: new Date(NOW.getTime() + 60_000) });
    expect(await readings(card.id)).toHaveLength(1);
    await syncCards(t.db, t.app.simCarriers, { ids: [card.id], now: new Date(NOW.getTime() + 6 * HOUR) });
    const both = await readings(card.id);
    expect(both).toHaveLength(2);
    expect(both[1]!.usedMb).toBeGreaterThan(both[0]!.usedMb);
  });

  it('says which cards the carrier does not know, and which it could not ask', async () => {
    // a China Mobile ICCID filed under China Unicom
    const misfiled = await makeCard(t, null, { carrier: 2 });
    expect(await syncCards(t.db, t.app.simCarriers, { ids: [misfiled.id], now: NOW })).toEqual({
      cards: 1,
      updated: 0,
      failed: 1,
    });
    expect(await cardById(t, misfiled.id)).toMatchObject({ syncError: 'unknownToCarrier' });
    const down: CarrierAdapter = {
      name: 'down',
      batchSize: 10,
      getCards: () => Promise.reject(new Error('timeout')),
      setState: () => Promise.reject(new Error('timeout')),
    };
    const carriers: Carriers = { mode: 'simulated', forCarrier: () => down };
    const card = await makeCard(t, null, { usedMb: 9 });
    expect(await syncCards(t.db, carriers, { ids: [card.id], now: NOW })).toEqual({
      cards: 1,
      updated: 0,
      failed: 1,
    });
    expect(await cardById(t, card.id)).toMatchObject({ syncError: 'carrierFailed', usedMb: 9 });
  });

  it('fires once per slot however many nodes tick, and again in the next slot', async () => {
    const card = await makeCard(t, null, { usedMb: null });
    const nodes = [1, 2, 3].map(() => createSimSyncScheduler(t.app, { intervalMinutes: 240 }));
    const slotTime = new Date('2026-03-11T08:00:00Z');
    expect(currentSlot(new Date('2026-03-11T11:59:59Z'), 240)).toEqual(slotTime);
    const ran = await Promise.all(nodes.map((n) => n.tick(new Date('2026-03-11T08:00:30Z'))));
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(await nodes[0]!.tick(new Date('2026-03-11T11:59:00Z'))).toBe(false);
    const runs = await t.db.select().from(simSyncRuns).where(eq(simSyncRuns.fireTime, slotTime));
    expect(runs).toEqual([expect.objectContaining({ status: 'ok', manual: false })]);
    expect(runs[0]!.updated).toBeGreaterThanOrEqual(1);
    expect((await cardById(t, card.id)).usageAsOf).toEqual(new Date('2026-03-11T08:00:00Z'));
    expect(await nodes[1]!.tick(new Date('2026-03-11T12:00:01Z'))).toBe(true);
    const off = createSimSyncScheduler(t.app, { intervalMinutes: 0 });
    expect(await off.tick(new Date('2026-03-12T00:00:00Z'))).toBe(false);
  });
});

describe('sync now, suspend and resume (system maintenance)', () => {
  function post(url: string, payload: unknown, token = p.admin.token) {
    return t.app.inject({
      method: 'POST',
      url: `/general/system/sim${url}`,
      payload: payload as object,
      headers: bearer(token),
    });
  }

  it('syncs the chosen cards at once', async () => {
    const card = await makeCard(t, null, { usedMb: null, usageAsOf: null });
    const res = await post('/sync', { ids: [card.id] });
    expect(res.json()).toMatchObject({ code: 0, data: { cards: 1, updated: 1, failed: 0 } });
    expect((await cardById(t, card.id)).usedMb).not.toBeNull();
    const manual = await t.db.select().from(simSyncRuns).where(eq(simSyncRuns.manual, true));
    expect(manual.at(-1)).toMatchObject({ status: 'ok', cards: 1 });
  });

  it('suspends and resumes through the carrier, refusing what it does not allow', async () => {
    const card = await makeCard(t, null, { state: 1 });
    expect((await post('/setState', { id: card.id, action: 'suspend' })).json()).toMatchObject({
      code: 0,
      data: { state: 2 },
    });
    const again = (await post('/setState', { id: card.id, action: 'suspend' })).json();
    expect(again).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: '运营商不允许对状态为“停机”的卡执行此操作',
    });
    expect((await cardById(t, card.id)).state).toBe(2);
    expect((await post('/setState', { id: card.id, action: 'resume' })).json().data.state).toBe(1);
    const nobody = await makeCard(t, null, { carrier: 0 });
    const refused = (await post('/setState', { id: nobody.id, action: 'suspend' })).json();
    expect(refused).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: '该卡未设置运营商，请先导入其运营商',
    });
    const bad = (await post('/setState', { id: card.id, action: 'cancel' })).json();
    expect(bad).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'action' } });
  });

  it('says so when no carrier is set up', async () => {
    const off = await buildTestApp({ SIM_CARRIER_ADAPTER: 'off' });
    try {
      const op = await makeCompany(off, 'Off Platform', { isPlatform: true });
      const res = await off.app.inject({
        method: 'POST',
        url: '/general/system/sim/sync',
        payload: {},
        headers: { ...bearer(op.admin.token), 'accept-language': 'en' },
      });
      expect(res.json()).toMatchObject({
        code: ERROR_CODES.BUSINESS,
        message: 'No connection to the carriers is set up on the platform',
      });
      const card = (await off.db.insert(simCards).values({ iccid: testIccid(), carrier: 1 }).returning())[0]!;
      const state = await off.app.inject({
        method: 'POST',
        url: '/general/system/sim/setState',
        payload: { id: card.id, action: 'suspend' },
        headers: bearer(op.admin.token),
      });
      expect(state.json()).toMatchObject({
        code: ERROR_CODES.BUSINESS,
        message: '平台未配置与中国移动的连接',
      });
    } finally {
      await off.close();
    }
  });
});
