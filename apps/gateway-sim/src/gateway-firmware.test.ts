import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, until } from './testing/harness';

/** A firmware server: serves one image and counts what was asked of it. */
let server: Server;
let base: string;
const image = randomBytes(300_000);
const sha256 = createHash('sha256').update(image).digest('hex');
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url?.startsWith('/fw/1.3.0.bin')) {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': image.length });
      // in pieces, as a network delivers it
      let at = 0;
      const next = () => {
        if (at >= image.length) return void res.end();
        res.write(image.subarray(at, at + 32_768), next);
        at += 32_768;
      };
      next();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const order = (upgradeId: number, over: Record<string, unknown> = {}) => ({
  upgradeId,
  version: '1.3.0',
  url: `${base}/fw/1.3.0.bin?sig=abc&id=${upgradeId}`,
  size: image.length,
  sha256,
  timeouts: { ack: 30, progress: 60, total: 300 },
  ...over,
});

const states = (h: Harness, sn: string, upgradeId: number) =>
  h.platform
    .of(sn, 'firmware')
    .filter((m) => m.upgradeId === upgradeId)
    .map((m) => (m.progress === undefined ? m.state : `${m.state} ${m.progress}`));

describe('firmware upgrade', () => {
  it('downloads the image, checks its SHA-256, installs, reboots and comes back with the new version', async () => {
    const gw = h.gateway({ sn: 'GWFW0001', firmware: '1.2.0' });
    await h.platform.waitFor('GWFW0001', 'status', (m) => m.online === true);
    const mark = h.platform.mark();
    await h.platform.send('GWFW0001', 'firmware', order(42));
    await h.platform.waitFor('GWFW0001', 'status', (m) => m.online === true && m.firmware === '1.3.0', {
      since: mark,
    });
    expect(states(h, 'GWFW0001', 42)).toEqual([
      'accepted',
      ...[0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((p) => `downloading ${p}`),
      'verifying',
      ...[0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((p) => `installing ${p}`),
      'rebooting',
    ]);
    expect(requests.filter((r) => r.includes('id=42'))).toHaveLength(1);
    // offline politely between rebooting and the new birth
    const after = h.platform.of('GWFW0001', 'status', mark);
    expect(after.findIndex((m) => m.online === false)).toBeLessThan(
      after.findIndex((m) => m.firmware === '1.3.0'),
    );
    await h.platform.waitFor(
      'GWFW0001',
      'event',
      (m) => m.event === 'reboot' && m.detail === 'firmware 1.2.0 → 1.3.0',
      {
        since: mark,
      },
    );
    expect(gw.state().firmware).toBe('1.3.0');
    expect(gw.state().upgrade).toMatchObject({ upgradeId: 42, state: 'rebooted' });
  });

  it('fails verify when the image does not match its SHA-256, and download on HTTP 404', async () => {
    const gw = h.gateway({ sn: 'GWFW0002', firmware: '1.2.0' });
    await h.platform.waitFor('GWFW0002', 'status', (m) => m.online === true);
    await h.platform.send('GWFW0002', 'firmware', order(7, { sha256: 'ab'.repeat(32) }));
    const failed = await h.platform.waitFor('GWFW0002', 'firmware', (m) => m.state === 'failed');
    expect(failed).toMatchObject({ upgradeId: 7, reason: 'verify' });
    expect(failed.detail).toContain(sha256);
    await h.platform.send('GWFW0002', 'firmware', order(8, { url: `${base}/fw/missing.bin` }));
    expect(
      await h.platform.waitFor('GWFW0002', 'firmware', (m) => m.upgradeId === 8 && m.state === 'failed'),
    ).toEqual({
      upgradeId: 8,
      state: 'failed',
      reason: 'download',
      detail: 'HTTP 404',
    });
    await h.platform.send('GWFW0002', 'firmware', order(9, { size: image.length + 1 }));
    const short = await h.platform.waitFor(
      'GWFW0002',
      'firmware',
      (m) => m.upgradeId === 9 && m.state === 'failed',
    );
    expect(short).toMatchObject({
      reason: 'verify',
      detail: `the image is smaller than ${image.length + 1} bytes`,
    });
    await h.platform.send('GWFW0002', 'firmware', order(10, { url: 'file:///etc/passwd' }));
    expect(await h.platform.waitFor('GWFW0002', 'firmware', (m) => m.upgradeId === 10)).toMatchObject({
      state: 'failed',
      reason: 'download',
      detail: 'invalid order: url',
    });
    expect(gw.state().firmware).toBe('1.2.0');
  });

  it('fails at the step the controller chose (download, verify, install), then succeeds on retry', async () => {
    const gw = h.gateway({ sn: 'GWFW0003', firmware: '1.2.0' });
    await h.platform.waitFor('GWFW0003', 'status', (m) => m.online === true);
    let id = 100;
    for (const reason of ['download', 'verify', 'install'] as const) {
      gw.failNextUpgrade(reason);
      id += 1;
      await h.platform.send('GWFW0003', 'firmware', order(id));
      const failed = await h.platform.waitFor(
        'GWFW0003',
        'firmware',
        (m) => m.upgradeId === id && m.state === 'failed',
      );
      expect(failed.reason).toBe(reason);
      expect(gw.state().firmware).toBe('1.2.0');
    }
    expect(states(h, 'GWFW0003', 103).at(-2)).toBe('installing 60');
    const mark = h.platform.mark();
    await h.platform.send('GWFW0003', 'firmware', order(104));
    await h.platform.waitFor('GWFW0003', 'status', (m) => m.firmware === '1.3.0', { since: mark });
  });

  it('loses power mid-upgrade: the will, back with the old firmware, no report; a retry succeeds', async () => {
    const gw = h.gateway({ sn: 'GWFW0004', firmware: '1.2.0' });
    await h.platform.waitFor('GWFW0004', 'status', (m) => m.online === true);
    gw.losePowerDuringNextUpgrade('downloading', 100);
    const mark = h.platform.mark();
    await h.platform.send('GWFW0004', 'firmware', order(50));
    await h.platform.waitFor('GWFW0004', 'status', (m) => m.online === false, { since: mark });
    const back = await h.platform.waitFor('GWFW0004', 'status', (m) => m.online === true, { since: mark });
    expect(back.firmware).toBe('1.2.0');
    expect(states(h, 'GWFW0004', 50)).toEqual([
      'accepted',
      'downloading 0',
      'downloading 10',
      'downloading 20',
      'downloading 30',
      'downloading 40',
    ]);
    expect(gw.state().upgrade).toMatchObject({
      upgradeId: 50,
      state: 'interrupted',
      detail: 'power lost at downloading',
    });
    await h.platform.waitFor(
      'GWFW0004',
      'event',
      (m) => m.event === 'reboot' && m.detail === 'power restored',
      { since: mark },
    );

    const retry = h.platform.mark();
    await h.platform.send('GWFW0004', 'firmware', order(51));
    await h.platform.waitFor('GWFW0004', 'status', (m) => m.firmware === '1.3.0', { since: retry });
    expect(states(h, 'GWFW0004', 51).at(-1)).toBe('rebooting');
  });

  it('loses power at each other step too, and when the power is cut from outside', async () => {
    const gw = h.gateway({ sn: 'GWFW0005', firmware: '1.2.0' });
    await h.platform.waitFor('GWFW0005', 'status', (m) => m.online === true);
    let id = 200;
    for (const step of ['accepted', 'verifying', 'installing'] as const) {
      gw.losePowerDuringNextUpgrade(step, 50);
      id += 1;
      const mark = h.platform.mark();
      await h.platform.send('GWFW0005', 'firmware', order(id));
      await h.platform.waitFor('GWFW0005', 'status', (m) => m.online === true, { since: mark });
      const seen = states(h, 'GWFW0005', id);
      expect(seen.at(-1)).toBe(step === 'installing' ? 'installing 50' : step);
      expect(seen).not.toContain('failed');
      expect(gw.state().firmware).toBe('1.2.0');
    }
    // cut by hand while it downloads
    const mark = h.platform.mark();
    await h.platform.send('GWFW0005', 'firmware', order(300));
    await until(
      () => gw.state().upgrade?.upgradeId === 300 && gw.state().upgrade?.state === 'downloading',
      'downloading',
    );
    await gw.powerCut();
    expect(gw.state().upgrade).toMatchObject({ upgradeId: 300, state: 'interrupted' });
    gw.powerOn();
    await h.platform.waitFor('GWFW0005', 'status', (m) => m.online === true && m.firmware === '1.2.0', {
      since: mark,
    });
  });

  it('ignores the same order delivered twice while it runs', async () => {
    h.gateway({ sn: 'GWFW0006', firmware: '1.2.0' });
    await h.platform.waitFor('GWFW0006', 'status', (m) => m.online === true);
    const mark = h.platform.mark();
    await h.platform.send('GWFW0006', 'firmware', order(60));
    await h.platform.send('GWFW0006', 'firmware', order(60));
    await h.platform.waitFor('GWFW0006', 'status', (m) => m.firmware === '1.3.0', { since: mark });
    expect(states(h, 'GWFW0006', 60).filter((s) => s === 'accepted')).toHaveLength(1);
    expect(requests.filter((r) => r.includes('id=60'))).toHaveLength(1);
  });
});
