/**
 * The server's side of Mosquitto's dynamic-security plugin (Mosquitto 2.0): the broker holds
 * one account per principal (username, password hash, and a role of its own with exactly the
 * topics of its ACL: Mosquitto 2.0's dynamic security has no %u substitution in ACLs, so a
 * shared role cannot name "the client's own topic"). The server connects with a dynsec admin
 * account (the credentials in MQTT_URL) and, through `$CONTROL/dynamic-security/v1`:
 * - at start-up: sets the default ACL access to deny (receiving included) and gives its own
 *   account the role it needs (read submissions and gateway messages, publish answers and
 *   gateway commands);
 * - when a key is created: creates its account, with the key as password (the only moment
 *   the server holds the key in plain text);
 * - when access changes: deletes the accounts of revoked principals and disables those
 *   suspended (a disabled user's keys), which disconnects their clients; enables them again
 *   when they come back.
 */
import { randomBytes } from 'node:crypto';
import {
  GATEWAY_DOWN_FILTER,
  GATEWAY_UP_FILTER,
  isReservedTopic,
  isValidTopicFilter,
  LIVE_RELAY_FILTER,
  RESULT_TOPIC_PREFIX,
  reachesInternal,
  SUBMIT_TOPIC_FILTER,
  type TopicAcl,
} from '@platform/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { MqttClient } from 'mqtt';
import type { BrokerAccounts } from './mqtt';
import type { MqttPrincipal, MqttPrincipals, PrincipalKind } from './mqtt-principals';
import type { MqttStats } from './mqtt-stats';

const CONTROL_TOPIC = '$CONTROL/dynamic-security/v1';
const RESPONSE_TOPIC = `${CONTROL_TOPIC}/response`;
const COMMAND_TIMEOUT_MS = 10_000;
/** the role the server gives its own account */
export const SERVER_ROLE = 'smartdata-server';

interface Command {
  command: string;
  [field: string]: unknown;
}

interface Response {
  command: string;
  error?: string;
  data?: Record<string, unknown>;
  correlationData?: string;
}

interface Acl {
  acltype: string;
  topic: string;
  allow: boolean;
  priority?: number;
}

/** The dynsec ACLs of a principal's role: exactly its ACL, receiving only what it may read. */
export function rolesAcls(acl: TopicAcl): Acl[] {
  const acls: Acl[] = [];
  for (const topic of acl.publish) acls.push({ acltype: 'publishClientSend', topic, allow: true });
  for (const filter of acl.subscribe) {
    // literal: only that exact filter; pattern: filters that its wildcards cover
    // (a requested `+` or `#` counts as a literal level there, so `gw/SN1/#` admits
    // `gw/SN1/+/x` and refuses `gw/+/x` and `#`)
    const wild = filter.includes('+') || filter.includes('#');
    acls.push({ acltype: wild ? 'subscribePattern' : 'subscribeLiteral', topic: filter, allow: true });
    acls.push({ acltype: 'publishClientReceive', topic: filter, allow: true });
    acls.push({ acltype: wild ? 'unsubscribePattern' : 'unsubscribeLiteral', topic: filter, allow: true });
  }
  // never the server nodes' own topics (the live relay), whatever a principal's ACL says
  return acls.filter(
    (a) => isValidTopicFilter(a.topic) && !isReservedTopic(a.topic) && !reachesInternal(a.topic),
  );
}

