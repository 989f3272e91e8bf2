/**
 * Frames from gateways through `ingestFrames`, called as the gateway module's MQTT wiring will
 * call it. The gateway is a stand-in `{sn, companyId}`: the gateways table comes with the
 * gateway module. Good frames become records of the bound items with the right values; bad
 * CRC, wrong length, unknown or another company's packet are counted and store nothing; a bad
 * frame in a batch does not stop the good ones.
 */
import { appendCrc, encodeNumber, parseHex, toHex } from '@platform/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  makeCompany,
  type TestApp,
  type TestCompany,
  type TestUser,
} from '../../test/helper';
import { setPermissions } from '../cabin/test-support';
import { dataItemJumps } from '../dataitems/tables';
import { invalidateItem } from '../ingest/pipeline';
import { dataRecords } from '../records/tables';
import { users } from '../users/tables';
import { makeMember, makeRole } from '../users/test-support';
import { flushFrameCounters } from './frame-stats';
import { type FrameGateway, ingestFrames, MAX_FRAMES_PER_MESSAGE } from './frames';
import { frameStats } from './tables';
import { floatValue, makeIotItem, makePackage, makeParser } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
let engineer: TestUser;
let meter: { itemId: number; nodeId: number };
let status: { itemId: number; nodeId: number };
let packetId: number;
let gateway: FrameGateway;
let snCounter = 0;

const withCrc = (hex: string) => toHex(appendCrc(parseHex(hex)!));
/** the answer to "read 2 registers from address 1" carrying these 4 data bytes */
const answer = (data: string) => withCrc(`01 03 04 ${data}`);
const TS = Date.parse('2026-11-27T08:00:00+08:00');

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: 'off' });
  a = await makeCompany(t, 'Frames A');
  b = await makeCompany(t, 'Frames B');
  const role = await makeRole(t, a.id, ['cloud_device', 'cd_data_package', 'cd_parsing']);
  engineer = await makeMember(t, a, [role], 'engineer');
  meter = await makeIotItem(t, a.id, '电表');
  status = await makeIotItem(t, a.id, '状态');
  packetId = await makePackage(t, a.id);
  await makeParser(
    t,
    a.id,
    packetId,
    [
      floatValue(meter.itemId, { decimals: 2 }),
      floatValue(status.itemId, {
        name: '字0',
        offset: 0,
        length: 2,
        valueType: 'integer',
        format: 'uint',
        fieldKey: 'f2',
      }),
      floatValue(status.itemId, {
        name: '十六进制',
        offset: 2,
        length: 2,
        valueType: 'string',
        format: 'hex',
        fieldKey: 'f3',
      }),
    ],
    engineer.id,
  );
});

beforeEach(() => {
  snCounter += 1;
  gateway = { sn: `GW${String(snCounter).padStart(6, '0')}`, companyId: a.id };
});

afterAll(async () => {
  await t.close();
});

async function recordsOf(itemId: number) {
  return t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId));
}

async function statsOf(sn: string, port = 1) {
  await flushFrameCounters(t.app);
  const [row] = await t.db
    .select()
    .from(frameStats)
    .where(and(eq(frameStats.companyId, a.id), eq(frameStats.sn, sn), eq(frameStats.port, port)));
  return row;
}

