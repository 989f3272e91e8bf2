import { Type } from 'typebox';
import type { App } from '../../platform/context';
import { ok } from '../../platform/envelope';
import { Envelope } from '../../platform/schemas';
import { authenticateClient, authorizeClient, type HookAnswer, hookCaller } from './service';

const Text = Type.Optional(Type.String({ maxLength: 4096 }));

const HookAnswerSchema = Type.Object({
  result: Type.Union([Type.Literal('allow'), Type.Literal('deny')]),
  is_superuser: Type.Optional(Type.Boolean()),
});

const Counters = Type.Object({
  received: Type.Integer(),
  answeredOk: Type.Integer(),
  refused: Type.Integer(),
  dropped: Type.Integer(),
  connectionsRefused: Type.Integer(),
  disconnectedRevoked: Type.Integer(),
  publishesRefused: Type.Integer(),
  subscriptionsRefused: Type.Integer(),
  packetsTooLarge: Type.Integer(),
  connectionsThrottled: Type.Integer(),
  gatewayReceived: Type.Integer(),
  gatewayHandled: Type.Integer(),
  gatewayDropped: Type.Integer(),
  gatewayFailed: Type.Integer(),
});

export default async function mqttRoutes(app: App): Promise<void> {
  app.get(
    '/mqtt/stats',
    {
      config: { permission: 'system_maintenance' },
      schema: {
        tags: ['mqtt'],
        summary:
          "This server node's MQTT counters since it started: submissions received, answered OK, refused, dropped (QoS 0 under overload), connections refused…",
        response: {
          200: Envelope(
            Type.Union([
              Type.Object({
                broker: Type.Union([Type.Literal('embedded'), Type.Literal('external')]),
                since: Type.String({ format: 'date-time' }),
                counters: Counters,
                pending: Type.Object({ messages: Type.Integer(), bytes: Type.Integer() }),
              }),
              Type.Null(),
            ]),
          ),
        },
      },
    },
    async () => {
      const mqtt = app.mqtt;
      if (!mqtt) return ok(null);
      return ok({
        broker: mqtt.kind,
        since: mqtt.stats.since.toISOString(),
        counters: { ...mqtt.stats.counters },
        pending: { ...mqtt.stats.pending },
      });
    },
  );

  let lastWarning = 0;
  const hook = async (
    authorization: string | undefined,
    answer: () => Promise<HookAnswer>,
  ): Promise<HookAnswer> => {
    if (!hookCaller(app, authorization)) {
      // at most once a minute: a caller without the secret must not fill the log
      if (Date.now() - lastWarning > 60_000) {
        lastWarning = Date.now();
        app.log.warn('MQTT hook called without the right secret (MQTT_HOOK_SECRET): denied');
      }
      return { result: 'deny' };
    }
    return answer();
  };

  app.post(
    '/mqtt/auth',
    {
      // called by the MQTT broker (EMQX HTTP authentication) with the shared secret, not a login
      config: { permission: 'public' },
      schema: {
        tags: ['mqtt'],
        summary:
          'Broker hook (EMQX HTTP authentication): may a client connect with this username and password? Needs `Authorization: Bearer <MQTT_HOOK_SECRET>`',
        security: [],
        body: Type.Object({ username: Text, password: Text, clientid: Text }),
        response: { 200: HookAnswerSchema },
      },
    },
    async (request) => hook(request.headers.authorization, () => authenticateClient(app, request.body)),
  );

  app.post(
    '/mqtt/acl',
    {
      config: { permission: 'public' },
      schema: {
        tags: ['mqtt'],
        summary:
          'Broker hook (EMQX HTTP authorisation): may this client publish to or subscribe to this topic? Needs `Authorization: Bearer <MQTT_HOOK_SECRET>`',
        security: [],
        body: Type.Object({ username: Text, topic: Text, action: Text, clientid: Text }),
        response: { 200: HookAnswerSchema },
      },
    },
    async (request) => hook(request.headers.authorization, () => authorizeClient(app, request.body)),
  );
}
