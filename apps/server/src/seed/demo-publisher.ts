/**
 * The demo boiler: while the embedded demo runs, a small MQTT client publishes one steam
 * reading every 5 s to the platform's own broker, the way a real gateway would, so the demo's
 * IoT item, charts and the daily analysis job have live data.
 *
 * Its key: at each start a fresh device key is generated, only its SHA-256 replaces the demo
 * key's stored hash, and the plain key lives in this process's memory only (never logged).
 * It connects as any device does: username `key-<id>`, the key as password (on an external
 * broker whose accounts the server keeps, the key's account gets the new password first).
 * Turned off with DEMO_PUBLISHER=off. Started from main.ts only, never in tests.
 */
import { keyMqttUsername, resultTopic, submissionAcl, submitTopic } from '@platform/domain';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { dataItems } from '../modules/dataitems/tables';
import { newKey } from '../modules/ingest/keys';
import { submissionKeys } from '../modules/ingest/tables';
import type { Db } from '../platform/db';
import type { BrokerAccounts } from '../platform/mqtt';
import { sha256 } from '../platform/tokens';
import { DEMO_DEVICE_ID, DEMO_KEY_NAMES, seededRandom, steamReading } from './demo-data';

export const DEMO_PUBLISH_INTERVAL_MS = 5_000;

export interface DemoPublisher {
  stop(): Promise<void>;
}

/**
 * A fresh key for the demo device key (found by its name, in either seeding language, and device id), or null when the demo
 * was not seeded. Returns the plain key and the boiler item's id.
 */
export async function rotateDemoDeviceKey(
  db: Db,
): Promise<{ id: number; key: string; itemId: number } | null> {
  const [row] = await db
    .select({ id: submissionKeys.id, companyId: submissionKeys.companyId })
    .from(submissionKeys)
    .where(
      and(
        inArray(submissionKeys.name, Object.values(DEMO_KEY_NAMES)),
        eq(submissionKeys.deviceId, DEMO_DEVICE_ID),
        eq(submissionKeys.kind, 'device'),
        isNull(submissionKeys.revokedAt),
      ),
    )
    .limit(1);
  if (!row) return null;
  const [item] = await db
    .select({ id: dataItems.id })
    .from(dataItems)
    .where(
      and(
        eq(dataItems.companyId, row.companyId),
        sql`${dataItems.sources} @> ${JSON.stringify([{ deviceId: DEMO_DEVICE_ID }])}::jsonb`,
      ),
    )
    .limit(1);
  if (!item) return null;
  const key = newKey();
  await db
    .update(submissionKeys)
    .set({ keyHash: sha256(key), prefix: key.slice(0, 12) })
    .where(eq(submissionKeys.id, row.id));
  return { id: row.id, key, itemId: item.id };
}

/**
 * Connects to `brokerUrl` and publishes a reading every `intervalMs`; resolves with null when
 * the demo is not seeded. Connection problems are logged and retried by the client.
 */
export async function startDemoPublisher(opts: {
  db: Db;
  /** the broker's address, without credentials */
  brokerUrl: string;
  log: FastifyBaseLogger;
  /** the broker accounts the server keeps (external Mosquitto), if any */
  accounts?: BrokerAccounts | null;
  intervalMs?: number;
}): Promise<DemoPublisher | null> {
  const found = await rotateDemoDeviceKey(opts.db);
  if (!found) return null;
  const { key, itemId } = found;
  const username = keyMqttUsername(found.id);
  await opts.accounts?.put({ kind: 'key', username, acl: submissionAcl(username) }, key);
  const random = seededRandom(Date.now() % 2 ** 31);
  const client: MqttClient = mqtt.connect(opts.brokerUrl, {
    clientId: `demo-boiler-${process.pid}`,
    username,
    password: key,
    reconnectPeriod: 5_000,
    connectTimeout: 10_000,
  });
  let warned = false;
  client.on('connect', () => {
    warned = false;
    client.subscribe(resultTopic(username), { qos: 0 });
    opts.log.info({ deviceId: DEMO_DEVICE_ID, itemId }, 'demo boiler publisher connected');
  });
  client.on('error', (error) => {
    if (!warned) opts.log.warn({ err: error.message }, 'demo boiler publisher: broker error');
    warned = true;
  });
  client.on('message', (_topic, payload) => {
    try {
      const result = JSON.parse(payload.toString()) as { code?: number; message?: string };
      if (result.code !== 0)
        opts.log.warn({ code: result.code, message: result.message }, 'demo reading refused');
    } catch {
      // not an envelope: ignore
    }
  });
  const timer = setInterval(() => {
    if (!client.connected) return;
    const at = new Date();
    const reading = steamReading(at, random);
    client.publish(submitTopic(username), JSON.stringify({ itemId, ts: at.toISOString(), ...reading }), {
      qos: 1,
    });
  }, opts.intervalMs ?? DEMO_PUBLISH_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await client.endAsync();
    },
  };
}
