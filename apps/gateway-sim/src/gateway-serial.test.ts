import { appendCrc, type GatewayConfig, hasValidCrc, parseHex, toHex } from '@platform/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configHash, defaultPorts, pollingConfig } from './layouts';
import type { PortSpec } from './modbus/bus';
import { decodeValue } from './modbus/registers';
import { type Harness, startHarness, until } from './testing/harness';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const onePort: PortSpec[] = [{ port: 1, slaves: [{ kind: 'meter3p', address: 1 }] }];

describe('polling the serial ports', () => {
  it('sends the packet every intervalS and publishes exactly what the slave answered then', async () => {
    const config = pollingConfig(onePort, { intervalS: 0.25 });
    const gw = h.gateway({ sn: 'GWPOLL01', ports: onePort, config });
    const frames: Array<Record<string, unknown>> = [];
    for (let k = 0; k < 4; k++) {
      frames.push(await h.platform.waitFor('GWPOLL01', 'frame', (m) => !frames.includes(m)));
    }
    const request = parseHex(
      config.config.nodes.find((n) => n.type === 'serialPacket')!.settings.frame as string,
    )!;
    const slave = gw.buses.get(1)!.slave(1)!;
    for (const f of frames) {
      expect(f).toMatchObject({ port: 1, packetId: 101 });
      // deterministic: the model's answer at the frame's time is the frame
      expect(f.frame).toBe(toHex(slave.respond(request, f.ts as number)!));
    }
    // never faster than the interval: k periods after the first, less at most one period of lateness
    const ts = frames.map((f) => f.ts as number);
    for (let k = 1; k < ts.length; k++) expect(ts[k]! - ts[0]!).toBeGreaterThan((k - 1) * 250);
    // and the values move with time (the voltage of two frames differs)
    const volts = frames.map((f) => decodeValue('float32', parseHex(f.frame as string)!.subarray(3, 7)));
    expect(new Set(volts).size).toBeGreaterThan(1);
  });

  it('batches the packets due together into one message', async () => {
    const config = pollingConfig(defaultPorts(), { intervalS: 0.3 });
    h.gateway({ sn: 'GWPOLL02', config });
    const batch = await h.platform.waitFor('GWPOLL02', 'frame');
    const frames = batch.frames as Array<Record<string, unknown>>;
    expect(frames.map((f) => `${f.port}/${f.packetId}`).sort()).toEqual(['1/101', '1/202', '2/301', '2/402']);
    for (const f of frames) expect(hasValidCrc(parseHex(f.frame as string)!)).toBe(true);
    expect(new Set(frames.map((f) => f.ts)).size).toBe(1);
  });

  it('reads nothing and reports a port error when the port is set differently from the bus', async () => {
    const ports: PortSpec[] = [
      { port: 1, baudRate: 19200, parity: 2, slaves: [{ kind: 'meter1p', address: 3 }] },
    ];
    const config = pollingConfig([{ ...ports[0]!, baudRate: 9600 }], { intervalS: 0.1 });
    const gw = h.gateway({ sn: 'GWPOLL03', ports, config });
    // in a status update, or in the birth message when the port failed before the gateway was online
    const bad = JSON.stringify([{ port: 1, ok: false, error: 'no answer' }]);
    await h.platform.waitFor('GWPOLL03', 'status', (m) => JSON.stringify(m.ports) === bad);
    expect(await h.platform.waitFor('GWPOLL03', 'event')).toEqual({
      event: 'portError',
      port: 1,
      detail: 'no answer',
    });
    expect(h.platform.of('GWPOLL03', 'frame')).toEqual([]);
    expect(gw.state().ports).toEqual([{ port: 1, ok: false, error: 'no answer' }]);
  });

  it('reports a slave that stops answering or answers with a bad CRC, and its recovery', async () => {
    const gw = h.gateway({
      sn: 'GWPOLL04',
      ports: onePort,
      config: pollingConfig(onePort, { intervalS: 0.1 }),
    });
    await h.platform.waitFor('GWPOLL04', 'frame');
    gw.setSlaveFault(1, 1, 'silent');
    await h.platform.waitFor(
      'GWPOLL04',
      'status',
      (m) => JSON.stringify(m.ports) === '[{"port":1,"ok":false,"error":"no answer"}]',
    );
    gw.setSlaveFault(1, 1, 'badCrc');
    const mark = h.platform.mark();
    await h.platform.waitFor(
      'GWPOLL04',
      'status',
      (m) => JSON.stringify(m.ports) === '[{"port":1,"ok":false,"error":"bad CRC"}]',
    );
    // the broken frame is still forwarded: the platform counts it
    const bad = await h.platform.waitFor('GWPOLL04', 'frame', () => true, { since: mark });
    expect(hasValidCrc(parseHex(bad.frame as string)!)).toBe(false);
    gw.setSlaveFault(1, 1, 'garbage');
    gw.setSlaveFault(1, 1, 'none');
    await h.platform.waitFor(
      'GWPOLL04',
      'status',
      (m) => JSON.stringify(m.ports) === '[{"port":1,"ok":true}]',
      { since: mark },
    );
    expect(gw.setSlaveFault(1, 9, 'silent')).toBe(false);
  });

  it('publishes decoded values as JSON telemetry for the items the configuration names', async () => {
    const ports: PortSpec[] = [{ port: 1, slaves: [{ kind: 'thSensor', address: 7, baseTemperature: -18 }] }];
    const config = pollingConfig(ports, {
      intervalS: 0.2,
      telemetry: () => ({ itemId: 12, fields: { temperature: 'f1', humidity: 'f2' } }),
    });
    const gw = h.gateway({ sn: 'GWJSON01', ports, config });
    const record = await h.platform.waitFor('GWJSON01', 'telemetry');
    expect(Object.keys(record).sort()).toEqual(['f1', 'f2', 'itemId', 'ts']);
    expect(record.itemId).toBe(12);
    const t = Date.parse(record.ts as string);
    const slave = gw.buses.get(1)!.slave(7)!;
    expect(record.f1).toBeCloseTo(Math.round(slave.valueAt('temperature', t) * 10) / 10, 6);
    expect(record.f2).toBeCloseTo(Math.round(slave.valueAt('humidity', t) * 10) / 10, 6);
    expect(record.f1 as number).toBeLessThan(-10);
    expect(h.platform.of('GWJSON01', 'frame')).toEqual([]);
  });

  it('reads everything at once on readNow', async () => {
    // sampled every 15 minutes: nothing comes by itself during the test
    h.gateway({ sn: 'GWREAD01', ports: onePort, config: pollingConfig(onePort, { samplingId: 4 }) });
    await h.platform.waitFor('GWREAD01', 'status', (m) => m.online === true);
    await h.platform.send('GWREAD01', 'command', { command: 'readNow' });
    expect(await h.platform.waitFor('GWREAD01', 'frame')).toMatchObject({ port: 1, packetId: 101 });
  });
});

