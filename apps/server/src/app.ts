/**
 * The server composed in one place: platform plugins (database, storage, SMS, auth guard,
 * envelope and errors, OpenAPI), then every module's routes under /general, then the web app.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import { IMAGE_MAX_BYTES } from '@platform/domain';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Config } from './config';
import { MODULES } from './modules';
import { AlarmService } from './modules/alarms/service';
import { FirmwareEngine } from './modules/firmware/engine';
import { ensureBuiltinTemplates } from './modules/flowcharts/service';
import { GatewayHub } from './modules/gateways/hub';
import { markAllOffline } from './modules/gateways/presence';
import { gatewayPrincipals } from './modules/gateways/principal';
import { attachMqttSubmission, submissionKeyPrincipals } from './modules/ingest/mqtt-submit';
import { IngestPipeline } from './modules/ingest/pipeline';
import { PacketUses } from './modules/packets/uses';
import { moveRecordFilesToPrivate } from './modules/records/stored-files';
import { createCarriers } from './modules/sims/carrier';
import { linkSimsToGateways } from './modules/sims/gateway-link';
import { AccessWatch } from './platform/access-watch';
import { authPlugin } from './platform/auth';
import type { App } from './platform/context';
import type { Db } from './platform/db';
import { AppError, errorEnvelope, httpStatusFor } from './platform/envelope';
import { FileLinks, loadFileLinkSecret } from './platform/file-links';
import { LiveBus } from './platform/live';
import { startLiveRelay } from './platform/live-relay';
import { startMqtt } from './platform/mqtt';
import { MqttPrincipals } from './platform/mqtt-principals';
import { MqttStats } from './platform/mqtt-stats';
import { LogSmsProvider, type SmsProvider } from './platform/sms';
import { LocalStorage, type Storage } from './platform/storage';
import {
  frameworkErrors,
  isTruncatedForm,
  schemaController,
  screenRequest,
  validationToAppError,
} from './platform/validation';
import { serveWebApp } from './platform/web-app';

export const API_PREFIX = '/general';

export interface AppDeps {
  config: Config;
  db: Db;
  sms?: SmsProvider;
  storage?: Storage;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(deps: AppDeps): Promise<App> {
  const { config, db } = deps;
  const app = Fastify({
    logger: deps.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'body.password'],
      // the live socket's upgrade carries the login token in its query: never log it
      serializers: {
        req: (req: { method: string; url: string; host?: string; ip?: string }) => ({
          method: req.method,
          url: req.url.replace(/([?&]token=)[^&]*/g, '$1***'),
          host: req.host,
          remoteAddress: req.ip,
        }),
      },
    },
    // X-Forwarded-For is believed only from the proxies TRUST_PROXY names
    trustProxy: config.trustProxy,
    // bodies are checked exactly, query strings and path parameters with coercion (platform/validation.ts)
    schemaController: schemaController(),
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('sms', deps.sms ?? new LogSmsProvider(app.log));
  app.decorate('storage', deps.storage ?? new LocalStorage(path.join(config.dataDir, 'files')));
  app.decorate('fileLinks', new FileLinks(await loadFileLinkSecret(config.dataDir, config.fileLinkSecret)));
  if (config.databaseUrl && !config.fileLinkSecret) {
    app.log.warn(
      'FILE_LINK_SECRET is not set: links to record files are signed with this data folder’s own secret, which other nodes do not share',
    );
  }
  app.decorate('accessWatch', new AccessWatch(db, app.log));
  const live = new LiveBus();
  app.decorate('live', live);
  app.decorate('ingest', new IngestPipeline(db, app.log, live));
  const alarmService = new AlarmService(db, app.log, live);
  alarmService.attach(app.ingest);
  app.decorate('alarms', alarmService);
  app.decorate('mqttPrincipals', new MqttPrincipals());
  app.decorate('demoDevices', { fleet: null });
  app.decorate('packetUses', new PacketUses());
  app.decorate('simCarriers', createCarriers(config.simCarrierAdapter));
  const mqttStats = new MqttStats(app.log);
  // nobody is connected to an embedded broker that has not started yet
  if (!config.mqttUrl && config.mqttPort !== null) await markAllOffline(db);
  const mqtt =
    config.mqttUrl || config.mqttPort !== null
      ? await startMqtt({
          url: config.mqttUrl,
          port: config.mqttPort ?? 0,
          host: config.host,
          shareGroup: config.mqttShareGroup,
          brokerAuth: config.mqttBrokerAuth,
          insecureBroker: config.mqttInsecureBroker,
          limits: {
            maxPacketBytes: config.mqttMaxPacketBytes,
            clientInflight: config.mqttClientInflight,
            // a client also stops being read with a few of the largest packets unanswered
            clientBytes: 4 * config.mqttMaxPacketBytes,
            pendingBytes: config.mqttPendingBytes,
          },
          connectFailLimit: config.mqttConnectFailLimit,
          principals: app.mqttPrincipals,
          accessWatch: app.accessWatch,
          stats: mqttStats,
          log: app.log,
        })
      : null;
  app.decorate('mqtt', mqtt);
  // several nodes share an external broker: live events reach the sockets of every node
  const liveRelay = mqtt?.kind === 'external' ? await startLiveRelay(live, mqtt, app.log) : null;
  app.decorate('liveRelay', liveRelay);
  app.decorate('gateways', new GatewayHub(app as unknown as App));
  // firmware upgrades (modules/firmware): its routes attach it to the gateway messages
  app.decorate('firmware', new FirmwareEngine(app as unknown as App));
  if (mqtt) mqttStats.startLogging(config.mqttStatsIntervalS * 1000);
  app.addHook('onClose', async () => {
    // stop taking submissions first, then let the writes in flight commit
    mqttStats.stop();
    liveRelay?.stop();
    await app.mqtt?.close();
    await app.ingest.idle();
    app.ingest.close();
    await app.gateways.flushLastSeen();
    app.accessWatch.close();
  });

  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: IMAGE_MAX_BYTES + 1, files: 1 } });
  await app.register(rateLimit, { global: false });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Smart Data Platform API', version: '0.1.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: `${API_PREFIX}/docs` });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(authPlugin, { db, prefix: API_PREFIX });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(httpStatusFor(error.code)).send(errorEnvelope(error, request.lang));
    }
    const err = error as { validation?: unknown; statusCode?: number; code?: string };
    if (err.validation) {
      const appError = validationToAppError(error as Parameters<typeof validationToAppError>[0]);
      return reply.status(400).send(errorEnvelope(appError, request.lang));
    }
    if (err.statusCode === 429) {
      return reply.status(429).send(errorEnvelope(new AppError('rateLimited'), request.lang));
    }
    // an upload's file over its limit: the image routes' message (spec point 5)
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') {
      return reply.status(400).send(errorEnvelope(new AppError('imageTooLarge'), request.lang));
    }
    if (isTruncatedForm(error, request)) {
      const field = { field: 'request' };
      return reply.status(400).send(errorEnvelope(new AppError('validation', field, field), request.lang));
    }
    if (err.statusCode === 413) {
      return reply.status(413).send(errorEnvelope(new AppError('requestTooLarge'), request.lang));
    }
    if (err.statusCode && err.statusCode < 500) {
      const field = err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' ? 'content-type' : 'request';
      return reply
        .status(err.statusCode)
        .send(errorEnvelope(new AppError('validation', { field }, { field }), request.lang));
    }
    request.log.error(error);
    return reply.status(500).send(errorEnvelope(new AppError('internal'), request.lang));
  });

  // one check of every string a request carries (and of multipart framing), before any route's schema or handler
  app.addHook('preValidation', screenRequest);

  await app.register(
    async (api) => {
      for (const register of MODULES) await api.register(register);
    },
    { prefix: API_PREFIX },
  );
  // who may use MQTT: asked by the embedded broker, an external broker's HTTP hooks, and the
  // accounts the server keeps on Mosquitto
  app.mqttPrincipals.register(submissionKeyPrincipals(app as unknown as App));
  app.mqttPrincipals.register(gatewayPrincipals(app as unknown as App));
  if (app.mqtt) await attachMqttSubmission(app as unknown as App);
  // SIM cards follow the gateways that report them
  linkSimsToGateways(app as unknown as App);
  // every module has registered its gateway message handlers by now
  await app.gateways.attach();
  // the platform's device-family templates (flow charts), put in once by code
  await ensureBuiltinTemplates(db);
  // record files left in the public bucket by earlier versions become private before serving
  app.addHook('onReady', async () => {
    await moveRecordFilesToPrivate(db, app.storage, app.log);
  });

  const webDist = config.webDist;
  if (existsSync(path.join(webDist, 'index.html'))) {
    await serveWebApp(app, webDist);
  }
  app.setNotFoundHandler((request, reply) => {
    if (
      request.url.startsWith(API_PREFIX) ||
      request.method !== 'GET' ||
      !existsSync(path.join(webDist, 'index.html'))
    ) {
      return reply.status(404).send(errorEnvelope(new AppError('routeNotFound'), request.lang));
    }
    // the single-page app owns every other path (its router sends unknown ones to /404)
    return reply.type('text/html').sendFile('index.html');
  });

  return app as unknown as App;
}
