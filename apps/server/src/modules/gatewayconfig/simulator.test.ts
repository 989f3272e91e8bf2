/**
 * Pushes to the gateway simulator (apps/gateway-sim) as the gateway: it checks, applies,
 * commits, answers unchanged to the same hash, rejects on command, and goes back by itself
 * when the commit never reaches it.
 */
import { SimGateway } from '@platform/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { brokerUrl, gatewayRow } from '../devices/test-support';
import { call, configFixture, smallConfig, waitFor } from './test-support';

let t: TestApp;
let a: TestCompany;
let sim: SimGateway;
let deviceId: number;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0', CONFIG_CONFIRM_WITHIN_S: '3' });
  a = await makeCompany(t, 'A');
  const { device } = await configFixture(t, a);
  deviceId = device.id;
  sim = new SimGateway(
    { sn: device.sn, secret: device.secret },
    { url: brokerUrl(t), speed: 500, backoff: { minMs: 50, maxMs: 200 } },
  );
  sim.start();
  await waitFor(async () => (await gatewayRow(t, device.id)).online, 20_000, 'the simulator online');
});
afterAll(async () => {
  await sim?.stop();
  sim?.scheduler.stop();
  await t?.close();
});

async function push(config?: ReturnType<typeof smallConfig>, base: number | null = null) {
  const res = await call(t, a.admin.token, 'POST', 'push', {
    id: deviceId,
    baseVersion: base,
    ...(config ? { config } : {}),
  });
  expect(res.json().code, res.body).toBe(0);
  return res.json().data as {
    push: { id: number; version: number; hash: string };
    saved: { version: number };
  };
}

async function ended(pushId: number, state: string) {
  return waitFor(
    async () => {
      const res = await call(t, a.admin.token, 'GET', `push?id=${deviceId}&pushId=${pushId}`);
      return res.json().data.state === state ? res.json().data : undefined;
    },
    30_000,
    state,
  );
}

describe('pushing to the simulated gateway', () => {
  it('applied and committed; the gateway then runs it and says so', async () => {
    const { push: p } = await push(smallConfig());
    await ended(p.id, 'committed');
    await waitFor(
      () => sim.state().pendingConfig === null && sim.state().config?.version === 1,
      20_000,
      'kept',
    );
    expect(sim.state().config).toEqual({ version: 1, hash: p.hash });
    const view = await waitFor(async () => {
      const res = await call(t, a.admin.token, 'GET', `get?id=${deviceId}`);
      return res.json().data.device.runningVersion === 1 ? res.json().data : undefined;
    });
    expect(view.device.runningHash).toBe(p.hash);
  });

  it('the same configuration again changes nothing on the gateway: unchanged', async () => {
    const { push: p, saved } = await push(undefined, 1);
    expect(saved).toMatchObject({ version: 1, created: false });
    await ended(p.id, 'unchanged');
    expect(sim.state().config).toMatchObject({ version: 1 });
  });

  it('a configuration the gateway refuses: rejected with its reasons, nothing changed', async () => {
    sim.rejectNextConfig('port 1 is busy (simulated)');
    const { push: p } = await push(smallConfig('v2'), 1);
    const done = await ended(p.id, 'rejected');
    expect(done.errors).toEqual([expect.objectContaining({ message: 'port 1 is busy (simulated)' })]);
    expect(sim.state().config).toMatchObject({ version: 1 });
  });

  it('a gateway cut off by its new configuration goes back by itself and reports the rollback', async () => {
    sim.loseNetworkAfterNextConfig();
    const { push: p } = await push(smallConfig('v3'), 2);
    const done = await ended(p.id, 'rolledBack');
    expect(done.runningVersion).toBe(1);
    expect(sim.state().config).toMatchObject({ version: 1 });
  });
});