describe('good frames', () => {
  it('become one record per bound item with the decoded values, time and source', async () => {
    const before = (await recordsOf(meter.itemId)).length;
    // the frame of docs/device-protocol.md: 41 20 00 00 is 10.0 as a float (ABCD)
    const tally = await ingestFrames(t.app, gateway, {
      port: 1,
      packetId,
      frame: '01 03 04 41 20 00 00 EF C5',
      ts: TS,
    });
    expect(tally).toMatchObject({ stored: 1, records: 2, badCrc: 0, refused: 0 });
    const meterRecords = await recordsOf(meter.itemId);
    expect(meterRecords).toHaveLength(before + 1);
    const newest = meterRecords.at(-1)!;
    expect(newest).toMatchObject({ companyId: a.id, source: 'gateway', createdBy: null, values: { f1: 10 } });
    expect(newest.ts.getTime()).toBe(TS);
    const statusRecord = (await recordsOf(status.itemId)).at(-1)!;
    expect(statusRecord.values).toEqual({ f2: 0x4120, f3: '0000' });
    expect(await statsOf(gateway.sn)).toMatchObject({ stored: 1, badCrc: 0, lastError: null });
  });

  it('read the vectors of every byte order, as bytes or text of JSON (as MQTT delivers them)', async () => {
    const vectors: Array<[string, 'ABCD' | 'CDAB' | 'BADC' | 'DCBA']> = [
      ['42 F6 E9 79', 'ABCD'],
      ['E9 79 42 F6', 'CDAB'],
    ];
    for (const [data, order] of vectors) {
      const item = await makeIotItem(t, a.id);
      const id = await makePackage(t, a.id);
      await makeParser(t, a.id, id, [floatValue(item.itemId, { order, decimals: 3 })], engineer.id);
      const payload = Buffer.from(JSON.stringify({ port: 2, packetId: id, frame: answer(data) }));
      expect((await ingestFrames(t.app, gateway, payload)).stored).toBe(1);
      expect((await recordsOf(item.itemId))[0]!.values).toEqual({ f1: 123.46 });
    }
  });

  it('go through the pipeline: live updates and jump associations as for any record', async () => {
    const target = await makeIotItem(t, a.id, '跳转目标');
    await t.db.insert(dataItemJumps).values({
      itemId: meter.itemId,
      targetItemId: target.itemId,
      name: '高压',
      conditions: [{ field: 'f1', op: 'gt', value: 100 }],
      mapping: [{ to: 'f1', from: 'f1' }],
    });
    // made in the table, not through the item's route: forget the cached jumps as the route does
    invalidateItem(meter.itemId);
    const seen: Array<{ source: string; values: unknown }> = [];
    const stop = t.app.live.subscribe([meter.itemId], (event) => seen.push(...event.records));
    const high = toHex(encodeNumber(220.5, 'float', 4, 'ABCD'));
    await ingestFrames(t.app, gateway, { port: 1, packetId, frame: answer(high) });
    stop();
    expect(seen).toMatchObject([{ source: 'gateway', values: { f1: 220.5 } }]);
    await t.app.ingest.idle();
    const jumped = await recordsOf(target.itemId);
    expect(jumped.map((r) => r.values)).toEqual([{ f1: 220.5 }]);
  });
});

