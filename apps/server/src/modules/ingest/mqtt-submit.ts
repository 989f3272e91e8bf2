/**
 * Submission over MQTT: a device publishes the same JSON as the HTTP body to
 * `smartdata/submit/<key>`; the server answers `{code, message, data}` on
 * `smartdata/result/<key>`, one answer per message, in the order the messages came.
 * Topics carry keys: never log them.
 *
 * Messages of one key that arrive in the same turn of the event loop are submitted together
 * (`submitEach`): one key lookup, one access read, one commit, each message still checked and
 * answered on its own.
 */
import type { App } from '../../platform/context';
import { AppError, type Envelope, errorEnvelope } from '../../platform/envelope';
import { submitEach } from './submit';

export const SUBMIT_TOPIC = 'smartdata/submit/+';
const SUBMIT_PREFIX = 'smartdata/submit/';
export const RESULT_PREFIX = 'smartdata/result/';

export async function attachMqttSubmission(app: App): Promise<void> {
  const transport = app.mqtt;
  if (!transport) return;
  let waiting = new Map<string, Buffer[]>();
  const answering = new Map<string, Promise<void>>();
  const submitWaiting = () => {
    const byKey = waiting;
    waiting = new Map();
    for (const [key, payloads] of byKey) void handle(app, key, payloads, answering);
  };
  await transport.subscribe(SUBMIT_TOPIC, (topic, payload) => {
    const key = topic.slice(SUBMIT_PREFIX.length);
    if (waiting.size === 0) setImmediate(submitWaiting);
    const list = waiting.get(key);
    if (list) list.push(payload);
    else waiting.set(key, [payload]);
  });
}

async function handle(
  app: App,
  key: string,
  payloads: Buffer[],
  answering: Map<string, Promise<void>>,
): Promise<void> {
  // answers of a key leave in the order its messages came, even when a later group finishes
  // first: each group takes its place in the key's queue now, in arrival order (before any
  // await), and hands its answers to the transport once the group before it has (the
  // transport keeps the order of its calls; nobody waits for a broker's acknowledgement)
  const previous = answering.get(key);
  let handedOver!: () => void;
  const mine = new Promise<void>((resolve) => {
    handedOver = resolve;
  });
  answering.set(key, mine);
  let published: Array<Promise<void> | undefined> = [];
  try {
    const texts = await answersTo(app, key, payloads);
    await previous;
    published = texts.map((text) => app.mqtt?.publish(`${RESULT_PREFIX}${key}`, text, 1));
  } finally {
    handedOver();
    if (answering.get(key) === mine) answering.delete(key);
  }
  for (const outcome of await Promise.allSettled(published)) {
    if (outcome.status === 'rejected')
      app.log.warn({ err: outcome.reason }, 'could not publish a submission result');
  }
}

/** The answer to each payload, in their order (JSON text). */
async function answersTo(app: App, key: string, payloads: Buffer[]): Promise<string[]> {
  const answers: Array<Envelope | null> = [];
  const bodies: unknown[] = [];
  for (const payload of payloads) {
    try {
      bodies.push(JSON.parse(payload.toString('utf8')));
      answers.push(null);
    } catch {
      answers.push(errorEnvelope(new AppError('validation', { field: 'body' }, { field: 'body' }), 'zh'));
    }
  }
  let submitted: Envelope[];
  try {
    submitted = bodies.length > 0 ? await submitEach(app, key, bodies, 'mqtt', 'zh') : [];
  } catch (error) {
    app.log.error({ err: error }, 'MQTT submission failed');
    submitted = bodies.map(() => errorEnvelope(new AppError('internal'), 'zh'));
  }
  let next = 0;
  return answers.map((answer) => JSON.stringify(answer ?? submitted[next++]));
}
