/**
 * Two server nodes on one PostgreSQL and one Mosquitto (the production shape of
 * ARCHITECTURE.md), as two processes: a record submitted to node A reaches a live socket
 * opened on node B, one submitted to B reaches A; a device event (a gateway coming online,
 * handled by whichever node the broker's shared subscription gives its message) reaches the
 * device sockets of both nodes; an alarm raised on A (and its level change) reaches the alarm
 * sockets of both nodes. Each arrives once on each node.
 *
 * Runs in the PostgreSQL + Mosquitto pass of CI (DATABASE_URL and MQTT_TEST_BROKER=mosquitto
 * set, Mosquitto with dynamic security installed); skipped elsewhere.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SimGateway } from '@platform/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { makeItem, SAMPLE_FIELDS } from '../modules/cabin/test-support';
import { createCompany } from '../modules/companies/service';
import { bindNow } from '../modules/devices/binding';
import { createUser } from '../modules/users/service';
import type { TestApp } from '../test/helper';
import { type Mosquitto, mosquittoAvailable, startMosquitto } from '../test/mosquitto';
import {
  makeServerTarget,
  type ServerProcess,
  type ServerTarget,
  startServerProcess,
  stopIfRunning,
} from '../test/server-process';

const wanted = Boolean(process.env.DATABASE_URL) && process.env.MQTT_TEST_BROKER === 'mosquitto';
const runs = wanted && mosquittoAvailable();
const PASSWORD = 'secret123';

type Message = { type: string; [key: string]: unknown };

/** A live socket to a node, every message kept in order. */
async function liveSocket(node: ServerProcess, route: string, token: string) {
  const messages: Message[] = [];
  const socket = new WebSocket(
    `${node.url.replace('http', 'ws')}/general${route}?token=${encodeURIComponent(token)}`,
  );
  socket.on('message', (data) => messages.push(JSON.parse(String(data)) as Message));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  return { socket, messages };
}

/** Resolves once `check` holds (polling; no timing is asserted). */
async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function call(node: ServerProcess, route: string, token: string, body: unknown) {
  const res = await fetch(`${node.url}/general${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { code: number; message: string; data: Record<string, unknown> };
}

async function login(node: ServerProcess, phone: string): Promise<string> {
  const res = await fetch(`${node.url}/general/user/access/getToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ phone, password: PASSWORD }).toString(),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

