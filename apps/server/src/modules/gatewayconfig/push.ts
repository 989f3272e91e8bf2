/**
 * Pushing a configuration to a gateway and following it to its end (docs/gateway-config.md,
 * "Push"; the protocol's "Configuration"). The states and what moves them are the domain's
 * (config-push.ts); this file persists them, publishes what they say, and settles the entry of
 * the device's operation log that each push opens.
 *
 * Order of a push, as seed point 4 has it: the gateway must be online (nothing is saved when it
 * is not); the editor's configuration is saved first; a configuration that fails the check is
 * not pushed ("Configuration failed the check…", the person runs the check for the details);
 * one push waits for its answer at a time.
 */
import {
  type ConfigPushEvent,
  type ConfigPushState,
  canonicalConfig,
  canonicalConfigText,
  checkGatewayConfig,
  type GatewayConfig,
  hasErrors,
  nextPushState,
  type ParserValue,
  readConfigAnswer,
  withFrames,
} from '@platform/domain';
import { and, count, desc, eq, inArray, lt } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { AppError } from '../../platform/envelope';
import type { DataCaller } from '../cabin/permissions';
import type { DeviceRef } from '../devices/access';
import { logOperation, settleOperation } from '../devices/operation-log';
import type { UpMessage } from '../gateways/hub';
import { serialParsers } from '../packets/tables';
import { users } from '../users/tables';
import { checkLookups, companyLookups } from './lookups';
import { type ConfigPushRow, gatewayConfigPushes } from './tables';
import { headVersion, type SaveResult, saveVersion, sha256Hex } from './versions';

export interface PushView {
  id: number;
  version: number;
  hash: string;
  state: ConfigPushState;
  confirmWithin: number;
  pushedAt: string;
  pushedBy: { id: number; name: string } | null;
  answeredAt: string | null;
  errors: ConfigPushRow['errors'];
  runningVersion: number | null;
}

async function views(db: Db, rows: ConfigPushRow[]): Promise<PushView[]> {
  const ids = [...new Set(rows.flatMap((r) => (r.pushedBy ? [r.pushedBy] : [])))];
  const names = new Map(
    ids.length === 0
      ? []
      : (
          await db.select({ id: users.id, name: users.userName }).from(users).where(inArray(users.id, ids))
        ).map((u) => [u.id, u.name] as const),
  );
  return rows.map((r) => ({
    id: r.id,
    version: r.version,
    hash: r.hash,
    state: r.state,
    confirmWithin: r.confirmWithin,
    pushedAt: r.pushedAt.toISOString(),
    pushedBy: r.pushedBy ? { id: r.pushedBy, name: names.get(r.pushedBy) ?? '' } : null,
    answeredAt: r.answeredAt?.toISOString() ?? null,
    errors: r.errors,
    runningVersion: r.runningVersion,
  }));
}

const scope = (companyId: number, gatewayId: number) =>
  and(eq(gatewayConfigPushes.companyId, companyId), eq(gatewayConfigPushes.gatewayId, gatewayId));

export async function lastPush(db: Db, companyId: number, gatewayId: number): Promise<PushView | null> {
  const [row] = await db
    .select()
    .from(gatewayConfigPushes)
    .where(scope(companyId, gatewayId))
    .orderBy(desc(gatewayConfigPushes.id))
    .limit(1);
  return row ? (await views(db, [row]))[0]! : null;
}

export async function pushById(
  db: Db,
  companyId: number,
  gatewayId: number,
  pushId: number,
): Promise<PushView> {
  const [row] = await db
    .select()
    .from(gatewayConfigPushes)
    .where(and(scope(companyId, gatewayId), eq(gatewayConfigPushes.id, pushId)));
  if (!row) throw new AppError('notFound', {}, { field: 'pushId' });
  return (await views(db, [row]))[0]!;
}

export async function listPushes(
  db: Db,
  companyId: number,
  gatewayId: number,
  limit: number,
  offset: number,
) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(gatewayConfigPushes)
      .where(scope(companyId, gatewayId))
      .orderBy(desc(gatewayConfigPushes.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(gatewayConfigPushes).where(scope(companyId, gatewayId)),
  ]);
  return { list: await views(db, rows), total: Number(total?.n ?? 0) };
}

