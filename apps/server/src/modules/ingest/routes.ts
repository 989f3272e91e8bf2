import { checkName } from '@platform/domain';
import { Type } from 'typebox';
import { caller, callerCompany } from '../../platform/auth';
import type { App } from '../../platform/context';
import { AppError, assertField, fieldError, ok } from '../../platform/envelope';
import { EmptyEnvelope, Envelope, Id } from '../../platform/schemas';
import { KEY_CODE } from './holder';
import { issueKey, listKeys, revokeKey } from './keys';
import { localizeRecordError } from './pipeline';
import { SUBMIT_LIMIT, submit } from './submit';

const KeyRow = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  kind: Type.String(),
  deviceId: Type.Union([Type.String(), Type.Null()]),
  prefix: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** 5,000 records of a dozen fields stay well under this */
const SUBMIT_BODY_LIMIT = 16 * 1024 * 1024;

/** Where devices reach the platform's broker: the embedded one's port, or an external broker's host and port (never its credentials). */
export function mqttEndpoint(app: App): { host: string | null; port: number; external: boolean } | null {
  if (!app.mqtt) return null;
  if (app.mqtt.port !== null) return { host: null, port: app.mqtt.port, external: false };
  if (!app.config.mqttUrl) return null;
  try {
    const url = new URL(app.config.mqttUrl);
    const tls = url.protocol === 'mqtts:' || url.protocol === 'wss:';
    return { host: url.hostname, port: Number(url.port) || (tls ? 8883 : 1883), external: true };
  } catch {
    return null;
  }
}

export default async function ingestRoutes(app: App): Promise<void> {
  app.get(
    '/smartdata/key/endpoints',
    {
      config: { permission: 'member' },
      schema: {
        tags: ['submission'],
        summary:
          'Where to submit: the HTTP path and the MQTT broker (host null: the platform host; port; external broker or the embedded one)',
        response: {
          200: Envelope(
            Type.Object({
              http: Type.String(),
              mqtt: Type.Union([
                Type.Object({
                  host: Type.Union([Type.String(), Type.Null()]),
                  port: Type.Integer(),
                  external: Type.Boolean(),
                }),
                Type.Null(),
              ]),
            }),
          ),
        },
      },
    },
    async () => ok({ http: '/general/smartdata/submit', mqtt: mqttEndpoint(app) }),
  );

  app.get(
    '/smartdata/key/list',
    {
      config: { permission: 'member' },
      schema: {
        tags: ['submission'],
        summary: "The caller's submission keys in the current company (the key itself is never shown again)",
        response: { 200: Envelope(Type.Array(KeyRow)) },
      },
    },
    async (request) => {
      const rows = await listKeys(app.db, callerCompany(request), caller(request).userId);
      return ok(
        rows.map((r) => ({
          ...r,
          createdAt: r.createdAt.toISOString(),
          lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
          revokedAt: r.revokedAt?.toISOString() ?? null,
        })),
      );
    },
  );

  app.post(
    '/smartdata/key/create',
    {
      // the data cabin's code: a key writes records, so creating one needs the page that does
      config: { permission: KEY_CODE },
      schema: {
        tags: ['submission'],
        summary:
          'Create a submission key (needs the data cabin code; the key writes only where its holder may write, checked at each submission); `key` is shown only in this answer',
        body: Type.Object({
          name: Type.String(),
          kind: Type.Union([Type.Literal('user'), Type.Literal('device')]),
          deviceId: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
        }),
        response: { 200: Envelope(Type.Object({ id: Type.Integer(), key: Type.String() })) },
      },
    },
    async (request) => {
      const name = request.body.name.trim();
      assertField('name', checkName(name));
      const deviceId = request.body.deviceId?.trim() || null;
      if (request.body.kind === 'device' && !deviceId) throw fieldError('deviceId', 'fieldRequired');
      const created = await issueKey(app, {
        companyId: callerCompany(request),
        userId: caller(request).userId,
        name,
        kind: request.body.kind,
        deviceId,
      });
      return ok(created, 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/key/revoke',
    {
      config: { permission: 'member' },
      schema: {
        tags: ['submission'],
        summary: 'Revoke one of your submission keys (HTTP and MQTT refuse it from now on)',
        body: Type.Object({ id: Id }),
        response: { 200: EmptyEnvelope },
      },
    },
    async (request) => {
      await revokeKey(app.db, callerCompany(request), caller(request).userId, request.body.id);
      return ok(null, 'operation', request.lang);
    },
  );

  app.post(
    '/smartdata/submit',
    {
      // authenticated by the submission key in the raw Authorization header, not a bearer token
      config: { permission: 'public' },
      bodyLimit: SUBMIT_BODY_LIMIT,
      schema: {
        tags: ['submission'],
        summary: `Submit one record or an array (at most ${SUBMIT_LIMIT}) with header \`Authorization: <key>\``,
        description:
          'Each record: `{"itemId": 12, "ts": "2026-11-23T08:00:00Z", "<field name or key>": value, …}`. ' +
          'All records are checked first; a bad one answers 40000 with data {index, itemId, field, message} and nothing is written.',
        security: [],
        body: Type.Unknown(),
        response: { 200: Envelope(Type.Object({ count: Type.Integer() })) },
      },
    },
    async (request) => {
      try {
        const result = await submit(app, request.headers.authorization, request.body, 'http');
        return ok(result, 'submitted', request.lang);
      } catch (error) {
        throw error instanceof AppError ? localizeRecordError(error, request.lang) : error;
      }
    },
  );
}
