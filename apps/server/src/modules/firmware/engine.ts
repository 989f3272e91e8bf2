/**
 * Following firmware upgrades to their end (docs/firmware.md). The domain's state machine
 * (packages/domain devices/upgrade.ts) decides every move; this file feeds it the events (the
 * gateway's reports on up/firmware, its going offline and coming back, the deadlines passing),
 * persists what it says, publishes the order, and tells the device pages.
 *
 * - Every move is a conditional update on the row's `rev`: a report racing a timer, or two
 *   server nodes, never both move one upgrade.
 * - The deadlines are columns, so a sweep on any node ends an upgrade whose gateway went quiet,
 *   after a restart too: live upgrades carry on when their gateway keeps reporting, or end by
 *   a named timeout. Nothing waits forever.
 * - At most `firmwareMaxDispatch` upgrades are held by gateways at once; the others wait queued
 *   and go out oldest first as upgrades end. (The count is per database, the dispatching is per
 *   node: with several nodes the limit can be passed by at most the number of nodes at once.)
 */
import {
  dueTimeout,
  nextUpgradeState,
  readFirmwareReport,
  UPGRADE_IN_FLIGHT,
  UPGRADE_LIVE,
  type UpgradeEvent,
  type UpgradeTimeouts,
  upgradeDeadlines,
} from '@platform/domain';
import { and, asc, count, eq, inArray, lte, or } from 'drizzle-orm';
import type { App } from '../../platform/context';
import { isUniqueViolation } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import { logOperation, settleOperation } from '../devices/operation-log';
import type { StateChange, UpMessage } from '../gateways/hub';
import { gateways } from '../gateways/tables';
import { downloadLink } from './links';
import { type FirmwareVersionRow, firmwareUpgrades, firmwareVersions, type UpgradeRow } from './tables';
import { upgradeViews } from './views';

export interface StartInput {
  companyId: number;
  userId: number;
  gatewayId: number;
  version: FirmwareVersionRow;
  fromVersion: string | null;
  linkBase: string;
  batchId?: number | null;
}

export class FirmwareEngine {
  #pumpChain: Promise<void> = Promise.resolve();
  #publishChain: Promise<void> = Promise.resolve();
  #sweepTimer: NodeJS.Timeout | null = null;

  constructor(private readonly app: App) {}

  timeouts(): UpgradeTimeouts {
    const c = this.app.config;
    return {
      ack: c.firmwareAckTimeoutS,
      progress: c.firmwareProgressTimeoutS,
      total: c.firmwareTotalTimeoutS,
    };
  }

