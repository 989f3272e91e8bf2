/**
 * The broker's questions to the server, for brokers that authenticate and authorise through
 * HTTP (EMQX's HTTP authentication and authorisation, MQTT_BROKER_AUTH=http), answered from
 * the same principal registry as the embedded broker: `{"result": "allow" | "deny"}`.
 *
 * The hooks answer only a caller that sends the shared secret (MQTT_HOOK_SECRET) as
 * `Authorization: Bearer <secret>`; without it every answer is deny. The server's own account
 * (MQTT_URL's user and password) is a superuser: it reads every submission and publishes
 * every answer.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { mayPublish, maySubscribe } from '@platform/domain';
import type { App } from '../../platform/context';

export interface HookAnswer {
  result: 'allow' | 'deny';
  is_superuser?: boolean;
}

const DENY: HookAnswer = { result: 'deny' };

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** Whether the request carries the hooks' shared secret. */
export function hookCaller(app: App, authorization: string | undefined): boolean {
  const secret = app.config.mqttHookSecret;
  if (!secret || !authorization) return false;
  const match = /^Bearer\s+(.+)$/i.exec(authorization);
  return match !== null && sameSecret(match[1]!.trim(), secret);
}

function serverAccount(app: App): { username: string; password: string } | null {
  if (!app.config.mqttUrl) return null;
  try {
    const url = new URL(app.config.mqttUrl);
    if (!url.username || !url.password) return null;
    return { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  } catch {
    return null;
  }
}

/** CONNECT: may these credentials connect? */
export async function authenticateClient(
  app: App,
  body: { username?: string; password?: string },
): Promise<HookAnswer> {
  const { username, password } = body;
  if (!username || !password) return DENY;
  const server = serverAccount(app);
  if (server && username === server.username) {
    return sameSecret(password, server.password) ? { result: 'allow', is_superuser: true } : DENY;
  }
  const principal = await app.mqttPrincipals.authenticate(username, password);
  return principal ? { result: 'allow', is_superuser: false } : DENY;
}

/** PUBLISH or SUBSCRIBE: may this (already authenticated) client do it now? */
export async function authorizeClient(
  app: App,
  body: { username?: string; topic?: string; action?: string },
): Promise<HookAnswer> {
  const { username, topic, action } = body;
  if (!username || !topic) return DENY;
  // the principal as it is now: a revoked key or a disabled user is refused from now on
  const principal = await app.mqttPrincipals.current(username);
  if (!principal) return DENY;
  if (action === 'publish') return mayPublish(principal.acl, topic) ? { result: 'allow' } : DENY;
  if (action === 'subscribe') return maySubscribe(principal.acl, topic) ? { result: 'allow' } : DENY;
  return DENY;
}
