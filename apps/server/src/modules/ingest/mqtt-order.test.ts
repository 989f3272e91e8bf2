/**
 * The order of MQTT answers, with the submission itself replaced: a key's groups of messages
 * may finish in any order (a cold definition read, a permission query), yet their answers must
 * leave in the order the messages came, and a group that fails must not hold up the next.
 */
import { setImmediate as turn } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { App } from '../../platform/context';
import type { Envelope } from '../../platform/envelope';
import type { MqttHandler } from '../../platform/mqtt';
import { MqttPrincipals } from '../../platform/mqtt-principals';
import { MqttStats } from '../../platform/mqtt-stats';
import { attachMqttSubmission } from './mqtt-submit';
import { submitEach } from './submit';

vi.mock('./submit', () => ({ submitEach: vi.fn() }));
const submitted = vi.mocked(submitEach);

interface Deferred {
  resolve: (answers: Envelope[]) => void;
  reject: (error: unknown) => void;
  bodies: unknown[];
}

let deliver: (topic: string, payload: Buffer) => void;
let stats: MqttStats;
let published: Array<{ topic: string; text: string }>;
let calls: Deferred[];

beforeEach(async () => {
  published = [];
  calls = [];
  submitted.mockImplementation(
    (_app, _key, bodies) =>
      new Promise<Envelope[]>((resolve, reject) => {
        calls.push({ resolve, reject, bodies });
      }),
  );
  const log = { warn: vi.fn(), error: vi.fn(), info: vi.fn() };
  stats = new MqttStats(log as unknown as FastifyBaseLogger);
  const app = {
    mqtt: {
      stats,
      subscribe: async (_filter: string, handler: MqttHandler) => {
        deliver = (topic, payload) => void handler({ topic, payload, qos: 1, overloaded: false });
      },
      publish: async (topic: string, text: string) => {
        published.push({ topic, text });
      },
    },
    mqttPrincipals: new MqttPrincipals(),
    log,
  } as unknown as App;
  await attachMqttSubmission(app);
});

afterEach(() => {
  submitted.mockReset();
});

const send = (key: string, body: unknown) =>
  deliver(`smartdata/submit/${key}`, Buffer.from(JSON.stringify(body)));
const answer = (n: number): Envelope => ({ code: 0, message: 'ok', data: { n } });
const order = () => published.map((p) => (JSON.parse(p.text) as { data: { n?: number } }).data?.n ?? 'error');

describe('MQTT answers', () => {
  it('leave in arrival order when a later group of the same key finishes first', async () => {
    send('key-1', { n: 1 });
    send('key-1', { n: 2 });
    await turn(); // one group: messages 1 and 2
    send('key-1', { n: 3 });
    await turn(); // a second group: message 3
    expect(calls.map((c) => c.bodies)).toEqual([[{ n: 1 }, { n: 2 }], [{ n: 3 }]]);
    calls[1]!.resolve([answer(3)]);
    await turn();
    expect(published).toEqual([]);
    calls[0]!.resolve([answer(1), answer(2)]);
    await vi.waitFor(() => expect(order()).toEqual([1, 2, 3]));
    expect(new Set(published.map((p) => p.topic))).toEqual(new Set(['smartdata/result/key-1']));
  });

  it('do not wait for another key', async () => {
    send('key-1', { n: 1 });
    send('key-2', { n: 2 });
    await turn();
    expect(calls).toHaveLength(2);
    calls[1]!.resolve([answer(2)]);
    await vi.waitFor(() => expect(order()).toEqual([2]));
    calls[0]!.resolve([answer(1)]);
    await vi.waitFor(() => expect(order()).toEqual([2, 1]));
  });

  it('answer a failed group with an internal error and keep the queue moving', async () => {
    send('key-1', { n: 1 });
    await turn();
    deliver('smartdata/submit/key-1', Buffer.from('{not json'));
    send('key-1', { n: 3 });
    await turn();
    calls[1]!.resolve([answer(3)]);
    calls[0]!.reject(new Error('database gone'));
    await vi.waitFor(() => expect(published).toHaveLength(3));
    const codes = published.map((p) => (JSON.parse(p.text) as { code: number }).code);
    expect(codes).toEqual([50000, 40000, 0]);
  });
});
