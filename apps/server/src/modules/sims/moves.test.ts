import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { recordSighting } from './holder';
import { simSightings } from './tables';
import { cardById, makeCard, testIccid } from './test-support';

let t: TestApp;
let a: TestCompany;

beforeAll(async () => {
  t = await buildTestApp();
  a = await makeCompany(t, 'Moves A');
});

afterAll(async () => {
  await t.close();
});

const at = (minutes: number) => new Date(Date.UTC(2026, 2, 10, 8, minutes));

async function stays(simId: number) {
  return (
    await t.db
      .select()
      .from(simSightings)
      .where(eq(simSightings.simId, simId))
      .orderBy(asc(simSightings.firstSeen))
  ).map((s) => [s.gatewaySn, s.firstSeen.toISOString(), s.lastSeen.toISOString()]);
}

describe('where a card is', () => {
  it('takes the first gateway that reports it as its holder, without a move', async () => {
    const card = await makeCard(t, a.id);
    // as a modem may report it: lower case
    expect(
      (await recordSighting(t.db, { iccid: card.iccid.toLowerCase(), serialNumber: 'gw0001' }, at(0))).kind,
    ).toBe('first');
    expect(await cardById(t, card.id)).toMatchObject({
      holderSn: 'GW0001',
      holderSince: at(0),
      moved: false,
    });
    expect((await recordSighting(t.db, { iccid: card.iccid, serialNumber: 'GW0001' }, at(5))).kind).toBe(
      'same',
    );
    expect(await stays(card.id)).toEqual([['GW0001', at(0).toISOString(), at(5).toISOString()]]);
  });

  it('flags the card when another gateway reports it, with from, to and when', async () => {
    const card = await makeCard(t, a.id);
    await recordSighting(t.db, { iccid: card.iccid, serialNumber: 'GW0001' }, at(0));
    expect((await recordSighting(t.db, { iccid: card.iccid, serialNumber: 'GW0002' }, at(10))).kind).toBe(
      'moved',
    );
    expect(await cardById(t, card.id)).toMatchObject({
      holderSn: 'GW0002',
      holderSince: at(10),
      moved: true,
      movedFrom: 'GW0001',
      movedTo: 'GW0002',
      movedAt: at(10),
    });
    // back in the first gateway: a move again, a new stay
    expect((await recordSighting(t.db, { iccid: card.iccid, serialNumber: 'GW0001' }, at(20))).kind).toBe(
      'moved',
    );
    expect(await cardById(t, card.id)).toMatchObject({ movedFrom: 'GW0002', movedTo: 'GW0001' });
    expect((await stays(card.id)).map((s) => s[0])).toEqual(['GW0001', 'GW0002', 'GW0001']);
  });

  it('passes over a delayed report and a card the platform does not know', async () => {
    const card = await makeCard(t, a.id);
    await recordSighting(t.db, { iccid: card.iccid, serialNumber: 'GW0003' }, at(30));
    expect((await recordSighting(t.db, { iccid: card.iccid, serialNumber: 'GW0004' }, at(29))).kind).toBe(
      'stale',
    );
    expect(await cardById(t, card.id)).toMatchObject({ holderSn: 'GW0003', moved: false });
    expect((await recordSighting(t.db, { iccid: testIccid(), serialNumber: 'GW0003' }, at(30))).kind).toBe(
      'unknownCard',
    );
  });

  it('keeps one holder when two gateways report the card at once', async () => {
    const card = await makeCard(t, a.id);
    const outcomes = await Promise.all([
      recordSighting(t.db, { iccid: card.iccid, serialNumber: 'GW0005' }, at(40)),
      recordSighting(t.db, { iccid: card.iccid, serialNumber: 'GW0006' }, at(40)),
    ]);
    expect(outcomes.map((o) => o.kind).sort()).toEqual(['first', 'moved']);
    const after = await cardById(t, card.id);
    expect(after.moved).toBe(true);
    expect([after.movedFrom, after.movedTo].sort()).toEqual(['GW0005', 'GW0006']);
    expect(after.holderSn).toBe(after.movedTo);
    expect(await stays(card.id)).toHaveLength(2);
  });
});
