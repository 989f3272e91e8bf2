/**
 * Submission over MQTT, through both adapters of platform/mqtt.ts: the embedded aedes broker
 * (always) and an external broker when asked: a Mosquitto of this file's own with the
 * recommended configuration (MQTT_TEST_BROKER=mosquitto, as CI runs it), or the broker at
 * MQTT_URL (a dynamic-security admin account; this file's keys get accounts there). A device
 * signs in as `key-<id>` with the key as password, publishes to smartdata/submit/key-<id> and
 * reads the answer on smartdata/result/key-<id>.
 */
import { randomBytes } from 'node:crypto';
import { ERROR_CODES, keyMqttUsername } from '@platform/domain';
import { eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, makeCompany, type TestApp, type TestCompany } from '../../test/helper';
import { type Mosquitto, startMosquitto } from '../../test/mosquitto';
import { makeItem, SAMPLE_FIELDS } from '../cabin/test-support';
import { dataRecords } from '../records/tables';
import { issueKey } from './keys';

const EXTERNAL = process.env.MQTT_TEST_BROKER === 'mosquitto' || Boolean(process.env.MQTT_URL);
const ANSWER_TIMEOUT_MS = 20_000;

interface Credentials {
  id: number;
  key: string;
  username: string;
}

async function newKey(t: TestApp, companyId: number, userId: number, name = 'mqtt'): Promise<Credentials> {
  const { id, key } = await issueKey(t.app, { companyId, userId, name, kind: 'user' });
  return { id, key, username: keyMqttUsername(id) };
}

interface Answer {
  code: number;
  message: string;
  data: unknown;
}

/**
 * A device: subscribes to its result topic and publishes submissions. `submit` waits for
 * the first answer that `accept` takes (on a shared external broker other servers may answer
 * a key they do not know; the embedded broker has only this one).
 */
