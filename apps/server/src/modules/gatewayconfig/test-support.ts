/**
 * Fixtures of the gateway configuration tests: a company with an IoT item, a bound device, an
 * MQTT client playing the gateway (it records what the platform sends it and answers as told).
 * Not imported by production code.
 */
import { type GatewayConfig, gatewayDownTopic, gatewayUpTopic } from '@platform/domain';
import type { MqttClient } from 'mqtt';
import { bearer, type TestApp, type TestCompany } from '../../test/helper';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { birth, brokerUrl, connectGateway, makeDevice, publishUp, waitFor } from '../devices/test-support';

/** A small configuration that passes the check: a timestamp published to the platform. */
export function smallConfig(extra = ''): GatewayConfig {
  return {
    nodes: [
      {
        id: 'time1',
        type: 'timestamp',
        name: `Time${extra}`,
        settings: { format: 'epochMs' },
        position: { x: 0, y: 0 },
      },
      {
        id: 'publish1',
        type: 'mqttPublish',
        name: 'To platform',
        settings: { target: 'platform', qos: 1, format: 'json' },
        position: { x: 200, y: 0 },
      },
    ],
    links: [{ from: 'time1', to: 'publish1' }],
  };
}

/** A configuration with errors: a COM node with a baud rate no port has, a packet sent nowhere. */
export function brokenConfig(): GatewayConfig {
  return {
    nodes: [
      {
        id: 'com1',
        type: 'com',
        name: 'COM1',
        settings: {
          port: 1,
          baudRate: 9601,
          dataBits: 8,
          stopBits: 1,
          parity: 0,
          role: 'client',
          answerTimeoutMs: 1000,
        },
      },
    ],
    links: [],
  };
}

export interface Gateway {
  client: MqttClient;
  /** every message the platform sent the gateway, in order */
  received: Array<{ kind: string; payload: Record<string, unknown> }>;
  answer(payload: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

/** Connects as the gateway, says it is online and listens to its down topics. */
export async function onlineGateway(t: TestApp, gateway: { sn: string; secret: string }): Promise<Gateway> {
  const client = await connectGateway(brokerUrl(t), gateway);
  const received: Gateway['received'] = [];
  const prefix = gatewayDownTopic(gateway.sn, 'config').replace(/config$/, '');
  client.on('message', (topic, payload) => {
    if (!topic.startsWith(prefix)) return;
    received.push({ kind: topic.slice(prefix.length), payload: JSON.parse(payload.toString()) });
  });
  await client.subscribeAsync(`${prefix}#`, { qos: 1 });
  await publishUp(client, gateway.sn, 'status', birth());
  return {
    client,
    received,
    answer: (payload) =>
      client
        .publishAsync(gatewayUpTopic(gateway.sn, 'config'), JSON.stringify(payload), { qos: 1 })
        .then(() => {}),
    close: () => client.endAsync(true),
  };
}

/** Company A's device with an IoT item (SAMPLE_FIELDS), made by A's administrator. */
export async function configFixture(t: TestApp, a: TestCompany) {
  const device = await makeDevice(t, a.id, { userId: a.admin.id, name: '一号网关' });
  const item = await makeItem(t, a.id, { kind: 13, fields: SAMPLE_FIELDS, name: '电表' });
  return { device, item };
}

export function call(t: TestApp, token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  return t.app.inject({
    method,
    url: `/general/devicemanagement/gatewayconfig/${path}`,
    ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
    headers: { ...bearer(token), 'accept-language': 'en' },
  });
}

export { waitFor };
