/**
 * The server under load, in its own process so the load generator does not share its event
 * loop, compiled like the server (`npm run build:server` writes apps/server/dist/bench-server.mjs;
 * bench/run.ts does it first). `bench-server.mjs app` builds the real app (apps/server/src/app.ts) on DATABASE_URL
 * (MQTT_URL = external broker, else MQTT_PORT=0 = embedded aedes on an ephemeral port);
 * `bench-server.mjs bare` is a bare Fastify route at the same path answering the same
 * envelope without doing anything (the HTTP baseline).
 *
 * Protocol: prints one JSON line `{"ready":true,"port":…,"mqttPort":…}`; then reads lines on
 * stdin: `stats` answers one JSON line (pipeline flushes and records, pg queries, CPU);
 * `profile-start` and `profile-stop <file>` CPU-profile the measured window only (no start-up);
 * `close` closes the app (in-flight writes commit) and exits. The fleet benchmark's commands
 * (bench/fleet-setup.ts): `fleet-setup <json>`, `fleet-push <json>`, `fleet-pushes <companyId>`
 * answer one JSON line each.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import type { App } from '../apps/server/src/platform/context';
import { openDatabase } from '../apps/server/src/platform/db';
import { pushFleet, pushStates, setupFleet } from './fleet-setup';

const mode = process.argv[2] ?? 'app';

/** every query the pg driver sends (drizzle and the pool go through Client.prototype.query) */
let queries = 0;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function countedQuery(this: pg.Client, ...args: unknown[]) {
  queries += 1;
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

function send(message: object): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

async function startBare(): Promise<{ port: number; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  app.post('/general/smartdata/submit', async (request) => {
    const body = request.body;
    const count = Array.isArray(body) ? body.length : 1;
    return { code: 0, message: 'ok', data: { count } };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, close: () => app.close() };
}

async function startApp(): Promise<{
  port: number;
  mqttPort: number | null;
  app: App;
  close: () => Promise<void>;
}> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is required');
  const database = await openDatabase({ url });
  const config = {
    ...loadConfig({
      DATABASE_URL: url,
      MQTT_URL: process.env.MQTT_URL ?? '',
      MQTT_PORT: process.env.MQTT_PORT ?? '0',
      MQTT_SHARE_GROUP: process.env.MQTT_SHARE_GROUP ?? '',
      WEB_DIST: '/nonexistent',
      DATA_DIR: process.env.DATA_DIR ?? '/tmp/bench-data',
      // the fleet benchmark connects every gateway from one address (production default 30)
      ...(process.env.MQTT_CONNECT_FAIL_LIMIT
        ? { MQTT_CONNECT_FAIL_LIMIT: process.env.MQTT_CONNECT_FAIL_LIMIT }
        : {}),
    }),
    seedDemo: false,
  };
  const app = await buildApp({ config, db: database.db, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    mqttPort: app.mqtt?.port ?? null,
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

async function main(): Promise<void> {
  const started = mode === 'bare' ? { ...(await startBare()), mqttPort: null, app: null } : await startApp();
  send({ ready: true, port: started.port, mqttPort: started.mqttPort });
  const lines = createInterface({ input: process.stdin });
  const inspector = new Session();
  for await (const line of lines) {
    if (line === 'profile-start') {
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.setSamplingInterval', { interval: 500 });
      await inspector.post('Profiler.start');
      send({ profiling: true });
    } else if (line.startsWith('profile-stop ')) {
      const { profile } = await inspector.post('Profiler.stop');
      writeFileSync(line.slice('profile-stop '.length), JSON.stringify(profile));
      inspector.disconnect();
      send({ profiling: false });
    } else if (line === 'stats') {
      const stats = started.app ? started.app.ingest.stats : { flushes: 0, records: 0 };
      const cpu = process.cpuUsage();
      send({
        ...stats,
        queries,
        rss: process.memoryUsage().rss,
        cpuMicros: cpu.user + cpu.system,
        gatewayDrops: started.app?.gateways ? { ...started.app.gateways.drops } : {},
      });
    } else if (line.startsWith('fleet-') && started.app) {
      const space = line.indexOf(' ');
      const command = space < 0 ? line : line.slice(0, space);
      const arg = space < 0 ? '' : line.slice(space + 1);
      try {
        if (command === 'fleet-setup') send(await setupFleet(started.app, JSON.parse(arg)));
        else if (command === 'fleet-push') send(await pushFleet(started.app, JSON.parse(arg)));
        else if (command === 'fleet-pushes') send(await pushStates(started.app, Number(arg)));
        else send({ error: `unknown command ${command}` });
      } catch (error) {
        send({ error: (error as Error).stack ?? String(error) });
      }
    } else if (line === 'close') {
      await started.close();
      send({ closed: true });
      break;
    }
  }
  // an open stdin or a --cpu-prof write must not keep us: leave through a normal exit
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
