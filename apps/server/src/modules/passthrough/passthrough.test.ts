/**
 * Passthrough sessions and device commands against a gateway played by a plain MQTT client on
 * the embedded broker: what goes down, what comes back and to whom, and the attacks (another
 * company, no code, read-only, another person's port, bad hex, oversized sends, floods,
 * answers of another session, another gateway or another port).
 */
import { appendCrc, ERROR_CODES, gatewayDownTopic, toHex } from '@platform/domain';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  buildTestApp,
  makeCompany,
  type TestApp,
  type TestCompany,
  type TestUser,
} from '../../test/helper';
import { makeDirectory, setPermissions } from '../cabin/test-support';
import {
  birth,
  brokerUrl,
  connectGateway,
  gatewayRow,
  makeDevice,
  operationsOf,
  publishUp,
  type TestGateway,
  waitFor,
} from '../devices/test-support';
import { makeMember, makeRole } from '../users/test-support';
import { MAX_SEND_BYTES, passthroughSessions, SENDS_PER_SECOND } from './sessions';
import { openSession } from './test-support';

let t: TestApp;
let a: TestCompany;
let b: TestCompany;
/** cd_device only; read-write on the company's devices (the company default) */
let operator: TestUser;
/** cd_device; read-only on `dev` */
let reader: TestUser;
/** dm_list only: sees devices, not the serial debug assistant */
let lister: TestUser;
let dev: TestGateway & { nodeId: number };
let other: TestGateway & { nodeId: number };

interface FakeGateway {
  client: MqttClient;
  down: Array<{ topic: string; body: Record<string, unknown> }>;
}
let gw: FakeGateway;
let otherGw: FakeGateway;

async function online(g: TestGateway, ports = [1, 2]): Promise<FakeGateway> {
  const client = await connectGateway(brokerUrl(t), g);
  const down: FakeGateway['down'] = [];
  client.on('message', (topic, payload) => down.push({ topic, body: JSON.parse(payload.toString()) }));
  await client.subscribeAsync(`smartdata/gw/${g.sn}/down/#`, { qos: 1 });
  await publishUp(client, g.sn, 'status', birth({ ports: ports.map((port) => ({ port, ok: true })) }));
  await waitFor(async () => (await gatewayRow(t, g.id)).online, 15_000, 'online');
  return { client, down };
}

/** The gateway's connection drops (a goodbye of a still-connected gateway does not count). */
async function drop(g: FakeGateway, device: TestGateway): Promise<void> {
  (g.client.stream as { destroy(): void }).destroy();
  await waitFor(async () => !(await gatewayRow(t, device.id)).online, 15_000, 'offline');
}

const passthroughs = (g: FakeGateway, sn: string) =>
  g.down.filter((m) => m.topic === gatewayDownTopic(sn, 'passthrough'));

const READ = toHex(appendCrc([1, 3, 0, 0, 0, 2]));

beforeAll(async () => {
  t = await buildTestApp({ MQTT_PORT: '0' });
  a = await makeCompany(t, 'Acme');
  b = await makeCompany(t, 'Beta');
  operator = await makeMember(t, a, [await makeRole(t, a.id, ['cd_device'])], 'operator');
  reader = await makeMember(t, a, [await makeRole(t, a.id, ['cd_device'])], 'reader');
  lister = await makeMember(t, a, [await makeRole(t, a.id, ['dm_list'])], 'lister');
  const dir = await makeDirectory(t, a.id, { name: 'Plant' });
  dev = await makeDevice(t, a.id, { name: 'Line DTU', parentId: dir, userId: a.admin.id });
  other = await makeDevice(t, a.id, { name: 'Other DTU', parentId: dir, userId: a.admin.id });
  await setPermissions(t, dev.nodeId, [
    { scope: 'company', subjectId: null, level: 2 },
    { scope: 'user', subjectId: reader.id, level: 1 },
  ]);
  gw = await online(dev);
  otherGw = await online(other);
});
afterAll(async () => {
  gw?.client.end(true);
  otherGw?.client.end(true);
  await t?.close();
});
beforeEach(async () => {
  // every test starts with the ports free
  await waitFor(() => passthroughSessions(t.app).size === 0, 15_000, 'no session open');
});

