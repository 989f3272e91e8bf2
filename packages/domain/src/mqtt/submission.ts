/**
 * Submission over MQTT: a client authenticates with a submission key (username
 * `key-<id>`, the key's public name; password: the key itself), publishes to
 * `smartdata/submit/<username>` and reads the answers on `smartdata/result/<username>`.
 * The key never appears in a topic: topic names are visible to brokers' logs and tools.
 */
import type { TopicAcl } from './topics';

export const SUBMIT_TOPIC_PREFIX = 'smartdata/submit/';
export const RESULT_TOPIC_PREFIX = 'smartdata/result/';
/** what the server subscribes to (every client's submissions) */
export const SUBMIT_TOPIC_FILTER = `${SUBMIT_TOPIC_PREFIX}+`;

const KEY_USERNAME = /^key-([1-9]\d{0,9})$/;

/** The MQTT username of submission key `id`: public, never part of the secret. */
export function keyMqttUsername(id: number): string {
  return `key-${id}`;
}

/** The key id of an MQTT username, or null when it is not a key's. */
export function keyIdOfMqttUsername(username: string): number | null {
  const match = KEY_USERNAME.exec(username);
  if (!match) return null;
  const id = Number(match[1]);
  return id <= 2 ** 31 - 1 ? id : null;
}

export function submitTopic(username: string): string {
  return `${SUBMIT_TOPIC_PREFIX}${username}`;
}

export function resultTopic(username: string): string {
  return `${RESULT_TOPIC_PREFIX}${username}`;
}

/** A key client publishes to its own submission topic and reads its own answers, nothing else. */
export function submissionAcl(username: string): TopicAcl {
  return { publish: [submitTopic(username)], subscribe: [resultTopic(username)] };
}