export class DynsecAdmin implements BrokerAccounts {
  readonly #pending = new Map<
    string,
    { resolve: (r: Response) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();

  constructor(
    private readonly client: MqttClient,
    private readonly serverUsername: string,
    private readonly principals: MqttPrincipals | null,
    private readonly stats: MqttStats,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Listens for the broker's answers. */
  async listen(): Promise<void> {
    this.client.on('message', (topic, payload) => {
      if (topic !== RESPONSE_TOPIC) return;
      let body: { responses?: Response[] };
      try {
        body = JSON.parse(payload.toString('utf8'));
      } catch {
        return;
      }
      for (const response of body.responses ?? []) {
        const waiter = response.correlationData ? this.#pending.get(response.correlationData) : undefined;
        if (!waiter) continue;
        this.#pending.delete(response.correlationData!);
        clearTimeout(waiter.timer);
        waiter.resolve(response);
      }
    });
    await this.client.subscribeAsync(RESPONSE_TOPIC, { qos: 1 });
  }

  /** Runs commands in one message; answers in their order (an unanswered one times out). */
  async run(commands: Command[], timeoutMs = COMMAND_TIMEOUT_MS): Promise<Response[]> {
    if (commands.length === 0) return [];
    const tagged = commands.map((c) => ({ ...c, correlationData: randomBytes(9).toString('base64url') }));
    const answers = tagged.map(
      (c) =>
        new Promise<Response>((resolve, reject) => {
          const timer = setTimeout(() => {
            this.#pending.delete(c.correlationData);
            reject(new Error(`the MQTT broker did not answer ${c.command} (dynamic security)`));
          }, timeoutMs);
          this.#pending.set(c.correlationData, { resolve, reject, timer });
        }),
    );
    // not awaited on its own: a QoS 1 publish on a connection the broker closed never completes
    this.client.publish(CONTROL_TOPIC, JSON.stringify({ commands: tagged }), { qos: 1 }, (error) => {
      if (!error) return;
      for (const c of tagged) {
        const waiter = this.#pending.get(c.correlationData);
        if (!waiter) continue;
        this.#pending.delete(c.correlationData);
        clearTimeout(waiter.timer);
        waiter.reject(error);
      }
    });
    return Promise.all(answers);
  }

  async put(principal: MqttPrincipal, password: string): Promise<void> {
    const { username } = principal;
    const results = await this.run([
      { command: 'deleteClient', username },
      { command: 'deleteRole', rolename: username },
      { command: 'createRole', rolename: username, acls: rolesAcls(principal.acl) },
      { command: 'createClient', username, password, roles: [{ rolename: username }] },
    ]);
    const failed = results.slice(2).find((r) => r.error);
    if (failed) throw new Error(`the MQTT broker refused ${failed.command} for ${username}: ${failed.error}`);
  }

  async remove(username: string): Promise<void> {
    await this.run([
      { command: 'deleteClient', username },
      { command: 'deleteRole', rolename: username },
    ]);
  }

  /** Usernames the broker has accounts for, with whether each is disabled. */
  async accounts(): Promise<Map<string, { disabled: boolean }>> {
    const accounts = new Map<string, { disabled: boolean }>();
    const [answer] = await this.run([{ command: 'listClients', verbose: true }]);
    const clients = (answer?.data?.clients ?? []) as Array<{ username: string; disabled?: boolean }>;
    for (const c of clients) accounts.set(c.username, { disabled: c.disabled === true });
    return accounts;
  }

  /**
   * Brings the broker's accounts in line with the principals' states: deletes the gone,
   * disables the suspended, enables those allowed again.
   */
  async reconcile(): Promise<void> {
    const accounts = await this.accounts();
    const principals = this.principals;
    if (!principals) return;
    const ours = [...accounts.keys()].filter((u) => u !== this.serverUsername && principals.kindOf(u));
    const states = await principals.states(ours);
    const commands: Command[] = [];
    for (const username of ours) {
      const state = states.get(username);
      const disabled = accounts.get(username)!.disabled;
      if (state === 'gone') {
        commands.push({ command: 'deleteClient', username }, { command: 'deleteRole', rolename: username });
      } else if (state === 'suspended' && !disabled) {
        commands.push({ command: 'disableClient', username });
      } else if (state === 'allowed' && disabled) {
        commands.push({ command: 'enableClient', username });
      }
    }
    if (commands.length === 0) return;
    await this.run(commands);
    const count = (name: string) => commands.filter((c) => c.command === name).length;
    const ended = count('deleteClient') + count('disableClient');
    this.stats.add('disconnectedRevoked', ended);
    this.log.info(
      { deleted: count('deleteClient'), disabled: count('disableClient'), enabled: count('enableClient') },
      'MQTT broker accounts brought in line with access',
    );
  }

  /**
   * Principals allowed to connect that have no account on the broker: created before the
   * broker was configured, or while it was unreachable. Their secrets are not kept, so they
   * cannot be provisioned now.
   */
  async missingAccounts(kind: PrincipalKind): Promise<string[]> {
    const accounts = await this.accounts();
    return (await kind.allowedUsernames()).filter((username) => !accounts.has(username));
  }

  close(): void {
    for (const { timer } of this.#pending.values()) clearTimeout(timer);
    this.#pending.clear();
  }
}

/** What the server's own account may do besides administering dynamic security. */
export const SERVER_ACLS: Acl[] = [
  // its shared subscription, whatever the group (nodes and test runs may differ)
  { acltype: 'subscribePattern', topic: `$share/+/${SUBMIT_TOPIC_FILTER}`, allow: true },
  { acltype: 'subscribeLiteral', topic: SUBMIT_TOPIC_FILTER, allow: true },
  { acltype: 'publishClientReceive', topic: SUBMIT_TOPIC_FILTER, allow: true },
  { acltype: 'publishClientSend', topic: `${RESULT_TOPIC_PREFIX}+`, allow: true },
  // gateways: every gateway's up topics in, every gateway's down topics out
  { acltype: 'subscribePattern', topic: `$share/+/${GATEWAY_UP_FILTER}`, allow: true },
  { acltype: 'subscribeLiteral', topic: GATEWAY_UP_FILTER, allow: true },
  { acltype: 'publishClientReceive', topic: GATEWAY_UP_FILTER, allow: true },
  { acltype: 'publishClientSend', topic: GATEWAY_DOWN_FILTER, allow: true },
  // the live relay between the server nodes: every node publishes and hears every event
  { acltype: 'subscribePattern', topic: LIVE_RELAY_FILTER, allow: true },
  { acltype: 'publishClientReceive', topic: LIVE_RELAY_FILTER, allow: true },
  { acltype: 'publishClientSend', topic: LIVE_RELAY_FILTER, allow: true },
];

const sameAcl = (a: Acl, b: Acl) => a.acltype === b.acltype && a.topic === b.topic && a.allow === b.allow;

/**
 * Prepares a Mosquitto for the platform, on a connection of its own (changing an account's
 * roles disconnects every client of that account, so the server's working connection must not
 * be the one that does it): default ACL access deny (receiving included), and the role
 * `smartdata-server` with SERVER_ACLS given to the server's account. Does nothing that is
 * already so, so a restart disconnects nobody.
 */
export async function prepareDynsec(
  connect: (clientId: string) => Promise<MqttClient>,
  serverUsername: string,
  stats: MqttStats,
  log: FastifyBaseLogger,
): Promise<void> {
  const session = async <T>(work: (admin: DynsecAdmin, client: MqttClient) => Promise<T>): Promise<T> => {
    const client = await connect(`smartdata-setup-${randomBytes(6).toString('hex')}`);
    client.on('error', () => {});
    const admin = new DynsecAdmin(client, serverUsername, null, stats, log);
    try {
      await admin.listen();
      return await work(admin, client);
    } finally {
      admin.close();
      await client.endAsync(true).catch(() => {});
    }
  };
  const state = () =>
    session((admin) =>
      admin.run([
        { command: 'getDefaultACLAccess' },
        { command: 'getRole', rolename: SERVER_ROLE },
        { command: 'getClient', username: serverUsername },
      ]),
    );
  const [defaults, role, account] = await state();
  if (account?.error) {
    throw new Error(
      `the MQTT broker has no dynamic-security account ${serverUsername} (${account.error}): give MQTT_URL the admin account made by mosquitto_ctrl dynsec init`,
    );
  }
  const commands: Command[] = [];
  const defaultAcls = (defaults?.data?.acls ?? []) as Array<{ acltype: string; allow: boolean }>;
  for (const acltype of ['publishClientSend', 'publishClientReceive', 'subscribe']) {
    if (defaultAcls.find((a) => a.acltype === acltype)?.allow !== false)
      commands.push({ command: 'setDefaultACLAccess', acls: [{ acltype, allow: false }] });
  }
  const roleAcls = ((role?.data?.role as { acls?: Acl[] } | undefined)?.acls ?? []) as Acl[];
  const roleRight =
    !role?.error &&
    roleAcls.length === SERVER_ACLS.length &&
    SERVER_ACLS.every((a) => roleAcls.some((b) => sameAcl(a, b)));
  if (!roleRight) {
    if (!role?.error) commands.push({ command: 'deleteRole', rolename: SERVER_ROLE });
    commands.push({ command: 'createRole', rolename: SERVER_ROLE, acls: SERVER_ACLS });
  }
  const roles = ((account?.data?.client as { roles?: Array<{ rolename: string }> } | undefined)?.roles ??
    []) as Array<{ rolename: string }>;
  const needsRole = !roleRight || !roles.some((r) => r.rolename === SERVER_ROLE);
  if (commands.length === 0 && !needsRole) return;
  log.info({ commands: commands.map((c) => c.command), addRole: needsRole }, 'preparing the MQTT broker');
  if (commands.length > 0) {
    const answers = await session((admin) => admin.run(commands));
    const failed = answers.filter((a) => a.error);
    if (failed.length > 0)
      throw new Error(`the MQTT broker refused: ${failed.map((a) => `${a.command}: ${a.error}`).join('; ')}`);
  }
  if (needsRole) {
    // this disconnects the account's clients, the asking one first: its answer may never come
    await session(async (admin, client) => {
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      await Promise.race([
        admin.run([{ command: 'addClientRole', username: serverUsername, rolename: SERVER_ROLE }]),
        closed,
      ]).catch(() => {});
    }).catch(() => {});
    const [, , after] = await state();
    const now = ((after?.data?.client as { roles?: Array<{ rolename: string }> } | undefined)?.roles ??
      []) as Array<{ rolename: string }>;
    if (!now.some((r) => r.rolename === SERVER_ROLE))
      throw new Error(`could not give the MQTT broker account ${serverUsername} the role ${SERVER_ROLE}`);
  }
}
