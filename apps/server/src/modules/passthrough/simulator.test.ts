/**
 * The serial debug assistant's path end to end with the gateway simulator as the device: a
 * Modbus read sent through a passthrough session reaches the slave on the gateway's port and
 * its answer (with a valid CRC) comes back to the session; a reboot command is followed by the
 * gateway's birth and settles ok. On the embedded broker, and on the machine's Mosquitto
 * (dynamic security, as docs/mqtt-broker.md recommends) when it is installed.
 */
import { appendCrc, hasValidCrc, parseHex, toHex } from '@platform/domain';
import { SimGateway } from '@platform/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import {
  gatewayRow,
  makeDevice,
  onEachBroker,
  operationsOf,
  type SuiteBroker,
  waitFor,
} from '../devices/test-support';
import { openSession } from './test-support';

function suite(name: string, broker: () => Promise<SuiteBroker>) {
  describe(name, () => {
    let t: TestApp;
    let a: TestCompany;
    let sim: SimGateway;
    let deviceId: number;
    let stopBroker: (() => Promise<void>) | undefined;

    beforeAll(async () => {
      const b = await broker();
      stopBroker = b.stop;
      t = await buildTestApp(b.env);
      a = await makeCompany(t, 'A');
      const device = await makeDevice(t, a.id, { userId: a.admin.id, name: 'Meter gateway' });
      deviceId = device.id;
      sim = new SimGateway(
        { sn: device.sn, secret: device.secret },
        { url: b.url(t), speed: 500, backoff: { minMs: 50, maxMs: 200 } },
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

    it("a Modbus read through passthrough gets the slave's answer with a valid CRC; the port's polling waits meanwhile", async () => {
      const s = await openSession(t, a.admin.token, deviceId, 1);
      await s.next('opened');
      // slave 1 on port 1 (a three-phase meter): read two holding registers from 0
      const request = toHex(appendCrc([1, 3, 0, 0, 0, 2]));
      s.sendHex(request);
      expect((await s.next('tx')).data).toBe(request);
      const rx = await s.next('rx', 20_000);
      const bytes = parseHex(rx.data as string)!;
      expect(hasValidCrc(bytes)).toBe(true);
      expect([...bytes.slice(0, 3)]).toEqual([1, 3, 4]);
      expect(new Date(rx.at as string).getTime()).not.toBeNaN();
      // the gateway holds the port for this session
      expect(sim.passthroughSession(1)).toMatch(/^[0-9a-f]{32}$/);
      // a slave that does not exist answers nothing, and nothing comes back
      s.sendHex(toHex(appendCrc([99, 3, 0, 0, 0, 1])));
      await s.next('tx');
      s.sendHex(toHex(appendCrc([2, 3, 0, 0, 0, 2])));
      await s.next('tx');
      const second = await s.next('rx', 20_000);
      expect(parseHex(second.data as string)![0]).toBe(2);
      expect(s.heard.filter((m) => m.type === 'rx')).toHaveLength(2);
      s.close();
      const log = await waitFor(async () => {
        const rows = (await operationsOf(t, a.id, deviceId)).filter((r) => r.kind === 'passthrough');
        return rows.length === 2 && rows;
      });
      expect(log.map((r) => r.data)).toEqual([
        { port: 1, action: 'open' },
        { port: 1, action: 'close', sent: 3, received: 2 },
      ]);
    });

    it('reboot: the gateway restarts and is back; the command is logged ok', async () => {
      const before = (await gatewayRow(t, deviceId)).onlineAt!;
      const res = await t.app.inject({
        method: 'POST',
        url: '/general/devicemanagement/device/command',
        payload: { id: deviceId, command: 'reboot' },
        headers: bearer(a.admin.token),
      });
      expect(res.json()).toMatchObject({ code: 0, data: { result: 'pending' } });
      const id = res.json().data.operationId as number;
      await waitFor(
        async () => (await operationsOf(t, a.id, deviceId)).find((r) => r.id === id)?.result === 'ok',
        30_000,
        'the reboot settled',
      );
      const after = await gatewayRow(t, deviceId);
      expect(after.online).toBe(true);
      // it went away and came back: a new online time
      expect(after.onlineAt!.getTime()).toBeGreaterThan(before.getTime());
      expect(after.offlineAt!.getTime()).toBeGreaterThanOrEqual(before.getTime());
    });
  });
}

onEachBroker('passthrough and commands with the simulator', suite);
