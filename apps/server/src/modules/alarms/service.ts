/**
 * The alarm service (`app.alarms`): the engine run after each ingest commit, the alarm log's
 * raise and resolve for other modules (data-update monitoring's no-data alarms), the actions
 * of people on the log (acknowledge, clear) and the notifications of what changed.
 */
import { randomBytes } from 'node:crypto';
import { type AlarmLevel, clearedByHand } from '@platform/domain';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { type ChannelEvent, LiveBus, type LiveChannel } from '../../platform/live';
import type { IngestPipeline } from '../ingest/pipeline';
import { type AlarmOutcome, type CommittedRow, evaluate, RuleIndex } from './evaluate';
import { type AlarmKey, closeAlarm, raiseAlarm } from './log';
import {
  ALARMS_CHANNEL,
  type AlarmChange,
  type AlarmMessageProvider,
  LogMessageProvider,
  recipientsOf,
  sendMessages,
} from './notify';
import { type AlarmChannel, type AlarmOrigin, type AlarmRecipients, alarmRuleStates, alarms } from './tables';

export interface RaiseInput extends AlarmKey {
  name: string;
  level: AlarmLevel;
  value: number | null;
  at: Date;
  recipients: AlarmRecipients;
  channels: AlarmChannel[];
  fieldKey?: string | null;
}

export interface ResolveInput extends AlarmKey {
  value: number | null;
  at: Date;
}

/** the live channel of rule states written (platform/live.ts): other nodes forget their copies */
export const STATES_CHANNEL = 'alarm-states';

interface StateWrite extends ChannelEvent {
  /** the service that wrote them (it knows them already) */
  origin: string;
  ruleIds: number[];
}

/** What a raise changed for the alarm sockets: null when the level stayed (a repeat). */
export function changeOf(previousLevel: number | null, level: number): 'fired' | 'raised' | 'lowered' | null {
  if (previousLevel === null) return 'fired';
  if (level > previousLevel) return 'raised';
  if (level < previousLevel) return 'lowered';
  return null;
}

