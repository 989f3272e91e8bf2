/**
 * Gateways on an external Mosquitto 2.0 configured as docs/mqtt-broker.md recommends (dynamic
 * security; the server keeps one account per gateway, made when its secret is made): signing
 * in, what a gateway may reach there, presence through its will, binding, a replaced secret,
 * a removed registration. Skipped where Mosquitto and its dynamic-security plugin are missing.
 */
import { gatewayDownTopic, gatewayUpTopic } from '@platform/domain';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { type Mosquitto, mosquittoAvailable, startMosquitto } from '../../test/mosquitto';
import { connackCode, disconnected, granted } from '../../test/mqtt-clients';
import { makeDirectory } from '../cabin/test-support';
import {
  birth,
  connectGateway,
  gatewayRow,
  nextSerialNumber,
  publishUp,
  waitFor,
} from '../devices/test-support';

const NOT_AUTHORISED = 5;
const REFUSED = 128;
const available = mosquittoAvailable();

describe.skipIf(!available)(
  `gateways on Mosquitto with the recommended configuration${available ? '' : ' (skipped: mosquitto with dynamic security is not installed)'}`,
  () => {
    let mosquitto: Mosquitto;
    let t: TestApp;
    let operator: TestCompany;
    let company: TestCompany;
    const clients: MqttClient[] = [];

    /** Registers gateways through the API, as the operator does: their accounts are made on the broker. */
    async function register(): Promise<{ id: number; sn: string; secret: string }> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/general/system/gateway/register',
        payload: { serialNumbers: [nextSerialNumber('MOS')], model: 'SDG-200' },
        headers: bearer(operator.admin.token),
      });
      const [g] = res.json().data.gateways;
      return { id: g.id, sn: g.serialNumber, secret: g.secret };
    }

    async function online(g: { id: number; sn: string; secret: string }) {
      const client = await connectGateway(mosquitto.address, g);
      clients.push(client);
      const down: Array<{ topic: string; body: Record<string, unknown> }> = [];
      client.on('message', (topic, payload) => down.push({ topic, body: JSON.parse(payload.toString()) }));
      expect(await granted(client, `smartdata/gw/${g.sn}/down/#`)).toEqual([1]);
      await publishUp(client, g.sn, 'status', birth());
      await waitFor(async () => (await gatewayRow(t, g.id)).online);
      return { client, down };
    }

    beforeAll(async () => {
      mosquitto = await startMosquitto();
      t = await buildTestApp({ MQTT_URL: mosquitto.url });
      operator = await makeCompany(t, 'Operator', { isPlatform: true });
      company = await makeCompany(t, 'Customer');
    });
    afterAll(async () => {
      for (const c of clients) c.end(true);
      await t?.close();
      await mosquitto?.stop();
    });

    it('a registered gateway signs in to Mosquitto with its secret, and with nothing else', async () => {
      const g = await register();
      const other = await register();
      expect(await connackCode(mosquitto.address, { username: g.sn, key: g.secret })).toBe(0);
      for (const [username, key] of [
        [g.sn, other.secret],
        [g.sn, `gws_${'A'.repeat(43)}`],
        [nextSerialNumber('MOS'), g.secret],
      ])
        expect(await connackCode(mosquitto.address, { username: username!, key: key! })).toBe(NOT_AUTHORISED);
    });

    it("reaches only its own topics on Mosquitto: another gateway's are neither readable nor writable", async () => {
      const own = await register();
      const victim = await register();
      const { client } = await online(own);
      for (const filter of [
        'smartdata/gw/+/down/#',
        `smartdata/gw/${victim.sn}/down/#`,
        'smartdata/#',
        '#',
        '$SYS/#',
      ])
        expect(await granted(client, filter), filter).toEqual([REFUSED]);
      // Mosquitto acknowledges and drops a publish its ACL refuses
      await client.publishAsync(gatewayUpTopic(victim.sn, 'status'), JSON.stringify(birth()), { qos: 1 });
      await client.publishAsync(`smartdata/submit/key-1`, JSON.stringify({ itemId: 1 }), { qos: 1 });
      // its own next message arrives after them: had they passed, they would have been handled first
      await publishUp(client, own.sn, 'status', { firmware: '7.7.7' });
      await waitFor(async () => (await gatewayRow(t, own.id)).firmware === '7.7.7');
      expect((await gatewayRow(t, victim.id)).online).toBe(false);
    });

    it('binds through Mosquitto with the button, and goes offline through its will', async () => {
      const g = await register();
      const { client, down } = await online(g);
      const dir = await makeDirectory(t, company.id);
      const res = await t.app.inject({
        method: 'POST',
        url: '/general/devicemanagement/device/bind',
        payload: { serialNumber: g.sn, name: 'via mosquitto', parentId: dir },
        headers: bearer(company.admin.token),
      });
      const { requestId } = res.json().data;
      await waitFor(() =>
        down.some((m) => m.topic === gatewayDownTopic(g.sn, 'bind') && m.body.requestId === requestId),
      );
      await publishUp(client, g.sn, 'bind', { requestId });
      await waitFor(async () => (await gatewayRow(t, g.id)).companyId === company.id);
      await waitFor(() => down.some((m) => m.body.result === 'bound'));
      (client.stream as { destroy(): void }).destroy();
      await waitFor(async () => !(await gatewayRow(t, g.id)).online);
    });

    it('a replaced secret is disconnected by Mosquitto; a removed registration loses its account', async () => {
      const g = await register();
      const { client } = await online(g);
      const replaced = await t.app.inject({
        method: 'POST',
        url: '/general/system/gateway/replaceSecret',
        payload: { id: g.id },
        headers: bearer(operator.admin.token),
      });
      const secret = replaced.json().data.secret as string;
      await disconnected(client);
      expect(await connackCode(mosquitto.address, { username: g.sn, key: g.secret })).toBe(NOT_AUTHORISED);
      expect(await connackCode(mosquitto.address, { username: g.sn, key: secret })).toBe(0);
      const second = await connectGateway(mosquitto.address, { sn: g.sn, secret });
      clients.push(second);
      const removed = await t.app.inject({
        method: 'POST',
        url: '/general/system/gateway/remove',
        payload: { id: g.id },
        headers: bearer(operator.admin.token),
      });
      expect(removed.json().code).toBe(0);
      await disconnected(second);
      expect(await connackCode(mosquitto.address, { username: g.sn, key: secret })).toBe(NOT_AUTHORISED);
    });
  },
);
