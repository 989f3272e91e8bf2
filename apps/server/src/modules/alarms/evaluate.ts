/**
 * Alarm rules checked on ingest, after the commit, for every source (the pipeline's commit
 * hook): hand entry, HTTP and MQTT submission, devices, jumps and analysis all write through
 * it. Cheap when nothing watches an item: the enabled rules sit in memory indexed by item id,
 * and a write to an item without rules costs one map lookup. The index is reloaded when a rule
 * changes here (invalidate) and, for changes made on other nodes, when the count or newest
 * updated_at of the rules moved (checked at most every REFRESH_MS).
 *
 * The samples of one commit step each rule in ONE transaction that locks the rules' state rows
 * (SELECT … FOR UPDATE, in rule id order so two transactions never wait on each other in a
 * circle): two flushes or two server nodes judging the same rule run one after the other, and
 * the engine ignores a sample older than the state's last one.
 *
 * Most commits change nothing (the values are normal): those are judged on the states read
 * without a lock and write nothing (`quiet`); only a commit that moves some rule takes the
 * locks. Ingest with 1,000 rules active: bench/alarms.ts, figures in bench/RESULTS.md.
 */
import {
  type AlarmEvent,
  type AlarmRuleSpec,
  type AlarmSample,
  type AlarmState,
  INITIAL_ALARM_STATE,
  step,
} from '@platform/domain';
import { count, eq, inArray, max, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db';
import { closeAlarm, moveLevel, openAlarm } from './log';
import { type AlarmChannel, type AlarmRecipients, alarmRuleStates, alarmRules } from './tables';

/** how stale the rule index may be when a rule changed on another node */
export const REFRESH_MS = 2_000;
/** how long the quiet path trusts a state it read (another node's write announces itself sooner) */
export const STATE_TTL_MS = 2_000;

export interface RuleDef extends AlarmRuleSpec {
  id: number;
  companyId: number;
  name: string;
  itemId: number;
  fieldKey: string;
  deviceId: number | null;
  recipients: AlarmRecipients;
  channels: AlarmChannel[];
}

/** What one commit did to the alarm log, for the notifications sent after it. */
export interface AlarmOutcome {
  rule: RuleDef;
  event: AlarmEvent;
  alarmId: number;
  status: string;
  /** the users told: the recipients resolved when it fired (stored on the alarm) */
  notified: number[];
  /** the raise made a new alarm (not an update of one already open) */
  created: boolean;
}

export interface CommittedRow {
  itemId: number;
  ts: Date;
  values: Record<string, unknown>;
}

export class RuleIndex {
  /** the newest sample of each rule the quiet path judged and did not write (evaluate) */
  readonly lastSeen = new Map<number, AlarmSample>();
  /** checks that wrote nothing (quiet) and that took the locks (tests, bench) */
  readonly counts = { quiet: 0, locked: 0 };
  /**
   * The rules' states as this node last read or wrote them, and when (ms): the quiet path
   * judges on them for up to STATE_TTL_MS. A state written on another node is dropped here
   * when its announcement arrives (the service's live channel), at the latest after the TTL.
   */
  readonly states = new Map<number, { state: AlarmState; at: number }>();
  /** tells the other nodes which rules' states a locked check wrote (set by the service) */
  announce: ((companyId: number, ruleIds: number[]) => void) | null = null;

  /** Forgets the states of these rules (written elsewhere): the next check reads them. */
  forgetStates(ruleIds: Iterable<number>): void {
    for (const id of ruleIds) {
      this.states.delete(id);
      this.lastSeen.delete(id);
    }
  }
  private byItem = new Map<number, RuleDef[]>();
  private version = '';
  private checkedAt = 0;
  private loading: Promise<void> | null = null;
  private stale = true;

  constructor(private readonly db: Db) {}

  /** A rule changed on this node: reload before the next check. */
  invalidate(): void {
    this.stale = true;
  }

  /** the number of enabled rules in the index (tests, bench) */
  get size(): number {
    let n = 0;
    for (const list of this.byItem.values()) n += list.length;
    return n;
  }

  async rulesOf(itemId: number): Promise<RuleDef[]> {
    await this.fresh();
    return this.byItem.get(itemId) ?? [];
  }

  async hasAny(itemIds: Iterable<number>): Promise<boolean> {
    await this.fresh();
    for (const id of itemIds) if (this.byItem.has(id)) return true;
    return false;
  }

  private async fresh(): Promise<void> {
    if (!this.stale && Date.now() - this.checkedAt < REFRESH_MS) return;
    this.loading ??= this.reload().finally(() => {
      this.loading = null;
    });
    await this.loading;
  }

  private async reload(): Promise<void> {
    const [head] = await this.db.select({ n: count(), newest: max(alarmRules.updatedAt) }).from(alarmRules);
    const version = `${head?.n ?? 0}:${head?.newest ? new Date(head.newest).getTime() : 0}`;
    this.checkedAt = Date.now();
    if (!this.stale && version === this.version) return;
    this.stale = false;
    this.version = version;
    const rows = await this.db.select().from(alarmRules).where(eq(alarmRules.enabled, true));
    const byItem = new Map<number, RuleDef[]>();
    for (const r of rows) {
      const def: RuleDef = {
        id: r.id,
        companyId: r.companyId,
        name: r.name,
        itemId: r.itemId,
        fieldKey: r.fieldKey,
        deviceId: r.deviceId,
        condition: r.condition as RuleDef['condition'],
        levels: r.levels,
        durationS: r.durationS,
        clear: r.clear,
        recipients: r.recipients,
        channels: r.channels,
      };
      const list = byItem.get(r.itemId);
      if (list) list.push(def);
      else byItem.set(r.itemId, [def]);
    }
    this.byItem = byItem;
  }
}

/** The numeric samples of a rule's field among committed rows, oldest first. */
export function samplesOf(rule: RuleDef, rows: CommittedRow[]): AlarmSample[] {
  const out: AlarmSample[] = [];
  for (const row of rows) {
    const value = row.values[rule.fieldKey];
    if (typeof value === 'number' && Number.isFinite(value)) out.push({ value, ts: row.ts.getTime() });
  }
  return out.sort((a, b) => a.ts - b.ts);
}

/**
 * Steps every rule watching these rows in one transaction and writes what happened to the
 * alarm log. `recipientsOf` resolves who is told when an alarm opens (inside the transaction:
 * PGlite has one connection, a query outside it would wait for it forever).
 */
export async function evaluate(
  db: Db,
  index: RuleIndex,
  companyId: number,
  rowsByItem: Map<number, CommittedRow[]>,
  recipientsOf: (db: Db, rule: RuleDef) => Promise<number[]>,
): Promise<AlarmOutcome[]> {
  const work: Array<{ rule: RuleDef; samples: AlarmSample[] }> = [];
  for (const [itemId, rows] of rowsByItem) {
    for (const rule of await index.rulesOf(itemId)) {
      // an item id is one company's; a rule of another company on it cannot exist, but stay safe
      if (rule.companyId !== companyId) continue;
      const samples = samplesOf(rule, rows);
      if (samples.length > 0) work.push({ rule, samples });
    }
  }
  if (work.length === 0) return [];
  work.sort((a, b) => a.rule.id - b.rule.id);
  const now = Date.now();
  if (await quiet(db, index, work, now)) {
    index.counts.quiet++;
    return [];
  }
  index.counts.locked++;
  const written: Array<{ ruleId: number; state: AlarmState }> = [];
  const outcomes = await db.transaction(async (txDb) => {
    const tx = txDb as unknown as Db;
    await tx
      .insert(alarmRuleStates)
      .values(work.map(({ rule }) => ({ ruleId: rule.id, itemId: rule.itemId, state: INITIAL_ALARM_STATE })))
      .onConflictDoNothing();
    const locked = await tx
      .select({ ruleId: alarmRuleStates.ruleId, state: alarmRuleStates.state })
      .from(alarmRuleStates)
      .where(
        inArray(
          alarmRuleStates.ruleId,
          work.map((w) => w.rule.id),
        ),
      )
      .orderBy(alarmRuleStates.ruleId)
      .for('update');
    const states = new Map(locked.map((r) => [r.ruleId, withLastSeen(index, r.ruleId, r.state)]));
    const outcomes: AlarmOutcome[] = [];
    const updates: Array<{ ruleId: number; state: AlarmState }> = [];
    for (const { rule, samples } of work) {
      const before = states.get(rule.id);
      // deleted between the index load and now: nothing to judge
      if (!before) continue;
      let state = before;
      const events: AlarmEvent[] = [];
      for (const sample of samples) {
        const out = step(state, sample, rule, now);
        state = out.state;
        events.push(...out.events);
      }
      updates.push({ ruleId: rule.id, state });
      index.lastSeen.delete(rule.id);
      for (const event of events) {
        const outcome = await apply(tx, rule, event, recipientsOf);
        if (outcome) outcomes.push(outcome);
      }
    }
    await writeStates(tx, updates);
    written.push(...updates);
    return outcomes;
  });
  // committed: this node knows the states, the others must read them again
  const at = Date.now();
  for (const u of written) index.states.set(u.ruleId, { state: u.state, at });
  if (written.length > 0)
    index.announce?.(
      companyId,
      written.map((u) => u.ruleId),
    );
  return outcomes;
}

/**
 * The quiet path, most commits of a plant running normally: the rules' states as this node
 * knows them (read without a lock, at most STATE_TTL_MS ago, or written here since), every
 * sample stepped through a copy. When no rule would fire,
 * move or clear, nor even start or stop waiting out its duration, nothing is written: only
 * the newest sample seen is kept here (the out-of-order guard of the next locked check on this
 * node). Otherwise (or for a rate rule, whose last sample is its base) the locked path judges.
 */
async function quiet(
  db: Db,
  index: RuleIndex,
  work: Array<{ rule: RuleDef; samples: AlarmSample[] }>,
  now: number,
): Promise<boolean> {
  if (work.some((w) => w.rule.condition === 'rate')) return false;
  const unknown = work
    .map((w) => w.rule.id)
    .filter((id) => {
      const known = index.states.get(id);
      return !known || now - known.at >= STATE_TTL_MS;
    });
  if (unknown.length > 0) {
    const rows = await db
      .select({ ruleId: alarmRuleStates.ruleId, state: alarmRuleStates.state })
      .from(alarmRuleStates)
      .where(inArray(alarmRuleStates.ruleId, unknown));
    const found = new Map(rows.map((r) => [r.ruleId, r.state]));
    for (const id of unknown) index.states.set(id, { state: found.get(id) ?? INITIAL_ALARM_STATE, at: now });
  }
  const newest = new Map<number, AlarmSample>();
  for (const { rule, samples } of work) {
    const before = withLastSeen(index, rule.id, index.states.get(rule.id)?.state ?? INITIAL_ALARM_STATE);
    let state = before;
    for (const sample of samples) {
      const out = step(state, sample, rule, now);
      if (out.events.length > 0) return false;
      state = out.state;
    }
    if (state.status !== before.status || state.level !== before.level || state.since !== before.since)
      return false;
    if (state.last) newest.set(rule.id, state.last);
  }
  for (const [ruleId, last] of newest) index.lastSeen.set(ruleId, last);
  return true;
}

/** The state with the newest sample the quiet path saw on this node, when that is newer. */
function withLastSeen(index: RuleIndex, ruleId: number, state: AlarmState): AlarmState {
  const seen = index.lastSeen.get(ruleId);
  return seen && (!state.last || seen.ts > state.last.ts) ? { ...state, last: seen } : state;
}

/** All the states in one statement (one round trip however many rules a commit touched). */
async function writeStates(tx: Db, updates: Array<{ ruleId: number; state: AlarmState }>): Promise<void> {
  if (updates.length === 0) return;
  const values = sql.join(
    updates.map((u) => sql`(${u.ruleId}::integer, ${JSON.stringify(u.state)}::jsonb)`),
    sql`, `,
  );
  await tx.execute(
    sql`update ${alarmRuleStates} set state = v.state, updated_at = now() from (values ${values}) as v(rule_id, state) where ${alarmRuleStates.ruleId} = v.rule_id`,
  );
}

async function apply(
  tx: Db,
  rule: RuleDef,
  event: AlarmEvent,
  recipientsOf: (db: Db, rule: RuleDef) => Promise<number[]>,
): Promise<AlarmOutcome | null> {
  const key = {
    companyId: rule.companyId,
    origin: 'rule' as const,
    originId: rule.id,
    itemId: rule.itemId,
    deviceId: rule.deviceId,
  };
  const at = new Date(event.ts);
  if (event.type === 'fired') {
    const notified = await recipientsOf(tx, rule);
    const opened = await openAlarm(tx, {
      ...key,
      ruleId: rule.id,
      fieldKey: rule.fieldKey,
      name: rule.name,
      level: event.level,
      value: event.value,
      at,
      notified,
    });
    return {
      rule,
      event,
      alarmId: opened.id,
      status: opened.status,
      notified: opened.notified,
      created: opened.created,
    };
  }
  if (event.type === 'cleared') {
    const closed = await closeAlarm(tx, key, event.value, at, null);
    return closed
      ? { rule, event, alarmId: closed.id, status: 'cleared', notified: closed.notified, created: false }
      : null;
  }
  const moved = await moveLevel(tx, key, event.level, event.value, at);
  return moved
    ? { rule, event, alarmId: moved.id, status: moved.status, notified: moved.notified, created: false }
    : null;
}
