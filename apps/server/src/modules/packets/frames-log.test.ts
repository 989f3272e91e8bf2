/**
 * A gateway sending garbage all day must not flood the log: each kind of refusal of a port is
 * logged once a minute at most, with the number left out since.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, makeCompany, type TestApp } from '../../test/helper';
import { ingestFrames } from './frames';
import { floatValue, makeIotItem, makePackage, makeParser } from './test-support';

let t: TestApp;
const lines: Array<{ msg?: string; sn?: string; port?: number; reason?: string; level?: number }> = [];

beforeAll(async () => {
  t = await buildTestApp(
    { MQTT_PORT: 'off' },
    { logger: { level: 'warn', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } } },
  );
});

afterAll(async () => {
  await t.close();
});

it('logs one line per port and kind of refusal, not one per frame', async () => {
  const a = await makeCompany(t, 'Log A');
  const item = await makeIotItem(t, a.id);
  const packetId = await makePackage(t, a.id);
  await makeParser(t, a.id, packetId, [floatValue(item.itemId)], a.admin.id);
  const gateway = { sn: 'GWLOG0001', companyId: a.id };
  for (let i = 0; i < 50; i++) {
    await ingestFrames(t.app, gateway, { port: 1, packetId, frame: '01 03 04 41 20 00 00 00 00' });
    await ingestFrames(t.app, gateway, { port: 2, packetId: 999_999, frame: '01 03' });
    await ingestFrames(t.app, gateway, 'not json');
  }
  const ours = lines.filter((l) => l.sn === gateway.sn);
  expect(ours.map((l) => `${l.port}:${l.reason}`).sort()).toEqual([
    '0:malformed',
    '1:badCrc',
    '2:unknownPacket',
  ]);
  expect(ours.every((l) => l.level === 40 && l.msg?.startsWith('serial frame not stored: '))).toBe(true);
});
