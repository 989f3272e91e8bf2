/**
 * Firmware upgrades end to end with the gateway simulator (apps/gateway-sim) as the device: it
 * downloads the image over real HTTP from the signed link, checks its size and SHA-256, installs,
 * reboots and names the new version in its birth message. Success; power lost mid-download
 * (interrupted) and a retry that works; a fault of its own (verify); a gateway gone silent
 * (ackTimeout). On the embedded broker, and on the machine's Mosquitto (dynamic security, as
 * docs/mqtt-broker.md recommends) when it is installed.
 */
import { SimGateway } from '@platform/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { freePort } from '../../test/mosquitto';
import {
  gatewayRow,
  makeDevice,
  onEachBroker,
  operationsOf,
  type SuiteBroker,
  waitFor,
} from '../devices/test-support';
import { call, uploadVersion } from './test-support';

function suite(name: string, broker: () => Promise<SuiteBroker>) {
  describe(name, () => {
    let t: TestApp;
    let a: TestCompany;
    let sim: SimGateway;
    let deviceId: number;
    let versionId: number;
    let stopBroker: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      const b = await broker();
      stopBroker = b.stop;
      const port = await freePort();
      t = await buildTestApp({
        ...b.env,
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        FIRMWARE_ACK_TIMEOUT_S: '3',
        FIRMWARE_PROGRESS_TIMEOUT_S: '5',
        FIRMWARE_TOTAL_TIMEOUT_S: '60',
      });
      // the gateway downloads from the server itself, over HTTP
      await t.app.listen({ port, host: '127.0.0.1' });
      const operator = await makeCompany(t, 'Operator', { isPlatform: true });
      a = await makeCompany(t, 'A');
      versionId = (await uploadVersion(t, operator.admin.token, '2.0.0', { bytes: undefined })).id;
      const device = await makeDevice(t, a.id, { userId: a.admin.id, name: 'Upgraded gateway' });
      deviceId = device.id;
      sim = new SimGateway(
        { sn: device.sn, secret: device.secret },
        { url: b.url(t), speed: 200, keepalive: 30, backoff: { minMs: 50, maxMs: 200 } },
      );
      sim.start();
      await waitFor(async () => (await gatewayRow(t, device.id)).online, 20_000, 'the simulator online');
    });
    afterAll(async () => {
      await sim?.stop();
      sim?.scheduler.stop();
      await t?.close();
      await stopBroker?.();
    });

    const online = () => waitFor(async () => (await gatewayRow(t, deviceId)).online, 20_000, 'online');

    async function upgrade(path = 'upgrade', body: Record<string, unknown> = { id: deviceId, versionId }) {
      const res = await call(t, a.admin.token, 'POST', path, body);
      expect(res.json().code, res.body).toBe(0);
      return res.json().data.id as number;
    }

    function ended(upgradeId: number) {
      return waitFor(
        async () => {
          const u = (
            await call(t, a.admin.token, 'GET', `upgrade?id=${deviceId}&upgradeId=${upgradeId}`)
          ).json().data;
          return u.live ? undefined : (u as { state: string; reason: string | null; detail: string | null });
        },
        40_000,
        'the upgrade ended',
      );
    }

    it('power lost mid-download ends in interrupted; the retry succeeds and the gateway runs the version', async () => {
      sim.losePowerDuringNextUpgrade('downloading');
      const first = await upgrade();
      expect(await ended(first)).toMatchObject({ state: 'failed', reason: 'interrupted' });
      // the power comes back with the old firmware
      await online();
      expect(sim.state().firmware).toBe('1.0.0');
      const retry = await upgrade('retry', { id: deviceId, upgradeId: first });
      expect(await ended(retry)).toMatchObject({ state: 'success', reason: null });
      expect(sim.state().firmware).toBe('2.0.0');
      expect((await gatewayRow(t, deviceId)).firmware).toBe('2.0.0');
      // the operation log is settled just after the upgrade row ends: wait for it
      const log = await waitFor(
        async () => {
          const ops = (await operationsOf(t, a.id, deviceId)).filter((o) => o.kind === 'upgrade');
          return ops.some((o) => o.result === 'pending') ? undefined : ops;
        },
        10_000,
        'the upgrade operations settled',
      );
      expect(log.map((o) => [o.result, (o.data as { reason?: string }).reason ?? null])).toEqual([
        ['failed', 'interrupted'],
        ['ok', null],
      ]);
    });

    it('a fault of the gateway is named: verify, with its words', async () => {
      sim.failNextUpgrade('verify');
      const id = await upgrade();
      const end = await ended(id);
      expect(end).toMatchObject({ state: 'failed', reason: 'verify' });
      expect(end.detail).toBeTruthy();
      expect(sim.state().firmware).toBe('2.0.0');
    });

    it('a gateway gone silent (the platform still thinks it online) ends in ackTimeout', async () => {
      await sim.goOffline('silent');
      const id = await upgrade();
      expect(await ended(id)).toMatchObject({ state: 'failed', reason: 'ackTimeout' });
      sim.comeOnline();
      await online();
    });
  });
}

onEachBroker('firmware upgrades with the simulator', suite);