async function device(url: string, { username, key }: Credentials) {
  const client: MqttClient = await mqtt.connectAsync(url, {
    clientId: `test-device-${randomBytes(4).toString('hex')}`,
    username,
    password: key,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
  });
  const answers: Answer[] = [];
  const waiters = new Set<() => void>();
  client.on('message', (_topic, payload) => {
    answers.push(JSON.parse(payload.toString()) as Answer);
    for (const wake of waiters) wake();
  });
  await client.subscribeAsync(`smartdata/result/${username}`, { qos: 1 });
  return {
    client,
    async submit(payload: unknown, accept: (a: Answer) => boolean = () => true): Promise<Answer> {
      answers.length = 0;
      const found = new Promise<Answer>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no accepted answer on smartdata/result/…: ${JSON.stringify(answers)}`));
        }, ANSWER_TIMEOUT_MS);
        const check = () => {
          const hit = answers.find(accept);
          if (!hit) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(hit);
        };
        waiters.add(check);
      });
      await client.publishAsync(
        `smartdata/submit/${username}`,
        typeof payload === 'string' ? payload : JSON.stringify(payload),
        { qos: 1 },
      );
      return found;
    },
    close: () => client.endAsync(),
  };
}

async function recordsOf(t: TestApp, itemId: number) {
  return t.db.select().from(dataRecords).where(eq(dataRecords.itemId, itemId)).orderBy(dataRecords.id);
}

function submissionSuite(kind: 'embedded' | 'external') {
  let t: TestApp;
  let company: TestCompany;
  let brokerUrl: string;
  let serverUrl: string;
  let mosquitto: Mosquitto | null = null;

  beforeAll(async () => {
    if (kind === 'embedded') {
      t = await buildTestApp({ MQTT_PORT: '0' });
      brokerUrl = `mqtt://127.0.0.1:${t.app.mqtt!.port}`;
    } else {
      if (!process.env.MQTT_URL) mosquitto = await startMosquitto();
      serverUrl = process.env.MQTT_URL ?? mosquitto!.url;
      // a share group of its own: servers of other runs on the same broker must not take our messages
      t = await buildTestApp({
        MQTT_URL: serverUrl,
        MQTT_SHARE_GROUP: `test-${randomBytes(4).toString('hex')}`,
      });
      const address = new URL(serverUrl);
      address.username = '';
      address.password = '';
      brokerUrl = address.toString();
    }
    company = await makeCompany(t, `MQTT ${kind}`);
    expect(t.app.mqtt?.kind).toBe(kind);
  });

  afterAll(async () => {
    await t?.close();
    await mosquitto?.stop();
  });

  it('tells the web app where devices reach the broker, without credentials', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/general/smartdata/key/endpoints',
      headers: bearer(company.limited.token),
    });
    const { http, mqtt: endpoint } = res.json().data;
    expect(http).toBe('/general/smartdata/submit');
    if (kind === 'embedded')
      expect(endpoint).toEqual({ host: null, port: t.app.mqtt!.port, external: false });
    else {
      const url = new URL(serverUrl);
      expect(endpoint).toEqual({ host: url.hostname, port: Number(url.port) || 1883, external: true });
      if (url.password) expect(res.body).not.toContain(url.password);
    }
  });

  it('writes a record and a batch, answering on the result topic', async () => {
    const { itemId } = await makeItem(t, company.id, { fields: SAMPLE_FIELDS });
    const d = await device(brokerUrl, await newKey(t, company.id, company.limited.id));
    try {
      const one = await d.submit(
        { itemId, ts: '2026-11-23T08:00:00Z', 温度: 21.456, f2: 3 },
        (a) => a.code === 0,
      );
      expect(one).toEqual({ code: 0, message: '数据提交成功', data: { count: 1 } });
      const batch = await d.submit(
        [
          { itemId, count: 4, note: 'a' },
          { itemId, f2: 5, f3: 'b' },
        ],
        (a) => a.code === 0,
      );
      expect(batch).toEqual({ code: 0, message: '数据提交成功', data: { count: 2 } });
    } finally {
      await d.close();
    }
    const rows = await recordsOf(t, itemId);
    expect(rows.map((r) => r.values)).toEqual([
      { f1: 21.46, f2: 3 },
      { f2: 4, f3: 'a' },
      { f2: 5, f3: 'b' },
    ]);
    expect(rows.every((r) => r.source === 'mqtt' && r.createdBy === company.limited.id)).toBe(true);
    expect(rows[0]!.ts.toISOString()).toBe('2026-11-23T08:00:00.000Z');
  });

  it('answers a bad record with its index, item and field, and writes nothing of the batch', async () => {
    const { itemId } = await makeItem(t, company.id, { fields: SAMPLE_FIELDS });
    const d = await device(brokerUrl, await newKey(t, company.id, company.admin.id));
    try {
      const bad = await d.submit(
        [
          { itemId, f2: 1 },
          { itemId, count: 'x' },
        ],
        (a) => a.code === ERROR_CODES.VALIDATION,
      );
      expect(bad).toMatchObject({ code: ERROR_CODES.VALIDATION, data: { index: 1, itemId, field: 'f2' } });
      const notJson = await d.submit('{not json', (a) => a.code === ERROR_CODES.VALIDATION);
      expect(notJson).toMatchObject({ data: { field: 'body' } });
    } finally {
      await d.close();
    }
    expect(await recordsOf(t, itemId)).toEqual([]);
  });

  it('answers each of many messages sent at once on its own and in order', async () => {
    const { itemId } = await makeItem(t, company.id, { fields: SAMPLE_FIELDS });
    const { username, key } = await newKey(t, company.id, company.admin.id, 'burst');
    const client = await mqtt.connectAsync(brokerUrl, { username, password: key, reconnectPeriod: 0 });
    const answers: Answer[] = [];
    const total = 40;
    // message i carries count = i; three of them are bad, each in its own way
    const payloads = Array.from({ length: total }, (_, i) => {
      if (i === 7) return JSON.stringify({ itemId, count: 'seven' });
      if (i === 19) return '{"itemId":';
      if (i === 31) return JSON.stringify({ itemId: 2_000_000_000, count: 31 });
      return JSON.stringify({ itemId, count: i });
    });
    try {
      const all = new Promise<void>((resolve) => {
        client.on('message', (_topic, payload) => {
          const answer = JSON.parse(payload.toString()) as Answer;
          answers.push(answer);
          if (answers.length === total) resolve();
        });
      });
      await client.subscribeAsync(`smartdata/result/${username}`, { qos: 1 });
      await Promise.all(
        payloads.map((p) => client.publishAsync(`smartdata/submit/${username}`, p, { qos: 1 })),
      );
      await all;
    } finally {
      await client.endAsync();
    }
    expect(answers.map((a) => a.code)).toEqual(
      payloads.map((_, i) =>
        i === 7 || i === 19 ? ERROR_CODES.VALIDATION : i === 31 ? ERROR_CODES.NOT_FOUND : 0,
      ),
    );
    expect(answers[7]).toMatchObject({ data: { index: 0, itemId, field: 'f2' } });
    expect(answers[19]).toMatchObject({ data: { field: 'body' } });
    expect(answers[31]).toMatchObject({ data: { index: 0, itemId: 2_000_000_000, field: 'itemId' } });
    const stored = (await recordsOf(t, itemId)).map((r) => Number(r.values.f2)).sort((x, y) => x - y);
    expect(stored).toEqual(payloads.flatMap((_, i) => (i === 7 || i === 19 || i === 31 ? [] : [i])));
  });
}

describe('MQTT submission through the embedded broker (aedes)', () => {
  submissionSuite('embedded');
});

describe.skipIf(!EXTERNAL)(
  `MQTT submission through an external broker${EXTERNAL ? '' : ' (skipped: set MQTT_TEST_BROKER=mosquitto or MQTT_URL)'}`,
  () => {
    submissionSuite('external');
  },
);
