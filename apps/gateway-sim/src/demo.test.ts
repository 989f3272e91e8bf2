import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { appendCrc, parseHex, toHex } from '@platform/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DemoFleet, demoConfig, demoGatewaysEnabled, startDemoFleet } from './demo';
import { pollingConfig } from './layouts';
import { decodeValue } from './modbus/registers';
import { type LocalBroker, startLocalBroker } from './testing/broker';
import { until } from './testing/harness';
import { PlatformStandIn } from './testing/platform-stand-in';

let broker: LocalBroker;
let platform: PlatformStandIn;
let dataDir: string;
let demo: DemoFleet | null = null;
const warnings: string[] = [];
const log = { info: () => {}, warn: (_o: object, msg?: string) => warnings.push(msg ?? '') };

beforeEach(async () => {
  broker = await startLocalBroker();
  platform = await PlatformStandIn.connect(broker.url);
  dataDir = await mkdtemp(path.join(tmpdir(), 'demo-gw-'));
  warnings.length = 0;
});
afterEach(async () => {
  await demo?.stop();
  demo = null;
  await platform.close();
  await broker.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Writes the seed's secrets file as the server would (mode 0600). */
async function writeSecrets(entries: unknown, mode = 0o600): Promise<void> {
  await mkdir(path.join(dataDir, 'secrets'), { recursive: true });
  const file = path.join(dataDir, 'secrets', 'demo-gateways.json');
  await writeFile(file, typeof entries === 'string' ? entries : JSON.stringify(entries), { mode });
  await chmod(file, mode);
}

const entry = (sn: string, extra: Record<string, unknown> = {}) => ({
  sn,
  secret: `gws_${sn}`,
  model: 'SDG-200',
  firmware: '1.2.0',
  iccid: '89860400000000000018',
  ...extra,
});

describe('the demo fleet', () => {
  it('starts the gateways of the secrets file, with meters and sensors behind their ports', async () => {
    const bound = demoConfig(0, { intervalS: 0.2 });
    await writeSecrets([
      entry('DEMO0001', { config: bound }),
      entry('DEMO0002'),
      entry('DEMO0003'),
      entry('DEMO0004'),
    ]);
    demo = await startDemoFleet({ dataDir, mqttUrl: broker.url, log });
    expect(demo).not.toBeNull();
    for (const sn of ['DEMO0001', 'DEMO0002', 'DEMO0003', 'DEMO0004'])
      expect(await platform.waitFor(sn, 'status', (m) => m.online === true)).toMatchObject({
        model: 'SDG-200',
        firmware: '1.2.0',
      });
    // the first feeds frames of its configuration: two three-phase meters and a single-phase one
    const batch = await platform.waitFor('DEMO0001', 'frame');
    expect((batch.frames as Array<{ packetId: number }>).map((f) => f.packetId).sort()).toEqual([
      101, 102, 203,
    ]);
    expect(
      demo!.fleet.get('DEMO0002')!.buses.get(2)!.slave(5)!.valueAt('temperature', Date.now()),
    ).toBeLessThan(-10);
    expect(demo!.list().map((s) => s.sn)).toEqual(['DEMO0001', 'DEMO0002', 'DEMO0003', 'DEMO0004']);
    expect(warnings).toEqual([]);
  });

  it('reads a rooftop PV inverter wired to a demo gateway’s COM3 and publishes what it holds', async () => {
    const ports = [{ port: 3, slaves: [{ kind: 'pvInverter' as const, address: 1 }] }];
    await writeSecrets([entry('DEMOPV01', { ports, config: pollingConfig(ports, { intervalS: 0.2 }) })]);
    demo = await startDemoFleet({ dataDir, mqttUrl: broker.url, log });
    const f = await platform.waitFor('DEMOPV01', 'frame');
    // packet 500 + address: the inverter's 12-register measurement block on port 3
    expect(f).toMatchObject({ port: 3, packetId: 501 });
    const answer = parseHex(f.frame as string)!;
    expect(answer.length).toBe(3 + 24 + 2);
    const inverter = demo!.fleet.get('DEMOPV01')!.buses.get(3)!.slave(1)!;
    const ts = f.ts as number;
    expect(f.frame).toBe(toHex(inverter.respond(appendCrc([1, 3, 0, 0, 0, 12]), ts)!));
    const acKw = decodeValue('int32', answer.subarray(3, 7)) / 1000;
    const totalKwh = decodeValue('uint32', answer.subarray(15, 19)) / 100;
    const status = decodeValue('uint16', answer.subarray(23, 25));
    expect(acKw).toBeCloseTo(inverter.valueAt('acPower', ts), 2);
    expect(totalKwh).toBeGreaterThan(18_650.4);
    expect(totalKwh).toBeCloseTo(inverter.valueAt('totalYield', ts), 1);
    expect(status).toBe(acKw > 0 ? 1 : 0);
    expect(warnings).toEqual([]);
  });

  it('keeps a configuration pushed and committed since in the secrets file when it stops, and runs it again', async () => {
    const v1 = demoConfig(0, { intervalS: 5 });
    await writeSecrets([entry('DEMO0001', { config: v1 }), entry('DEMO0002')]);
    demo = await startDemoFleet({ dataDir, mqttUrl: broker.url, log });
    await platform.waitFor('DEMO0001', 'status', (m) => m.online === true);
    const v2 = demoConfig(0, { intervalS: 7, version: 2 });
    await platform.send('DEMO0001', 'config', {
      version: 2,
      hash: v2.hash,
      confirmWithin: 30,
      config: v2.config,
    });
    await platform.waitFor('DEMO0001', 'config', (m) => m.result === 'applied' && m.version === 2);
    await platform.send('DEMO0001', 'config/commit', { version: 2, hash: v2.hash });
    await until(() => demo!.fleet.get('DEMO0001')!.committedConfig()?.version === 2, 'version 2 committed');
    await demo!.stop();
    demo = null;
    const file = path.join(dataDir, 'secrets', 'demo-gateways.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const kept = JSON.parse(await readFile(file, 'utf8')) as Array<Record<string, unknown>>;
    expect(kept.map((e) => [e.sn, e.secret])).toEqual([
      ['DEMO0001', 'gws_DEMO0001'],
      ['DEMO0002', 'gws_DEMO0002'],
    ]);
    expect(kept[0]!.config).toEqual({ version: 2, hash: v2.hash, config: v2.config });
    expect(kept[1]).not.toHaveProperty('config');
    // started again (the server restarted): it reports running version 2
    const mark = platform.mark();
    demo = await startDemoFleet({ dataDir, mqttUrl: broker.url, log });
    expect(
      await platform.waitFor('DEMO0001', 'status', (m) => m.online === true, { since: mark }),
    ).toMatchObject({ configVersion: 2, configHash: v2.hash });
    expect(warnings).toEqual([]);
  });

  it('lets the demo page press the bind button, cut the power and more, refusing bad input', async () => {
    await writeSecrets([entry('DEMOUNB1')]);
    demo = await startDemoFleet({ dataDir, mqttUrl: broker.url, log, speed: 100 });
    await platform.waitFor('DEMOUNB1', 'status', (m) => m.online === true);

    expect(await demo!.control({ sn: 'DEMOUNB1', action: 'pressButton' })).toEqual({
      ok: false,
      error: 'refused',
      message: 'no bind request waiting',
    });
    await platform.send('DEMOUNB1', 'bind', {
      requestId: 'req-1',
      company: '演示公司',
      expiresAt: Date.now() + 60_000,
    });
    await until(() => demo!.list()[0]!.blinking !== null, 'blinking');
    const pressed = await demo!.control({ sn: 'demounb1', action: 'pressButton' });
    expect(pressed).toMatchObject({ ok: true, detail: 'bind request req-1 confirmed' });
    expect(await platform.waitFor('DEMOUNB1', 'bind')).toEqual({ requestId: 'req-1' });

    const mark = platform.mark();
    expect(await demo!.control({ sn: 'DEMOUNB1', action: 'powerCut', seconds: 0.2 })).toMatchObject({
      ok: true,
      state: { powered: false },
    });
    await platform.waitFor('DEMOUNB1', 'status', (m) => m.online === false, { since: mark });
    await platform.waitFor('DEMOUNB1', 'status', (m) => m.online === true, { since: mark });

    expect(await demo!.control({ sn: 'DEMOUNB1', action: 'goOffline', how: 'polite' })).toMatchObject({
      ok: true,
      state: { linkUp: false },
    });
    expect(await demo!.control({ sn: 'DEMOUNB1', action: 'comeOnline' })).toMatchObject({
      ok: true,
      state: { linkUp: true },
    });
    const swapped = await demo!.control({ sn: 'DEMOUNB1', action: 'swapSim' });
    expect(swapped).toMatchObject({ ok: true, detail: expect.stringMatching(/^8986\d{16}$/) });
    expect(
      await demo!.control({ sn: 'DEMOUNB1', action: 'slaveFault', port: 1, address: 1, fault: 'silent' }),
    ).toMatchObject({ ok: true });

    const refusals: Array<[unknown, string]> = [
      [null, 'badInput'],
      [[1], 'badInput'],
      ['DEMOUNB1', 'badInput'],
      [{ sn: 5, action: 'pressButton' }, 'badInput'],
      [{ sn: 'x'.repeat(1000), action: 'pressButton' }, 'badInput'],
      [{ sn: 'DEMOUNB1', action: 'selfDestruct' }, 'unknownAction'],
      [{ sn: 'DEMOUNB1', action: '__proto__' }, 'unknownAction'],
      [{ sn: 'NOSUCH01', action: 'pressButton' }, 'unknownGateway'],
      [{ sn: 'DEMO\u0000UNB1', action: 'pressButton' }, 'unknownGateway'],
      [{ sn: 'DEMOUNB1', action: 'powerCut', seconds: 1e9 }, 'badInput'],
      [{ sn: 'DEMOUNB1', action: 'powerCut', seconds: '5' }, 'badInput'],
      [{ sn: 'DEMOUNB1', action: 'powerCut', how: 'polite' }, 'badInput'],
      [{ sn: 'DEMOUNB1', action: 'goOffline', how: 'nuke' }, 'badInput'],
      [{ sn: 'DEMOUNB1', action: 'slaveFault', port: 1, address: 1, fault: 'fire' }, 'badInput'],
      [{ sn: 'DEMOUNB1', action: 'slaveFault', port: '1', address: 1, fault: 'none' }, 'badInput'],
      [{ sn: 'DEMOUNB1', action: 'slaveFault', port: 7, address: 1, fault: 'none' }, 'refused'],
    ];
    for (const [input, error] of refusals)
      expect(await demo!.control(input), JSON.stringify(input)).toMatchObject({ ok: false, error });
  });

  it('starts nothing without the file, with a broken file, and leaves out broken entries', async () => {
    expect(await startDemoFleet({ dataDir, mqttUrl: broker.url, log })).toBeNull();
    await writeSecrets('{not json');
    expect(await startDemoFleet({ dataDir, mqttUrl: broker.url, log })).toBeNull();
    await writeSecrets({ sn: 'DEMO0001' });
    expect(await startDemoFleet({ dataDir, mqttUrl: broker.url, log })).toBeNull();
    await writeSecrets([{ sn: 'x' }, { sn: 'DEMO0009' }, entry('DEMO0010')], 0o644);
    demo = await startDemoFleet({ dataDir, mqttUrl: broker.url, log });
    expect(demo!.list().map((s) => s.sn)).toEqual(['DEMO0010']);
    expect(warnings.filter((w) => w.includes('left out'))).toHaveLength(2);
    expect(warnings.some((w) => w.includes('readable by others'))).toBe(true);
  });

  it('gives each demo gateway a configuration reading every slave each minute', () => {
    for (const i of [0, 1, 2]) {
      const { config } = demoConfig(i);
      const packets = config.nodes.filter((n) => n.type === 'serialPacket');
      expect(packets.length).toBeGreaterThanOrEqual(3);
      for (const p of packets) expect(p.settings).toMatchObject({ samplingId: 1, encoding: 'HEX' });
    }
  });

  it('is on unless DEMO_GATEWAYS=off', () => {
    expect(demoGatewaysEnabled({})).toBe(true);
    expect(demoGatewaysEnabled({ DEMO_GATEWAYS: 'on' })).toBe(true);
    expect(demoGatewaysEnabled({ DEMO_GATEWAYS: 'off' })).toBe(false);
  });
});
