/**
 * The MQTT interface attacked through the embedded broker (aedes): anonymous clients, wrong
 * credentials, a key of another company trying to read or write what is not its own, revoked
 * keys, disabled users, client-id take-over, oversized packets. The same rules on Mosquitto:
 * mqtt-mosquitto.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { keyMqttUsername } from '@platform/domain';
import { eq } from 'drizzle-orm';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import {
  type Credentials,
  connackCode,
  connectAs,
  connectPacket,
  disconnected,
  granted,
  RawClient,
} from '../../test/mqtt-clients';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { dataRecords } from '../records/tables';
import { users } from '../users/tables';
import { createKey } from './keys';

const NOT_AUTHORISED = 5;
const IDENTIFIER_REJECTED = 2;
const REFUSED_SUBSCRIPTION = 128;

let t: TestApp;
let victim: TestCompany;
let attacker: TestCompany;
let url: string;
let port: number;
let itemId: number;

async function keyOf(company: TestCompany, userId = company.admin.id): Promise<Credentials & { id: number }> {
  const { id, key } = await createKey(t.db, { companyId: company.id, userId, name: 'mqtt', kind: 'user' });
  return { id, key, username: keyMqttUsername(id) };
}

async function records(): Promise<number> {
  return (await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId))).length;
}

/** Publishes one record as `who` and waits for its answer. */
async function submitOnce(who: Credentials): Promise<{ code: number }> {
  const device = await connectAs(url, who);
  try {
    const answer = new Promise<{ code: number }>((resolve) => {
      device.once('message', (_topic, payload) => resolve(JSON.parse(payload.toString())));
    });
    await device.subscribeAsync(`smartdata/result/${who.username}`, { qos: 1 });
    await device.publishAsync(`smartdata/submit/${who.username}`, JSON.stringify({ itemId, count: 1 }), {
      qos: 1,
    });
    return await answer;
  } finally {
    await device.endAsync();
  }
}

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  victim = await makeCompany(t, 'MQTT victim');
  attacker = await makeCompany(t, 'MQTT attacker');
  ({ itemId } = await makeItem(t, victim.id, { fields: SAMPLE_FIELDS }));
  port = t.app.mqtt!.port!;
  url = `mqtt://127.0.0.1:${port}`;
});

afterAll(async () => {
  await t?.close();
});

describe('MQTT clients must sign in', () => {
  it('an anonymous MQTT client is refused at connect', async () => {
    expect(await connackCode(url, null)).toBe(NOT_AUTHORISED);
    expect(await connackCode(url, null, { username: 'key-1' })).toBe(NOT_AUTHORISED);
  });

  it('an MQTT client with a wrong password, a key under another key name, or the key as its name is refused', async () => {
    const own = await keyOf(victim);
    const other = await keyOf(attacker);
    const wrong = `sdk_${randomBytes(32).toString('base64url')}`;
    expect(await connackCode(url, { username: own.username, key: wrong })).toBe(NOT_AUTHORISED);
    expect(await connackCode(url, { username: other.username, key: own.key })).toBe(NOT_AUTHORISED);
    expect(await connackCode(url, { username: own.key, key: own.key })).toBe(NOT_AUTHORISED);
    expect(await connackCode(url, { username: 'gw-unknown', key: own.key })).toBe(NOT_AUTHORISED);
    expect(await connackCode(url, own)).toBe(0);
  });

  it('an anonymous MQTT client cannot subscribe to smartdata/submit/+/#, smartdata/+/+/#, smartdata/result/+/# or $SYS/# to read keys', async () => {
    // the attack of the report: listen wide, wait for a device, read its key in the topic
    const own = await keyOf(victim);
    let spy: MqttClient | null = null;
    try {
      spy = await connectAs(url, null);
    } catch {
      // refused at connect: nothing to listen with
    }
    const topics: string[] = [];
    if (spy) {
      spy.on('message', (topic) => topics.push(topic));
      for (const filter of ['smartdata/submit/+/#', 'smartdata/+/+/#', 'smartdata/result/+/#', '$SYS/#'])
        await spy.subscribeAsync(filter, { qos: 0 }).catch(() => {});
    }
    expect((await submitOnce(own)).code).toBe(0);
    await spy?.endAsync(true);
    expect(spy, 'an anonymous client was let in').toBeNull();
    expect(topics.filter((topic) => topic.includes('sdk_'))).toEqual([]);
  });
});

