/**
 * A local broker without authentication in a process of its own, for measuring a fleet's
 * memory apart from the broker's: prints `{"url": …}` once listening; answers a `stats` line on
 * stdin with its memory, clients and the publishes it received.
 */
import { createInterface } from 'node:readline';
import { startLocalBroker } from './broker';

const broker = await startLocalBroker({ port: Number(process.env.BROKER_PORT ?? 0) });
let publishes = 0;
/** publishes by what follows `up/` (frame, status…) */
const byKind: Record<string, number> = {};
broker.broker.on('publish', (packet, client) => {
  if (!client) return;
  publishes += 1;
  const kind = packet.topic.split('/up/')[1] ?? 'other';
  byKind[kind] = (byKind[kind] ?? 0) + 1;
});
console.log(JSON.stringify({ url: broker.url }));
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'stats') return;
  const m = process.memoryUsage();
  console.log(
    JSON.stringify({ rss: m.rss, heapUsed: m.heapUsed, clients: broker.clients(), publishes, byKind }),
  );
});
process.stdin.on('end', () => void broker.close().then(() => process.exit(0)));