  /** Wires the gateway messages, the presence changes and the sweep (hooks on `scope`, the module's plugin). */
  attach(scope: App): void {
    this.app.gateways.onUp('firmware', (message) => this.report(message));
    this.app.gateways.onState((change) => this.presence(change));
    const t = this.timeouts();
    const shortest = Math.min(t.ack, t.progress, t.total) * 1000;
    const every = Math.max(200, Math.min(5000, shortest / 4));
    this.#sweepTimer = setInterval(() => {
      this.sweep().catch((error: unknown) =>
        this.app.log.warn({ err: error }, 'firmware upgrade sweep failed'),
      );
    }, every);
    this.#sweepTimer.unref();
    // after a restart: queued upgrades go out, those whose deadline passed while down end
    scope.addHook('onReady', async () => {
      await this.sweep().catch((error: unknown) =>
        this.app.log.warn({ err: error }, 'firmware upgrade sweep failed'),
      );
    });
    scope.addHook('onClose', async () => {
      if (this.#sweepTimer) clearInterval(this.#sweepTimer);
      await this.#pumpChain;
    });
  }

  /** Opens an upgrade (queued), logs it, and dispatches what the limit allows. */
  async start(input: StartInput, opts: { dispatch?: boolean } = {}): Promise<UpgradeRow> {
    const db = this.app.db;
    let row: UpgradeRow;
    try {
      // the upgrade and its line in the operation log commit together: no pass of the pump
      // dispatches an upgrade before it is logged and told as queued
      row = await db.transaction(async (tx) => {
        const [opened] = (await tx
          .insert(firmwareUpgrades)
          .values({
            companyId: input.companyId,
            gatewayId: input.gatewayId,
            versionId: input.version.id,
            batchId: input.batchId ?? null,
            version: input.version.version,
            fromVersion: input.fromVersion,
            timeouts: this.timeouts(),
            linkBase: input.linkBase,
            createdBy: input.userId,
          })
          .returning()) as [UpgradeRow];
        const operationId = await logOperation(tx, {
          companyId: input.companyId,
          gatewayId: input.gatewayId,
          kind: 'upgrade',
          actor: { userId: input.userId },
          result: 'pending',
          data: {
            version: opened.version,
            fromVersion: opened.fromVersion,
            upgradeId: opened.id,
            state: 'queued',
          },
        });
        await tx.update(firmwareUpgrades).set({ operationId }).where(eq(firmwareUpgrades.id, opened.id));
        return { ...opened, operationId };
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const [live] = await db
        .select({ id: firmwareUpgrades.id })
        .from(firmwareUpgrades)
        .where(
          and(
            eq(firmwareUpgrades.gatewayId, input.gatewayId),
            inArray(firmwareUpgrades.state, [...UPGRADE_LIVE]),
          ),
        );
      throw new AppError('upgradeLive', {}, { upgradeId: live?.id ?? null });
    }
    await this.#publish(row);
    if (opts.dispatch === false) return row;
    await this.pump();
    const [now] = await db.select().from(firmwareUpgrades).where(eq(firmwareUpgrades.id, row.id));
    return now ?? row;
  }

  /** Dispatches queued upgrades while the limit allows (one pass at a time on this node). */
  pump(): Promise<void> {
    const next = this.#pumpChain.then(() => this.#pumpOnce());
    this.#pumpChain = next.catch((error: unknown) =>
      this.app.log.warn({ err: error }, 'firmware upgrade dispatch failed'),
    );
    return this.#pumpChain;
  }

  async #pumpOnce(): Promise<void> {
    const db = this.app.db;
    for (;;) {
      const [held] = await db
        .select({ n: count() })
        .from(firmwareUpgrades)
        .where(inArray(firmwareUpgrades.state, [...UPGRADE_IN_FLIGHT]));
      const free = this.app.config.firmwareMaxDispatch - Number(held?.n ?? 0);
      if (free <= 0) return;
      const queued = await db
        .select()
        .from(firmwareUpgrades)
        .where(eq(firmwareUpgrades.state, 'queued'))
        .orderBy(asc(firmwareUpgrades.id))
        .limit(free);
      if (queued.length === 0) return;
      for (const row of queued) await this.#dispatch(row);
    }
  }

  async #dispatch(row: UpgradeRow): Promise<void> {
    const db = this.app.db;
    const [gateway] = await db
      .select({ online: gateways.online, sn: gateways.serialNumber })
      .from(gateways)
      .where(eq(gateways.id, row.gatewayId));
    if (!gateway?.online) {
      await this.move(row, { kind: 'offline' });
      return;
    }
    const [version] =
      row.versionId === null
        ? []
        : await db.select().from(firmwareVersions).where(eq(firmwareVersions.id, row.versionId));
    if (!version) {
      await this.move(row, { kind: 'notSent' }, { detail: 'the version was deleted' });
      return;
    }
    const sent = await this.move(row, { kind: 'dispatch' });
    if (!sent) return;
    try {
      await this.app.gateways.send(gateway.sn, 'firmware', {
        upgradeId: sent.id,
        version: version.version,
        url: downloadLink(this.app, sent),
        size: version.size,
        sha256: version.sha256,
        timeouts: sent.timeouts,
      });
    } catch (error) {
      this.app.log.warn({ err: error, gateway: gateway.sn }, 'firmware order not published');
      await this.move(sent, { kind: 'notSent' });
    }
  }

  /**
   * Moves an upgrade by an event if it still is as read; the moved row, or null when the
   * state machine refused the event or someone else moved it first.
   */
  async move(
    row: UpgradeRow,
    event: UpgradeEvent,
    extra: { detail?: string } = {},
  ): Promise<UpgradeRow | null> {
    const step = nextUpgradeState({ state: row.state, progress: row.progress }, event);
    if (!step) return null;
    const now = new Date();
    const deadlines = upgradeDeadlines(
      step,
      { ack: row.ackDeadline, progress: row.progressDeadline, total: row.totalDeadline },
      row.timeouts,
      now,
    );
    const ended = step.state === 'success' || step.state === 'failed';
    // the end of an upgrade and its line in the operation log commit together: whoever reads
    // the upgrade as ended reads the log settled too
    const moved = await this.app.db.transaction(async (tx) => {
      const [done] = await tx
        .update(firmwareUpgrades)
        .set({
          state: step.state,
          progress: step.progress,
          reason: step.reason,
          ...(extra.detail !== undefined ? { detail: [...extra.detail].slice(0, 300).join('') } : {}),
          rev: row.rev + 1,
          updatedAt: now,
          ...(step.state === 'dispatched' ? { dispatchedAt: now } : {}),
          ...(ended ? { endedAt: now } : {}),
          ackDeadline: deadlines.ack,
          progressDeadline: deadlines.progress,
          totalDeadline: deadlines.total,
        })
        .where(and(eq(firmwareUpgrades.id, row.id), eq(firmwareUpgrades.rev, row.rev)))
        .returning();
      if (done && ended && done.operationId !== null) {
        await settleOperation(tx, done.operationId, done.state === 'success' ? 'ok' : 'failed', {
          ...(done.detail ? { detail: done.detail } : {}),
          data: {
            version: done.version,
            fromVersion: done.fromVersion,
            upgradeId: done.id,
            state: done.state,
            ...(done.reason ? { reason: done.reason } : {}),
          },
        });
      }
      return done;
    });
    if (!moved) return null;
    if (ended) {
      // a place is free: the next queued upgrade goes out (not awaited: this may run in the
      // gateway's message queue, and the dispatch sends to other gateways)
      void this.pump();
    }
    await this.#publish(moved);
    return moved;
  }

  /**
   * Tells the device pages of a move. The views are read at once but told in the order the
   * moves were made: a dispatch by the sweep's pass never overtakes the "queued" of the
   * upgrade it dispatched, however the database answers the two reads.
   */
  #publish(row: UpgradeRow): Promise<void> {
    const views = upgradeViews(this.app.db, [row], null);
    const told = this.#publishChain.then(async () => {
      const [view] = await views;
      if (!view) return;
      this.app.live.publishDevice({
        type: 'upgrade',
        companyId: row.companyId,
        gatewayId: row.gatewayId,
        upgrade: { ...view },
      });
    });
    this.#publishChain = told.catch(() => undefined);
    return told;
  }

  /** up/firmware: a report of the gateway about one of its upgrades. */
  async report(message: UpMessage): Promise<void> {
    const report = readFirmwareReport(message.payload);
    if (!report) return;
    const [row] = await this.app.db
      .select()
      .from(firmwareUpgrades)
      .where(
        and(eq(firmwareUpgrades.id, report.upgradeId), eq(firmwareUpgrades.gatewayId, message.gateway.id)),
      );
    if (!row) return;
    await this.move(row, report.event, report.detail !== null ? { detail: report.detail } : {});
  }

  /** A gateway went offline or came back (its birth message names the firmware it runs). */
  async presence({ before, after }: StateChange): Promise<void> {
    const wentOffline = before.online && !after.online;
    const cameBack =
      after.online &&
      (!before.online || before.session !== after.session || before.firmware !== after.firmware);
    if (!wentOffline && !cameBack) return;
    const [row] = await this.app.db
      .select()
      .from(firmwareUpgrades)
      .where(
        and(eq(firmwareUpgrades.gatewayId, after.id), inArray(firmwareUpgrades.state, [...UPGRADE_LIVE])),
      );
    if (!row) return;
    if (wentOffline) {
      await this.move(row, { kind: 'offline' });
      return;
    }
    await this.move(
      row,
      { kind: 'online', firmware: after.firmware, target: row.version },
      after.firmware === row.version
        ? {}
        : { detail: `running ${after.firmware ?? 'no version'} after the reboot` },
    );
  }

  /** Ends upgrades whose deadline passed, then dispatches what the limit allows; the number ended. */
  async sweep(now = new Date()): Promise<number> {
    const rows = await this.app.db
      .select()
      .from(firmwareUpgrades)
      .where(
        and(
          inArray(firmwareUpgrades.state, [...UPGRADE_IN_FLIGHT]),
          or(
            lte(firmwareUpgrades.ackDeadline, now),
            lte(firmwareUpgrades.progressDeadline, now),
            lte(firmwareUpgrades.totalDeadline, now),
          ),
        ),
      )
      .limit(500);
    let ended = 0;
    for (const row of rows) {
      const due = dueTimeout(
        { ack: row.ackDeadline, progress: row.progressDeadline, total: row.totalDeadline },
        now,
      );
      if (due && (await this.move(row, { kind: 'timeout', timeout: due }))) ended++;
    }
    await this.pump();
    return ended;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** firmware upgrades in progress (modules/firmware/engine.ts) */
    firmware: FirmwareEngine;
  }
}
