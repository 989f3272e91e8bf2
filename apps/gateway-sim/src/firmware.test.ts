import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type FirmwareOrder,
  REAL_TIMING,
  runUpgrade,
  scaleTiming,
  type UpgradeFaults,
  type UpgradeMessage,
  type UpgradeOutcome,
} from './firmware';
import { Scheduler } from './scheduler';
import { ManualTimers } from './testing/manual-timers';

const image = randomBytes(100_000);
const sha256 = createHash('sha256').update(image).digest('hex');
const order: FirmwareOrder = {
  upgradeId: 1,
  version: '2.0.0',
  url: 'http://fw.test/2.0.0.bin',
  size: image.length,
  sha256,
};

/** A fetch that serves `body` in 10 kB pieces and counts its calls. */
function fakeFetch(body: Uint8Array, status = 200) {
  const calls: string[] = [];
  const fn = (async (url: string) => {
    calls.push(String(url));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < body.length; at += 10_000) controller.enqueue(body.subarray(at, at + 10_000));
        controller.close();
      },
    });
    return new Response(status === 200 ? stream : null, { status });
  }) as unknown as typeof fetch;
  return { fn, calls };
}

/** Runs an upgrade on a manual clock, a second at a time; returns what it reported and when. */
async function simulate(options: {
  faults?: UpgradeFaults;
  body?: Uint8Array;
  status?: number;
  order?: Partial<FirmwareOrder>;
  speed?: number;
}) {
  const clock = new ManualTimers();
  const scheduler = new Scheduler(clock);
  const start = clock.time;
  const log: Array<{ at: number; message: UpgradeMessage }> = [];
  const fetcher = fakeFetch(options.body ?? image, options.status);
  let result: UpgradeOutcome | null = null;
  void runUpgrade({
    order: { ...order, ...options.order },
    timing: scaleTiming(REAL_TIMING, options.speed ?? 1),
    faults: options.faults ?? {},
    scheduler,
    signal: new AbortController().signal,
    report: (message) => log.push({ at: (clock.time - start) / 1000, message }),
    fetch: fetcher.fn,
  }).then((r) => {
    result = r;
  });
  const stepMs = 1000 / (options.speed ?? 1);
  for (let s = 0; s < 600 && !result; s++) {
    // let the download's promises run, then move the device's clock on
    for (let k = 0; k < 20; k++) await new Promise((r) => setImmediate(r));
    clock.advance(stepMs);
  }
  const steps = log.map(({ message: m }) =>
    m.progress === undefined ? m.state : `${m.state} ${m.progress}`,
  );
  return { log, steps, result: result as UpgradeOutcome | null, calls: fetcher.calls };
}

describe('the upgrade sequence', () => {
  it('takes about two and a half minutes at real speed, in the protocol’s order', async () => {
    const { log, steps, result, calls } = await simulate({});
    expect(result).toEqual({ outcome: 'installed', version: '2.0.0' });
    expect(calls).toEqual([order.url]);
    expect(steps[0]).toBe('accepted');
    expect(steps.at(-1)).toBe('rebooting');
    expect(steps.indexOf('verifying')).toBeGreaterThan(steps.indexOf('downloading 100'));
    expect(steps.indexOf('installing 0')).toBeGreaterThan(steps.indexOf('verifying'));
    // paced: each progress report no earlier than its share of the step's time
    const at = (step: string) => log[steps.indexOf(step)]!.at;
    expect(at('accepted')).toBeGreaterThanOrEqual(1);
    expect(at('downloading 50')).toBeGreaterThanOrEqual(1 + 30);
    expect(at('downloading 100')).toBeGreaterThanOrEqual(1 + 60);
    expect(at('installing 100') - at('installing 0')).toBeGreaterThanOrEqual(60);
    // 126 s until rebooting, plus the gateway's 20 s reboot: within the spec's 2-3 minutes
    expect(at('rebooting')).toBeGreaterThanOrEqual(126);
    expect(at('rebooting')).toBeLessThanOrEqual(130);
    // progress never waits longer than the protocol's 60 s progress timeout
    for (let k = 1; k < log.length; k++) expect(log[k]!.at - log[k - 1]!.at).toBeLessThan(60);
  });

  it('runs the same sequence a hundred times faster at speed 100', async () => {
    const { log, result } = await simulate({ speed: 100 });
    expect(result?.outcome).toBe('installed');
    expect(log.at(-1)!.at).toBeGreaterThanOrEqual(1.26);
    expect(log.at(-1)!.at).toBeLessThanOrEqual(1.3);
  });

  it('fails verify on a corrupted image, a short one and a long one', async () => {
    const corrupted = Buffer.from(image);
    corrupted[5_000]! ^= 1;
    expect((await simulate({ body: corrupted, speed: 100 })).result).toMatchObject({
      outcome: 'failed',
      reason: 'verify',
    });
    expect((await simulate({ body: image.subarray(0, 50_000), speed: 100 })).result).toEqual({
      outcome: 'failed',
      reason: 'verify',
      detail: `the image is smaller than ${image.length} bytes`,
    });
    const long = await simulate({ body: Buffer.concat([image, image]), speed: 100 });
    expect(long.result).toMatchObject({
      outcome: 'failed',
      reason: 'verify',
      detail: `the image is larger than ${image.length} bytes`,
    });
    expect(long.steps.at(-1)).toBe('failed');
  });

  it('fails download on an HTTP error or an order it cannot use, before downloading anything', async () => {
    expect((await simulate({ status: 403, speed: 100 })).result).toEqual({
      outcome: 'failed',
      reason: 'download',
      detail: 'HTTP 403',
    });
    for (const [field, value] of [
      ['url', 'ftp://fw.test/x'],
      ['size', 0],
      ['sha256', 'abc'],
      ['version', ''],
    ] as const) {
      const run = await simulate({ order: { [field]: value } as Partial<FirmwareOrder>, speed: 100 });
      expect(run.result).toEqual({
        outcome: 'failed',
        reason: 'download',
        detail: `invalid order: ${field}`,
      });
      expect(run.calls).toEqual([]);
      expect(run.steps).toEqual(['failed']);
    }
  });

  it('fails where the fault says, and loses power after the step it names without a report', async () => {
    const download = await simulate({ faults: { fail: 'download' }, speed: 100 });
    expect(download.steps.slice(-2)).toEqual(['downloading 40', 'failed']);
    const install = await simulate({ faults: { fail: 'install' }, speed: 100 });
    expect(install.steps.slice(-2)).toEqual(['installing 60', 'failed']);
    expect(install.result).toMatchObject({ reason: 'install' });
    for (const [step, last] of [
      ['accepted', 'accepted'],
      ['downloading', 'downloading 40'],
      ['verifying', 'verifying'],
      ['installing', 'installing 50'],
    ] as const) {
      const run = await simulate({ faults: { losePowerAt: step }, speed: 100 });
      expect(run.result).toEqual({ outcome: 'powerLost', step });
      expect(run.steps.at(-1)).toBe(last);
    }
  });
});