describe('serial passthrough', () => {
  it('writes the bytes on the port and publishes the answer (a Modbus read with a correct CRC)', async () => {
    const gw = h.gateway({ sn: 'GWPASS01' });
    await h.platform.waitFor('GWPASS01', 'status', (m) => m.online === true);
    await h.platform.send(
      'GWPASS01',
      'passthrough',
      { session: 'c9', port: 1, data: '01 03 00 00 00 02 C4 0B' },
      0,
    );
    const answer = await h.platform.waitFor('GWPASS01', 'passthrough');
    expect(answer.session).toBe('c9');
    expect(answer.port).toBe(1);
    const bytes = parseHex(answer.data as string)!;
    expect(hasValidCrc(bytes)).toBe(true);
    expect(toHex(bytes.subarray(0, 3))).toBe('01 03 04');
    const volts = decodeValue('float32', bytes.subarray(3, 7));
    expect(volts).toBeGreaterThan(205);
    expect(volts).toBeLessThan(235);
    expect(gw.passthroughSession(1)).toBe('c9');
    // an exception answer comes back as it is; a request for nobody gets no answer
    await h.platform.send(
      'GWPASS01',
      'passthrough',
      { session: 'c9', port: 1, data: '01 03 00 85 00 01 95 E3' },
      0,
    );
    expect(await h.platform.waitFor('GWPASS01', 'passthrough', (m) => m.data !== answer.data)).toMatchObject({
      data: '01 83 02 C0 F1',
    });
    await h.platform.send(
      'GWPASS01',
      'passthrough',
      { session: 'c9', port: 2, data: '09 03 00 00 00 02 C5 43' },
      0,
    );
    await h.platform.send(
      'GWPASS01',
      'passthrough',
      { session: 'end', port: 2, data: '01 03 00 00 00 01 84 0A' },
      0,
    );
    await h.platform.waitFor('GWPASS01', 'passthrough', (m) => m.session === 'end');
    expect(h.platform.of('GWPASS01', 'passthrough').filter((m) => m.port === 2)).toHaveLength(1);
  });

  it('pauses the port’s polling while a session is open and resumes when it is idle', async () => {
    const config = pollingConfig(onePort, { intervalS: 0.05 });
    config.config.nodes.push({
      id: 'pt',
      type: 'passthrough',
      name: 'debug',
      settings: { port: 1, idleTimeoutS: 1 },
    });
    const gw = h.gateway({ sn: 'GWPASS02', ports: onePort, config });
    await h.platform.waitFor('GWPASS02', 'frame');
    const sent = Date.now();
    await h.platform.send(
      'GWPASS02',
      'passthrough',
      { session: 's1', port: 1, data: '01 03 00 00 00 02 C4 0B' },
      0,
    );
    await h.platform.waitFor('GWPASS02', 'passthrough');
    const answered = Date.now();
    expect(gw.passthroughSession(1)).toBe('s1');
    await until(() => gw.passthroughSession(1) === null, 'the session closes when idle');
    const after = h.platform.mark();
    // the session opened between `sent` and `answered` and lasts 1 s: no frame was read in between
    const held = h.platform
      .of('GWPASS02', 'frame')
      .filter((f) => (f.ts as number) >= answered && (f.ts as number) < sent + 1000);
    expect(held).toEqual([]);
    await h.platform.waitFor('GWPASS02', 'frame', () => true, { since: after });
  });
});

