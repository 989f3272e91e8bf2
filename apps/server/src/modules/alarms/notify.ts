/**
 * Who is told about an alarm, and how (docs/alarms.md, "Notifications").
 *
 * Recipients are the rule's users and the members of its groups, active members of the
 * rule's company only; then the alert delegations of company settings (modules/delegations)
 * apply: a delegator's alarms ALSO reach each of their delegates (the delegator keeps them).
 *
 * Channels sit behind provider interfaces. In the app: the live channel `alarms` the alarm socket
 * listens on (log-routes.ts), on every server node. E-mail and SMS: the embedded default has neither a mail server
 * nor an SMS gateway, so their stand-ins write one line to the server log per message and keep
 * the latest ones in an outbox (tests read it); a real provider implements the same method.
 * Neither logs more than the recipient's user id and the alarm's text.
 */
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db';
import type { ChannelEvent } from '../../platform/live';
import { companyMembers } from '../companies/tables';
import { alertDelegations } from '../delegations/tables';
import { groupMembers, userGroups } from '../groups/tables';
import { users } from '../users/tables';
import type { AlarmChannel, AlarmRecipients } from './tables';

export interface AlarmMessage {
  userId: number;
  /** the e-mail address or phone the provider sends to */
  to: string;
  subject: string;
  text: string;
}

export interface AlarmMessageProvider {
  readonly name: string;
  send(message: AlarmMessage): Promise<void>;
}

/** how many messages a stand-in keeps (the newest) */
export const OUTBOX_SIZE = 100;

/** The embedded stand-in: one log line per message (user id and subject), nothing sent. */
export class LogMessageProvider implements AlarmMessageProvider {
  readonly outbox: Array<AlarmMessage & { sentAt: Date }> = [];

  constructor(
    readonly name: 'email' | 'sms',
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(message: AlarmMessage): Promise<void> {
    this.outbox.unshift({ ...message, sentAt: new Date() });
    this.outbox.length = Math.min(this.outbox.length, OUTBOX_SIZE);
    this.log.info({ channel: this.name, userId: message.userId, subject: message.subject }, 'alarm message');
  }
}

/** What the alarm socket relays: a change of one alarm of the company. */
export interface AlarmChange extends ChannelEvent {
  companyId: number;
  alarmId: number;
  itemId: number | null;
  /** fired | raised | lowered | cleared | acknowledged */
  change: string;
  level: number;
  status: string;
  name: string;
  value: number | null;
  /** the users told (in-app recipients) */
  notified: number[];
}

/**
 * The live channel of alarm changes (platform/live.ts): delivered on this node at once and,
 * with several nodes, relayed once to every other node, so a socket on any node hears an
 * alarm raised on any node once.
 */
export const ALARMS_CHANNEL = 'alarms';

/**
 * The users an alarm reaches: the listed users and the members of the listed groups that are
 * active members of the company, plus the delegates of each of them (delegations of that company).
 */
export async function recipientsOf(
  db: Db,
  companyId: number,
  recipients: AlarmRecipients,
): Promise<number[]> {
  const chosen = new Set<number>(recipients.userIds);
  if (recipients.groupIds.length > 0) {
    const members = await db
      .select({ userId: groupMembers.userId })
      .from(groupMembers)
      .innerJoin(userGroups, eq(userGroups.id, groupMembers.groupId))
      .where(and(inArray(groupMembers.groupId, recipients.groupIds), eq(userGroups.companyId, companyId)));
    for (const m of members) chosen.add(m.userId);
  }
  if (chosen.size === 0) return [];
  const delegated = await db
    .select({ delegateId: alertDelegations.delegateId })
    .from(alertDelegations)
    .where(
      and(eq(alertDelegations.companyId, companyId), inArray(alertDelegations.delegatorId, [...chosen])),
    );
  for (const d of delegated) chosen.add(d.delegateId);
  const active = await db
    .select({ userId: companyMembers.userId })
    .from(companyMembers)
    .where(
      and(
        eq(companyMembers.companyId, companyId),
        eq(companyMembers.status, 'active'),
        inArray(companyMembers.userId, [...chosen]),
      ),
    );
  return active.map((r) => r.userId).sort((a, b) => a - b);
}

/** Sends the e-mail and SMS of an alarm to users that have an address or phone. */
export async function sendMessages(
  db: Db,
  providers: { email: AlarmMessageProvider; sms: AlarmMessageProvider },
  log: FastifyBaseLogger,
  userIds: number[],
  channels: AlarmChannel[],
  subject: string,
  text: string,
): Promise<void> {
  const wanted = channels.filter((c) => c === 'email' || c === 'sms');
  if (userIds.length === 0 || wanted.length === 0) return;
  const rows = await db
    .select({ id: users.id, email: users.email, phone: users.phone })
    .from(users)
    .where(inArray(users.id, userIds));
  for (const row of rows) {
    for (const channel of wanted) {
      const to = channel === 'email' ? row.email : row.phone;
      if (!to) continue;
      try {
        await providers[channel as 'email' | 'sms'].send({ userId: row.id, to, subject, text });
      } catch (error) {
        // one failing provider must not keep the others (or the alarm) from going out
        log.warn({ err: error, channel, userId: row.id }, 'alarm message not sent');
      }
    }
  }
}
