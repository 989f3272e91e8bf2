/**
 * A device's operation log (/operationLog/{deviceId}/…): who did what to it (bind, unbind,
 * edit, configuration push, firmware upgrade, command, passthrough) and what it reported
 * (up/event). Rows belong to the company that owned the device then: another company binding
 * the gateway later sees none of them. The other device features write through `logOperation`.
 */
import { GATEWAY_EVENTS, type OperationKind, type OperationResult } from '@platform/domain';
import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import type { UpMessage } from '../gateways/hub';
import { simChangedEvent } from '../sims/gateway-link';
import { users } from '../users/tables';
import { deviceOperations } from './tables';

export type Actor = { userId: number } | 'device' | 'system';

export interface Operation {
  companyId: number;
  gatewayId: number;
  kind: OperationKind;
  actor: Actor;
  result?: OperationResult;
  /**
   * free text from outside (a gateway's words, an error it reported), at most 500 characters;
   * what the platform itself knows goes in `data`, which the pages show in their language
   */
  detail?: string;
  /** structured detail the pages show (fields changed, version numbers, ports…) */
  data?: Record<string, unknown> | null;
  at?: Date;
}

/** Writes one entry; returns its id (to update its result later, e.g. an upgrade). */
export async function logOperation(db: Db, op: Operation): Promise<number> {
  const [row] = await db
    .insert(deviceOperations)
    .values({
      companyId: op.companyId,
      gatewayId: op.gatewayId,
      kind: op.kind,
      actorType: typeof op.actor === 'object' ? 'user' : op.actor,
      userId: typeof op.actor === 'object' ? op.actor.userId : null,
      result: op.result ?? 'ok',
      detail: [...(op.detail ?? '')].slice(0, 500).join(''),
      data: op.data ?? null,
      at: op.at ?? new Date(),
    })
    .returning({ id: deviceOperations.id });
  return row!.id;
}

/** Sets the result (and optionally detail and data) of an entry written earlier as pending. */
export async function settleOperation(
  db: Db,
  id: number,
  result: OperationResult,
  more: { detail?: string; data?: Record<string, unknown> } = {},
): Promise<void> {
  await db
    .update(deviceOperations)
    .set({
      result,
      ...(more.detail !== undefined ? { detail: [...more.detail].slice(0, 500).join('') } : {}),
      ...(more.data !== undefined ? { data: more.data } : {}),
    })
    .where(eq(deviceOperations.id, id));
}

export interface LogQuery {
  kind?: OperationKind;
  from?: Date;
  to?: Date;
  limit: number;
  offset: number;
}

export async function readLog(db: Db, companyId: number, gatewayId: number, query: LogQuery) {
  const where = and(
    eq(deviceOperations.companyId, companyId),
    eq(deviceOperations.gatewayId, gatewayId),
    ...([
      query.kind ? eq(deviceOperations.kind, query.kind) : undefined,
      query.from ? gte(deviceOperations.at, query.from) : undefined,
      query.to ? lt(deviceOperations.at, query.to) : undefined,
    ].filter(Boolean) as SQL[]),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ op: deviceOperations, userName: users.userName })
      .from(deviceOperations)
      .leftJoin(users, eq(users.id, deviceOperations.userId))
      .where(where)
      .orderBy(desc(deviceOperations.at), desc(deviceOperations.id))
      .limit(query.limit)
      .offset(query.offset),
    db.select({ n: count() }).from(deviceOperations).where(where),
  ]);
  return {
    list: rows.map(({ op, userName }) => ({
      id: op.id,
      kind: op.kind,
      at: op.at.toISOString(),
      result: op.result,
      actor:
        op.actorType === 'user'
          ? { type: 'user' as const, id: op.userId, name: userName }
          : { type: op.actorType as 'device' | 'system' },
      detail: op.detail,
      data: op.data ?? null,
    })),
    total: Number(total?.n ?? 0),
  };
}

/** events a gateway may log per minute; a flood beyond is counted and dropped */
export const EVENTS_PER_MINUTE = 60;
const EVENT_NAME = /^[A-Za-z][A-Za-z0-9]{0,31}$/;

/** up/event: `{"event", "port"?, "detail"?}` lands in the log of the company that bound the gateway. */
export function eventHandler(app: App) {
  const windows = new Map<number, { start: number; n: number }>();
  return async (message: UpMessage): Promise<void> => {
    const { gateway, receivedAt } = message;
    if (gateway.companyId === null) return;
    const payload = message.payload as Record<string, unknown>;
    const event = payload.event;
    if (typeof event !== 'string' || !EVENT_NAME.test(event)) return;
    const now = receivedAt.getTime();
    const window = windows.get(gateway.id);
    if (window && now - window.start < 60_000) {
      if (window.n >= EVENTS_PER_MINUTE) return;
      window.n += 1;
    } else {
      windows.set(gateway.id, { start: now, n: 1 });
      if (windows.size > 50_000) windows.clear();
    }
    const port = Number.isSafeInteger(payload.port) ? (payload.port as number) : null;
    const detail = typeof payload.detail === 'string' ? payload.detail.slice(0, 400) : '';
    await logOperation(app.db, {
      companyId: gateway.companyId,
      gatewayId: gateway.id,
      kind: 'event',
      actor: 'device',
      result: event === 'portError' ? 'failed' : 'ok',
      // the gateway's own words; the page names the event and port from `data` in its language
      detail,
      data: {
        event,
        known: (GATEWAY_EVENTS as readonly string[]).includes(event),
        ...(port !== null ? { port } : {}),
        ...(detail ? { detail } : {}),
      },
      at: receivedAt,
    });
    // the card the event names is now in this gateway (SIM cards: modules/sims/gateway-link.ts)
    if (event === 'simChanged' && detail) await simChangedEvent(app, gateway, detail, receivedAt);
  };
}
