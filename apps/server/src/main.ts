/** Starts the platform: embedded default (PGlite in ./data) unless DATABASE_URL is set. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { DemoFleet } from '@platform/gateway-sim';
import { buildApp } from './app';
import { loadConfig } from './config';
import { createScheduler } from './modules/analysis/scheduler';
import { createDataUpdateChecker } from './modules/dataupdate/check';
import { createSimSyncScheduler } from './modules/sims/sync';
import { type Database, openDatabase } from './platform/db';
import { installFootprintReport } from './platform/footprint';
import { DataDirInUse, type InstanceLock, lockDataDir } from './platform/instance-lock';
import { brokerAddress } from './platform/mqtt-external';
import { LogSmsProvider } from './platform/sms';
import { type DemoLogin, isEmpty, seedDemo, seedFirstAdmin } from './seed/demo';
import { startDemoGateways } from './seed/demo-fleet';
import { type DemoPublisher, startDemoPublisher } from './seed/demo-publisher';

const config = loadConfig();
let database: Database;
let lock: InstanceLock | null = null;
if (config.databaseUrl) {
  database = await openDatabase({ url: config.databaseUrl });
} else {
  // one instance per data folder, checked before anything in it is opened (see instance-lock.ts)
  await mkdir(config.dataDir, { recursive: true });
  try {
    lock = await lockDataDir(config.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw error;
    console.error(`\n  ${error.message}\n`);
    process.exit(1);
  }
  await mkdir(path.join(config.dataDir, 'db'), { recursive: true });
  database = await openDatabase({
    dataDir: path.join(config.dataDir, 'db'),
    ...(config.pgliteSettings ? { settings: config.pgliteSettings } : {}),
  });
}

let logins: DemoLogin[] = [];
if (await isEmpty(database.db)) {
  if (config.seedDemo)
    logins = await seedDemo(database.db, { lang: config.demoLang, dataDir: config.dataDir });
  else if (config.adminPhone && config.adminPassword)
    await seedFirstAdmin(database.db, config.adminPhone, config.adminPassword);
}

const app = await buildApp({ config, db: database.db });
await app.listen({ host: config.host, port: config.port });

const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
const lines = [
  '',
  `  Smart Data Platform is running at ${url}`,
  `  database: ${database.kind === 'pglite' ? `embedded PGlite in ${path.join(config.dataDir, 'db')}` : 'PostgreSQL'}`,
  `  API docs: ${url}/general/docs`,
];
if (logins.length > 0) {
  lines.push('  demo logins (seeded just now):');
  for (const login of logins) lines.push(`    ${login.phone} / ${login.password}  ${login.role}`);
} else if (config.seedDemo) {
  lines.push('  demo logins: 13800000000 / demo1234 (administrator), 13800000001 / demo1234 (limited user)');
}
// the demo boiler feeds its item over MQTT, as a gateway would (DEMO_PUBLISHER=off stops it)
let publisher: DemoPublisher | null = null;
if (config.seedDemo && process.env.DEMO_PUBLISHER !== 'off' && app.mqtt) {
  const brokerHost = config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  // never the server's own credentials: the boiler signs in with its key
  const brokerUrl = config.mqttUrl ? brokerAddress(config.mqttUrl) : `mqtt://${brokerHost}:${app.mqtt.port}`;
  publisher = await startDemoPublisher({
    db: database.db,
    brokerUrl,
    log: app.log,
    accounts: app.mqtt.accounts,
  });
  if (publisher) lines.push('  demo boiler: publishing a steam reading every 5 s over MQTT');
}
// the demo gateways, simulated in this process and connected to the broker as any gateway is,
// their meters and sensors feeding the demo's items (DEMO_GATEWAYS=off stops them)
let demoFleet: DemoFleet | null = null;
if (config.seedDemo) {
  demoFleet = await startDemoGateways(app);
  if (demoFleet)
    lines.push(
      `  demo gateways: ${demoFleet.list().length} simulated, their buttons at ${url}/general/dev/demoDevices`,
    );
}
if (!config.databaseUrl && app.sms instanceof LogSmsProvider) {
  lines.push(`  SMS codes (no SMS is sent here): printed below, and at ${url}/general/dev/smsOutbox`);
}
if (app.mqtt?.port) lines.push(`  MQTT broker (embedded): mqtt://${config.host}:${app.mqtt.port}`);
// every node ticks; each sync slot runs once across nodes (modules/sims/sync.ts)
// scheduled analysis (each job's Quartz cron, in its company's zone; each fire once across nodes)
const analysis = createScheduler(app);
analysis.start();
const simSync = createSimSyncScheduler(app, { intervalMinutes: config.simSyncMinutes });
if (config.simSyncMinutes > 0 && app.simCarriers.mode !== 'off') {
  simSync.start();
  lines.push(`  SIM cards: ${app.simCarriers.mode} carrier, synced every ${config.simSyncMinutes} min`);
}
// data-update monitoring: each check period's no-data check runs once across nodes
const dataUpdate = createDataUpdateChecker(app, { periodMs: config.dataUpdateCheckS * 1000 });
if (config.dataUpdateCheckS > 0) dataUpdate.start();
console.log(lines.join('\n'));
// FOOTPRINT_REPORT=<file>: the memory breakdown written there on SIGUSR2 (bench/footprint.ts)
if (process.env.FOOTPRINT_REPORT) installFootprintReport(process.env.FOOTPRINT_REPORT, database);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await publisher?.stop();
    await demoFleet?.stop();
    await simSync.stop();
    await dataUpdate.stop();
    await analysis.stop();
    await app.close();
    await database.close();
    await lock?.release();
    process.exit(0);
  });
}
