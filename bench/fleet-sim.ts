/**
 * The fleet benchmark's device side, in a process of its own (bench/fleet.ts starts it
 * compiled: apps/server/dist/fleet-sim.mjs): a fleet of simulated gateways (apps/gateway-sim,
 * one scheduler) and, for the frames-vs-JSON rate test, plain MQTT clients signed in as gateways
 * publishing frames or the same values as JSON telemetry as fast as the platform takes them.
 *
 * Protocol: one JSON command per line on stdin, one JSON answer line on stdout each:
 * `{"cmd":"start","url":…,"gateways":[{sn,secret}],"connectRate":…,"keepalive":…}`,
 * `{"cmd":"stats"}`, `{"cmd":"counters"}` (frames published per gateway),
 * `{"cmd":"kill","sns":[…],"how":"kill"|"silent"}` (the network goes, no DISCONNECT: `kill`
 * destroys the socket, `silent` leaves it hanging; answers when each went),
 * `{"cmd":"rate",…}` (see rate()), `{"cmd":"stop"}` (every gateway says goodbye), `{"cmd":"exit"}`.
 */
import { createInterface } from 'node:readline';
import { appendCrc, gatewayUpTopic, toHex } from '@platform/domain';
import { type Fleet, startFleet } from '@platform/gateway-sim';
import mqtt, { type MqttClient } from 'mqtt';

function send(message: unknown): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

let fleet: Fleet | null = null;

/** The meter's answer to `01 03 00 00 00 06`: three floats (ABCD) and the CRC. */
export function answerFrame(values: readonly number[]): string {
  const bytes = [1, 3, values.length * 4];
  const view = new DataView(new ArrayBuffer(4));
  for (const v of values) {
    view.setFloat32(0, v, false);
    bytes.push(view.getUint8(0), view.getUint8(1), view.getUint8(2), view.getUint8(3));
  }
  return toHex(appendCrc(bytes));
}

interface RateInput {
  url: string;
  gateways: Array<{ sn: string; secret: string }>;
  kind: 'frame' | 'telemetry';
  packetId: number;
  itemId: number;
  values: number[];
  seconds: number;
  /** QoS 1 publishes not yet acknowledged, per client */
  window: number;
  /** the first record's timestamp; each message gets the next millisecond */
  tsBase: number;
}

/**
 * Every client publishes QoS 1 messages keeping `window` unacknowledged, for `seconds`; the
 * embedded broker stops reading a client's socket while its messages wait, so the rate is what
 * the platform takes. Answers the messages acknowledged (each one record).
 */
async function rate(
  input: RateInput,
): Promise<{ published: number; seconds: number; connectSeconds: number }> {
  const t0 = performance.now();
  const clients: MqttClient[] = await Promise.all(
    input.gateways.map((g) =>
      mqtt.connectAsync(input.url, {
        clientId: g.sn,
        username: g.sn,
        password: g.secret,
        keepalive: 30,
        clean: true,
        reconnectPeriod: 0,
        connectTimeout: 30_000,
      }),
    ),
  );
  for (const c of clients) (c.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
  const connectSeconds = (performance.now() - t0) / 1000;
  const frame = answerFrame(input.values);
  // what the platform decodes from the frame: the float32 read back, to 15 significant digits
  const [f1, f2, f3] = input.values.map((v) => Number(Math.fround(v).toPrecision(15)));
  let seq = 0;
  const payload = (): string => {
    const ts = input.tsBase + seq++;
    return input.kind === 'frame'
      ? JSON.stringify({ port: 1, packetId: input.packetId, frame, ts })
      : JSON.stringify({ itemId: input.itemId, ts, f1, f2, f3 });
  };
  let published = 0;
  const start = performance.now();
  const deadline = start + input.seconds * 1000;
  await Promise.all(
    input.gateways.map(
      (g, i) =>
        new Promise<void>((resolve) => {
          const client = clients[i]!;
          const topic = gatewayUpTopic(g.sn, input.kind);
          let inflight = 0;
          const pump = () => {
            while (inflight < input.window && performance.now() < deadline) {
              inflight += 1;
              client.publish(topic, payload(), { qos: 1 }, (error) => {
                inflight -= 1;
                if (!error) published += 1;
                if (performance.now() < deadline) pump();
                else if (inflight === 0) resolve();
              });
            }
            if (inflight === 0) resolve();
          };
          pump();
        }),
    ),
  );
  const seconds = (performance.now() - start) / 1000;
  await Promise.all(clients.map((c) => c.endAsync()));
  return { published, seconds, connectSeconds };
}

async function handle(command: Record<string, unknown>): Promise<unknown> {
  switch (command.cmd) {
    case 'start': {
      fleet = await startFleet({
        url: String(command.url),
        gateways: command.gateways as Array<{ sn: string; secret: string }>,
        connectRate: Number(command.connectRate ?? 200),
        keepalive: Number(command.keepalive ?? 30),
      });
      return { started: fleet.gateways.size };
    }
    case 'stats': {
      const cpu = process.cpuUsage();
      return {
        ...(fleet?.stats() ?? {}),
        rss: process.memoryUsage().rss,
        cpuMicros: cpu.user + cpu.system,
      };
    }
    case 'counters': {
      const out: Record<string, { published: number; dropped: number; online: boolean }> = {};
      for (const g of fleet?.gateways.values() ?? []) {
        out[g.sn] = {
          published: g.counters.framesPublished,
          dropped: g.counters.framesDropped,
          online: g.state().online,
        };
      }
      return out;
    }
    case 'kill': {
      const how = command.how === 'silent' ? 'silent' : 'kill';
      const at: Record<string, number> = {};
      for (const sn of command.sns as string[]) {
        const g = fleet?.get(sn);
        if (!g) continue;
        at[sn] = Date.now();
        await g.goOffline(how);
      }
      return { at };
    }
    case 'rate':
      return rate(command as unknown as RateInput);
    case 'stop':
      await fleet?.stop();
      return { stopped: true };
    case 'exit':
      return { exiting: true };
    default:
      return { error: `unknown command ${String(command.cmd)}` };
  }
}

async function main(): Promise<void> {
  send({ ready: true, pid: process.pid });
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let command: Record<string, unknown>;
    try {
      command = JSON.parse(line);
    } catch {
      send({ error: 'not JSON' });
      continue;
    }
    try {
      send(await handle(command));
    } catch (error) {
      send({ error: (error as Error).stack ?? String(error) });
    }
    if (command.cmd === 'exit') break;
  }
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
