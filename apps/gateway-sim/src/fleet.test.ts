import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fleetSpecs, generatedSecret, generatedSn, startFleet } from './fleet';
import { pollingConfig } from './layouts';
import { type LocalBroker, startLocalBroker } from './testing/broker';
import { PlatformStandIn } from './testing/platform-stand-in';

let broker: LocalBroker;
let platform: PlatformStandIn;
beforeEach(async () => {
  broker = await startLocalBroker();
  platform = await PlatformStandIn.connect(broker.url);
});
afterEach(async () => {
  await platform.close();
  await broker.close();
});

describe('fleet', () => {
  it('generates serial numbers and secrets, and refuses what is not a serial number', () => {
    expect(generatedSn('sim', 7)).toBe('SIM000007');
    expect(generatedSecret('SIM000007')).toMatch(/^gws_[A-Za-z0-9_-]{43}$/);
    expect(() => generatedSn('bad-', 1)).toThrow(/not a serial number/);
    expect(() => fleetSpecs({ url: '', gateways: [{ sn: 'ab', secret: 'x' }] })).toThrow(
      /not a serial number/,
    );
    const specs = fleetSpecs({ url: '', count: 2, prefix: 'T', gateways: [{ sn: 'listed01', secret: 's' }] });
    expect(specs.map((s) => s.sn)).toEqual(['LISTED01', 'T000001', 'T000002']);
    expect(specs[0]!.ports).toHaveLength(2);
  });

  it('runs 50 gateways on one scheduler: all online, all polling, one task each', async () => {
    const fleet = await startFleet({
      url: broker.url,
      count: 50,
      prefix: 'FLT',
      connectRate: 1000,
      config: (_sn, ports) => pollingConfig(ports, { slaves: 1, intervalS: 0.2 }),
      backoff: { minMs: 50, maxMs: 200 },
    });
    try {
      await fleet.waitOnline(50, 30_000);
      await Promise.all([...fleet.gateways.keys()].map((sn) => platform.waitFor(sn, 'frame')));
      // one polling task per gateway on the shared scheduler, nothing else waiting
      expect(fleet.scheduler.size).toBe(50);
      expect(fleet.stats()).toMatchObject({ gateways: 50, powered: 50, online: 50, badMessages: 0 });
      expect(fleet.get('flt000001')).toBe(fleet.gateways.get('FLT000001'));
      // ten lose their network without a word: ten wills
      const mark = platform.mark();
      const lost = [...fleet.gateways.values()].slice(0, 10);
      await Promise.all(lost.map((g) => g.goOffline('kill')));
      await Promise.all(
        lost.map((g) => platform.waitFor(g.sn, 'status', (m) => m.online === false, { since: mark })),
      );
      expect(fleet.stats().online).toBe(40);
    } finally {
      const mark = platform.mark();
      await fleet.stop();
      // the forty still online said goodbye
      await Promise.all(
        [...fleet.gateways.values()]
          .slice(10)
          .map((g) => platform.waitFor(g.sn, 'status', (m) => m.online === false, { since: mark })),
      );
    }
    expect(fleet.stats().online).toBe(0);
  });

  it('upgrades 40 gateways at once: each ends in success or the failure it was given', async () => {
    const image = randomBytes(64_000);
    const sha256 = createHash('sha256').update(image).digest('hex');
    let downloads = 0;
    const server = createServer((_req, res) => {
      downloads += 1;
      res.writeHead(200, { 'content-length': image.length }).end(image);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fw.bin`;
    const fleet = await startFleet({
      url: broker.url,
      count: 40,
      prefix: 'UPG',
      connectRate: 1000,
      speed: 300,
      firmware: '1.0.0',
    });
    try {
      await fleet.waitOnline(40, 30_000);
      const gateways = [...fleet.gateways.values()];
      const reasons = ['download', 'verify', 'install'] as const;
      for (let i = 0; i < 6; i++) gateways[i]!.failNextUpgrade(reasons[i % 3]!);
      await Promise.all(
        gateways.map((g, i) =>
          platform.send(g.sn, 'firmware', {
            upgradeId: i + 1,
            version: '2.0.0',
            url,
            size: image.length,
            sha256,
          }),
        ),
      );
      await Promise.all(
        gateways.map((g, i) =>
          i < 6
            ? platform.waitFor(g.sn, 'firmware', (m) => m.state === 'failed' && m.reason === reasons[i % 3])
            : platform.waitFor(g.sn, 'status', (m) => m.online === true && m.firmware === '2.0.0'),
        ),
      );
      expect(gateways.filter((g) => g.state().firmware === '2.0.0')).toHaveLength(34);
      // each fetched the image once (the simulated failures come after the download has begun)
      expect(downloads).toBe(40);
    } finally {
      await fleet.stop();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses a serial number listed twice', async () => {
    await expect(
      startFleet({
        url: broker.url,
        gateways: [
          { sn: 'TWICE001', secret: 'a' },
          { sn: 'twice001', secret: 'b' },
        ],
      }),
    ).rejects.toThrow(/listed twice/);
  });
});
