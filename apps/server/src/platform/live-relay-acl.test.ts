/**
 * The server nodes' live relay topics (`smartdata/internal/live/…`) attacked by the broker's
 * other clients, on the embedded broker and on Mosquitto: a submission key or a gateway can
 * neither listen there (to read other companies' records as they are stored) nor publish
 * there (to forge live records or device events into other companies' browsers).
 */
import {
  GATEWAY_TOPIC_ROOT,
  keyMqttUsername,
  LIVE_RELAY_FILTER,
  LIVE_RELAY_TOPIC_PREFIX,
} from '@platform/domain';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeItem, SAMPLE_FIELDS } from '../modules/cabin/test-support';
import { makeDevice, onEachBroker, type SuiteBroker } from '../modules/devices/test-support';
import { issueKey } from '../modules/ingest/keys';
import { buildTestApp, makeCompany, type TestApp, type TestCompany } from '../test/helper';
import { type Credentials, connectAs, disconnected, granted } from '../test/mqtt-clients';
import type { DeviceEvent, LiveEvent } from './live';

const REFUSED_SUBSCRIPTION = 128;
const FORGED_ID = 987_654_321;

const WIDE_FILTERS = [
  LIVE_RELAY_FILTER,
  `${LIVE_RELAY_TOPIC_PREFIX}records`,
  `${LIVE_RELAY_TOPIC_PREFIX}devices`,
  'smartdata/internal/#',
  'smartdata/+/live/#',
  '+/internal/live/+',
  `$share/g/${LIVE_RELAY_FILTER}`,
];

function suite(name: string, broker: () => Promise<SuiteBroker>) {
  describe(name, () => {
    let t: TestApp;
    let victim: TestCompany;
    let attacker: TestCompany;
    let itemId: number;
    let url: string;
    let stopBroker: (() => Promise<void>) | undefined;
    /** what the server heard on the relay topics (its own plain subscription) */
    const heard: Array<{ topic: string; text: string }> = [];
    /** what reached the sockets of this node */
    const delivered: Array<LiveEvent | DeviceEvent> = [];

    beforeAll(async () => {
      const b = await broker();
      stopBroker = b.stop;
      t = await buildTestApp(b.env);
      url = b.url(t);
      victim = await makeCompany(t, 'Relay victim');
      attacker = await makeCompany(t, 'Relay attacker');
      ({ itemId } = await makeItem(t, victim.id, { fields: SAMPLE_FIELDS }));
      await t.app.mqtt!.listen(LIVE_RELAY_FILTER, (topic, payload) =>
        heard.push({ topic, text: payload.toString('utf8') }),
      );
      t.app.live.subscribe([itemId], (event) => delivered.push(event));
      t.app.live.subscribeDevices(victim.id, (event) => delivered.push(event));
    });

    afterAll(async () => {
      await t?.close();
      await stopBroker?.();
    });

    async function keyClient(): Promise<{ client: MqttClient; own: string }> {
      const { id, key } = await issueKey(t.app, {
        companyId: attacker.id,
        userId: attacker.admin.id,
        name: 'relay spy',
        kind: 'user',
      });
      const who: Credentials = { username: keyMqttUsername(id), key };
      return { client: await connectAs(url, who), own: `smartdata/result/${who.username}` };
    }

    async function gatewayClient(): Promise<{ client: MqttClient; own: string }> {
      const device = await makeDevice(t, attacker.id, { name: 'relay spy' });
      const client = await connectAs(
        url,
        { username: device.sn, key: device.secret },
        { clientId: device.sn },
      );
      return { client, own: `${GATEWAY_TOPIC_ROOT}/${device.sn}/down/#` };
    }

    /** The server publishes a marker on the relay topic and waits to hear it back. */
    async function marker(): Promise<void> {
      const tag = `marker-${Math.random()}`;
      await t.app.mqtt!.publish(`${LIVE_RELAY_TOPIC_PREFIX}marker`, JSON.stringify({ o: tag }), 0);
      const deadline = Date.now() + 10_000;
      while (!heard.some((h) => h.text.includes(tag))) {
        if (Date.now() > deadline) throw new Error('the server did not hear its own marker');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    for (const [who, connect] of [
      ['a submission key', keyClient],
      ['a gateway', gatewayClient],
    ] as const) {
      it(`${who} cannot subscribe to the live relay topics, and hears nothing there`, async () => {
        const { client, own } = await connect();
        const seen: string[] = [];
        client.on('message', (topic) => seen.push(topic));
        try {
          for (const filter of WIDE_FILTERS)
            expect(await granted(client, filter), filter).toEqual([REFUSED_SUBSCRIPTION]);
          // its own topic still works: the refusals are about the filters, not the client
          expect(await granted(client, own)).toEqual([1]);
          // a record stored for the victim goes through the relay topics on a cluster
          await t.app.mqtt!.publish(
            `${LIVE_RELAY_TOPIC_PREFIX}records`,
            JSON.stringify({ o: 'elsewhere', e: { companyId: victim.id, itemId, records: [] } }),
            0,
          );
          await marker();
          expect(seen.filter((topic) => topic.startsWith('smartdata/internal'))).toEqual([]);
        } finally {
          await client.endAsync(true);
        }
      });

      it(`${who} cannot publish forged live records or device events on the relay topics`, async () => {
        const { client, own } = await connect();
        const forgedRecords = {
          o: 'forger',
          e: {
            companyId: victim.id,
            itemId,
            records: [
              { id: FORGED_ID, ts: new Date().toISOString(), values: { temperature: 99 }, source: 'api' },
            ],
          },
        };
        const forgedDevice = {
          o: 'forger',
          e: { type: 'membership', companyId: victim.id, gatewayId: FORGED_ID },
        };
        try {
          client.publish(`${LIVE_RELAY_TOPIC_PREFIX}records`, JSON.stringify(forgedRecords), { qos: 0 });
          client.publish(`${LIVE_RELAY_TOPIC_PREFIX}devices`, JSON.stringify(forgedDevice), { qos: 1 });
          // the broker has read everything the client sent once it answers a later packet,
          // or once it has closed the connection for a refused publish (the embedded broker)
          await Promise.race([granted(client, own).catch(() => undefined), disconnected(client)]);
        } finally {
          await client.endAsync(true);
        }
        await marker();
        expect(heard.filter((h) => h.text.includes(String(FORGED_ID)))).toEqual([]);
        expect(JSON.stringify(delivered)).not.toContain(String(FORGED_ID));
      });
    }
  });
}

onEachBroker('the live relay topics are closed to devices and keys', suite);