describe('refused frames', () => {
  it('count bad CRC, wrong length, bad answers, unknown and foreign packets; the good one in the batch is stored', async () => {
    const foreign = await makePackage(t, b.id);
    await makeParser(t, b.id, foreign, [], null);
    const before = (await recordsOf(meter.itemId)).length;
    const tally = await ingestFrames(t.app, gateway, {
      frames: [
        { port: 1, packetId, frame: '01 03 04 41 20 00 00 EF C6' },
        { port: 1, packetId, frame: withCrc('01 03 02 41 20') },
        { port: 1, packetId, frame: '01 03' },
        { port: 1, packetId, frame: withCrc('01 83 02') },
        { port: 1, packetId, frame: withCrc('07 03 04 41 20 00 00') },
        { port: 1, packetId: 99_999, frame: answer('41 20 00 00') },
        { port: 1, packetId: foreign, frame: answer('41 20 00 00') },
        { port: 1, packetId, frame: answer('41 A0 00 00') },
      ],
    });
    expect(tally).toMatchObject({
      stored: 1,
      records: 2,
      badCrc: 1,
      wrongLength: 2,
      badAnswer: 2,
      unknownPacket: 2,
      refused: 0,
    });
    const after = await recordsOf(meter.itemId);
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)!.values).toEqual({ f1: 20 });
    expect(await statsOf(gateway.sn)).toMatchObject({
      stored: 1,
      badCrc: 1,
      wrongLength: 2,
      badAnswer: 2,
      unknownPacket: 2,
      lastError: { reason: 'unknownPacket', packetId: foreign },
    });
  });

  it("store nothing from another company's packet, even one whose parser names this company's items", async () => {
    const foreign = await makePackage(t, b.id);
    await makeParser(t, b.id, foreign, [floatValue(meter.itemId)], b.admin.id);
    const before = (await recordsOf(meter.itemId)).length;
    const tally = await ingestFrames(t.app, gateway, {
      port: 1,
      packetId: foreign,
      frame: answer('41 20 00 00'),
    });
    expect(tally).toMatchObject({ stored: 0, unknownPacket: 1 });
    // B's gateway sending B's packet: its parser names A's item, which B may not write
    const bGateway = { sn: `${gateway.sn}B`, companyId: b.id };
    expect(
      await ingestFrames(t.app, bGateway, { port: 1, packetId: foreign, frame: answer('41 20 00 00') }),
    ).toMatchObject({
      stored: 0,
      refused: 1,
    });
    expect(await recordsOf(meter.itemId)).toHaveLength(before);
  });

  it('count malformed messages and never throw', async () => {
    const messages: unknown[] = [
      'not json',
      Buffer.from('{"port":'),
      null,
      42,
      [],
      { frames: 'no' },
      { frames: [null, 7, 'x'] },
      { port: 0, packetId, frame: answer('41 20 00 00') },
      { port: 1.5, packetId, frame: answer('41 20 00 00') },
      { port: 1, packetId: -1, frame: answer('41 20 00 00') },
      { port: 1, packetId: 2 ** 40, frame: answer('41 20 00 00') },
      { port: 1, packetId, frame: 12 },
      { port: 1, packetId, frame: 'zz zz' },
      { port: 1, packetId, frame: answer('41 20 00 00'), ts: 'yesterday' },
      { port: 1, packetId, frame: answer('41 20 00 00'), ts: 1e20 },
      { port: 1, packetId, frame: '00 '.repeat(2000).trim() },
      { port: 1, packetId: { $gt: 0 }, frame: answer('41 20 00 00') },
      JSON.parse(`{"__proto__": {"port": 1}, "packetId": ${packetId}, "frame": "${answer('41 20 00 00')}"}`),
    ];
    const before = (await recordsOf(meter.itemId)).length;
    let refused = 0;
    for (const message of messages) {
      const tally = await ingestFrames(t.app, gateway, message);
      expect(tally.stored, JSON.stringify(message)?.slice(0, 60)).toBe(0);
      refused += tally.malformed + tally.wrongLength;
    }
    expect(refused).toBe(messages.length + 2);
    expect(await recordsOf(meter.itemId)).toHaveLength(before);
  });

  it('count the frames beyond the most one message may hold, and read the rest', async () => {
    const frames = Array.from({ length: MAX_FRAMES_PER_MESSAGE + 3 }, () => ({
      port: 3,
      packetId,
      frame: '01',
    }));
    const tally = await ingestFrames(t.app, gateway, { frames });
    expect(tally.malformed).toBe(3);
    expect(tally.wrongLength).toBe(MAX_FRAMES_PER_MESSAGE);
  });

  it('keep the good values of a frame with a value that cannot be decoded, and count it', async () => {
    const item = await makeIotItem(t, a.id);
    const id = await makePackage(t, a.id);
    await makeParser(
      t,
      a.id,
      id,
      [
        floatValue(item.itemId),
        floatValue(item.itemId, {
          name: '整数',
          offset: 0,
          length: 2,
          valueType: 'integer',
          format: 'uint',
          fieldKey: 'f2',
        }),
      ],
      engineer.id,
    );
    // 7F C0 00 00 is NaN as a float
    const tally = await ingestFrames(t.app, gateway, { port: 1, packetId: id, frame: answer('7F C0 00 00') });
    expect(tally).toMatchObject({ stored: 1, decodeErrors: 1 });
    expect((await recordsOf(item.itemId))[0]!.values).toEqual({ f2: 0x7fc0 });
    expect((await statsOf(gateway.sn))!.lastError).toMatchObject({
      reason: 'decodeErrors',
      message: 'The value "电压" is not a finite number',
    });
  });

  it('are refused when the person who saved the parser may no longer write the item', async () => {
    const item = await makeIotItem(t, a.id);
    const id = await makePackage(t, a.id);
    await makeParser(t, a.id, id, [floatValue(item.itemId)], engineer.id);
    await setPermissions(t, item.nodeId, [{ scope: 'company', subjectId: null, level: 1 }]);
    const tally = await ingestFrames(t.app, gateway, { port: 1, packetId: id, frame: answer('41 20 00 00') });
    expect(tally).toMatchObject({ stored: 0, refused: 1 });
    expect(await recordsOf(item.itemId)).toHaveLength(0);
    // given write again, the next frame after the node has seen the access change is stored
    await setPermissions(t, item.nodeId, [{ scope: 'user', subjectId: engineer.id, level: 2 }]);
    await t.app.accessWatch.poll();
    expect(
      (await ingestFrames(t.app, gateway, { port: 1, packetId: id, frame: answer('41 20 00 00') })).stored,
    ).toBe(1);
  });

  it('stop being stored once the node sees the saver’s write taken away (the answer is kept until access changes)', async () => {
    const item = await makeIotItem(t, a.id);
    const id = await makePackage(t, a.id);
    await makeParser(t, a.id, id, [floatValue(item.itemId)], engineer.id);
    await setPermissions(t, item.nodeId, [{ scope: 'user', subjectId: engineer.id, level: 2 }]);
    await t.app.accessWatch.poll();
    const frame = { port: 1, packetId: id, frame: answer('41 20 00 00') };
    expect((await ingestFrames(t.app, gateway, frame)).stored).toBe(1);
    // the saver's write is taken away on this or any node: the epoch moves in the same transaction
    await setPermissions(t, item.nodeId, [{ scope: 'user', subjectId: engineer.id, level: 1 }]);
    await t.app.accessWatch.poll();
    expect(await ingestFrames(t.app, gateway, frame)).toMatchObject({ stored: 0, refused: 1 });
    // the saver's account is disabled: refused though the permission comes back
    await setPermissions(t, item.nodeId, [{ scope: 'user', subjectId: engineer.id, level: 2 }]);
    await t.db.update(users).set({ status: 0 }).where(eq(users.id, engineer.id));
    await t.app.accessWatch.poll();
    expect(await ingestFrames(t.app, gateway, frame)).toMatchObject({ stored: 0, refused: 1 });
    await t.db.update(users).set({ status: 1 }).where(eq(users.id, engineer.id));
    await t.app.accessWatch.poll();
    expect((await ingestFrames(t.app, gateway, frame)).stored).toBe(1);
    expect(await recordsOf(item.itemId)).toHaveLength(2);
  });

  it('are refused when the field they are bound to was removed from the item', async () => {
    const item = await makeIotItem(t, a.id);
    const id = await makePackage(t, a.id);
    await makeParser(t, a.id, id, [floatValue(item.itemId, { fieldKey: 'f9' })], engineer.id);
    const tally = await ingestFrames(t.app, gateway, { port: 1, packetId: id, frame: answer('41 20 00 00') });
    expect(tally).toMatchObject({ stored: 0, refused: 1 });
    expect((await statsOf(gateway.sn))!.lastError).toMatchObject({
      reason: 'refused',
      message: 'Unknown field: f9',
    });
  });
});

describe('frame counters', () => {
  it("add up per gateway and port, and each company sees only its own gateways'", async () => {
    await ingestFrames(t.app, gateway, { port: 1, packetId, frame: answer('41 20 00 00') });
    await ingestFrames(t.app, gateway, { port: 1, packetId, frame: '01 03 04 41 20 00 00 00 00' });
    await ingestFrames(t.app, gateway, { port: 2, packetId, frame: answer('41 20 00 00') });
    const res = await t.app.inject({
      method: 'GET',
      url: `/general/devicecommunication/frameStats?sn=${gateway.sn.toLowerCase()}`,
      headers: bearer(a.admin.token),
    });
    expect(res.json()).toMatchObject({
      code: 0,
      data: [
        { sn: gateway.sn, port: 1, stored: 1, badCrc: 1, lastError: { reason: 'badCrc', packetId } },
        { sn: gateway.sn, port: 2, stored: 1, badCrc: 0, lastError: null },
      ],
    });
    const other = await t.app.inject({
      method: 'GET',
      url: `/general/devicecommunication/frameStats?sn=${gateway.sn}`,
      headers: bearer(b.admin.token),
    });
    expect(other.json().data).toEqual([]);
  });
});
