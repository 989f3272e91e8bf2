/**
 * Test harness: the real app on a fresh database per call, plus fixtures for two companies
 * with an administrator and a limited user each, logged in through the real login route.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyServerOptions } from 'fastify';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { addActiveMember, createCompany } from '../modules/companies/service';
import { createUser } from '../modules/users/service';
import type { App } from '../platform/context';
import { type Database, openDatabase } from '../platform/db';
import { LogSmsProvider } from '../platform/sms';

export interface TestApp {
  app: App;
  db: Database['db'];
  sms: LogSmsProvider;
  dataDir: string;
  close(): Promise<void>;
}

/** A new database name of this test run (global setup drops them all at the end). */
export function testDatabaseName(): string {
  return `${inject('pgRunPrefix') ?? 'platform_t_'}${randomBytes(6).toString('hex')}`;
}

async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const pgTemplate = inject('pgTemplate');
  const url = process.env.DATABASE_URL;
  if (pgTemplate && url) {
    const name = testDatabaseName();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${pgTemplate}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    const database = await openDatabase({ url: target.toString() });
    return {
      database,
      drop: async () => {
        await database.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const templatePath = inject('pgliteTemplate');
  if (!templatePath) throw new Error('test global setup did not run');
  const blob = new Blob([await readFile(templatePath)]);
  const database = await openDatabase({ pglite: new PGlite({ loadDataDir: blob }) });
  return { database, drop: () => database.close() };
}

export async function buildTestApp(
  env: Record<string, string> = {},
  opts: { logger?: FastifyServerOptions['logger'] } = {},
): Promise<TestApp> {
  const { database, drop } = await freshDatabase();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-files-'));
  const config = {
    // tests log many users in from one address: the per-address limit is raised unless a test sets it
    ...loadConfig({
      WEB_DIST: path.join(dataDir, 'no-web'),
      LOGIN_RATE_LIMIT: '10000',
      // tests refuse many MQTT CONNECTs from 127.0.0.1 on purpose
      MQTT_CONNECT_FAIL_LIMIT: '0',
      ...env,
      DATA_DIR: dataDir,
    }),
    seedDemo: false,
  };
  const app = await buildApp({ config, db: database.db, logger: opts.logger ?? false });
  const sms = new LogSmsProvider(app.log, () => {});
  // swap in a provider whose codes the tests can read
  (app as unknown as { sms: LogSmsProvider }).sms = sms;
  await app.ready();
  return {
    app,
    db: database.db,
    sms,
    dataDir,
    close: async () => {
      await app.close();
      await drop();
    },
  };
}

export const TEST_PASSWORD = 'secret123';

let phoneCounter = 0;
/** A unique valid mobile number per call within a test file. */
export function nextPhone(): string {
  phoneCounter += 1;
  return `139${String(process.pid % 10000).padStart(4, '0')}${String(phoneCounter).padStart(4, '0')}`;
}

export async function login(app: App, phone: string, password = TEST_PASSWORD): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/general/user/access/getToken',
    payload: `phone=${phone}&password=${encodeURIComponent(password)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const body = res.json();
  if (body.code !== 0) throw new Error(`login failed for ${phone}: ${res.body}`);
  return body.data.token as string;
}

export interface TestUser {
  id: number;
  phone: string;
  token: string;
}

export interface TestCompany {
  id: number;
  adminRoleId: number;
  ordinaryRoleId: number;
  admin: TestUser;
  /** ordinary role: smart_data, sd_capsule, pc_my_order, pc_my_assignment */
  limited: TestUser;
}

export async function makeCompany(
  t: TestApp,
  name: string,
  opts: { isPlatform?: boolean } = {},
): Promise<TestCompany> {
  const adminUser = await createUser(t.db, {
    phone: nextPhone(),
    userName: `${name} admin`,
    password: TEST_PASSWORD,
  });
  const created = await createCompany(t.db, {
    name,
    ownerId: adminUser.id,
    isPlatform: opts.isPlatform ?? false,
  });
  const limitedUser = await createUser(t.db, {
    phone: nextPhone(),
    userName: `${name} user`,
    password: TEST_PASSWORD,
  });
  await addActiveMember(t.db, created.company.id, limitedUser.id, [created.ordinaryRoleId]);
  return {
    id: created.company.id,
    adminRoleId: created.adminRoleId,
    ordinaryRoleId: created.ordinaryRoleId,
    admin: { id: adminUser.id, phone: adminUser.phone, token: await login(t.app, adminUser.phone) },
    limited: { id: limitedUser.id, phone: limitedUser.phone, token: await login(t.app, limitedUser.phone) },
  };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** A parsed answer of the API: the envelope of docs/api-foundation.md. */
export interface Envelope {
  code: number;
  message: string;
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the data of the route it called
  data: any;
}

/**
 * The business tests' way to call the API: `call(method, url, payload?, token?, lang?)` sends to
 * `/general<prefix><url>` through the real app, as the user of `token` (by default
 * `defaultToken()`, read at each call: the fixtures are made in beforeAll), in `lang` (en by
 * default), and answers the parsed envelope.
 */
export function apiCaller(app: () => TestApp, prefix: string, defaultToken: () => string) {
  return async (
    method: 'GET' | 'POST',
    url: string,
    payload?: object,
    token = defaultToken(),
    lang = 'en',
  ): Promise<Envelope> => {
    const res = await app().app.inject({
      method,
      url: `/general${prefix}${url}`,
      payload,
      headers: { ...bearer(token), 'accept-language': lang },
    });
    return res.json();
  };
}

/** The data of a successful answer; a failed one fails the test with its message. */
export function ok(answer: Envelope) {
  expect(answer.code, answer.message).toBe(0);
  return answer.data;
}
