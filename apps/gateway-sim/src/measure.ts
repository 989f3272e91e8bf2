/**
 * Memory per simulated gateway: `npm run measure -w apps/gateway-sim -- --count 1000`.
 * A local broker runs in a child process (its memory is not counted); this process starts the
 * fleet, every gateway polling one slave every `--interval` seconds (one frame per gateway per
 * interval, the benchmark's load), waits until all are online and `--settle` seconds more, then
 * reports the process's memory growth per gateway, CPU and event-loop delay.
 * Run with --expose-gc (the npm script does) so the figures are after a collection.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startFleet } from './fleet';
import { sharedPollingConfig } from './layouts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    interval: { type: 'string', default: '10' },
    settle: { type: 'string', default: '30' },
    rate: { type: 'string', default: '500' },
  },
});
const count = Number(values.count);
const interval = Number(values.interval);
const settle = Number(values.settle);
const gc = (globalThis as { gc?: () => void }).gc;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (n: number) => Math.round(n / 1e5) / 10;

const here = path.dirname(fileURLToPath(import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'testing', 'broker-main.ts')], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const lines = createInterface({ input: child.stdout! });
const nextLine = async () =>
  JSON.parse((await once(lines, 'line'))[0] as string) as Record<string, number | string>;
const { url } = (await nextLine()) as { url: string };
const brokerStats = async () => {
  child.stdin!.write('stats\n');
  return (await nextLine()) as Record<string, number>;
};

gc?.();
await sleep(300);
gc?.();
const before = process.memoryUsage();
const started = Date.now();
const fleet = await startFleet({
  url,
  count,
  prefix: 'MEM',
  connectRate: Number(values.rate),
  config: sharedPollingConfig({ slaves: 1, intervalS: interval }),
  backoff: { minMs: 1_000, maxMs: 10_000 },
});
await fleet.waitOnline(count, 15 * 60_000);
const connectS = (Date.now() - started) / 1000;
const brokerBefore = await brokerStats();
const framesBefore = fleet.stats().framesPublished;
const windowStart = Date.now();
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const cpuBefore = process.cpuUsage();
await sleep(settle * 1000);
const cpu = process.cpuUsage(cpuBefore);
delay.disable();
const framesAfter = fleet.stats().framesPublished;
const windowS = (Date.now() - windowStart) / 1000;
const brokerAfter = await brokerStats();
gc?.();
await sleep(300);
gc?.();
const after = process.memoryUsage();
const stats = fleet.stats();
const result = {
  gateways: count,
  online: stats.online,
  connectSeconds: connectS,
  rssMB: mb(after.rss),
  rssPerGatewayKB: Math.round((after.rss - before.rss) / count / 102.4) / 10,
  heapPerGatewayKB: Math.round((after.heapUsed - before.heapUsed) / count / 102.4) / 10,
  // the window between the two counts, as long as the settling time and the lateness of the event loop
  windowSeconds: windowS,
  framesSentPerSecond: Math.round((framesAfter - framesBefore) / windowS),
  // counted by the broker, whose own lateness moves the ends of its window
  brokerPublishesPerSecond: Math.round(
    ((brokerAfter.publishes as number) - (brokerBefore.publishes as number)) / windowS,
  ),
  cpuPercent: Math.round(((cpu.user + cpu.system) / 1e6 / settle) * 100),
  eventLoopDelayP99ms: Math.round(delay.percentile(99) / 1e5) / 10,
  eventLoopDelayMaxms: Math.round(delay.max / 1e5) / 10,
  brokerRssMB: mb(brokerAfter.rss as number),
  publishesDuringSettle: Object.fromEntries(
    Object.entries(brokerAfter.byKind as unknown as Record<string, number>).map(([k, n]) => [
      k,
      n - ((brokerBefore.byKind as unknown as Record<string, number>)[k] ?? 0),
    ]),
  ),
  gcExposed: gc !== undefined,
};
console.log(JSON.stringify(result, null, 2));
await fleet.stop();
child.stdin!.end();
await once(child, 'exit');
process.exit(0);
