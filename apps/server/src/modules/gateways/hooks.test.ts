/**
 * Gateways through the HTTP hooks EMQX calls (MQTT_BROKER_AUTH=http), as the broker would: a
 * gateway signs in with its serial number and secret and is confined to its own topics; a
 * removed registration is denied from its next publish.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper';
import { nextSerialNumber, registerGateway } from '../devices/test-support';

const SECRET = randomBytes(16).toString('hex');
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: 'off', MQTT_HOOK_SECRET: SECRET });
});
afterAll(() => t.close());

const hook = async (path: 'auth' | 'acl', body: Record<string, string>) =>
  (
    await t.app.inject({
      method: 'POST',
      url: `/general/mqtt/${path}`,
      payload: body,
      headers: { authorization: `Bearer ${SECRET}` },
    })
  ).json();

describe('gateways through the broker hooks', () => {
  it('authenticate a gateway by serial number and secret only', async () => {
    const g = await registerGateway(t);
    const other = await registerGateway(t);
    expect(await hook('auth', { username: g.sn, password: g.secret, clientid: g.sn })).toEqual({
      result: 'allow',
      is_superuser: false,
    });
    for (const [username, password] of [
      [g.sn, other.secret],
      [g.sn.toLowerCase(), g.secret],
      [nextSerialNumber(), g.secret],
      [g.sn, ''],
    ])
      expect((await hook('auth', { username: username!, password: password! })).result).toBe('deny');
  });

  it("allow a gateway its own topics and nothing of another gateway's", async () => {
    const g = await registerGateway(t);
    const other = await registerGateway(t);
    const allowed: Array<[string, string]> = [
      ['publish', `smartdata/gw/${g.sn}/up/status`],
      ['publish', `smartdata/gw/${g.sn}/up/telemetry`],
      ['subscribe', `smartdata/gw/${g.sn}/down/#`],
    ];
    const denied: Array<[string, string]> = [
      ['publish', `smartdata/gw/${other.sn}/up/status`],
      ['publish', `smartdata/gw/${g.sn}/down/bind`],
      ['publish', 'smartdata/submit/key-1'],
      ['subscribe', 'smartdata/gw/+/down/#'],
      ['subscribe', `smartdata/gw/${other.sn}/down/#`],
      ['subscribe', '#'],
      ['delete', `smartdata/gw/${g.sn}/up/status`],
    ];
    for (const [action, topic] of allowed)
      expect((await hook('acl', { username: g.sn, action, topic })).result, topic).toBe('allow');
    for (const [action, topic] of denied)
      expect((await hook('acl', { username: g.sn, action, topic })).result, `${action} ${topic}`).toBe(
        'deny',
      );
    // removed from the registry: its next publish is denied
    const { removeGateway } = await import('./registry');
    await removeGateway(t.app, g.id);
    expect(
      (await hook('acl', { username: g.sn, action: 'publish', topic: `smartdata/gw/${g.sn}/up/status` }))
        .result,
    ).toBe('deny');
  });
});
