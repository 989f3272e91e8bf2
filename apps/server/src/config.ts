import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CarrierMode, carrierMode } from './modules/sims/carrier';

export const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_ROOT = path.resolve(SERVER_ROOT, '../..');

export interface Config {
  host: string;
  port: number;
  /** embedded default: PGlite files and uploads live here */
  dataDir: string;
  /** production: PostgreSQL; when unset the embedded PGlite is used */
  databaseUrl?: string;
  tokenTtlHours: number;
  /** seed the demo company and users on first start (embedded default: yes) */
  seedDemo: boolean;
  /** the language the demo company is seeded in (DEMO_LANG: zh, the default, or en) */
  demoLang: DemoLang;
  /** production: the first administrator, created on first start when both are set */
  adminPhone?: string;
  adminPassword?: string;
  /** built web app to serve; absent folder = API only */
  webDist: string;
  /** the top-bar expiry notice shows when the service ends within this many days */
  expiryNoticeDays: number;
  logLevel: string;
  /** login attempts per minute per client address */
  loginRateLimit: number;
  /**
   * Fastify's trustProxy: the proxies whose X-Forwarded-For (and -Host, -Proto) is believed,
   * as addresses and CIDRs; false = none, the client address is the socket's.
   */
  trustProxy: false | string[];
  /** the messaging-app stand-in of the scan-code login (default: on only in the embedded default) */
  scanStandIn: boolean;
  /** the messaging app's real QR login (WeChat Open Platform website login), when configured */
  wechatLogin?: WechatLoginConfig;
  /** public origin used in scan-code QR links; defaults to the request's origin */
  publicUrl?: string;
  /** external MQTT broker; when unset the embedded aedes broker runs */
  mqttUrl?: string;
  /** embedded broker port (0 = ephemeral); null = no MQTT at all (MQTT_PORT=off) */
  mqttPort: number | null;
  /** shared-subscription group of the server nodes on an external broker ('' = none) */
  mqttShareGroup: string;
  /** how the external broker authenticates clients: the server's dynsec accounts, or HTTP hooks */
  mqttBrokerAuth: 'dynsec' | 'http';
  /** start even if the external broker lets anonymous clients in (throwaway test brokers only) */
  mqttInsecureBroker: boolean;
  /** shared secret the broker's HTTP hooks send (Authorization: Bearer …); unset = hooks deny */
  mqttHookSecret?: string;
  /** largest MQTT packet accepted by the embedded broker, in bytes */
  mqttMaxPacketBytes: number;
  /** submissions a client may have unanswered before its socket stops being read */
  mqttClientInflight: number;
  /** pending submission bytes of all clients beyond which QoS 1 is refused at once and QoS 0 dropped */
  mqttPendingBytes: number;
  /** seconds between MQTT counter log lines (0 = none) */
  mqttStatsIntervalS: number;
  /** failed CONNECTs per client address per minute before the embedded broker shuts it out (0 = off) */
  mqttConnectFailLimit: number;
  /** seconds a bind request waits for the button on the gateway (the protocol's 120) */
  bindRequestTtlS: number;
  /** run the demo company's simulated gateway fleet (DEMO_GATEWAYS; on in the embedded default) */
  demoGateways: boolean;
  /**
   * PGLITE_SETTINGS: PostgreSQL settings of the embedded database (`name=value,name=value`),
   * instead of the memory-bounding defaults of platform/db.ts; unset keeps those
   */
  pgliteSettings?: string[];
  /**
   * secret of the signed links to record files (at least 32 characters, the same on every
   * node); when unset, one is generated in <dataDir>/secrets/file-links.key on first start
   */
  fileLinkSecret?: string;
  /**
   * seconds a gateway waits for the commit of an applied configuration before going back to its
   * previous one (the protocol's confirmWithin); also how long the platform waits for its answer
   */
  configConfirmWithinS: number;
  /** where SIM card states and usage come from: the simulated carrier, or none (docs/sim-cards.md) */
  simCarrierAdapter: CarrierMode;
  /** minutes between carrier syncs of every SIM card (0 = no scheduled sync) */
  simSyncMinutes: number;
  /** seconds between data-update (no-data) checks: one check per period across all nodes (0 = none) */
  dataUpdateCheckS: number;
  /**
   * How long a minute of a data-update window lasts (ms): 60,000. DATA_UPDATE_MINUTE_MS
   * shortens it for tests only (NODE_ENV=test), so a 30-minute window passes in seconds.
   */
  dataUpdateMinuteMs: number;
  /** the firmware upgrade's timeouts, in seconds (docs/firmware.md): ack, progress, total */
  firmwareAckTimeoutS: number;
  firmwareProgressTimeoutS: number;
  firmwareTotalTimeoutS: number;
  /** upgrades the gateways hold at once across the platform; the rest wait queued */
  firmwareMaxDispatch: number;
  /** largest firmware image accepted, in bytes */
  firmwareMaxBytes: number;
}

