/**
 * Test fixtures of gateways and devices for every module's tests: gateways registered through
 * the registry service (so the secret is real), bound straight through `bindNow` (no button),
 * and MQTT clients that sign in as a gateway. Not imported by production code.
 */
import { randomBytes } from 'node:crypto';
import { type GatewayUpKind, gatewayUpTopic } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { describe } from 'vitest';
import type { TestApp } from '../../test/helper';
import { type Mosquitto, mosquittoAvailable, startMosquitto } from '../../test/mosquitto';
import { registerGateways } from '../gateways/registry';
import { gateways } from '../gateways/tables';
import { bindNow } from './binding';
import { deviceOperations } from './tables';

let snCounter = 0;
/** A serial number unique in this test process. */
export function nextSerialNumber(prefix = 'TST'): string {
  snCounter += 1;
  return `${prefix}${String(process.pid % 100000).padStart(5, '0')}${String(snCounter).padStart(5, '0')}`;
}

export interface TestGateway {
  id: number;
  sn: string;
  secret: string;
}

/** A registered gateway (registered by nobody in particular). */
export async function registerGateway(
  t: TestApp,
  opts: { sn?: string; model?: string } = {},
): Promise<TestGateway> {
  const [g] = await registerGateways(t.app, {
    serialNumbers: [opts.sn ?? nextSerialNumber()],
    model: opts.model ?? 'SDG-200',
    userId: null,
  });
  return { id: g!.id, sn: g!.serialNumber, secret: g!.secret };
}

/** Binds a gateway to a company at once, as a confirmed request would. */
export async function bindGateway(
  t: TestApp,
  gatewayId: number,
  companyId: number,
  opts: { name?: string; parentId?: number | null; userId?: number | null } = {},
): Promise<{ nodeId: number }> {
  const bound = await t.db.transaction((tx) =>
    bindNow(tx, {
      gatewayId,
      companyId,
      userId: opts.userId ?? null,
      name: opts.name ?? 'device',
      parentId: opts.parentId ?? null,
      at: new Date(),
    }),
  );
  const [row] = await t.db
    .select({ sn: gateways.serialNumber })
    .from(gateways)
    .where(eq(gateways.id, gatewayId));
  t.app.gateways.forget(row!.sn);
  return bound;
}

/** A gateway registered and bound to the company: the company's device. */
export async function makeDevice(
  t: TestApp,
  companyId: number,
  opts: { name?: string; parentId?: number | null; userId?: number | null; sn?: string } = {},
): Promise<TestGateway & { nodeId: number }> {
  const gateway = await registerGateway(t, { sn: opts.sn });
  const { nodeId } = await bindGateway(t, gateway.id, companyId, opts);
  return { ...gateway, nodeId };
}

/** The embedded broker's address of a test app. */
export function brokerUrl(t: TestApp): string {
  return `mqtt://127.0.0.1:${t.app.mqtt!.port}`;
}

/** The broker a suite's app and simulated gateways use: the app's settings and the gateways' address. */
export interface SuiteBroker {
  env: Record<string, string>;
  url: (t: TestApp) => string;
  stop?: () => Promise<void>;
}

/**
 * Runs a suite on the embedded broker, then on a Mosquitto of its own (dynamic security, as
 * docs/mqtt-broker.md recommends) when one is installed: `suite(title, broker)` is called once
 * for each, `name` completed with where it runs.
 */
export function onEachBroker(
  name: string,
  suite: (title: string, broker: () => Promise<SuiteBroker>) => void,
): void {
  suite(`${name} on the embedded broker`, async () => ({ env: { MQTT_PORT: '0' }, url: brokerUrl }));
  const available = mosquittoAvailable();
  describe.skipIf(!available)(
    `on Mosquitto${available ? '' : ' (skipped: mosquitto with dynamic security is not installed)'}`,
    () => {
      let mosquitto: Mosquitto;
      suite(`${name} on Mosquitto`, async () => {
        mosquitto = await startMosquitto();
        return {
          env: { MQTT_URL: mosquitto.url },
          url: () => mosquitto.address,
          stop: () => mosquitto.stop(),
        };
      });
    },
  );
}

/** An MQTT client signed in as the gateway (client id = SN), with its will set as the protocol says. */
export function connectGateway(
  url: string,
  gateway: { sn: string; secret: string },
  opts: { session?: string; will?: boolean; clientId?: string } = {},
): Promise<MqttClient> {
  return mqtt.connectAsync(url, {
    clientId: opts.clientId ?? gateway.sn,
    username: gateway.sn,
    password: gateway.secret,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    keepalive: 30,
    clean: true,
    ...(opts.will === false
      ? {}
      : {
          will: {
            topic: gatewayUpTopic(gateway.sn, 'status'),
            payload: Buffer.from(
              JSON.stringify({ online: false, ...(opts.session ? { session: opts.session } : {}) }),
            ),
            qos: 1,
            retain: false,
          },
        }),
  });
}

/** Publishes a JSON message as the gateway. */
export async function publishUp(
  client: MqttClient,
  sn: string,
  kind: GatewayUpKind,
  payload: unknown,
  qos: 0 | 1 = 1,
): Promise<void> {
  await client.publishAsync(
    gatewayUpTopic(sn, kind),
    typeof payload === 'string' ? payload : JSON.stringify(payload),
    {
      qos,
    },
  );
}

/** The birth message of a gateway that just connected. */
export function birth(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    online: true,
    model: 'SDG-200',
    firmware: '1.2.0',
    iccid: '89860012345678901234',
    configVersion: 3,
    configHash: 'a'.repeat(64),
    ports: [{ port: 1, ok: true }],
    session: randomBytes(6).toString('hex'),
    ...extra,
  };
}

/** Polls `check` until it returns something other than undefined/false, or fails after `ms`. */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  ms = 15_000,
  label = 'condition',
): Promise<Exclude<T, undefined | null | false>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false && value !== null)
      return value as Exclude<T, undefined | null | false>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The gateway's registry row now. */
export async function gatewayRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(gateways).where(eq(gateways.id, id));
  return row!;
}

/** The operation log of a company's device, oldest first. */
export async function operationsOf(t: TestApp, companyId: number, gatewayId: number) {
  return t.db
    .select()
    .from(deviceOperations)
    .where(and(eq(deviceOperations.companyId, companyId), eq(deviceOperations.gatewayId, gatewayId)))
    .orderBy(deviceOperations.id);
}
