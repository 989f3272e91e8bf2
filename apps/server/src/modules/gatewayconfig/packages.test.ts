/**
 * Gateway configurations and the company's data packages: references checked against them,
 * frames pushed from them, and a package in use kept from deletion.
 */
import { createHash } from 'node:crypto';
import { canonicalConfigText, configTemplate, ERROR_CODES, type GatewayConfig } from '@platform/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { makeDevice } from '../devices/test-support';
import { floatValue, makeIotItem, makePackage, makeParser } from '../packets/test-support';
import { call, onlineGateway, smallConfig, waitFor } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  a = await makeCompany(t, 'A');
  b = await makeCompany(t, 'B');
});
afterAll(async () => {
  await t?.close();
});

/** A device, an IoT item, a package with a parsing (value 电压 into f1) and one without. */
async function fixture(company: TestCompany) {
  const device = await makeDevice(t, company.id, { userId: company.admin.id, name: '电表网关' });
  const item = await makeIotItem(t, company.id);
  const parsed = await makePackage(t, company.id, { frame: '01 03 00 00 00 0A' });
  await makeParser(t, company.id, parsed, [floatValue(item.itemId)], company.admin.id);
  const bare = await makePackage(t, company.id, { frame: '01 03 00 85 00 01' });
  const meter = configTemplate('modbusMeter', {
    lang: 'zh',
    packetId: parsed,
    values: [{ name: '电压', itemId: item.itemId, fieldKey: 'f1' }],
  });
  return { device, item, parsed, bare, meter };
}

function problemsOf(res: { json(): { data: { problems: Array<Record<string, unknown>> } } }) {
  return res.json().data.problems.map((p) => `${p.node}.${p.field}:${p.key}`);
}

function withSettings(config: GatewayConfig, id: string, patch: Record<string, unknown>): GatewayConfig {
  const copy = structuredClone(config);
  const node = copy.nodes.find((n) => n.id === id)!;
  node.settings = { ...node.settings, ...patch } as never;
  return copy;
}

describe('data packages in a configuration', () => {
  it('the check reads the company’s packages, their parsing and its values', async () => {
    const { device, parsed, bare, meter } = await fixture(a);
    const lookups = await call(t, a.admin.token, 'GET', `lookups?id=${device.id}`);
    expect(lookups.json().data.packages).toEqual(
      expect.arrayContaining([
        { id: parsed, name: expect.any(String), parserValues: ['电压'] },
        { id: bare, name: expect.any(String), parserValues: null },
      ]),
    );

    const ok = await call(t, a.admin.token, 'POST', 'check', { id: device.id, config: meter });
    expect(ok.json().data).toEqual({ ok: true, problems: [] });

    const value = await call(t, a.admin.token, 'POST', 'check', {
      id: device.id,
      config: withSettings(meter, 'element1', { name: '功率' }),
    });
    expect(problemsOf(value)).toEqual(['element1.settings.name:configElementValueUnknown']);

    // the parser of a package without parsing, on a port where that package is not sent
    const noParsing = await call(t, a.admin.token, 'POST', 'check', {
      id: device.id,
      config: withSettings(meter, 'parser1', { packetId: bare }),
    });
    expect(problemsOf(noParsing)).toEqual([
      'parser1.packetId:configParserNoPacket',
      'parser1.packetId:configPacketNoParser',
    ]);

    // another company's package is no package of this one
    const theirs = await makePackage(t, b.id);
    const foreign = await call(t, a.admin.token, 'POST', 'check', {
      id: device.id,
      config: withSettings(meter, 'packet1', { packetId: theirs }),
    });
    expect(problemsOf(foreign)).toContain('packet1.packetId:configPacketUnknown');
  });

  it('a push sends each serial packet with its frame from the definition, CRC included', async () => {
    const { device, meter } = await fixture(a);
    const gw = await onlineGateway(t, device);
    try {
      await waitFor(
        async () => (await call(t, a.admin.token, 'GET', `get?id=${device.id}`)).json().data.device.online,
      );
      const res = await call(t, a.admin.token, 'POST', 'push', {
        id: device.id,
        baseVersion: null,
        config: meter,
      });
      expect(res.json().code, res.body).toBe(0);
      const sent = await waitFor(() => gw.received.find((m) => m.kind === 'config'), 15_000, 'down/config');
      const config = sent.payload.config as GatewayConfig;
      const packet = config.nodes.find((n) => n.id === 'packet1')!;
      // 01 03 00 00 00 0A and its CRC-16/Modbus, low byte first (reference vector)
      expect(packet.settings).toMatchObject({ frame: '01 03 00 00 00 0A C5 CD' });
      const hash = createHash('sha256').update(canonicalConfigText(config)).digest('hex');
      expect(sent.payload.hash).toBe(hash);
      expect(res.json().data.push.hash).toBe(hash);
      // the saved version has no frame: it comes from the definition at each push
      const saved = await call(t, a.admin.token, 'GET', `version?id=${device.id}&version=1`);
      expect(JSON.stringify(saved.json().data.config)).not.toContain('C5 CD');
      expect(saved.json().data.meta.hash).not.toBe(hash);
    } finally {
      await gw.close();
    }
  });

  it('a package the latest configuration names cannot be deleted; once no longer named, it can', async () => {
    const { device, parsed, meter } = await fixture(a);
    await call(t, a.admin.token, 'POST', 'save', { id: device.id, baseVersion: null, config: meter });
    const remove = () =>
      t.app.inject({
        method: 'POST',
        url: '/general/devicecommunication/dataPackage/delete',
        payload: { id: parsed },
        headers: { ...bearer(a.admin.token), 'accept-language': 'en' },
      });
    const refused = await remove();
    expect(refused.json()).toMatchObject({ code: ERROR_CODES.BUSINESS });
    expect(refused.json().message).toBe(
      `This data package is used by 电表网关 (${device.sn}) v1: remove it there first`,
    );
    // version 2 names it no more (version 1 still does: history may name what is gone)
    const v2 = await call(t, a.admin.token, 'POST', 'save', {
      id: device.id,
      baseVersion: 1,
      config: smallConfig(),
    });
    expect(v2.json().data.version).toBe(2);
    expect((await remove()).json().code).toBe(0);
  });
});