describe('a passthrough session', () => {
  it('sends hex to the port and brings back the answer to the session that sent, and logs open and close', async () => {
    const s = await openSession(t, operator.token, dev.id, 1, 'zh');
    const opened = await s.next('opened');
    expect(opened).toMatchObject({ port: 1, device: { id: dev.id, name: 'Line DTU' } });
    expect(opened.limits).toEqual({ maxBytes: MAX_SEND_BYTES, sendsPerSecond: SENDS_PER_SECOND });
    // lower-case hex is the rule's too; it goes down upper case
    s.sendHex(READ.toLowerCase());
    const tx = await s.next('tx');
    expect(tx.data).toBe(READ);
    const [down] = await waitFor(() => passthroughs(gw, dev.sn).length === 1 && passthroughs(gw, dev.sn));
    expect(down!.body).toMatchObject({ port: 1, data: READ });
    const session = down!.body.session as string;
    expect(session).toMatch(/^[0-9a-f]{32}$/);
    const answer = toHex(appendCrc([1, 3, 4, 0x43, 0x66, 0, 0]));
    await publishUp(gw.client, dev.sn, 'passthrough', { session, port: 1, data: answer }, 0);
    const rx = await s.next('rx');
    expect(rx).toMatchObject({ port: 1, data: answer });
    expect(new Date(rx.at as string).getTime()).not.toBeNaN();
    s.close();
    await waitFor(() => passthroughSessions(t.app).holder(dev.id, 1) === null);
    const log = await waitFor(async () => {
      const rows = (await operationsOf(t, a.id, dev.id)).filter((r) => r.kind === 'passthrough');
      return rows.length >= 2 && rows;
    });
    expect(log.slice(-2).map((r) => [r.userId, r.result, r.data])).toEqual([
      [operator.id, 'ok', { port: 1, action: 'open' }],
      [operator.id, 'ok', { port: 1, action: 'close', sent: 1, received: 1 }],
    ]);
    // the old session's id is dead: a late answer is dropped
    const before = passthroughSessions(t.app).drops.unknownSession;
    await publishUp(gw.client, dev.sn, 'passthrough', { session, port: 1, data: answer }, 0);
    await waitFor(() => passthroughSessions(t.app).drops.unknownSession === before + 1);
  });

  it('an answer of another session, gateway or port, or with bad hex, is dropped and counted; only its own arrives', async () => {
    const s = await openSession(t, operator.token, dev.id, 1);
    await s.next('opened');
    // the gateway still holds the first test's order: wait for this session's own
    const sent = passthroughs(gw, dev.sn).length;
    s.sendHex(READ);
    await s.next('tx');
    const [down] = await waitFor(
      () => passthroughs(gw, dev.sn).length > sent && [passthroughs(gw, dev.sn).at(-1)],
    );
    const session = down!.body.session as string;
    const drops = { ...passthroughSessions(t.app).drops };
    // a guessed session id
    await publishUp(gw.client, dev.sn, 'passthrough', { session: 'a'.repeat(32), port: 1, data: '01' }, 0);
    // another gateway of the same company that learnt the id
    await publishUp(otherGw.client, other.sn, 'passthrough', { session, port: 1, data: '02' }, 0);
    // the right gateway, another port
    await publishUp(gw.client, dev.sn, 'passthrough', { session, port: 2, data: '03' }, 0);
    // bad hex, a number, too long
    await publishUp(gw.client, dev.sn, 'passthrough', { session, port: 1, data: '0G' }, 0);
    await publishUp(gw.client, dev.sn, 'passthrough', { session, port: 1, data: 7 }, 0);
    await publishUp(
      gw.client,
      dev.sn,
      'passthrough',
      { session, port: 1, data: Array(4097).fill('00').join(' ') },
      0,
    );
    await publishUp(gw.client, dev.sn, 'passthrough', { session, port: 1, data: '11 22' }, 0);
    const rx = await s.next('rx');
    expect(rx.data).toBe('11 22');
    const now = passthroughSessions(t.app).drops;
    await waitFor(() => now.badData === drops.badData + 3);
    expect(now.unknownSession - drops.unknownSession).toBe(1);
    expect(now.otherGateway - drops.otherGateway).toBe(1);
    expect(now.otherPort - drops.otherPort).toBe(1);
    await s.ping();
    expect(s.heard.filter((m) => m.type === 'rx')).toHaveLength(1);
    s.close();
  });

  it('one person at a time on a port: the second is told who holds it; another port is free', async () => {
    const first = await openSession(t, operator.token, dev.id, 1);
    await first.next('opened');
    const second = await openSession(t, a.admin.token, dev.id, 1);
    const { message, code } = await second.ended();
    expect(message).toMatchObject({
      code: ERROR_CODES.CONFLICT,
      message: 'Port 1 of this gateway is in use by operator in the serial debug assistant',
      data: { field: 'port', name: 'operator' },
    });
    expect(code).toBe(4400);
    const zh = await openSession(t, a.admin.token, dev.id, 1, 'zh');
    expect((await zh.ended()).message.message).toBe('该网关的端口 1 正被 operator 在串口调试助手中使用');
    const port2 = await openSession(t, a.admin.token, dev.id, 2);
    await port2.next('opened');
    // the refused opening is in the log, with who tried
    const refused = (await operationsOf(t, a.id, dev.id)).filter(
      (r) => r.kind === 'passthrough' && r.result === 'failed',
    );
    expect(refused.at(-1)).toMatchObject({
      userId: a.admin.id,
      data: { port: 1, action: 'open', reason: 'inUse' },
    });
    first.close();
    port2.close();
  });

  it('refuses bad input by name, sends nothing, and keeps the session open', async () => {
    const s = await openSession(t, operator.token, dev.id, 1);
    await s.next('opened');
    const before = passthroughs(gw, dev.sn).length;
    const cases: Array<[unknown, string, string]> = [
      ['', 'passthroughEmpty', 'Please enter the data to send'],
      ['01 0G', 'hex', 'Hex data must be groups of two hex digits separated by single spaces'],
      ['0103', 'hex', 'Hex data must be groups of two hex digits separated by single spaces'],
      [' 01 03', 'hex', 'Hex data must be groups of two hex digits separated by single spaces'],
      ['01  03', 'hex', 'Hex data must be groups of two hex digits separated by single spaces'],
      ['01 03 ', 'hex', 'Hex data must be groups of two hex digits separated by single spaces'],
      [
        Array(MAX_SEND_BYTES + 1)
          .fill('AB')
          .join(' '),
        'long',
        `At most ${MAX_SEND_BYTES} bytes can be sent at once`,
      ],
      ['x'.repeat(60_000), 'long', `At most ${MAX_SEND_BYTES} bytes can be sent at once`],
      [42, 'type', 'Invalid value for data'],
      [null, 'type', 'Invalid value for data'],
    ];
    for (const [data, , text] of cases) {
      s.sendHex(data);
      const error = await s.next('error');
      expect(error, String(data).slice(0, 20)).toMatchObject({ message: text, data: { field: 'data' } });
    }
    s.send('not json');
    expect(await s.next('error')).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { field: 'type' } });
    s.send({ type: 'write', data: '01' });
    expect(await s.next('error')).toMatchObject({ data: { field: 'type' } });
    await s.ping();
    expect(passthroughs(gw, dev.sn).length).toBe(before);
    // exactly 256 bytes is allowed
    await new Promise((r) => setTimeout(r, 1100)); // the send bucket refills (not asserted on time)
    s.sendHex(Array(MAX_SEND_BYTES).fill('AB').join(' '));
    expect((await s.next('tx')).data).toHaveLength(MAX_SEND_BYTES * 3 - 1);
    s.close();
  });

  it('a flood of sends is refused beyond the rate, with the message, and the rest never reach the gateway', async () => {
    const s = await openSession(t, operator.token, dev.id, 2);
    await s.next('opened');
    const before = passthroughs(gw, dev.sn).length;
    for (let i = 0; i < 60; i++) s.sendHex('01 02');
    await s.ping();
    const refused = s.heard.filter((m) => m.type === 'error');
    const sent = s.heard.filter((m) => m.type === 'tx');
    expect(refused.length + sent.length).toBe(60);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused[0]).toMatchObject({
      code: ERROR_CODES.RATE_LIMITED,
      message: `Sending too fast: at most ${SENDS_PER_SECOND} sends a second`,
    });
    await waitFor(() => passthroughs(gw, dev.sn).length === before + sent.length);
    s.close();
  });
});

