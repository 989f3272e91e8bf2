/**
 * MQTT bursts against the embedded broker, as an attacker sends them: raw sockets writing
 * 100,000 PUBLISH packets at QoS 0 and 100,000 at QoS 1 without waiting for anything, from a
 * client with a valid key (half to its item, half to an item that does not exist) and from
 * clients without one (refused at connect, connecting and publishing again and again).
 *
 * The server must stay up, HTTP must still answer, and every message of the signed-in client
 * must be accounted for: answered OK (and stored), answered with a refusal, or (QoS 0 under
 * overload only) counted as dropped. Nothing of the refused clients may be stored or answered.
 * No timing assertions: the waits only stop a test that makes no progress.
 */
import { randomBytes } from 'node:crypto';
import { ERROR_CODES, keyMqttUsername } from '@platform/domain';
import { count, eq } from 'drizzle-orm';
import type { Packet } from 'mqtt-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { type Credentials, connectPacket, encode, publishPacket, RawClient } from '../../test/mqtt-clients';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { dataRecords } from '../records/tables';
import { createKey } from './keys';

const BURST = 100_000;
const MISSING_ITEM = 2_000_000_000;
/** a wait ends when nothing moved for this long (a stuck server), never on a deadline */
const STALL_MS = 30_000;

interface Tally {
  ok: number;
  refused: number;
  /** answers to the attackers without a key (must stay 0) */
  strayAnswers: number;
}

async function signedIn(port: number, who: Credentials, tally: Tally): Promise<RawClient> {
  const client = await RawClient.connect(port);
  client.onPacket = (packet: Packet) => {
    if (packet.cmd !== 'publish') return;
    const code = (JSON.parse(packet.payload.toString()) as { code: number }).code;
    if (code === ERROR_CODES.OK) tally.ok += 1;
    else tally.refused += 1;
  };
  await client.write(connectPacket(who));
  await client.write(
    encode({
      cmd: 'subscribe',
      messageId: 1,
      subscriptions: [{ topic: `smartdata/result/${who.username}`, qos: 0 }],
    }),
  );
  const ready = () => client.received.some((p) => p.cmd === 'suback');
  await waitFor(ready, () => client.received.length);
  expect(client.received.find((p) => p.cmd === 'connack')).toMatchObject({ returnCode: 0 });
  return client;
}

/** Waits until `done()`, failing only when `progress()` stops changing for STALL_MS. */
async function waitFor(done: () => boolean, progress: () => number): Promise<void> {
  let last = progress();
  let lastMove = Date.now();
  while (!done()) {
    await new Promise((r) => setTimeout(r, 50));
    const now = progress();
    if (now !== last) {
      last = now;
      lastMove = Date.now();
    } else if (Date.now() - lastMove > STALL_MS) {
      throw new Error(`no progress for ${STALL_MS / 1000} s (at ${now})`);
    }
  }
}

/** `n` submissions, alternately to the item and to a missing one: one buffer, written at once. */
function burst(topic: string, itemId: number, n: number, qos: 0 | 1): Buffer {
  const packets: Buffer[] = [];
  for (let i = 0; i < n; i++) {
    const body = JSON.stringify({ itemId: i % 2 === 0 ? itemId : MISSING_ITEM, count: i });
    packets.push(publishPacket(topic, body, qos, (i % 65_535) + 1));
  }
  return Buffer.concat(packets);
}

/**
 * A client without a valid key that keeps trying: connects, pipelines publishes right behind
 * its CONNECT (not waiting for the refusal), and again once it is thrown out.
 */
async function intruder(
  port: number,
  who: Credentials | null,
  target: string,
  itemId: number,
  rounds: number,
  tally: Tally,
): Promise<{ attempts: number; refusals: number }> {
  let refusals = 0;
  const flood = Buffer.concat([burst(target, itemId, 2_000, 0), burst(target, itemId, 2_000, 1)]);
  for (let round = 0; round < rounds; round++) {
    const client = await RawClient.connect(port);
    client.onPacket = (packet) => {
      if (packet.cmd === 'publish') tally.strayAnswers += 1;
    };
    await client.write(Buffer.concat([connectPacket(who), flood]));
    // refused: CONNACK 5, or cut off before it for the packets it pushed in behind its CONNECT
    await client.closedWithin(20_000);
    if (client.closed && !client.received.some((p) => p.cmd === 'connack' && p.returnCode === 0))
      refusals += 1;
    client.close();
  }
  return { attempts: rounds, refusals };
}

async function storedCount(t: TestApp, itemId: number): Promise<number> {
  const [row] = await t.db.select({ n: count() }).from(dataRecords).where(eq(dataRecords.itemId, itemId));
  return Number(row!.n);
}

async function httpAnswers(t: TestApp, company: TestCompany): Promise<number> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/general/smartdata/key/list',
    headers: bearer(company.admin.token),
  });
  return res.json().code;
}