/**
 * The configuration as the gateway gets it: canonical, each packet's frame from its definition,
 * each parser's values from its parsing definition (by packet id).
 */
export function forGateway(
  config: GatewayConfig,
  frames: ReadonlyMap<number, string>,
  parsers: ReadonlyMap<number, readonly ParserValue[]> = new Map(),
): GatewayConfig {
  return withFrames(canonicalConfig(config), frames, parsers);
}

/** The parsing values of the packets the configuration's parser nodes name, by packet id. */
async function parsersOf(
  db: Db,
  companyId: number,
  config: GatewayConfig,
): Promise<Map<number, ParserValue[]>> {
  const ids = [
    ...new Set(config.nodes.flatMap((n) => (n.type === 'serialParser' ? [n.settings.packetId] : []))),
  ].filter((id) => Number.isSafeInteger(id));
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ packageId: serialParsers.packageId, values: serialParsers.values })
    .from(serialParsers)
    .where(and(eq(serialParsers.companyId, companyId), inArray(serialParsers.packageId, ids)));
  return new Map(rows.map((r) => [r.packageId, r.values]));
}

export async function pushConfig(
  app: App,
  caller: DataCaller,
  device: DeviceRef,
  baseVersion: number | null,
  config: GatewayConfig | undefined,
): Promise<{ push: PushView; saved: SaveResult }> {
  const db = app.db;
  if (!device.online) throw new AppError('gatewayOfflineConfig');
  const who = { companyId: caller.companyId, userId: caller.userId };
  let saved: SaveResult;
  if (config) {
    saved = await saveVersion(db, who, device.id, baseVersion, config);
  } else {
    const head = await headVersion(db, who, device.id);
    if (!head) throw new AppError('configNothingSaved', {}, { field: 'baseVersion' });
    if (head.version !== baseVersion) {
      // pushing what the page showed, not what someone saved since
      saved = await saveVersion(db, who, device.id, baseVersion, head.config);
    } else saved = { version: head.version, hash: head.hash, created: false };
  }
  const head = (await headVersion(db, who, device.id))!;
  const lookups = await companyLookups(db, caller);
  if (hasErrors(checkGatewayConfig(head.config, checkLookups(lookups))))
    throw new AppError('configCheckFailed');

  const [waiting] = await db
    .select({ version: gatewayConfigPushes.version })
    .from(gatewayConfigPushes)
    .where(and(scope(caller.companyId, device.id), eq(gatewayConfigPushes.state, 'waiting')))
    .limit(1);
  if (waiting) throw new AppError('configPushWaiting', { version: waiting.version });

  const frames = new Map(lookups.packages.map((p) => [p.id, p.frame]));
  const pushed = forGateway(head.config, frames, await parsersOf(db, caller.companyId, head.config));
  const hash = sha256Hex(canonicalConfigText(pushed));
  const confirmWithin = app.config.configConfirmWithinS;
  const now = new Date();
  const operationId = await logOperation(db, {
    companyId: caller.companyId,
    gatewayId: device.id,
    kind: 'config',
    actor: { userId: caller.userId },
    result: 'pending',
    data: { version: head.version, hash, state: 'waiting' },
  });
  const [row] = await db
    .insert(gatewayConfigPushes)
    .values({
      companyId: caller.companyId,
      gatewayId: device.id,
      version: head.version,
      hash,
      confirmWithin,
      operationId,
      pushedBy: caller.userId,
      pushedAt: now,
      deadline: new Date(now.getTime() + confirmWithin * 1000),
    })
    .returning();
  try {
    await app.gateways.send(device.serialNumber, 'config', {
      version: head.version,
      hash,
      confirmWithin,
      config: pushed,
    });
  } catch (error) {
    await db.delete(gatewayConfigPushes).where(eq(gatewayConfigPushes.id, row!.id));
    await settleOperation(db, operationId, 'failed', {
      data: { version: head.version, hash, state: 'notSent' },
    });
    app.log.warn({ err: error, gateway: device.serialNumber }, 'configuration push not published');
    throw new AppError('mqttBrokerUnavailableGateway');
  }
  return { push: (await views(db, [row!]))[0]!, saved };
}

