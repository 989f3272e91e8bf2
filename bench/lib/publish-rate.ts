/**
 * The publisher of bench/display.ts, in a process of its own: `rate` messages a second for
 * `seconds` through an MQTT broker, QoS 1, `{itemId, f1: sequence number, f2: send time ms, f3}`,
 * round-robin over the items, sent in slices every 10 ms on a fixed schedule (open loop: a late
 * slice sends what the schedule owes). Writes `{sent: [seq, sentAt, …], rate}` to `out`.
 * Settings as JSON in $PUBLISH.
 */
import { writeFileSync } from 'node:fs';
import mqtt from 'mqtt';

const o = JSON.parse(process.env.PUBLISH ?? '{}') as {
  url: string;
  username: string;
  password: string;
  topic: string;
  itemIds: number[];
  rate: number;
  seconds: number;
  firstSeq: number;
  out: string;
};

const client = await mqtt.connectAsync(o.url, {
  username: o.username,
  password: o.password,
  reconnectPeriod: 0,
  clean: true,
});
const total = o.rate * o.seconds;
const sent: number[] = [];
let acked = 0;
const started = Date.now();
let n = 0;
await new Promise<void>((resolve) => {
  const tick = () => {
    const due = Math.min(total, Math.floor(((Date.now() - started) / 1000) * o.rate));
    while (n < due) {
      const seq = o.firstSeq + n;
      const at = Date.now();
      const itemId = o.itemIds[n % o.itemIds.length]!;
      client.publish(
        o.topic,
        JSON.stringify({ itemId, f1: seq, f2: at, f3: n % 1000 }),
        { qos: 1 },
        (error) => {
          if (!error) acked += 1;
        },
      );
      sent.push(seq, at);
      n += 1;
    }
    if (n >= total) resolve();
    else setTimeout(tick, 10);
  };
  tick();
});
const elapsed = (Date.now() - started) / 1000;
// wait for the broker's acknowledgements (bounded)
const until = Date.now() + 10_000;
while (acked < total && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
await client.endAsync();
writeFileSync(o.out, JSON.stringify({ sent, rate: total / elapsed, acked }));
process.stderr.write(`publisher: ${total} messages in ${elapsed.toFixed(1)} s, ${acked} acknowledged\n`);