describe.skipIf(!runs)(
  `two server nodes on one PostgreSQL and one Mosquitto${runs ? '' : ' (skipped: needs DATABASE_URL, MQTT_TEST_BROKER=mosquitto and Mosquitto with dynamic security)'}`,
  () => {
    let target: ServerTarget;
    let mosquitto: Mosquitto;
    let secondDataDir: string;
    let nodeA: ServerProcess | null = null;
    let nodeB: ServerProcess | null = null;
    let sim: SimGateway | null = null;
    const sockets: WebSocket[] = [];
    const phones = { operator: '', tenant: '' };
    let companyId: number;
    let itemId: number;

    beforeAll(async () => {
      target = await makeServerTarget();
      mosquitto = await startMosquitto();
      secondDataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-node-b-'));
      const suffix = String(process.pid % 10000).padStart(4, '0');
      phones.operator = `1372000${suffix}`;
      phones.tenant = `1372100${suffix}`;
      const database = await target.open();
      try {
        const db = database.db;
        const operator = await createUser(db, {
          phone: phones.operator,
          userName: 'operator',
          password: PASSWORD,
        });
        await createCompany(db, { name: 'Operator', ownerId: operator.id, isPlatform: true });
        const owner = await createUser(db, {
          phone: phones.tenant,
          userName: 'tenant admin',
          password: PASSWORD,
        });
        const { company } = await createCompany(db, { name: 'Two nodes', ownerId: owner.id });
        companyId = company.id;
        ({ itemId } = await makeItem({ db } as TestApp, company.id, {
          fields: SAMPLE_FIELDS,
          createdBy: owner.id,
        }));
      } finally {
        await database.close();
      }
      const shared = {
        MQTT_URL: mosquitto.url,
        FILE_LINK_SECRET: 'two-nodes-share-one-file-link-secret-0123456789',
      };
      // one after the other: the first runs the migrations
      nodeA = await startServerProcess({ ...target.env, ...shared });
      nodeB = await startServerProcess({ ...target.env, ...shared, DATA_DIR: secondDataDir });
    }, 300_000);

    afterAll(async () => {
      for (const socket of sockets) socket.terminate();
      await sim?.stop();
      await stopIfRunning(nodeA);
      await stopIfRunning(nodeB);
      await mosquitto?.stop();
      await target?.cleanup();
      if (secondDataDir) await rm(secondDataDir, { recursive: true, force: true });
    });

    it('a record submitted to either node, and a device coming online, reach the live sockets of both nodes once', async () => {
      const a = nodeA!;
      const b = nodeB!;
      const token = await login(a, phones.tenant);
      const operatorToken = await login(a, phones.operator);

      // a gateway registered on node A (its broker account is made then), bound to the company
      const registered = await call(a, '/system/gateway/register', operatorToken, {
        serialNumbers: [`TWO${String(process.pid % 100000).padStart(5, '0')}`],
        model: 'SDG-200',
      });
      expect(registered.code, JSON.stringify(registered)).toBe(0);
      const gateway = (
        registered.data.gateways as Array<{ id: number; serialNumber: string; secret: string }>
      )[0]!;
      const database = await target.open();
      try {
        await database.db.transaction((tx) =>
          bindNow(tx, {
            gatewayId: gateway.id,
            companyId,
            userId: null,
            name: 'two-node gateway',
            parentId: null,
            at: new Date(),
          }),
        );
      } finally {
        await database.close();
      }

      const recordsA = await liveSocket(a, '/smartdata/live', token);
      const recordsB = await liveSocket(b, '/smartdata/live', token);
      const devicesA = await liveSocket(a, '/devicemanagement/device/live', token);
      const devicesB = await liveSocket(b, '/devicemanagement/device/live', token);
      sockets.push(recordsA.socket, recordsB.socket, devicesA.socket, devicesB.socket);
      for (const s of [recordsA, recordsB]) s.socket.send(JSON.stringify({ subscribe: [itemId] }));
      await until(
        () => [recordsA, recordsB].every((s) => s.messages.some((m) => m.type === 'subscribed')),
        'both record sockets subscribed',
      );
      expect(recordsB.messages.find((m) => m.type === 'subscribed')).toMatchObject({ itemIds: [itemId] });
      await until(
        () => [devicesA, devicesB].every((s) => s.messages.some((m) => m.type === 'ready')),
        'both device sockets ready',
      );

      // the gateway comes online through the broker: one node handles its message
      sim = new SimGateway(
        { sn: gateway.serialNumber, secret: gateway.secret },
        { url: mosquitto.address, speed: 200, keepalive: 30, backoff: { minMs: 50, maxMs: 200 } },
      );
      sim.start();
      const online = (s: { messages: Message[] }) =>
        s.messages.some((m) => m.type === 'device' && m.id === gateway.id && m.online === true);
      await until(() => online(devicesA) && online(devicesB), 'the device online on both nodes');

      // a record to A, then one to B: each node's sockets see both, in order
      const first = await call(a, '/smartdata/record/add', token, { itemId, values: { f1: 21.5, f2: 1 } });
      expect(first.code, JSON.stringify(first)).toBe(0);
      const ids = (s: { messages: Message[] }) =>
        s.messages
          .filter((m) => m.type === 'records' && m.itemId === itemId)
          .flatMap((m) => (m.records as Array<{ id: number }>).map((r) => r.id));
      await until(
        () => ids(recordsB).includes(first.data.id as number),
        'node B to hear the record of node A',
      );
      const second = await call(b, '/smartdata/record/add', token, { itemId, values: { f1: 22.5, f2: 2 } });
      expect(second.code, JSON.stringify(second)).toBe(0);
      await until(
        () =>
          ids(recordsA).includes(second.data.id as number) &&
          ids(recordsB).includes(second.data.id as number),
        'both nodes to hear the record of node B',
      );
      // the second record was published after node B had heard the first, so any second copy
      // of the first (or of the device events) would have come before it
      expect(ids(recordsA)).toEqual([first.data.id, second.data.id]);
      expect(ids(recordsB)).toEqual([first.data.id, second.data.id]);
      const got = recordsB.messages.find((m) => m.type === 'records');
      expect(got).toMatchObject({ itemId, records: [{ id: first.data.id, values: { f1: 21.5, f2: 1 } }] });

      const deviceEvents = (s: { messages: Message[] }) =>
        s.messages.filter((m) => m.type === 'device' && m.id === gateway.id).map((m) => JSON.stringify(m));
      expect(deviceEvents(devicesA).length).toBeGreaterThan(0);
      expect(deviceEvents(devicesB)).toEqual(deviceEvents(devicesA));
      expect(a.alive() && b.alive()).toBe(true);
    }, 240_000);

    it('an alarm raised on node A reaches the alarm sockets of both nodes once, and its level change after it', async () => {
      const a = nodeA!;
      const b = nodeB!;
      const token = await login(a, phones.tenant);
      // a rule made on node A: its index is reloaded there at once
      const rule = await call(a, '/cloudSurveillance/rule/add', token, {
        name: 'two-node rule',
        itemId,
        fieldKey: 'f1',
        condition: 'above',
        levels: [
          { level: 1, threshold: 80 },
          { level: 2, threshold: 90 },
        ],
        durationS: 0,
        clear: { threshold: 75 },
        recipients: { userIds: [], groupIds: [] },
        channels: ['app'],
      });
      expect(rule.code, JSON.stringify(rule)).toBe(0);
      const alarmsA = await liveSocket(a, '/cloudSurveillance/alarm/live', token);
      const alarmsB = await liveSocket(b, '/cloudSurveillance/alarm/live', token);
      sockets.push(alarmsA.socket, alarmsB.socket);
      for (const s of [alarmsA, alarmsB]) s.socket.send('ping');
      await until(
        () => [alarmsA, alarmsB].every((s) => s.messages.some((m) => m.type === 'ready')),
        'both alarm sockets ready',
      );

      const now = Date.now();
      const fire = await call(a, '/smartdata/record/add', token, {
        itemId,
        ts: new Date(now).toISOString(),
        values: { f1: 85, f2: 3 },
      });
      expect(fire.code, JSON.stringify(fire)).toBe(0);
      const raise = await call(a, '/smartdata/record/add', token, {
        itemId,
        ts: new Date(now + 1000).toISOString(),
        values: { f1: 95, f2: 4 },
      });
      expect(raise.code, JSON.stringify(raise)).toBe(0);
      const changes = (s: { messages: Message[] }) =>
        s.messages.filter((m) => m.type === 'alarm').map((m) => `${m.change}:${m.level}:${m.alarmId}`);
      // each node's sockets hear through the relay in their own time: wait for both
      await until(
        () => [alarmsA, alarmsB].every((s) => changes(s).some((c) => c.startsWith('raised:2:'))),
        'both nodes to hear the level change of the alarm raised on node A',
      );
      // the relay keeps one node's events in order: a second copy of the first change would
      // have come before the second
      const alarmId = Number(changes(alarmsA)[0]?.split(':')[2]);
      expect(alarmId).toBeGreaterThan(0);
      expect(changes(alarmsA)).toEqual([`fired:1:${alarmId}`, `raised:2:${alarmId}`]);
      expect(changes(alarmsB)).toEqual(changes(alarmsA));
      expect(alarmsB.messages.find((m) => m.type === 'alarm')).toMatchObject({
        itemId,
        name: 'two-node rule',
        status: 'active',
        value: 85,
      });
      expect(a.alive() && b.alive()).toBe(true);
    }, 240_000);
  },
);
