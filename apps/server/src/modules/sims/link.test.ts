/**
 * SIM cards and real gateways: gateways sign in to the embedded broker and speak the device
 * protocol (birth messages, a status message with a new ICCID, the simChanged event); the
 * cards follow them: holder, moved flag, gateway history, the device's operation log, and the
 * holder of a card imported after its gateway reported it.
 */
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import {
  birth,
  brokerUrl,
  connectGateway,
  makeDevice,
  operationsOf,
  publishUp,
  registerGateway,
  type TestGateway,
  waitFor,
} from '../devices/test-support';
import { multipartForm } from '../records/test-support';
import { iccidOfSimChanged, reportedHolders } from './gateway-link';
import { cardById, makeCard, testIccid } from './test-support';

let t: TestApp;
let a: TestCompany;
let g1: TestGateway;
let g2: TestGateway;
const clients: MqttClient[] = [];

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  a = await makeCompany(t, 'Link A');
  g1 = await makeDevice(t, a.id, { name: 'Pump DTU' });
  g2 = await makeDevice(t, a.id, { name: 'Boiler DTU' });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync().catch(() => {})));
  await t.close();
});

async function online(gateway: TestGateway, iccid: string): Promise<MqttClient> {
  const client = await connectGateway(brokerUrl(t), gateway);
  clients.push(client);
  await publishUp(client, gateway.sn, 'status', birth({ iccid }));
  return client;
}

describe('cards follow the gateways that report them', () => {
  let card: Awaited<ReturnType<typeof makeCard>>;
  let spare: Awaited<ReturnType<typeof makeCard>>;
  let c1: MqttClient;

  it('takes the first gateway whose birth message names the card as its holder', async () => {
    card = await makeCard(t, a.id);
    spare = await makeCard(t, a.id);
    c1 = await online(g1, card.iccid);
    const held = await waitFor(async () => {
      const c = await cardById(t, card.id);
      return c.holderSn === g1.sn ? c : null;
    });
    expect(held).toMatchObject({ moved: false, holderSince: expect.any(Date) });
  });

  it('flags the card when another gateway is born with it, and notes it in that device’s log', async () => {
    await online(g2, card.iccid);
    const moved = await waitFor(async () => {
      const c = await cardById(t, card.id);
      return c.moved ? c : null;
    });
    expect(moved).toMatchObject({ holderSn: g2.sn, movedFrom: g1.sn, movedTo: g2.sn });
    const log = await waitFor(async () => {
      const ops = await operationsOf(t, a.id, g2.id);
      return ops.find((o) => (o.data as { event?: string } | null)?.event === 'simMoved');
    });
    expect(log.detail).toContain(card.iccid);
    const list = await t.app.inject({
      method: 'GET',
      url: '/general/devicecommunication/sim/list?moved=true',
      headers: bearer(a.admin.token),
    });
    expect(list.json().data.list.map((r: { iccid: string }) => r.iccid)).toContain(card.iccid);
  });

  it('follows a status message naming a new card, and the simChanged event', async () => {
    // g1 now carries the spare card: a status message of its own
    await publishUp(c1, g1.sn, 'status', { iccid: spare.iccid });
    await waitFor(async () => (await cardById(t, spare.id)).holderSn === g1.sn);
    expect((await cardById(t, spare.id)).moved).toBe(false);
    // the card comes back to g1: only the event says so
    await publishUp(c1, g1.sn, 'event', { event: 'simChanged', detail: `${spare.iccid} → ${card.iccid}` });
    const back = await waitFor(async () => {
      const c = await cardById(t, card.id);
      return c.holderSn === g1.sn ? c : null;
    });
    expect(back).toMatchObject({ moved: true, movedFrom: g2.sn, movedTo: g1.sn });
    const detail = await t.app.inject({
      method: 'GET',
      url: `/general/devicecommunication/sim/detail?id=${card.id}`,
      headers: bearer(a.admin.token),
    });
    expect(detail.json().data.sightings.map((s: { serialNumber: string }) => s.serialNumber)).toEqual([
      g1.sn,
      g2.sn,
      g1.sn,
    ]);
  });

  it('gives a card imported later the gateway that reports it, bound or not', async () => {
    const loose = await registerGateway(t);
    const iccid = testIccid();
    await online(loose, iccid);
    // the birth message reaches the registry first; the card is not on the platform yet
    await waitFor(async () => (await reportedHolders(t.db, [iccid])).get(iccid)?.serialNumber === loose.sn);
    const { payload, headers } = multipartForm(
      {},
      { bytes: Buffer.from(`ICCID\n${iccid}\n`), filename: 'c.csv' },
    );
    const imported = await t.app.inject({
      method: 'POST',
      url: '/general/devicecommunication/sim/import',
      payload,
      headers: { ...headers, ...bearer(a.admin.token) },
    });
    expect(imported.json().data).toMatchObject({ inserted: 1 });
    const list = await t.app.inject({
      method: 'GET',
      url: `/general/devicecommunication/sim/list?keyword=${iccid}`,
      headers: bearer(a.admin.token),
    });
    expect(list.json().data.list[0]).toMatchObject({ holder: { serialNumber: loose.sn }, moved: null });
  });

  it('reads the new card out of the event’s words', () => {
    expect(iccidOfSimChanged('89860412345678901234 → 89860498765432109876')).toBe('89860498765432109876');
    expect(iccidOfSimChanged('89860498765432109876')).toBe('89860498765432109876');
    expect(iccidOfSimChanged('card swapped')).toBeNull();
  });
});
