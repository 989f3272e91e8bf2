/**
 * The MQTT rules on an external Mosquitto 2.0 configured as docs/mqtt-broker.md recommends
 * (the configuration is read from that page): the server keeps one dynamic-security account
 * per key. Each attack of mqtt-security.test.ts, now against Mosquitto. Skipped where
 * Mosquitto and its dynamic-security plugin are not installed.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ERROR_CODES, keyMqttUsername } from '@platform/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { freePort, type Mosquitto, mosquittoAvailable, startMosquitto } from '../../test/mosquitto';
import { type Credentials, connackCode, connectAs, disconnected, granted } from '../../test/mqtt-clients';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { dataRecords } from '../records/tables';
import { users } from '../users/tables';
import { createKey, issueKey } from './keys';

const NOT_AUTHORISED = 5;
const REFUSED_SUBSCRIPTION = 128;

const available = mosquittoAvailable();

describe.skipIf(!available)(
  `MQTT on Mosquitto with the recommended configuration${available ? '' : ' (skipped: mosquitto with dynamic security is not installed)'}`,
  () => {
    let mosquitto: Mosquitto;
    let t: TestApp;
    let victim: TestCompany;
    let attacker: TestCompany;
    let itemId: number;

    async function keyOf(
      company: TestCompany,
      userId = company.admin.id,
    ): Promise<Credentials & { id: number }> {
      const { id, key } = await issueKey(t.app, {
        companyId: company.id,
        userId,
        name: 'mqtt',
        kind: 'user',
      });
      return { id, key, username: keyMqttUsername(id) };
    }

    async function stored(): Promise<number> {
      return (await t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId))).length;
    }

    /** Publishes one record as `who` and returns its answer. */
    async function submitOnce(who: Credentials): Promise<{ code: number }> {
      const device = await connectAs(mosquitto.address, who);
      try {
        const answer = new Promise<{ code: number }>((resolve) => {
          device.once('message', (_topic, payload) => resolve(JSON.parse(payload.toString())));
        });
        expect(await granted(device, `smartdata/result/${who.username}`)).toEqual([1]);
        await device.publishAsync(`smartdata/submit/${who.username}`, JSON.stringify({ itemId, count: 7 }), {
          qos: 1,
        });
        return await answer;
      } finally {
        await device.endAsync();
      }
    }

    beforeAll(async () => {
      mosquitto = await startMosquitto();
      t = await buildTestApp({ MQTT_URL: mosquitto.url });
      victim = await makeCompany(t, 'Mosquitto victim');
      attacker = await makeCompany(t, 'Mosquitto attacker');
      ({ itemId } = await makeItem(t, victim.id, { fields: SAMPLE_FIELDS }));
    });

    afterAll(async () => {
      await t?.close();
      await mosquitto?.stop();
    });

    it('a key submits through Mosquitto: stored and answered on its own result topic', async () => {
      const own = await keyOf(victim);
      const before = await stored();
      expect(await submitOnce(own)).toMatchObject({ code: 0, data: { count: 1 } });
      expect(await stored()).toBe(before + 1);
    });

    it('an anonymous MQTT client, a wrong password and a key under another key name are refused by Mosquitto', async () => {
      const own = await keyOf(victim);
      const other = await keyOf(attacker);
      expect(await connackCode(mosquitto.address, null)).toBe(NOT_AUTHORISED);
      expect(
        await connackCode(mosquitto.address, { ...own, key: `sdk_${randomBytes(32).toString('base64url')}` }),
      ).toBe(NOT_AUTHORISED);
      expect(await connackCode(mosquitto.address, { username: other.username, key: own.key })).toBe(
        NOT_AUTHORISED,
      );
      expect(await connackCode(mosquitto.address, { username: 'smartdata-server', key: own.key })).toBe(
        NOT_AUTHORISED,
      );
    });

    it("a key client cannot subscribe on Mosquitto to wildcards that reach other keys' topics, nor to $SYS", async () => {
      const spyKey = await keyOf(attacker);
      const target = await keyOf(victim);
      const spy = await connectAs(mosquitto.address, spyKey);
      const seen: string[] = [];
      spy.on('message', (topic) => seen.push(topic));
      try {
        for (const filter of [
          'smartdata/submit/+/#',
          'smartdata/+/+/#',
          'smartdata/result/+/#',
          'smartdata/+/+',
          'smartdata/#',
          '#',
          '$SYS/#',
          `$share/spies/smartdata/result/${target.username}`,
          `smartdata/result/${target.username}`,
          `smartdata/submit/${target.username}`,
        ]) {
          expect(await granted(spy, filter), filter).toEqual([REFUSED_SUBSCRIPTION]);
        }
        expect((await submitOnce(target)).code).toBe(0);
      } finally {
        await spy.endAsync(true);
      }
      expect(seen).toEqual([]);
    });

    it("a key client cannot publish on Mosquitto to another key's submission topic nor fake its answers", async () => {
      const spyKey = await keyOf(attacker);
      const target = await keyOf(victim);
      const listener = await connectAs(mosquitto.address, target);
      const answers: Array<{ message: string }> = [];
      listener.on('message', (_topic, payload) => answers.push(JSON.parse(payload.toString())));
      expect(await granted(listener, `smartdata/result/${target.username}`)).toEqual([1]);
      const before = await stored();
      const forger = await connectAs(mosquitto.address, spyKey);
      try {
        // Mosquitto acknowledges and drops a publish its ACL refuses (MQTT 3.1.1)
        await forger.publishAsync(
          `smartdata/submit/${target.username}`,
          JSON.stringify({ itemId, count: 1 }),
          {
            qos: 1,
          },
        );
        await forger.publishAsync(
          `smartdata/result/${target.username}`,
          JSON.stringify({ code: 0, message: 'forged', data: null }),
          { qos: 1 },
        );
        // a submission of its own key afterwards is answered: the refused ones would have come first
        expect((await submitOnce(spyKey)).code).toBe(ERROR_CODES.NOT_FOUND);
      } finally {
        await forger.endAsync(true);
        await listener.endAsync(true);
      }
      expect(answers).toEqual([]);
      expect(await stored()).toBe(before);
    });

    it('a revoked key is disconnected by Mosquitto and refused from then on', async () => {
      const own = await keyOf(victim);
      const device = await connectAs(mosquitto.address, own);
      const res = await t.app.inject({
        method: 'POST',
        url: '/general/smartdata/key/revoke',
        payload: { id: own.id },
        headers: bearer(victim.admin.token),
      });
      expect(res.json().code).toBe(0);
      await disconnected(device);
      await device.endAsync(true);
      expect(await connackCode(mosquitto.address, own)).toBe(NOT_AUTHORISED);
    });

    it('the key of a disabled user is disconnected by Mosquitto, and signs in again once the user is enabled', async () => {
      const own = await keyOf(victim, victim.limited.id);
      const device = await connectAs(mosquitto.address, own);
      await t.db.update(users).set({ status: 0 }).where(eq(users.id, victim.limited.id));
      try {
        await disconnected(device);
        expect(await connackCode(mosquitto.address, own)).toBe(NOT_AUTHORISED);
      } finally {
        await device.endAsync(true);
        await t.db.update(users).set({ status: 1 }).where(eq(users.id, victim.limited.id));
      }
      await expect.poll(() => connackCode(mosquitto.address, own), { timeout: 15_000 }).toBe(0);
    });

    it('a key made before the broker was configured has no account there: refused over MQTT, accepted over HTTP', async () => {
      const { id, key } = await createKey(t.db, {
        companyId: victim.id,
        userId: victim.admin.id,
        name: 'before',
        kind: 'user',
      });
      expect(await connackCode(mosquitto.address, { username: keyMqttUsername(id), key })).toBe(
        NOT_AUTHORISED,
      );
      const res = await t.app.inject({
        method: 'POST',
        url: '/general/smartdata/submit',
        payload: { itemId, count: 3 },
        headers: { authorization: key },
      });
      expect(res.json().code).toBe(0);
    });
  },
);