describe('a key client is confined to its own topics', () => {
  it('a key client of another company cannot subscribe to wildcard filters, $SYS, shared subscriptions or another key', async () => {
    const spyKey = await keyOf(attacker);
    const target = await keyOf(victim);
    const spy = await connectAs(url, spyKey);
    const seen: string[] = [];
    spy.on('message', (topic) => seen.push(topic));
    try {
      for (const filter of [
        'smartdata/submit/+/#',
        'smartdata/+/+/#',
        'smartdata/result/+/#',
        'smartdata/+/+',
        `smartdata/+/${spyKey.username}`,
        'smartdata/#',
        '#',
        '$SYS/#',
        `$share/spies/smartdata/result/${target.username}`,
        `smartdata/result/${target.username}`,
        `smartdata/submit/${target.username}`,
      ]) {
        expect(await granted(spy, filter), filter).toEqual([REFUSED_SUBSCRIPTION]);
      }
      // its own answers: allowed
      expect(await granted(spy, `smartdata/result/${spyKey.username}`)).toEqual([1]);
      // the victim submits meanwhile: nothing of it reaches the spy
      expect((await submitOnce(target)).code).toBe(0);
      expect(spy.connected).toBe(true);
    } finally {
      await spy.endAsync(true);
    }
    expect(seen).toEqual([]);
  });

  it("a key client cannot publish to another key's submission topic nor fake another key's answers", async () => {
    const spyKey = await keyOf(attacker);
    const target = await keyOf(victim);
    const listener = await connectAs(url, target);
    const answers: string[] = [];
    listener.on('message', (_topic, payload) => answers.push(payload.toString()));
    await listener.subscribeAsync(`smartdata/result/${target.username}`, { qos: 1 });
    const before = await records();
    try {
      for (const topic of [`smartdata/submit/${target.username}`, `smartdata/result/${target.username}`]) {
        const forger = await connectAs(url, spyKey);
        forger.publish(topic, JSON.stringify({ code: 0, message: 'forged', data: { itemId, count: 1 } }), {
          qos: 1,
        });
        // a refused publish ends the connection (MQTT 3.1.1 has no negative acknowledgement)
        await disconnected(forger);
        await forger.endAsync(true);
      }
      // the victim's own submission still gets its one true answer
      expect((await submitOnce(target)).code).toBe(0);
    } finally {
      await listener.endAsync();
    }
    expect(answers.map((a) => JSON.parse(a).message)).not.toContain('forged');
    expect(await records()).toBe(before + 1);
  });

  it("an MQTT client cannot take over the client id of another key's connection", async () => {
    const own = await keyOf(victim);
    const other = await keyOf(attacker);
    const clientId = `boiler-${randomBytes(3).toString('hex')}`;
    const device = await connectAs(url, own, { clientId });
    try {
      expect(await connackCode(url, other, { clientId })).toBe(IDENTIFIER_REJECTED);
      expect(device.connected).toBe(true);
    } finally {
      await device.endAsync();
    }
  });
});

describe('access that ends closes the MQTT connection', () => {
  it('a revoked key is disconnected at once and refused from then on', async () => {
    const own = await keyOf(victim);
    const device = await connectAs(url, own);
    const res = await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/key/revoke',
      payload: { id: own.id },
      headers: bearer(victim.admin.token),
    });
    expect(res.json().code).toBe(0);
    await disconnected(device);
    await device.endAsync(true);
    expect(await connackCode(url, own)).toBe(NOT_AUTHORISED);
  });

  it('the key of a user who is disabled is disconnected, and signs in again once the user is enabled', async () => {
    const own = await keyOf(victim, victim.limited.id);
    const device = await connectAs(url, own);
    await t.db.update(users).set({ status: 0 }).where(eq(users.id, victim.limited.id));
    try {
      await disconnected(device);
      expect(await connackCode(url, own)).toBe(NOT_AUTHORISED);
    } finally {
      await device.endAsync(true);
      await t.db.update(users).set({ status: 1 }).where(eq(users.id, victim.limited.id));
    }
    expect(await connackCode(url, own)).toBe(0);
  });
});

describe('oversized MQTT packets', () => {
  it('a PUBLISH announcing 128 MB closes the connection before its body is read', async () => {
    const own = await keyOf(victim);
    const raw = await RawClient.connect(port);
    try {
      await raw.write(connectPacket(own));
      await expect.poll(() => raw.received.some((p) => p.cmd === 'connack'), { timeout: 10_000 }).toBe(true);
      // fixed header: PUBLISH QoS 0, remaining length 128 MiB; then the topic and a little payload
      const length = 128 * 1024 * 1024;
      const header = Buffer.from([
        0x30,
        (length & 0x7f) | 0x80,
        ((length >> 7) & 0x7f) | 0x80,
        ((length >> 14) & 0x7f) | 0x80,
        (length >> 21) & 0x7f,
      ]);
      const topic = Buffer.from(`smartdata/submit/${own.username}`);
      const topicLength = Buffer.from([topic.length >> 8, topic.length & 0xff]);
      await raw.write(Buffer.concat([header, topicLength, topic, Buffer.alloc(64 * 1024, 0x20)]));
      expect(await raw.closedWithin(10_000)).toBe(true);
    } finally {
      raw.close();
    }
    expect(t.app.mqtt!.stats.counters.packetsTooLarge).toBeGreaterThan(0);
  });
});
