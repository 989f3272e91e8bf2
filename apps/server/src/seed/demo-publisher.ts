/**
 * The demo boiler: while the embedded demo runs, a small MQTT client publishes one steam
 * reading every 5 s to the platform's own broker, the way a real gateway would, so the demo's
 * IoT item, charts and the daily analysis job have live data.
 *
 * Its key: at each start a fresh device key is generated, only its SHA-256 replaces the demo
 * key's stored hash, and the plain key lives in this process's memory only (never logged).
 * Turned off with DEMO_PUBLISHER=off. Started from main.ts only, never in tests.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import { dataItems } from '../modules/dataitems/tables';
import { newKey } from '../modules/ingest/keys';
import { submissionKeys } from '../modules/ingest/tables';
import type { Db } from '../platform/db';
import { sha256 } from '../platform/tokens';
import { DEMO_DEVICE_ID, DEMO_KEY_NAME, seededRandom, steamReading } from './demo-data';

export const DEMO_PUBLISH_INTERVAL_MS = 5_000;

export interface DemoPublisher {
  stop(): Promise<void>;
}

/**
 * A fresh key for the demo device key (found by its name and device id), or null when the demo
 * was not seeded. Returns the plain key and the boiler item's id.
 */
export async function rotateDemoDeviceKey(db: Db): Promise<{ key: string; itemId: number } | null> {
  const [row] = await db
    .select({ id: submissionKeys.id, companyId: submissionKeys.companyId })
    .from(submissionKeys)
    .where(
      and(
        eq(submissionKeys.name, DEMO_KEY_NAME),
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
  return { key, itemId: item.id };
}

/**
 * Connects to `brokerUrl` and publishes a reading every `intervalMs`; resolves with null when
 * the demo is not seeded. Connection problems are logged and retried by the client.
 */
export async function startDemoPublisher(opts: {
  db: Db;
  brokerUrl: string;
  log: FastifyBaseLogger;
  intervalMs?: number;
}): Promise<DemoPublisher | null> {
  const found = await rotateDemoDeviceKey(opts.db);
  if (!found) return null;
  const { key, itemId } = found;
  const random = seededRandom(Date.now() % 2 ** 31);
  const client: MqttClient = mqtt.connect(opts.brokerUrl, {
    clientId: `demo-boiler-${process.pid}`,
    reconnectPeriod: 5_000,
    connectTimeout: 10_000,
  });
  let warned = false;
  client.on('connect', () => {
    warned = false;
    client.subscribe(`smartdata/result/${key}`, { qos: 0 });
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
    client.publish(`smartdata/submit/${key}`, JSON.stringify({ itemId, ts: at.toISOString(), ...reading }), {
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
