/**
 * The HTTP hooks an external broker calls (EMQX HTTP authentication and authorisation), called
 * here as the broker would, and as an attacker without the shared secret would.
 */
import { randomBytes } from 'node:crypto';
import { keyMqttUsername } from '@platform/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { createKey } from '../ingest/keys';

const SECRET = randomBytes(16).toString('hex');
const SERVER_PASSWORD = randomBytes(12).toString('hex');

let t: TestApp;
let company: TestCompany;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: 'off', MQTT_HOOK_SECRET: SECRET });
  // the hooks know the server's own account from MQTT_URL (no broker is started here)
  t.app.config.mqttUrl = `mqtt://smartdata-server:${SERVER_PASSWORD}@broker.invalid:1883`;
  company = await makeCompany(t, 'MQTT hooks');
});

afterAll(async () => {
  await t?.close();
});

async function key() {
  const { id, key } = await createKey(t.db, {
    companyId: company.id,
    userId: company.admin.id,
    name: 'hook',
    kind: 'user',
  });
  return { id, key, username: keyMqttUsername(id) };
}

function auth(body: Record<string, string | undefined>, secret: string | null = SECRET) {
  return t.app.inject({
    method: 'POST',
    url: '/general/mqtt/auth',
    payload: body,
    headers: secret ? { authorization: `Bearer ${secret}` } : {},
  });
}

function acl(body: Record<string, string>, secret: string | null = SECRET) {
  return t.app.inject({
    method: 'POST',
    url: '/general/mqtt/acl',
    payload: body,
    headers: secret ? { authorization: `Bearer ${secret}` } : {},
  });
}

describe('the MQTT broker hooks', () => {
  it('deny a caller without the shared secret, even with valid credentials', async () => {
    const own = await key();
    for (const secret of [null, 'wrong', `${SECRET}x`]) {
      expect((await auth({ username: own.username, password: own.key }, secret)).json()).toEqual({
        result: 'deny',
      });
      expect(
        (
          await acl(
            { username: own.username, topic: `smartdata/submit/${own.username}`, action: 'publish' },
            secret,
          )
        ).json(),
      ).toEqual({ result: 'deny' });
    }
  });

  it('let a key connect under its own name only; anonymous and wrong passwords are denied', async () => {
    const own = await key();
    const other = await key();
    expect((await auth({ username: own.username, password: own.key })).json()).toEqual({
      result: 'allow',
      is_superuser: false,
    });
    for (const body of [
      {},
      { username: own.username },
      { username: own.username, password: `sdk_${randomBytes(32).toString('base64url')}` },
      { username: other.username, password: own.key },
      { username: own.key, password: own.key },
    ])
      expect((await auth(body)).json(), JSON.stringify(body)).toEqual({ result: 'deny' });
  });

  it("let the server's own account in as a superuser, with its password only", async () => {
    expect((await auth({ username: 'smartdata-server', password: SERVER_PASSWORD })).json()).toEqual({
      result: 'allow',
      is_superuser: true,
    });
    expect((await auth({ username: 'smartdata-server', password: 'guess' })).json()).toEqual({
      result: 'deny',
    });
  });

  it('allow a key its own two topics and deny wildcards, $SYS, shared subscriptions and other keys', async () => {
    const own = await key();
    const other = await key();
    const ask = async (action: string, topic: string) =>
      (await acl({ username: own.username, topic, action, clientid: 'c1' })).json().result;
    expect(await ask('publish', `smartdata/submit/${own.username}`)).toBe('allow');
    expect(await ask('subscribe', `smartdata/result/${own.username}`)).toBe('allow');
    for (const topic of [
      `smartdata/submit/${other.username}`,
      `smartdata/result/${own.username}`,
      '$SYS/broker/load',
    ])
      expect(await ask('publish', topic), topic).toBe('deny');
    for (const filter of [
      'smartdata/submit/+/#',
      'smartdata/+/+/#',
      'smartdata/result/+/#',
      '#',
      '$SYS/#',
      `$share/g/smartdata/result/${own.username}`,
      `smartdata/result/${other.username}`,
    ])
      expect(await ask('subscribe', filter), filter).toBe('deny');
    expect(await ask('retain', `smartdata/submit/${own.username}`)).toBe('deny');
  });

  it("deny a key the server nodes' live relay topics: it can neither forge live events nor read them", async () => {
    const own = await key();
    const ask = async (action: string, topic: string) =>
      (await acl({ username: own.username, topic, action, clientid: 'c1' })).json().result;
    for (const topic of ['smartdata/internal/live/records', 'smartdata/internal/live/devices'])
      expect(await ask('publish', topic), topic).toBe('deny');
    for (const filter of [
      'smartdata/internal/live/#',
      'smartdata/internal/live/records',
      'smartdata/+/live/+',
      'smartdata/internal/#',
      '+/internal/#',
    ])
      expect(await ask('subscribe', filter), filter).toBe('deny');
  });

  it('deny a revoked key from then on', async () => {
    const own = await key();
    await t.app.inject({
      method: 'POST',
      url: '/general/smartdata/key/revoke',
      payload: { id: own.id },
      headers: bearer(company.admin.token),
    });
    expect((await auth({ username: own.username, password: own.key })).json()).toEqual({ result: 'deny' });
    expect(
      (
        await acl({ username: own.username, topic: `smartdata/submit/${own.username}`, action: 'publish' })
      ).json(),
    ).toEqual({ result: 'deny' });
  });
});

describe('the MQTT counters', () => {
  it('answer null when this node runs no MQTT', async () => {
    const platform = await makeCompany(t, 'Platform operator', { isPlatform: true });
    const res = await t.app.inject({
      method: 'GET',
      url: '/general/mqtt/stats',
      headers: bearer(platform.admin.token),
    });
    expect(res.json()).toEqual({ code: 0, message: expect.any(String), data: null });
  });
});