const LOG_RESULT: Partial<Record<ConfigPushState, 'ok' | 'failed'>> = {
  committed: 'ok',
  unchanged: 'ok',
  rejected: 'failed',
  rolledBack: 'failed',
  noAnswer: 'failed',
};

/** Moves a push by an event, if it still is where it was read; true when it moved. */
async function move(
  app: App,
  row: ConfigPushRow,
  event: ConfigPushEvent,
  extra: Partial<Pick<ConfigPushRow, 'errors' | 'runningVersion' | 'answeredAt'>> = {},
): Promise<{ moved: boolean; state: ConfigPushState; send?: 'commit' }> {
  const step = nextPushState(row.state, event);
  if (!step) return { moved: false, state: row.state };
  // the push's new state and its line in the operation log commit together
  const moved = await app.db.transaction(async (tx) => {
    const updated = await tx
      .update(gatewayConfigPushes)
      .set({ state: step.state, ...extra })
      .where(and(eq(gatewayConfigPushes.id, row.id), eq(gatewayConfigPushes.state, row.state)))
      .returning({ id: gatewayConfigPushes.id });
    if (updated.length === 0) return false;
    const result = LOG_RESULT[step.state];
    if (result && row.operationId != null && step.state !== row.state) {
      // the log's detail is the gateway's own words (its reasons for a rejection); what the
      // platform knows goes in data, which the log page says in the reader's language
      const errors = extra.errors ?? [];
      await settleOperation(tx, row.operationId, result, {
        ...(errors.length > 0
          ? {
              detail: errors
                .map((e) =>
                  [[e.node, e.field].filter(Boolean).join('.'), e.message].filter(Boolean).join(': '),
                )
                .join('; '),
            }
          : {}),
        data: {
          version: row.version,
          hash: row.hash,
          state: step.state,
          ...(extra.runningVersion != null ? { runningVersion: extra.runningVersion } : {}),
        },
      });
    }
    return true;
  });
  if (!moved) return { moved: false, state: row.state };
  return { moved: true, state: step.state, ...(step.send ? { send: step.send } : {}) };
}

/** up/config: the gateway's answer to a push, matched by version and hash. */
export function configAnswerHandler(app: App) {
  return async (message: UpMessage): Promise<void> => {
    const { gateway } = message;
    if (gateway.companyId === null) return;
    const answer = readConfigAnswer(message.payload);
    if (!answer) return;
    const [row] = await app.db
      .select()
      .from(gatewayConfigPushes)
      .where(
        and(
          scope(gateway.companyId, gateway.id),
          eq(gatewayConfigPushes.version, answer.version),
          eq(gatewayConfigPushes.hash, answer.hash),
        ),
      )
      .orderBy(desc(gatewayConfigPushes.id))
      .limit(1);
    if (!row) return;
    const step = await move(
      app,
      row,
      { kind: 'answer', result: answer.result },
      {
        answeredAt: row.answeredAt ?? message.receivedAt,
        ...(answer.result === 'rejected' ? { errors: answer.errors } : {}),
        ...(answer.result === 'rolledBack' ? { runningVersion: answer.runningVersion } : {}),
      },
    );
    if (step.send !== 'commit') return;
    try {
      await app.gateways.send(gateway.serialNumber, 'config/commit', {
        version: row.version,
        hash: row.hash,
      });
    } catch (error) {
      // not committed: the gateway goes back by itself and reports it
      app.log.warn({ err: error, gateway: gateway.serialNumber }, 'configuration commit not published');
      return;
    }
    await move(app, { ...row, state: step.state }, { kind: 'commitSent' });
  };
}

/** Pushes whose gateway did not answer by their deadline end as noAnswer (run by every node; each row moves once). */
export async function sweepDeadlines(app: App, now = new Date()): Promise<number> {
  const rows = await app.db
    .select()
    .from(gatewayConfigPushes)
    .where(and(eq(gatewayConfigPushes.state, 'waiting'), lt(gatewayConfigPushes.deadline, now)))
    .limit(500);
  let moved = 0;
  for (const row of rows) if ((await move(app, row, { kind: 'deadline' })).moved) moved++;
  return moved;
}