export class AlarmService {
  readonly rules: RuleIndex;
  /** alarm changes for the alarm sockets of every node (ALARMS_CHANNEL) */
  readonly changes: LiveChannel<AlarmChange>;
  readonly email: AlarmMessageProvider;
  readonly sms: AlarmMessageProvider;
  /** rule evaluations so far that changed the log (tests, metrics) */
  readonly stats = { evaluations: 0, outcomes: 0 };

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    /** the app's live bus (a bus of its own, heard by nobody, when none is given: tests) */
    live: LiveBus = new LiveBus(),
    providers: { email?: AlarmMessageProvider; sms?: AlarmMessageProvider } = {},
  ) {
    this.changes = live.channel<AlarmChange>(ALARMS_CHANNEL);
    this.rules = new RuleIndex(db);
    this.stateWrites = live.channel<StateWrite>(STATES_CHANNEL);
    this.rules.announce = (companyId, ruleIds) =>
      this.stateWrites.publish({ companyId, origin: this.origin, ruleIds });
    this.email = providers.email ?? new LogMessageProvider('email', log);
    this.sms = providers.sms ?? new LogMessageProvider('sms', log);
  }

  /** Checks the rules on every commit of the pipeline (and of the jumps it runs). */
  attach(pipeline: IngestPipeline): void {
    pipeline.onCommit(async (companyId, byItem) => {
      if (!(await this.rules.hasAny(byItem.keys()))) return;
      const rows = new Map<number, CommittedRow[]>();
      for (const [itemId, list] of byItem)
        rows.set(
          itemId,
          list.map(({ row }) => row),
        );
      await this.checkTogether(companyId, rows);
    });
  }

  /**
   * GROUP CHECK, as the pipeline group-commits: the rows of the calls that committed while a
   * check was running are checked together in the next one (one transaction per company,
   * however many calls), and each caller is answered once its rows were checked. A submitter
   * still waits for its check, so nothing acknowledged goes unjudged, even across a restart.
   */
  checkTogether(companyId: number, rows: Map<number, CommittedRow[]>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ companyId, rows, resolve, reject });
      if (!this.checking) {
        this.checking = true;
        void this.drainChecks();
      }
    });
  }

  private readonly waiting: Array<{
    companyId: number;
    rows: Map<number, CommittedRow[]>;
    resolve: () => void;
    reject: (error: unknown) => void;
  }> = [];
  private checking = false;

  private async drainChecks(): Promise<void> {
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting.splice(0);
        const byCompany = new Map<number, typeof batch>();
        for (const call of batch) {
          const calls = byCompany.get(call.companyId);
          if (calls) calls.push(call);
          else byCompany.set(call.companyId, [call]);
        }
        for (const [companyId, calls] of byCompany) {
          const rows = new Map<number, CommittedRow[]>();
          for (const call of calls)
            for (const [itemId, list] of call.rows) {
              const known = rows.get(itemId);
              if (known) known.push(...list);
              else rows.set(itemId, [...list]);
            }
          try {
            await this.check(companyId, rows);
            for (const call of calls) call.resolve();
          } catch (error) {
            for (const call of calls) call.reject(error);
          }
        }
      }
    } finally {
      this.checking = false;
    }
  }

  /** which rules' states another node wrote (the quiet path must read them again) */
  private readonly stateWrites: LiveChannel<StateWrite>;
  private readonly origin = randomBytes(6).toString('base64url');
  private readonly listening = new Set<number>();

  /** Hears, from now on, which rules of the company other nodes wrote the states of. */
  private listenStates(companyId: number): void {
    if (this.listening.has(companyId)) return;
    this.listening.add(companyId);
    this.stateWrites.subscribe(companyId, (write) => {
      if (write.origin !== this.origin && Array.isArray(write.ruleIds))
        this.rules.forgetStates(write.ruleIds);
    });
  }

  /** A state changed outside the engine (a person cleared, a rule retired): everyone reads it again. */
  private statesWritten(companyId: number, ruleIds: number[]): void {
    this.rules.forgetStates(ruleIds);
    this.stateWrites.publish({ companyId, origin: this.origin, ruleIds });
  }

  /** Steps the rules over committed rows, then tells who must know. */
  async check(companyId: number, rows: Map<number, CommittedRow[]>): Promise<AlarmOutcome[]> {
    this.listenStates(companyId);
    const outcomes = await evaluate(this.db, this.rules, companyId, rows, (tx, rule) =>
      recipientsOf(tx, rule.companyId, rule.recipients),
    );
    this.stats.evaluations += 1;
    this.stats.outcomes += outcomes.length;
    for (const o of outcomes) {
      this.changes.publish({
        companyId: o.rule.companyId,
        alarmId: o.alarmId,
        itemId: o.rule.itemId,
        change: o.event.type,
        level: o.event.level,
        status: o.status,
        name: o.rule.name,
        value: o.event.value,
        notified: o.notified,
      });
      const tell = (o.event.type === 'fired' && o.created) || o.event.type === 'raised';
      if (tell) {
        const subject = `[L${o.event.level}] ${o.rule.name}`;
        const text = `${o.rule.name}: ${o.event.value} (level ${o.event.level}) at ${new Date(o.event.ts).toISOString()}`;
        await sendMessages(this.db, this, this.log, o.notified, o.rule.channels, subject, text);
      }
    }
    return outcomes;
  }

  /**
   * Opens an alarm for another module (idempotent while it is open: updates level and value).
   * The alarm sockets hear of a change only: the opening (`fired`), a level up (`raised`) or
   * down (`lowered`); a repeat at the same level updates the value quietly. Recipients are
   * told (e-mail, SMS) only when this call opened it.
   */
  async raise(input: RaiseInput): Promise<{ id: number; created: boolean }> {
    const notified = await recipientsOf(this.db, input.companyId, input.recipients);
    const opened = await raiseAlarm(this.db, {
      ...input,
      ruleId: null,
      fieldKey: input.fieldKey ?? null,
      notified,
    });
    const change = changeOf(opened.previousLevel, input.level);
    if (change)
      this.changes.publish({
        companyId: input.companyId,
        alarmId: opened.id,
        itemId: input.itemId,
        change,
        level: input.level,
        status: opened.status,
        name: input.name,
        value: input.value,
        notified: opened.notified,
      });
    if (opened.created) {
      const subject = `[L${input.level}] ${input.name}`;
      await sendMessages(this.db, this, this.log, notified, input.channels, subject, subject);
    }
    return { id: opened.id, created: opened.created };
  }

  /** Clears the open alarm of the key automatically; its id, or null when none was open. */
  async resolve(input: ResolveInput): Promise<number | null> {
    const closed = await closeAlarm(this.db, input, input.value, input.at, null);
    if (closed) this.publishClosed(input.companyId, input.itemId, closed, 'cleared');
    return closed?.id ?? null;
  }

  /** A person acknowledges an open, unacknowledged alarm of their company. */
  async acknowledge(companyId: number, alarmId: number, userId: number, comment: string): Promise<void> {
    const [row] = await this.db
      .update(alarms)
      .set({
        status: 'acknowledged',
        acknowledgedAt: new Date(),
        acknowledgedBy: userId,
        ackComment: comment,
      })
      .where(and(eq(alarms.id, alarmId), eq(alarms.companyId, companyId), eq(alarms.status, 'active')))
      .returning();
    if (!row) throw await this.whyNot(companyId, alarmId);
    this.changes.publish({
      companyId,
      alarmId,
      itemId: row.itemId,
      change: 'acknowledged',
      level: row.level,
      status: row.status,
      name: row.name,
      value: row.value,
      notified: row.notified,
    });
  }

  /**
   * A person clears an open alarm. A rule's evaluation state goes back to normal with it (in
   * the same transaction, under the state's lock), so the rule fires again on the next breach.
   */
  async clearByHand(companyId: number, alarmId: number, userId: number): Promise<void> {
    const closed = await this.db.transaction(async (txDb) => {
      const tx = txDb as unknown as Db;
      const [row] = await tx
        .select()
        .from(alarms)
        .where(and(eq(alarms.id, alarmId), eq(alarms.companyId, companyId), isNull(alarms.clearedAt)));
      if (!row) return null;
      if (row.ruleId !== null && row.itemId !== null) {
        const [held] = await tx
          .select({ state: alarmRuleStates.state })
          .from(alarmRuleStates)
          .where(and(eq(alarmRuleStates.ruleId, row.ruleId), eq(alarmRuleStates.itemId, row.itemId)))
          .for('update');
        if (held)
          await tx
            .update(alarmRuleStates)
            .set({ state: clearedByHand(held.state), updatedAt: new Date() })
            .where(and(eq(alarmRuleStates.ruleId, row.ruleId), eq(alarmRuleStates.itemId, row.itemId)));
      }
      const key = {
        companyId,
        origin: row.origin as AlarmOrigin,
        originId: row.originId,
        itemId: row.itemId,
        deviceId: row.deviceId,
      };
      return closeAlarm(tx, key, null, new Date(), userId).then((c) =>
        c ? { ...c, itemId: row.itemId, ruleId: row.ruleId } : null,
      );
    });
    if (!closed) throw await this.whyNot(companyId, alarmId);
    if (closed.ruleId !== null) this.statesWritten(companyId, [closed.ruleId]);
    this.publishClosed(companyId, closed.itemId, closed, 'cleared');
  }

  /** Forgets a rule's state and clears its open alarms (the rule was disabled or deleted). */
  async retireRule(companyId: number, ruleId: number): Promise<void> {
    const closed = await this.db
      .update(alarms)
      .set({ status: 'cleared', clearedAt: new Date(), updatedAt: new Date() })
      .where(
        and(
          eq(alarms.companyId, companyId),
          eq(alarms.origin, 'rule'),
          eq(alarms.originId, ruleId),
          isNull(alarms.clearedAt),
        ),
      )
      .returning({
        id: alarms.id,
        level: alarms.level,
        notified: alarms.notified,
        name: alarms.name,
        itemId: alarms.itemId,
      });
    await this.db.delete(alarmRuleStates).where(eq(alarmRuleStates.ruleId, ruleId));
    this.statesWritten(companyId, [ruleId]);
    for (const c of closed) this.publishClosed(companyId, c.itemId, c, 'cleared');
    this.rules.invalidate();
  }

  private publishClosed(
    companyId: number,
    itemId: number | null,
    closed: { id: number; level: number; notified: number[]; name: string },
    change: string,
  ): void {
    this.changes.publish({
      companyId,
      alarmId: closed.id,
      itemId,
      change,
      level: 0,
      status: 'cleared',
      name: closed.name,
      value: null,
      notified: closed.notified,
    });
  }

  /** 40400 for an alarm of another company (or none), 40900 when it is already cleared or acknowledged. */
  private async whyNot(companyId: number, alarmId: number): Promise<AppError> {
    const [row] = await this.db
      .select({ status: alarms.status })
      .from(alarms)
      .where(and(eq(alarms.id, alarmId), eq(alarms.companyId, companyId)));
    if (!row) return new AppError('notFound', {}, { field: 'id' });
    if (row.status === 'cleared') return new AppError('alarmAlreadyCleared', {}, { field: 'id' });
    return new AppError('alarmAlreadyAcknowledged', {}, { field: 'id' });
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** alarm rules, the alarm log and its notifications (modules/alarms) */
    alarms: AlarmService;
  }
}