export interface WechatLoginConfig {
  appId: string;
  appSecret: string;
  /** where the QR page lives (https://open.weixin.qq.com) */
  openUrl: string;
  /** where codes are exchanged (https://api.weixin.qq.com) */
  apiUrl: string;
}

/**
 * TRUST_PROXY: unset or empty trusts nobody; otherwise a comma-separated list of the proxies'
 * addresses or CIDRs (or proxy-addr's names loopback, linklocal, uniquelocal). "true", "*"
 * and hop counts are refused: they would believe whatever address a client writes.
 */
export function parseTrustProxy(value: string | undefined): false | string[] {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true' || text === '*' || /^\d+$/.test(text)) {
    throw new Error(
      'TRUST_PROXY lists the addresses of the proxies in front of the server (e.g. 10.0.0.5 or 10.0.0.0/8): trusting any hop would let every client choose its address',
    );
  }
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value == null || value === '') return fallback;
  return ['on', 'true', '1', 'yes'].includes(value.trim().toLowerCase());
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a whole number, not "${value}"`);
  return n;
}

/** DATA_UPDATE_MINUTE_MS: tests only (NODE_ENV=test); refused anywhere else, never silently ignored. */
function dataUpdateMinuteMs(env: NodeJS.ProcessEnv): number {
  const value = env.DATA_UPDATE_MINUTE_MS;
  if (value === undefined || value === '') return 60_000;
  if (env.NODE_ENV !== 'test') throw new Error('DATA_UPDATE_MINUTE_MS is for tests only (NODE_ENV=test)');
  const n = positive(value, 60_000, 'DATA_UPDATE_MINUTE_MS');
  if (n < 1) throw new Error('DATA_UPDATE_MINUTE_MS must be at least 1');
  return n;
}

/** the languages the demo company can be seeded in */
export type DemoLang = 'zh' | 'en';

/** DEMO_LANG: zh (default) or en; anything else is refused naming the variable. */
export function demoLang(value: string | undefined): DemoLang {
  const v = (value ?? '').trim().toLowerCase();
  if (v === '') return 'zh';
  if (v === 'zh' || v === 'en') return v;
  throw new Error(`DEMO_LANG must be zh or en, not "${value}"`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || undefined;
  if (Boolean(env.WECHAT_APP_ID) !== Boolean(env.WECHAT_APP_SECRET)) {
    throw new Error('WECHAT_APP_ID and WECHAT_APP_SECRET are set together, or neither');
  }
  return {
    host: env.HOST ?? '127.0.0.1',
    port: Number(env.PORT ?? 8080),
    dataDir: path.resolve(env.DATA_DIR ?? path.join(REPO_ROOT, 'data')),
    databaseUrl,
    tokenTtlHours: Number(env.TOKEN_TTL_HOURS ?? 24 * 7),
    seedDemo: env.SEED_DEMO ? env.SEED_DEMO === 'true' : !databaseUrl,
    demoLang: demoLang(env.DEMO_LANG),
    adminPhone: env.ADMIN_PHONE || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    webDist: path.resolve(env.WEB_DIST ?? path.join(REPO_ROOT, 'apps/web/dist')),
    expiryNoticeDays: Number(env.EXPIRY_NOTICE_DAYS ?? 30),
    logLevel: env.LOG_LEVEL ?? 'info',
    loginRateLimit: Number(env.LOGIN_RATE_LIMIT ?? 10),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    // production mode (DATABASE_URL) keeps the stand-in off unless it is asked for
    scanStandIn: flag(env.SCAN_STANDIN, !databaseUrl),
    wechatLogin:
      env.WECHAT_APP_ID && env.WECHAT_APP_SECRET
        ? {
            appId: env.WECHAT_APP_ID,
            appSecret: env.WECHAT_APP_SECRET,
            openUrl: (env.WECHAT_OPEN_URL || 'https://open.weixin.qq.com').replace(/\/+$/, ''),
            apiUrl: (env.WECHAT_API_URL || 'https://api.weixin.qq.com').replace(/\/+$/, ''),
          }
        : undefined,
    publicUrl: env.PUBLIC_URL || undefined,
    mqttUrl: env.MQTT_URL || undefined,
    mqttPort: env.MQTT_PORT === 'off' ? null : Number(env.MQTT_PORT ?? 1883),
    mqttShareGroup: env.MQTT_SHARE_GROUP ?? 'smartdata-ingest',
    mqttBrokerAuth: mqttBrokerAuth(env.MQTT_BROKER_AUTH),
    mqttInsecureBroker: env.MQTT_INSECURE_BROKER === 'true',
    mqttHookSecret: env.MQTT_HOOK_SECRET || undefined,
    mqttMaxPacketBytes:
      positive(env.MQTT_MAX_PACKET_BYTES, 1024 * 1024, 'MQTT_MAX_PACKET_BYTES') || 1024 * 1024,
    mqttClientInflight: positive(env.MQTT_CLIENT_INFLIGHT, 1000, 'MQTT_CLIENT_INFLIGHT') || 1000,
    mqttPendingBytes: positive(env.MQTT_PENDING_BYTES, 64 * 1024 * 1024, 'MQTT_PENDING_BYTES'),
    mqttStatsIntervalS: positive(env.MQTT_STATS_INTERVAL_S, 60, 'MQTT_STATS_INTERVAL_S'),
    mqttConnectFailLimit: positive(env.MQTT_CONNECT_FAIL_LIMIT, 30, 'MQTT_CONNECT_FAIL_LIMIT'),
    bindRequestTtlS: positive(env.BIND_REQUEST_TTL_S, 120, 'BIND_REQUEST_TTL_S') || 120,
    demoGateways: flag(env.DEMO_GATEWAYS, !databaseUrl),
    pgliteSettings: pgliteSettings(env.PGLITE_SETTINGS),
    fileLinkSecret: env.FILE_LINK_SECRET || undefined,
    configConfirmWithinS: Math.min(
      3600,
      positive(env.CONFIG_CONFIRM_WITHIN_S, 60, 'CONFIG_CONFIRM_WITHIN_S') || 60,
    ),
    simCarrierAdapter: carrierMode(env.SIM_CARRIER_ADAPTER, Boolean(databaseUrl)),
    simSyncMinutes: positive(env.SIM_SYNC_MINUTES, 240, 'SIM_SYNC_MINUTES'),
    dataUpdateCheckS: positive(env.DATA_UPDATE_CHECK_S, 60, 'DATA_UPDATE_CHECK_S'),
    dataUpdateMinuteMs: dataUpdateMinuteMs(env),
    firmwareAckTimeoutS: positive(env.FIRMWARE_ACK_TIMEOUT_S, 30, 'FIRMWARE_ACK_TIMEOUT_S') || 30,
    firmwareProgressTimeoutS:
      positive(env.FIRMWARE_PROGRESS_TIMEOUT_S, 60, 'FIRMWARE_PROGRESS_TIMEOUT_S') || 60,
    firmwareTotalTimeoutS: positive(env.FIRMWARE_TOTAL_TIMEOUT_S, 300, 'FIRMWARE_TOTAL_TIMEOUT_S') || 300,
    firmwareMaxDispatch: positive(env.FIRMWARE_MAX_DISPATCH, 50, 'FIRMWARE_MAX_DISPATCH') || 50,
    firmwareMaxBytes:
      positive(env.FIRMWARE_MAX_BYTES, 64 * 1024 * 1024, 'FIRMWARE_MAX_BYTES') || 64 * 1024 * 1024,
  };
}

/** PGLITE_SETTINGS: `name=value` pairs separated by commas; empty = PGlite's own defaults. */
export function pgliteSettings(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const settings = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const setting of settings) {
    if (!/^[a-z_]+=[A-Za-z0-9_.]+$/.test(setting))
      throw new Error(`PGLITE_SETTINGS must be name=value pairs separated by commas, not "${setting}"`);
  }
  return settings;
}

function mqttBrokerAuth(value: string | undefined): 'dynsec' | 'http' {
  if (!value || value === 'dynsec') return 'dynsec';
  if (value === 'http') return 'http';
  throw new Error(`MQTT_BROKER_AUTH must be dynsec or http, not "${value}"`);
}