describe('who may open a session', () => {
  it('nobody from outside, without the code, another company, read-only or without the device', async () => {
    // no token: the upgrade itself is refused
    await expect(
      t.app.injectWS(`/general/devicemanagement/passthrough/session?id=${dev.id}&port=1`),
    ).rejects.toThrow();
    await expect(
      t.app.injectWS(`/general/devicemanagement/passthrough/session?token=nope&id=${dev.id}&port=1`),
    ).rejects.toThrow();
    // the device list's code alone is not the serial debug assistant's
    await expect(
      t.app.injectWS(
        `/general/devicemanagement/passthrough/session?token=${lister.token}&id=${dev.id}&port=1`,
      ),
    ).rejects.toThrow();
    const refusals: Array<[string, number, number, number, number]> = [
      [b.admin.token, dev.id, 1, ERROR_CODES.NOT_FOUND, 4400],
      [reader.token, dev.id, 1, ERROR_CODES.FORBIDDEN, 4403],
      [operator.token, 2 ** 31 - 1, 1, ERROR_CODES.NOT_FOUND, 4400],
      [operator.token, dev.id, 9, ERROR_CODES.VALIDATION, 4400],
    ];
    for (const [token, id, port, code, close] of refusals) {
      const s = await openSession(t, token, id, port);
      const ended = await s.ended();
      expect([ended.message.code, ended.code], `${id}:${port}`).toEqual([code, close]);
      expect(JSON.stringify(s.heard)).not.toContain(dev.sn);
    }
    expect(passthroughSessions(t.app).size).toBe(0);
    expect(passthroughs(gw, dev.sn).filter((m) => m.body.port === 9)).toEqual([]);
  });

  it('losing read-write while open ends the session at the next send; nothing goes out', async () => {
    const s = await openSession(t, operator.token, other.id, 1);
    await s.next('opened');
    await setPermissions(t, other.nodeId, [{ scope: 'user', subjectId: operator.id, level: 1 }]);
    const before = passthroughs(otherGw, other.sn).length;
    s.sendHex('01 02');
    const { message, code } = await s.ended();
    expect([message.code, code]).toEqual([ERROR_CODES.FORBIDDEN, 4403]);
    expect(passthroughs(otherGw, other.sn).length).toBe(before);
    await setPermissions(t, other.nodeId, [{ scope: 'company', subjectId: null, level: 2 }]);
  });

  it('a gateway going offline ends its sessions; an offline gateway cannot be opened, and the refusal is logged', async () => {
    const s = await openSession(t, operator.token, other.id, 1);
    await s.next('opened');
    await drop(otherGw, other);
    const { message } = await s.ended();
    expect(message).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'The current gateway is offline: its ports cannot be debugged.',
    });
    await waitFor(() => passthroughSessions(t.app).size === 0);
    const again = await openSession(t, operator.token, other.id, 1, 'zh');
    expect((await again.ended()).message.message).toBe('当前网关离线，无法调试其串口。');
    // the refusal is told on the socket, then logged: wait for the log to hold it
    const refusal = await waitFor(async () => {
      const log = (await operationsOf(t, a.id, other.id)).filter((r) => r.kind === 'passthrough');
      const last = log.at(-1);
      return last?.result === 'failed' && (last.data as { reason?: string }).reason === 'offline'
        ? last
        : undefined;
    });
    expect(refusal).toMatchObject({ userId: operator.id, result: 'failed', data: { reason: 'offline' } });
    otherGw = await online(other, [1]);
  });
});

