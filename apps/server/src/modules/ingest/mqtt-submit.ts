/**
 * Submission over MQTT: a device publishes the same JSON as the HTTP body to
 * `smartdata/submit/<key>`; the server answers `{code, message, data}` on
 * `smartdata/result/<key>`. Topics carry keys: never log them.
 */
import type { App } from '../../platform/context';
import { AppError, errorEnvelope } from '../../platform/envelope';
import { submitEnvelope } from './submit';

export const SUBMIT_TOPIC = 'smartdata/submit/+';
const SUBMIT_PREFIX = 'smartdata/submit/';
export const RESULT_PREFIX = 'smartdata/result/';

export async function attachMqttSubmission(app: App): Promise<void> {
  const transport = app.mqtt;
  if (!transport) return;
  await transport.subscribe(SUBMIT_TOPIC, (topic, payload) => {
    const key = topic.slice(SUBMIT_PREFIX.length);
    void handle(app, key, payload);
  });
}

async function handle(app: App, key: string, payload: Buffer): Promise<void> {
  let envelope: unknown;
  let body: unknown;
  try {
    body = JSON.parse(payload.toString('utf8'));
  } catch {
    envelope = errorEnvelope(new AppError('validation', { field: 'body' }, { field: 'body' }), 'zh');
  }
  envelope ??= await submitEnvelope(app, key, body, 'mqtt', 'zh');
  try {
    await app.mqtt?.publish(`${RESULT_PREFIX}${key}`, JSON.stringify(envelope), 1);
  } catch (error) {
    app.log.warn({ err: error }, 'could not publish a submission result');
  }
}