describe('an MQTT burst', () => {
  let t: TestApp;
  let company: TestCompany;
  let itemId: number;
  let port: number;

  beforeAll(async () => {
    t = await buildTestApp({ MQTT_PORT: '0', MQTT_STATS_INTERVAL_S: '0' });
    company = await makeCompany(t, 'MQTT burst');
    ({ itemId } = await makeItem(t, company.id, { fields: SAMPLE_FIELDS }));
    port = t.app.mqtt!.port!;
  });

  afterAll(async () => {
    await t?.close();
  });

  it(
    'of 100,000 messages at QoS 0 and 100,000 at QoS 1, with and without a valid key, leaves the server up and accounts for every message',
    async () => {
      const { id, key } = await createKey(t.db, {
        companyId: company.id,
        userId: company.admin.id,
        name: 'burst',
        kind: 'user',
      });
      const revoked = await createKey(t.db, {
        companyId: company.id,
        userId: company.admin.id,
        name: 'revoked',
        kind: 'user',
      });
      await t.app.inject({
        method: 'POST',
        url: '/general/smartdata/key/revoke',
        payload: { id: revoked.id },
        headers: bearer(company.admin.token),
      });
      const who = { username: keyMqttUsername(id), key };
      const topic = `smartdata/submit/${who.username}`;
      const stats = t.app.mqtt!.stats;
      const before = { ...stats.counters };
      const tally: Tally = { ok: 0, refused: 0, strayAnswers: 0 };

      const device = await signedIn(port, who, tally);
      // the intruders: anonymous, a wrong password for this very key, a revoked key
      const intruders = Promise.all([
        intruder(port, null, topic, itemId, 5, tally),
        intruder(
          port,
          { ...who, key: `sdk_${randomBytes(32).toString('base64url')}` },
          topic,
          itemId,
          5,
          tally,
        ),
        intruder(
          port,
          { username: keyMqttUsername(revoked.id), key: revoked.key },
          `smartdata/submit/${keyMqttUsername(revoked.id)}`,
          itemId,
          5,
          tally,
        ),
      ]);
      const sent = 2 * BURST;
      const written = Promise.all([
        device.write(burst(topic, itemId, BURST, 0)),
        device.write(burst(topic, itemId, BURST, 1)),
      ]);
      const t0 = Date.now();
      const accounted = () => tally.ok + tally.refused + (stats.counters.dropped - before.dropped);
      void intruders.then(() => console.info(`intruders done after ${Date.now() - t0} ms`));
      await waitFor(
        () => accounted() >= sent,
        () => accounted(),
      );
      console.info(`burst accounted after ${Date.now() - t0} ms`);
      await written;
      const refusedIntruders = await intruders;

      // the process is up and HTTP answers
      expect(await httpAnswers(t, company)).toBe(0);
      expect(device.closed).toBe(false);
      device.close();

      const dropped = stats.counters.dropped - before.dropped;
      console.info(
        `MQTT burst: ${sent} sent, ${tally.ok} stored, ${tally.refused} refused, ${dropped} dropped (QoS 0 under overload)`,
      );
      expect(tally.ok + tally.refused + dropped).toBe(sent);
      expect(stats.counters.received - before.received).toBe(sent);
      expect(stats.counters.answeredOk - before.answeredOk).toBe(tally.ok);
      expect(stats.counters.refused - before.refused).toBe(tally.refused);
      // every answered OK is a stored record, and only those
      expect(await storedCount(t, itemId)).toBe(tally.ok);
      // half the messages named a missing item: at least those are refused
      expect(tally.refused).toBeGreaterThanOrEqual(BURST - dropped);
      // the intruders were refused at every attempt and got nothing
      for (const r of refusedIntruders) expect(r.refusals).toBe(r.attempts);
      expect(tally.strayAnswers).toBe(0);
      expect(stats.counters.connectionsRefused - before.connectionsRefused).toBe(15);
    },
    10 * 60_000,
  );
});

describe('an MQTT burst beyond the server-wide budget', () => {
  let t: TestApp;
  let company: TestCompany;
  let itemId: number;

  beforeAll(async () => {
    // a budget of 16 KB of pending submissions: a burst is over it at once
    t = await buildTestApp({ MQTT_PORT: '0', MQTT_STATS_INTERVAL_S: '0', MQTT_PENDING_BYTES: '16384' });
    company = await makeCompany(t, 'MQTT overload', { isPlatform: true });
    ({ itemId } = await makeItem(t, company.id, { fields: SAMPLE_FIELDS }));
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers QoS 1 with a refusal, drops and counts QoS 0, and loses nothing silently', async () => {
    const { id, key } = await createKey(t.db, {
      companyId: company.id,
      userId: company.admin.id,
      name: 'overload',
      kind: 'user',
    });
    const who = { username: keyMqttUsername(id), key };
    const topic = `smartdata/submit/${who.username}`;
    const tally: Tally = { ok: 0, refused: 0, strayAnswers: 0 };
    const busy: number[] = [];
    const device = await signedIn(t.app.mqtt!.port!, who, tally);
    const onPacket = device.onPacket!;
    device.onPacket = (packet) => {
      onPacket(packet);
      if (packet.cmd === 'publish') {
        const code = (JSON.parse(packet.payload.toString()) as { code: number }).code;
        if (code === ERROR_CODES.RATE_LIMITED) busy.push(code);
      }
    };
    const n = 20_000;
    await Promise.all([device.write(burst(topic, itemId, n, 0)), device.write(burst(topic, itemId, n, 1))]);
    const counters = () => t.app.mqtt!.stats.counters;
    await waitFor(
      () => tally.ok + tally.refused + counters().dropped >= 2 * n,
      () => tally.ok + tally.refused + counters().dropped,
    );
    device.close();
    expect(tally.ok + tally.refused + counters().dropped).toBe(2 * n);
    expect(counters().dropped).toBeGreaterThan(0);
    expect(busy.length).toBeGreaterThan(0);
    expect(await storedCount(t, itemId)).toBe(tally.ok);
    // what an operator reads
    const res = await t.app.inject({
      method: 'GET',
      url: '/general/mqtt/stats',
      headers: bearer(company.admin.token),
    });
    expect(res.json()).toMatchObject({
      code: 0,
      data: {
        broker: 'embedded',
        counters: {
          received: 2 * n,
          dropped: counters().dropped,
          answeredOk: tally.ok,
          refused: tally.refused,
        },
      },
    });
  });
});
