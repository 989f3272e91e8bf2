/**
 * The demo devices page of the embedded default: the buttons of the simulated gateways' boxes,
 * for the person running the platform on their machine, and for nobody else: not another
 * machine, not a page of another site open in the same browser (no token), not production.
 */
import type { DemoFleet, GatewayState } from '@platform/gateway-sim';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper';

let t: TestApp;
const calls: unknown[] = [];

function state(sn: string, blinking: boolean): GatewayState {
  return {
    sn,
    model: 'SDG-200',
    firmware: '1.2.0',
    iccid: '89860012345678900104',
    powered: true,
    linkUp: true,
    online: true,
    bound: false,
    blinking: blinking
      ? { requestId: 'a'.repeat(32), company: '演示公司', expiresAt: '2026-11-27T08:02:00.000Z' }
      : null,
    upgrade: null,
    config: null,
    pendingConfig: null,
    ports: [],
    counters: {
      connects: 1,
      connectFailures: 0,
      framesPublished: 0,
      recordsPublished: 0,
      framesDropped: 0,
      messagesReceived: 0,
      badMessages: 0,
    },
  };
}

// the page's side of the fleet; what the fleet does with a press is the simulator's own tests
const fleet = {
  list: () => [state('SDG2024000101', false), state('SDG2024000104', true)],
  control: async (input: unknown) => {
    calls.push(input);
    return { ok: true as const, state: state('SDG2024000104', false), detail: 'bind request confirmed' };
  },
} as unknown as DemoFleet;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());
beforeEach(() => {
  calls.length = 0;
  t.app.demoDevices.fleet = fleet;
});

async function pageToken(): Promise<string> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/general/dev/demoDevices',
    remoteAddress: '127.0.0.1',
  });
  expect(res.statusCode).toBe(200);
  return /name="token" value="([^"]+)"/.exec(res.body)![1]!;
}

function press(token: string, remoteAddress = '127.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/general/dev/demoDevices',
    remoteAddress,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token, sn: 'SDG2024000104', action: 'pressButton' }).toString(),
  });
}

describe('the demo devices page', () => {
  it('shows the demo gateways and which one blinks, to a browser on this machine', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/general/dev/demoDevices', remoteAddress: '::1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
    expect(res.body).toContain('SDG2024000101');
    expect(res.body).toContain('bind light blinking · 演示公司');
  });

  it('presses the bind button with the page’s token', async () => {
    const res = await press(await pageToken());
    expect(res.statusCode).toBe(200);
    expect(calls).toEqual([{ sn: 'SDG2024000104', action: 'pressButton' }]);
    expect(res.body).toContain('SDG2024000104: bind request confirmed');
  });

  it('presses nothing without the token, or for another machine', async () => {
    for (const token of ['', 'x'.repeat(24), `${await pageToken()}x`]) {
      expect((await press(token)).statusCode).toBe(404);
    }
    expect((await press(await pageToken(), '192.168.1.20')).statusCode).toBe(404);
    const remote = await t.app.inject({
      method: 'GET',
      url: '/general/dev/demoDevices',
      remoteAddress: '10.0.0.7',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(remote.statusCode).toBe(404);
    expect(remote.body).not.toContain('SDG2024000104');
    expect(calls).toEqual([]);
  });

  it('does not exist without a demo fleet (DEMO_GATEWAYS=off, or not the embedded default)', async () => {
    t.app.demoDevices.fleet = null;
    const res = await t.app.inject({
      method: 'GET',
      url: '/general/dev/demoDevices',
      remoteAddress: '127.0.0.1',
    });
    expect(res.statusCode).toBe(404);
  });
});
