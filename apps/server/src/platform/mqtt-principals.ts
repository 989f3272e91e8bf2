/**
 * Who may connect to the MQTT broker, and to which topics: a small registry of principal
 * kinds. Each kind owns a shape of username (submission keys: `key-<id>`; gateways: their
 * serial numbers), checks the password and gives the client's ACL. The embedded broker,
 * the HTTP hooks an external broker calls (EMQX) and the accounts the server provisions on
 * Mosquitto all ask this registry, so a new kind of client needs no change to broker code.
 *
 * The username is public (it appears in topic names); only the password is secret.
 */
import { isTopicLevel, type TopicAcl } from '@platform/domain';

export interface MqttPrincipal {
  /** the kind that vouched for it ('key', 'gateway', …) */
  kind: string;
  username: string;
  acl: TopicAcl;
  /**
   * which credential of the username it signed in with, when a username can change its
   * password (a gateway's replaced secret): connections of an older credential are ended
   */
  credential?: string;
}

/**
 * What became of a principal since it authenticated: still allowed, suspended (its user is
 * disabled or left the company: may come back) or gone for good (revoked, deleted).
 */
export type PrincipalState = 'allowed' | 'suspended' | 'gone';

export interface PrincipalKind {
  kind: string;
  /** whether usernames of this shape belong to this kind (no I/O) */
  owns(username: string): boolean;
  /** the principal for these credentials, or null (unknown, wrong password, revoked…) */
  authenticate(username: string, password: string): Promise<MqttPrincipal | null>;
  /** the principal of a username that authenticated before, or null when it is no longer allowed */
  current(username: string): Promise<MqttPrincipal | null>;
  /** the state of each username (one query for many connected clients) */
  states(usernames: readonly string[]): Promise<Map<string, PrincipalState>>;
  /** every username of this kind that may connect now (to find those a broker lacks) */
  allowedUsernames(): Promise<string[]>;
  /** the credential each username signs in with now, for kinds whose principals carry one */
  credentials?(usernames: readonly string[]): Promise<Map<string, string>>;
}

/** the longest password any kind takes (a submission key is 47 characters) */
export const MAX_PASSWORD_LENGTH = 256;

export class MqttPrincipals {
  readonly #kinds: PrincipalKind[] = [];
  readonly #listeners: Array<(kind: PrincipalKind) => void> = [];

  register(kind: PrincipalKind): void {
    if (this.#kinds.some((k) => k.kind === kind.kind))
      throw new Error(`MQTT principal kind ${kind.kind} twice`);
    this.#kinds.push(kind);
    for (const listener of this.#listeners) listener(kind);
  }

  /** Calls `listener` for each kind registered from now on (brokers that keep accounts sync them). */
  onRegister(listener: (kind: PrincipalKind) => void): void {
    this.#listeners.push(listener);
  }

  kinds(): readonly PrincipalKind[] {
    return this.#kinds;
  }

  kindOf(username: string): PrincipalKind | null {
    if (!isTopicLevel(username)) return null;
    return this.#kinds.find((k) => k.owns(username)) ?? null;
  }

  async authenticate(
    username: string | null | undefined,
    password: string | null | undefined,
  ): Promise<MqttPrincipal | null> {
    if (!username || !password || password.length > MAX_PASSWORD_LENGTH) return null;
    const kind = this.kindOf(username);
    if (!kind) return null;
    const principal = await kind.authenticate(username, password);
    // a kind answers for its own usernames only
    return principal && principal.username === username && principal.kind === kind.kind ? principal : null;
  }

  async current(username: string): Promise<MqttPrincipal | null> {
    const kind = this.kindOf(username);
    return kind ? kind.current(username) : null;
  }

  /** The state of each username; unknown shapes are gone. */
  async states(usernames: Iterable<string>): Promise<Map<string, PrincipalState>> {
    const byKind = new Map<PrincipalKind, string[]>();
    const result = new Map<string, PrincipalState>();
    for (const username of new Set(usernames)) {
      const kind = this.kindOf(username);
      if (!kind) {
        result.set(username, 'gone');
        continue;
      }
      const list = byKind.get(kind);
      if (list) list.push(username);
      else byKind.set(kind, [username]);
    }
    for (const [kind, list] of byKind) {
      const states = await kind.states(list);
      for (const username of list) result.set(username, states.get(username) ?? 'gone');
    }
    return result;
  }

  /**
   * The credential each username signs in with now (kinds without credentials are left out):
   * a connection made with another one is to be ended.
   */
  async credentials(usernames: Iterable<string>): Promise<Map<string, string>> {
    const byKind = new Map<PrincipalKind, string[]>();
    for (const username of new Set(usernames)) {
      const kind = this.kindOf(username);
      if (!kind?.credentials) continue;
      const list = byKind.get(kind);
      if (list) list.push(username);
      else byKind.set(kind, [username]);
    }
    const result = new Map<string, string>();
    for (const [kind, list] of byKind) {
      for (const [username, credential] of await kind.credentials!(list)) result.set(username, credential);
    }
    return result;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** who may use the MQTT broker and how (see platform/mqtt-principals.ts) */
    mqttPrincipals: MqttPrincipals;
  }
}