describe('device commands', () => {
  const command = (token: string, body: unknown, lang = 'en') =>
    t.app.inject({
      method: 'POST',
      url: '/general/devicemanagement/device/command',
      payload: body as Record<string, unknown>,
      headers: { ...bearer(token), 'accept-language': lang },
    });
  const commands = (g: FakeGateway, sn: string) =>
    g.down.filter((m) => m.topic === gatewayDownTopic(sn, 'command')).map((m) => m.body);

  it('readNow goes to the gateway and is logged ok with who sent it', async () => {
    const res = await command(operator.token, { id: dev.id, command: 'readNow' });
    expect(res.json()).toMatchObject({ code: 0, data: { result: 'ok' } });
    await waitFor(() => commands(gw, dev.sn).some((c) => c.command === 'readNow'));
    const [row] = (await operationsOf(t, a.id, dev.id)).filter((r) => r.id === res.json().data.operationId);
    expect(row).toMatchObject({
      kind: 'command',
      result: 'ok',
      userId: operator.id,
      data: { command: 'readNow' },
    });
  });

  it('reboot stays pending until the gateway is back with its birth message', async () => {
    const res = await command(a.admin.token, { id: dev.id, command: 'reboot' });
    expect(res.json()).toMatchObject({ code: 0, data: { result: 'pending' } });
    const id = res.json().data.operationId as number;
    await waitFor(() => commands(gw, dev.sn).some((c) => c.command === 'reboot'));
    const row = async () => (await operationsOf(t, a.id, dev.id)).find((r) => r.id === id)!;
    expect((await row()).result).toBe('pending');
    await drop(gw, dev);
    expect((await row()).result).toBe('pending');
    gw = await online(dev);
    await waitFor(async () => (await row()).result === 'ok');
    expect((await row()).userId).toBe(a.admin.id);
  });

  it('refused: offline (logged), read-only, no code, another company, unknown command, bad id', async () => {
    await drop(otherGw, other);
    const offline = await command(operator.token, { id: other.id, command: 'readNow' });
    expect(offline.json()).toMatchObject({
      code: ERROR_CODES.BUSINESS,
      message: 'The current gateway is offline and cannot receive commands.',
    });
    expect((await operationsOf(t, a.id, other.id)).at(-1)).toMatchObject({
      kind: 'command',
      result: 'failed',
      userId: operator.id,
      data: { command: 'readNow', reason: 'offline' },
    });
    otherGw = await online(other, [1]);

    const sentBefore = commands(gw, dev.sn).length;
    const logBefore = (await operationsOf(t, a.id, dev.id)).length;
    expect((await command(reader.token, { id: dev.id, command: 'reboot' })).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await command(a.limited.token, { id: dev.id, command: 'reboot' })).json().code).toBe(
      ERROR_CODES.FORBIDDEN,
    );
    expect((await command(b.admin.token, { id: dev.id, command: 'reboot' })).json().code).toBe(
      ERROR_CODES.NOT_FOUND,
    );
    const noToken = await t.app.inject({
      method: 'POST',
      url: '/general/devicemanagement/device/command',
      payload: { id: dev.id, command: 'reboot' },
    });
    expect(noToken.json().code).toBe(ERROR_CODES.TOKEN_INVALID);
    for (const [body, field] of [
      [{ id: dev.id, command: 'format' }, 'command'],
      [{ id: dev.id }, 'command'],
      [{ id: 'x', command: 'reboot' }, 'id'],
      [{ id: 2 ** 40, command: 'reboot' }, 'id'],
    ] as const) {
      const res = await command(operator.token, body);
      expect(res.json().code, JSON.stringify(body)).toBe(ERROR_CODES.VALIDATION);
      expect(JSON.stringify(res.json().data)).toContain(field);
    }
    await new Promise((r) => setTimeout(r, 200)); // nothing pending to arrive (a negative check)
    expect(commands(gw, dev.sn).length).toBe(sentBefore);
    expect((await operationsOf(t, a.id, dev.id)).length).toBe(logBefore);
  });
});
