/**
 * `npx tsx bench/upgrade.ts [--gateways N] [--speed S] [--max-dispatch M] [--no-write]` — many
 * simulated gateways (apps/gateway-sim, real HTTP downloads and SHA-256 checks) upgraded at once
 * through the batch route, in one process with the embedded PGlite and broker. Every upgrade
 * must end in success or a named failure within its timeouts: the run counts the ends by
 * reason, the upgrades left live at the end ("stuck", which must be 0), and the time from the
 * batch to each end. Results are appended to bench/RESULTS.md (section "Firmware upgrade").
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UPGRADE_LIVE } from '@platform/domain';
import { count, eq, inArray } from 'drizzle-orm';
import { startFleet } from '../apps/gateway-sim/src/fleet';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { createCompany } from '../apps/server/src/modules/companies/service';
import { bindNow } from '../apps/server/src/modules/devices/binding';
import { firmwareUpgrades } from '../apps/server/src/modules/firmware/tables';
import { registerGateways } from '../apps/server/src/modules/gateways/registry';
import { gateways } from '../apps/server/src/modules/gateways/tables';
import { createUser } from '../apps/server/src/modules/users/service';
import { BENCH_DIR } from './lib/child';
import { openPglite } from './lib/fixture';

const { values: flags } = parseArgs({
  options: {
    gateways: { type: 'string', default: '1000' },
    speed: { type: 'string', default: '20' },
    'max-dispatch': { type: 'string', default: '50' },
    'image-kb': { type: 'string', default: '64' },
    'no-write': { type: 'boolean', default: false },
  },
});
const N = Number(flags.gateways);
const SPEED = Number(flags.speed);
const MAX_DISPATCH = Number(flags['max-dispatch']);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function main() {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-upgrade-'));
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web'),
      MQTT_PORT: '0',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOGIN_RATE_LIMIT: '10000',
      MQTT_CONNECT_FAIL_LIMIT: '0',
      FIRMWARE_MAX_DISPATCH: String(MAX_DISPATCH),
      DEMO_GATEWAYS: 'false',
      LOG_LEVEL: 'warn',
    }),
    seedDemo: false,
  };
  const database = await openPglite();
  const app = await buildApp({ config, db: database.db, logger: false });
  await app.listen({ port, host: '127.0.0.1' });

  const phone = () => `139${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`;
  const opUser = await createUser(app.db, { phone: phone(), userName: 'operator', password: 'bench1234' });
  await createCompany(app.db, { name: 'Operator', ownerId: opUser.id, isPlatform: true });
  const user = await createUser(app.db, { phone: phone(), userName: 'bench', password: 'bench1234' });
  const company = await createCompany(app.db, { name: 'Bench', ownerId: user.id, isPlatform: false });
  const login = async (p: string) =>
    (
      await app.inject({
        method: 'POST',
        url: '/general/user/access/getToken',
        payload: `phone=${p}&password=bench1234`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
    ).json().data.token as string;
  const opToken = await login(opUser.phone);
  const token = await login(user.phone);

  // the version, uploaded as the operator does
  const image = randomBytes(Number(flags['image-kb']) * 1024);
  image[0] = 0x7f;
  image[1] = 0;
  const boundary = `----bench${randomBytes(6).toString('hex')}`;
  const field = (name: string, value: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const payload = Buffer.concat([
    field('model', 'SDG-200'),
    field('version', '2.0.0'),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="fw.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const up = await app.inject({
    method: 'POST',
    url: '/general/system/firmware/upload',
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${opToken}`,
    },
  });
  if (up.json().code !== 0) throw new Error(`upload: ${up.body}`);
  const versionId = up.json().data.id as number;

  // the fleet: registered and bound to the company, then started
  const sns = Array.from({ length: N }, (_, i) => `BUP${String(i + 1).padStart(6, '0')}`);
  const registered = await registerGateways(app, { serialNumbers: sns, model: 'SDG-200', userId: null });
  for (const g of registered) {
    await bindNow(app.db, {
      gatewayId: g.id,
      companyId: company.company.id,
      userId: user.id,
      name: g.serialNumber,
      parentId: null,
      at: new Date(),
    });
    app.gateways.forget(g.serialNumber);
  }
  const fleet = await startFleet({
    gateways: registered.map((g) => ({ sn: g.serialNumber, secret: g.secret, model: 'SDG-200' })),
    url: `mqtt://127.0.0.1:${app.mqtt!.port}`,
    speed: SPEED,
    backoff: { minMs: 200, maxMs: 2000 },
  });
  await fleet.waitOnline(N, 300_000);
  // the platform sees them online too
  for (;;) {
    const [row] = await app.db.select({ n: count() }).from(gateways).where(eq(gateways.online, true));
    if (Number(row?.n ?? 0) >= N) break;
    await new Promise((r) => setTimeout(r, 200));
  }

  const started = Date.now();
  const batch = await app.inject({
    method: 'POST',
    url: '/general/devicemanagement/firmware/batch',
    payload: { ids: registered.map((g) => g.id), versionId },
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' },
  });
  if (batch.json().code !== 0) throw new Error(`batch: ${batch.body.slice(0, 500)}`);
  const answeredMs = Date.now() - started;
  const refused = (batch.json().data.results as Array<{ error: unknown }>).filter((r) => r.error).length;
  const t = config.firmwareTotalTimeoutS;
  // the longest any upgrade may take: its queue wait plus its total timeout; wait that long at most
  const limitMs = (Math.ceil(N / MAX_DISPATCH) + 1) * t * 1000;
  let peakHeld = 0;
  for (;;) {
    const live = await app.db
      .select({ state: firmwareUpgrades.state })
      .from(firmwareUpgrades)
      .where(inArray(firmwareUpgrades.state, [...UPGRADE_LIVE]));
    peakHeld = Math.max(peakHeld, live.filter((r) => r.state !== 'queued').length);
    if (live.length === 0 || Date.now() - started > limitMs) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  const rows = await app.db.select().from(firmwareUpgrades);
  const byEnd: Record<string, number> = {};
  for (const r of rows) {
    const key = r.state === 'failed' ? `failed:${r.reason}` : r.state;
    byEnd[key] = (byEnd[key] ?? 0) + 1;
  }
  const stuck = rows.filter((r) => r.state !== 'success' && r.state !== 'failed').length;
  const durations = rows
    .filter((r) => r.endedAt)
    .map((r) => r.endedAt!.getTime() - started)
    .sort((x, y) => x - y);
  const wall = Date.now() - started;
  const summary = {
    gateways: N,
    speed: SPEED,
    maxDispatch: MAX_DISPATCH,
    imageKb: Number(flags['image-kb']),
    batchAnsweredMs: answeredMs,
    refusedAtStart: refused,
    upgrades: rows.length,
    ends: byEnd,
    stuck,
    peakHeldAtOnce: peakHeld,
    endAfterBatchMs: {
      p50: quantile(durations, 0.5),
      p95: quantile(durations, 0.95),
      max: quantile(durations, 1),
    },
    wallMs: wall,
  };
  console.log(JSON.stringify(summary, null, 2));
  if (!flags['no-write']) {
    appendFileSync(
      path.join(BENCH_DIR, 'RESULTS.md'),
      `\n## Firmware upgrade: ${N} gateways at once (bench/upgrade.ts, ${new Date().toISOString().slice(0, 16)}Z)\n\n` +
        `One process: PGlite, embedded broker, ${N} simulated gateways at speed ${SPEED} (a real upgrade of ` +
        `about 2.5 min takes about ${Math.round(146 / SPEED)} s), a ${summary.imageKb} KiB image downloaded over HTTP ` +
        `and checked by each, FIRMWARE_MAX_DISPATCH=${MAX_DISPATCH}, default timeouts (30/60/300 s).\n\n` +
        '```json\n' +
        JSON.stringify(summary, null, 2) +
        '\n```\n',
    );
  }
  await fleet.stop();
  fleet.scheduler.stop();
  await app.close();
  await database.close();
  process.exit(stuck === 0 ? 0 : 1);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