describe.skipIf(!available)('a broker that lets anonymous clients in', () => {
  let dir: string;
  let stop: () => Promise<void>;
  let url: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'mosquitto-open-'));
    const port = await freePort();
    await writeFile(path.join(dir, 'open.conf'), `listener ${port} 127.0.0.1\nallow_anonymous true\n`);
    const child = spawn('mosquitto', ['-c', path.join(dir, 'open.conf')], { stdio: 'ignore' });
    stop = async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    };
    url = `mqtt://127.0.0.1:${port}`;
    const deadline = Date.now() + 10_000;
    while ((await connackCode(url, null).catch(() => -1)) !== 0) {
      if (Date.now() > deadline) throw new Error('the open mosquitto did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  afterAll(async () => {
    await stop?.();
    await rm(dir, { recursive: true, force: true });
  });

  it('the server refuses to start on a broker that lets anonymous clients in', async () => {
    await expect(buildTestApp({ MQTT_URL: url })).rejects.toThrow(/accepts clients without credentials/);
  });

  it('starts on it only when told it is a throwaway test broker', async () => {
    const t = await buildTestApp({ MQTT_URL: url, MQTT_INSECURE_BROKER: 'true' });
    try {
      expect(t.app.mqtt?.kind).toBe('external');
      expect(t.app.mqtt?.accounts).toBeNull();
    } finally {
      await t.close();
    }
  });
});
