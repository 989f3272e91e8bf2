/**
 * Submission over MQTT. A client authenticated with a submission key (username `key-<id>`,
 * password the key; the broker checks both, platform/mqtt-principals.ts) publishes the same
 * JSON as the HTTP body to `smartdata/submit/<username>`; the server answers
 * `{code, message, data}` on `smartdata/result/<username>`, one answer per message, in the
 * order the messages came. The broker lets only that key's clients publish and read there, so
 * the topic names the key; the key itself is checked again (revoked? user disabled?) for
 * every group of messages.
 *
 * Every message is accounted for (platform/mqtt-stats.ts): answered OK, refused with an
 * answer, or, at QoS 0 while the server is over its pending budget, dropped and counted. At
 * QoS 1 under overload the answer is a refusal at once ("busy, send again").
 *
 * Messages of one key that arrive in the same turn of the event loop are submitted together
 * (`submitEach`): one key lookup, one access read, one commit, each message still checked and
 * answered on its own.
 */
import {
  ERROR_CODES,
  isTopicLevel,
  keyIdOfMqttUsername,
  keyMqttUsername,
  resultTopic,
  SUBMIT_TOPIC_FILTER,
  SUBMIT_TOPIC_PREFIX,
  submissionAcl,
} from '@platform/domain';
import type { App } from '../../platform/context';
import { AppError, type Envelope, errorEnvelope } from '../../platform/envelope';
import type { MqttInbound } from '../../platform/mqtt';
import type { MqttPrincipal, PrincipalKind } from '../../platform/mqtt-principals';
import { allowedKeyIds, keyStates, resolveKey, resolveKeyId } from './keys';
import { submitEach } from './submit';

interface Waiting {
  payload: Buffer;
  /** answered "busy" without being read */
  busy: boolean;
  answered: () => void;
}

/** Submission keys as MQTT clients: username `key-<id>`, password the key. */
export function submissionKeyPrincipals(app: App): PrincipalKind {
  const principal = (username: string): MqttPrincipal => ({
    kind: 'key',
    username,
    acl: submissionAcl(username),
  });
  return {
    kind: 'key',
    owns: (username) => keyIdOfMqttUsername(username) !== null,
    async authenticate(username, password) {
      try {
        const holder = await resolveKey(app.db, password);
        return keyMqttUsername(holder.id) === username ? principal(username) : null;
      } catch (error) {
        if (error instanceof AppError) return null;
        throw error;
      }
    },
    async current(username) {
      const id = keyIdOfMqttUsername(username);
      if (id === null) return null;
      const states = await keyStates(app.db, [id]);
      return states.get(id) === 'allowed' ? principal(username) : null;
    },
    async states(usernames) {
      const ids = usernames.map(keyIdOfMqttUsername).filter((id): id is number => id !== null);
      const byId = await keyStates(app.db, ids);
      return new Map(usernames.map((u) => [u, byId.get(keyIdOfMqttUsername(u) ?? 0) ?? 'gone']));
    },
    async allowedUsernames() {
      return (await allowedKeyIds(app.db)).map(keyMqttUsername);
    },
  };
}

export async function attachMqttSubmission(app: App): Promise<void> {
  const transport = app.mqtt;
  if (!transport) return;
  const stats = transport.stats;
  let waiting = new Map<string, Waiting[]>();
  const answering = new Map<string, Promise<void>>();
  const submitWaiting = () => {
    const byUser = waiting;
    waiting = new Map();
    for (const [username, messages] of byUser) void handle(app, username, messages, answering);
  };
  await transport.subscribe(SUBMIT_TOPIC_FILTER, (message: MqttInbound) => {
    stats.add('received');
    if (message.overloaded && message.qos === 0) {
      stats.drop();
      return Promise.resolve();
    }
    const username = message.topic.slice(SUBMIT_TOPIC_PREFIX.length);
    return new Promise<void>((answered) => {
      if (waiting.size === 0) setImmediate(submitWaiting);
      const entry = { payload: message.payload, busy: message.overloaded, answered };
      const list = waiting.get(username);
      if (list) list.push(entry);
      else waiting.set(username, [entry]);
    });
  });
}

async function handle(
  app: App,
  username: string,
  messages: Waiting[],
  answering: Map<string, Promise<void>>,
): Promise<void> {
  const stats = app.mqtt!.stats;
  // answers of a key leave in the order its messages came, even when a later group finishes
  // first: each group takes its place in the key's queue now, in arrival order (before any
  // await), and hands its answers to the transport once the group before it has (the
  // transport keeps the order of its calls)
  const previous = answering.get(username);
  let handedOver!: () => void;
  const mine = new Promise<void>((resolve) => {
    handedOver = resolve;
  });
  answering.set(username, mine);
  let published: Array<Promise<void> | undefined> = [];
  try {
    const answers = await answersTo(app, username, messages);
    await previous;
    for (const answer of answers) stats.add(answer.code === ERROR_CODES.OK ? 'answeredOk' : 'refused');
    // a username that cannot be a topic level has nowhere to be answered (the broker's ACL
    // lets no client publish there); it is counted as refused
    if (isTopicLevel(username))
      published = answers.map((answer) =>
        app.mqtt?.publish(resultTopic(username), JSON.stringify(answer), 1),
      );
  } finally {
    handedOver();
    if (answering.get(username) === mine) answering.delete(username);
  }
  const outcomes = await Promise.allSettled(published);
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected')
      app.log.warn({ err: outcome.reason }, 'could not publish a submission result');
  }
  for (const message of messages) message.answered();
}

/** The answer to each message, in their order. */
async function answersTo(app: App, username: string, messages: Waiting[]): Promise<Envelope[]> {
  const answers: Array<Envelope | null> = [];
  const bodies: unknown[] = [];
  for (const message of messages) {
    if (message.busy) {
      answers.push(errorEnvelope(new AppError('submitBusy'), 'zh'));
      continue;
    }
    try {
      bodies.push(JSON.parse(message.payload.toString('utf8')));
      answers.push(null);
    } catch {
      answers.push(errorEnvelope(new AppError('validation', { field: 'body' }, { field: 'body' }), 'zh'));
    }
  }
  const keyId = keyIdOfMqttUsername(username);
  let submitted: Envelope[];
  try {
    if (bodies.length === 0) submitted = [];
    else if (keyId === null)
      submitted = bodies.map(() => errorEnvelope(new AppError('submitKeyInvalid'), 'zh'));
    else submitted = await submitEach(app, () => resolveKeyId(app.db, keyId), bodies, 'mqtt', 'zh');
  } catch (error) {
    app.log.error({ err: error }, 'MQTT submission failed');
    submitted = bodies.map(() => errorEnvelope(new AppError('internal'), 'zh'));
  }
  let next = 0;
  return answers.map((answer) => answer ?? submitted[next++]!);
}