describe('controller state', () => {
  it('counts what it published and dropped while offline', async () => {
    const gw = h.gateway({
      sn: 'GWCNT001',
      ports: onePort,
      config: pollingConfig(onePort, { intervalS: 0.05 }),
    });
    await h.platform.waitFor('GWCNT001', 'frame');
    await gw.goOffline('kill');
    await until(() => gw.state().counters.framesDropped >= 2, 'frames dropped offline');
    gw.comeOnline();
    await until(() => gw.state().online, 'online again');
    expect(gw.state().counters.framesPublished).toBeGreaterThan(0);
    expect(gw.state().counters.connects).toBe(2);
  });
});

describe('command nodes of the configuration', () => {
  const flowPort: PortSpec[] = [{ port: 1, slaves: [{ kind: 'flowSensor', address: 1 }] }];
  /** the flow transmitter's feed pump: coil 0x0001 written with 05 */
  const coilFrame = (on: boolean) => toHex(appendCrc([0x01, 0x05, 0x00, 0x01, on ? 0xff : 0x00, 0x00]));
  function withPump(): { version: number; hash: string; config: GatewayConfig } {
    const base = pollingConfig(flowPort, { samplingId: 4 }).config;
    const config = {
      nodes: [
        ...base.nodes,
        { id: 'sub', type: 'mqttSubscribe', name: 'platform', settings: { target: 'platform', qos: 1 } },
        {
          id: 'stop',
          type: 'command',
          name: 'stop',
          settings: { name: 'pumpStop', encoding: 'HEX', payload: coilFrame(false) },
        },
        {
          id: 'start',
          type: 'command',
          name: 'start',
          settings: { name: 'pumpStart', encoding: 'HEX', payload: coilFrame(true) },
        },
        // not linked to the platform's subscribe node: not the platform's to name
        {
          id: 'local',
          type: 'command',
          name: 'local',
          settings: { name: 'localOnly', encoding: 'HEX', payload: coilFrame(false) },
        },
      ],
      links: [
        ...base.links,
        { from: 'sub', to: 'stop' },
        { from: 'stop', to: 'com1' },
        { from: 'sub', to: 'start' },
        { from: 'start', to: 'com1' },
        { from: 'local', to: 'com1' },
      ],
    } as GatewayConfig;
    return { version: 1, hash: configHash(config), config };
  }

  it('writes the node’s bytes on its port and reports the answer; the pump stops, the total holds, and it starts again', async () => {
    const gw = h.gateway({ sn: 'GWCMD101', ports: flowPort, config: withPump() });
    await h.platform.waitFor('GWCMD101', 'status', (m) => m.online === true);
    const slave = gw.buses.get(1)!.slave(1)!;
    const before = Date.now();
    expect(slave.coilAt('pumpRunning', before)).toBe(true);
    expect(slave.valueAt('flow', before)).toBeGreaterThan(0);

    await h.platform.send('GWCMD101', 'command', { command: 'pumpStop' });
    const stopped = await h.platform.waitFor('GWCMD101', 'event', (m) => m.event === 'command');
    // a write of a coil is answered by its echo
    expect(stopped).toEqual({ event: 'command', port: 1, detail: `pumpStop: answered ${coilFrame(false)}` });
    const at = Date.now();
    expect(slave.coilAt('pumpRunning', at)).toBe(false);
    expect(slave.valueAt('flow', at)).toBe(0);
    const held = slave.valueAt('totalVolume', at);
    expect(slave.valueAt('totalVolume', at + 3_600_000)).toBe(held);

    await h.platform.send('GWCMD101', 'command', { command: 'pumpStart' });
    await h.platform.waitFor(
      'GWCMD101',
      'event',
      (m) => m.event === 'command' && String(m.detail).startsWith('pumpStart'),
    );
    const again = Date.now();
    expect(slave.coilAt('pumpRunning', again)).toBe(true);
    expect(slave.valueAt('flow', again)).toBeGreaterThan(0);
    // it carries on from where it stopped: what it did not pump meanwhile is not counted
    expect(Math.abs(slave.valueAt('totalVolume', again) - held)).toBeLessThan(0.05);
    expect(slave.valueAt('totalVolume', again + 3_600_000)).toBeGreaterThan(held);
  });

  it('drops a name the configuration has no platform command node for, writing nothing', async () => {
    const gw = h.gateway({ sn: 'GWCMD102', ports: flowPort, config: withPump() });
    await h.platform.waitFor('GWCMD102', 'status', (m) => m.online === true);
    const bad = gw.state().counters.badMessages;
    for (const command of ['localOnly', 'format-disk'])
      await h.platform.send('GWCMD102', 'command', { command });
    // readNow after them: by the time its frame comes, the two were handled
    await h.platform.send('GWCMD102', 'command', { command: 'readNow' });
    await h.platform.waitFor('GWCMD102', 'frame');
    expect(gw.state().counters.badMessages).toBe(bad + 2);
    expect(h.platform.of('GWCMD102', 'event').filter((m) => m.event === 'command')).toEqual([]);
    expect(gw.buses.get(1)!.slave(1)!.coilAt('pumpRunning', Date.now())).toBe(true);
  });
});
