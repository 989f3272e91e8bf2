/**
 * Binding a gateway to a company (docs/devices.md, "Binding"). Every transition goes through
 * the domain's state machine (packages/domain devices/binding.ts); this file reads the state,
 * asks the machine, and persists what it answers, under a row lock on the gateway so two
 * requests, a confirmation and an expiry never interleave.
 *
 * The confirmation comes only from the gateway's own connection (`up/bind`: the broker lets no
 * other client publish there), never from a browser. The outcome goes back on `down/bind`.
 */
import { randomBytes } from 'node:crypto';
import {
  type BindingEffect,
  type BindingEvent,
  type BindingState,
  bindingTransition,
  checkCabinName,
  DATA_PERMISSION,
  normalizeSerialNumber,
  secondsLeft,
} from '@platform/domain';
import { and, desc, eq } from 'drizzle-orm';
import type { App } from '../../platform/context';
import type { Db } from '../../platform/db';
import { AppError, assertField, fieldError } from '../../platform/envelope';
import { type DataCaller, requireLevel } from '../cabin/permissions';
import { nodeFor } from '../cabin/service';
import { cabinNodes } from '../cabin/tables';
import { companies } from '../companies/tables';
import type { UpMessage } from '../gateways/hub';
import { type GatewayRow, gateways } from '../gateways/tables';
import { deviceFor } from './access';
import { logOperation } from './operation-log';
import { bindRequests, devices } from './tables';

type RequestRow = typeof bindRequests.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

function stateOf(gateway: GatewayRow, waiting: RequestRow | null): BindingState {
  if (gateway.companyId !== null) return { state: 'bound', companyId: gateway.companyId };
  if (waiting)
    return {
      state: 'awaiting',
      requestId: waiting.id,
      companyId: waiting.companyId,
      expiresAt: waiting.expiresAt.getTime(),
    };
  return { state: 'unbound' };
}

/** The gateway, locked for the transaction, and its latest waiting request. */
async function lockedState(
  tx: Tx,
  where: { serialNumber: string } | { id: number },
): Promise<{ gateway: GatewayRow; waiting: RequestRow | null } | null> {
  const [gateway] = await tx
    .select()
    .from(gateways)
    .where('id' in where ? eq(gateways.id, where.id) : eq(gateways.serialNumber, where.serialNumber))
    .for('update');
  if (!gateway) return null;
  const [waiting] = await tx
    .select()
    .from(bindRequests)
    .where(and(eq(bindRequests.gatewayId, gateway.id), eq(bindRequests.status, 'waiting')))
    .orderBy(desc(bindRequests.createdAt))
    .limit(1);
  return { gateway, waiting: waiting ?? null };
}

function refused(result: ReturnType<typeof bindingTransition>): never {
  if (result.ok) throw new Error('not a refusal');
  throw new AppError(result.error);
}

/**
 * Makes the gateway the company's device: its node in the data cabin (under `parentId` when
 * that is still one of the company's directories, else at the top), the company's device row
 * (kept from an earlier binding by the same company, with its records), and the registry's
 * binding. Used by the confirmation, and by the demo seed.
 */
export async function bindNow(
  tx: Tx | Db,
  input: {
    gatewayId: number;
    companyId: number;
    userId: number | null;
    name: string;
    parentId: number | null;
    at: Date;
  },
): Promise<{ nodeId: number }> {
  let parentId = input.parentId;
  if (parentId !== null) {
    const [parent] = await tx
      .select({ type: cabinNodes.type })
      .from(cabinNodes)
      .where(and(eq(cabinNodes.id, parentId), eq(cabinNodes.companyId, input.companyId)));
    if (parent?.type !== 'directory') parentId = null;
  }
  const [node] = await tx
    .insert(cabinNodes)
    .values({
      companyId: input.companyId,
      parentId,
      type: 'device',
      name: input.name,
      refId: input.gatewayId,
      createdBy: input.userId,
      createdAt: input.at,
      updatedAt: input.at,
    })
    .returning({ id: cabinNodes.id });
  await tx
    .insert(devices)
    .values({
      companyId: input.companyId,
      gatewayId: input.gatewayId,
      nodeId: node!.id,
      name: input.name,
      firstBoundAt: input.at,
      boundAt: input.at,
      boundBy: input.userId,
      updatedAt: input.at,
    })
    .onConflictDoUpdate({
      target: [devices.companyId, devices.gatewayId],
      set: {
        nodeId: node!.id,
        name: input.name,
        boundAt: input.at,
        boundBy: input.userId,
        updatedAt: input.at,
      },
    });
  await tx
    .update(gateways)
    .set({
      companyId: input.companyId,
      boundAt: input.at,
      telemetryOk: 0,
      telemetryRefused: 0,
      telemetryDropped: 0,
      telemetryAt: null,
      lastRefusal: null,
    })
    .where(eq(gateways.id, input.gatewayId));
  return { nodeId: node!.id };
}

export interface BindStatus {
  requestId: string;
  state: 'waiting' | 'bound' | 'expired' | 'cancelled';
  secondsLeft: number;
  expiresAt: string;
  deviceId: number | null;
}

export class Binding {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  #closed = false;

  constructor(private readonly app: App) {}

  get ttlMs(): number {
    return this.app.config.bindRequestTtlS * 1000;
  }

  /** Handles up/bind, expires what expired while the server was away, and arms the timers of the rest. */
  async attach(): Promise<void> {
    this.app.gateways.onUp('bind', (message) => this.confirm(message));
    this.app.addHook('onClose', async () => {
      this.#closed = true;
      for (const timer of this.#timers.values()) clearTimeout(timer);
      this.#timers.clear();
    });
  }

  /** Called once the app is ready: requests that outlived the server expire, the others get their timers. */
  async resume(): Promise<void> {
    const waiting = await this.app.db
      .select({ id: bindRequests.id, expiresAt: bindRequests.expiresAt })
      .from(bindRequests)
      .where(eq(bindRequests.status, 'waiting'));
    for (const request of waiting) this.#arm(request.id, request.expiresAt.getTime());
  }

  #arm(requestId: string, expiresAt: number): void {
    if (this.#closed) return;
    clearTimeout(this.#timers.get(requestId));
    const timer = setTimeout(
      () => {
        this.#timers.delete(requestId);
        void this.expire(requestId).catch((error) =>
          this.app.log.error({ err: error }, 'bind request expiry failed'),
        );
      },
      Math.max(0, expiresAt - Date.now()) + 5,
    );
    timer.unref();
    this.#timers.set(requestId, timer);
  }

  #disarm(requestId: string): void {
    clearTimeout(this.#timers.get(requestId));
    this.#timers.delete(requestId);
  }

  /** Tells the gateway and the company's pages how a request ended. */
  async #announce(
    gateway: GatewayRow,
    request: RequestRow,
    state: 'bound' | 'expired' | 'cancelled',
    publish = true,
  ): Promise<void> {
    this.#disarm(request.id);
    if (publish) {
      await this.app.gateways
        .send(gateway.serialNumber, 'bind', { requestId: request.id, result: state })
        .catch((error) =>
          this.app.log.warn({ err: error }, 'could not tell a gateway how its bind request ended'),
        );
    }
    this.app.live.publishDevice({
      type: 'bind',
      companyId: request.companyId,
      gatewayId: gateway.id,
      requestId: request.id,
      userId: request.userId,
      state,
      deviceId: state === 'bound' ? gateway.id : null,
    });
  }

  /** A company asks to bind a gateway by its serial number; the gateway is told to wait for its button. */
  async request(
    caller: DataCaller,
    input: { serialNumber?: string; name?: string; parentId?: number | null },
  ): Promise<{ requestId: string; expiresAt: string; secondsLeft: number }> {
    const sn = normalizeSerialNumber(input.serialNumber);
    if (!sn)
      throw fieldError('serialNumber', input.serialNumber?.trim() ? 'serialNumberInvalid' : 'fieldRequired');
    const name = (input.name ?? '').trim();
    assertField('name', checkCabinName(name));
    if (input.parentId == null) throw fieldError('parentId', 'parentRequired');
    const parent = await nodeFor(this.app.db, caller, input.parentId, DATA_PERMISSION.read, 'parentId');
    if (parent.type !== 'directory') throw fieldError('parentId', 'parentRequired');
    await requireLevel(this.app.db, caller, parent.id, DATA_PERMISSION.write, 'parentId');

    const requestId = randomBytes(16).toString('hex');
    const now = Date.now();
    const outcome = await this.app.db.transaction(async (tx) => {
      const found = await lockedState(tx, { serialNumber: sn });
      const event: BindingEvent = {
        type: 'request',
        companyId: caller.companyId,
        requestId,
        online: found?.gateway.online ?? false,
        now,
        ttlMs: this.ttlMs,
      };
      const result = bindingTransition(found ? stateOf(found.gateway, found.waiting) : null, event);
      if (!result.ok) refused(result);
      const effect = result.effect as Extract<BindingEffect, { kind: 'requested' }>;
      const { gateway, waiting } = found!;
      if (waiting && effect.replaced === waiting.id) {
        // replaced: the company's own older request, or anyone's that already expired
        const ended = waiting.expiresAt.getTime() <= now ? 'expired' : 'cancelled';
        await tx
          .update(bindRequests)
          .set({ status: ended, resolvedAt: new Date(now) })
          .where(eq(bindRequests.id, waiting.id));
      }
      const [row] = await tx
        .insert(bindRequests)
        .values({
          id: requestId,
          gatewayId: gateway.id,
          companyId: caller.companyId,
          userId: caller.userId,
          name,
          parentId: parent.id,
          status: 'waiting',
          expiresAt: new Date(effect.expiresAt),
          createdAt: new Date(now),
        })
        .returning();
      const [company] = await tx
        .select({ name: companies.displayName })
        .from(companies)
        .where(eq(companies.id, caller.companyId));
      return { gateway, waiting, request: row!, companyName: company?.name ?? '' };
    });
    const { gateway, waiting, request, companyName } = outcome;
    if (waiting) {
      const ended = waiting.expiresAt.getTime() <= now ? 'expired' : 'cancelled';
      await this.#announce(gateway, waiting, ended, false);
    }
    try {
      await this.app.gateways.send(gateway.serialNumber, 'bind', {
        requestId,
        company: companyName,
        expiresAt: request.expiresAt.toISOString(),
      });
    } catch (error) {
      this.app.log.error({ err: error }, 'could not send a bind request to a gateway');
      await this.app.db
        .update(bindRequests)
        .set({ status: 'cancelled', resolvedAt: new Date() })
        .where(eq(bindRequests.id, requestId));
      throw new AppError('mqttBrokerUnavailableGateway');
    }
    this.#arm(requestId, request.expiresAt.getTime());
    return {
      requestId,
      expiresAt: request.expiresAt.toISOString(),
      secondsLeft: secondsLeft(request.expiresAt.getTime(), Date.now()),
    };
  }

  /** up/bind: the person at the gateway pressed its button. */
  async confirm(message: UpMessage): Promise<void> {
    const requestId = (message.payload as { requestId?: unknown }).requestId;
    // a press without a waiting request is ignored (the protocol)
    if (typeof requestId !== 'string' || !/^[0-9a-f]{32}$/.test(requestId)) return;
    const now = message.receivedAt;
    const done = await this.app.db.transaction(async (tx) => {
      const found = await lockedState(tx, { id: message.gateway.id });
      if (!found) return null;
      const result = bindingTransition(stateOf(found.gateway, found.waiting), {
        type: 'confirm',
        requestId,
        now: now.getTime(),
      });
      if (!result.ok) return { refused: result.error, found };
      const request = found.waiting!;
      await tx
        .update(bindRequests)
        .set({ status: 'bound', resolvedAt: now })
        .where(eq(bindRequests.id, request.id));
      await bindNow(tx, {
        gatewayId: found.gateway.id,
        companyId: request.companyId,
        userId: request.userId,
        name: request.name,
        parentId: request.parentId,
        at: now,
      });
      return { refused: null, found };
    });
    if (!done) return;
    const { gateway, waiting } = done.found;
    if (done.refused) {
      this.app.log.debug({ sn: gateway.serialNumber, reason: done.refused }, 'bind confirmation ignored');
      // a late press: the request ends now if its timer has not ended it yet
      if (done.refused === 'bindRequestExpired') await this.expire(requestId);
      return;
    }
    const request = waiting!;
    this.app.gateways.forget(gateway.serialNumber);
    await logOperation(this.app.db, {
      companyId: request.companyId,
      gatewayId: gateway.id,
      kind: 'bind',
      actor: request.userId !== null ? { userId: request.userId } : 'system',
      data: { requestId: request.id, confirmed: 'button' },
      at: now,
    });
    this.app.live.publishDevice({ type: 'membership', companyId: request.companyId, gatewayId: gateway.id });
    await this.#announce(gateway, request, 'bound');
  }

  /** A waiting request's time is up. */
  async expire(requestId: string): Promise<void> {
    const done = await this.app.db.transaction(async (tx) => {
      const [request] = await tx.select().from(bindRequests).where(eq(bindRequests.id, requestId));
      if (request?.status !== 'waiting') return null;
      const found = await lockedState(tx, { id: request.gatewayId });
      if (!found || found.waiting?.id !== requestId) {
        // a stale waiting row behind a newer one: it just ends
        await tx
          .update(bindRequests)
          .set({ status: 'expired', resolvedAt: new Date() })
          .where(eq(bindRequests.id, requestId));
        return null;
      }
      const result = bindingTransition(stateOf(found.gateway, found.waiting), {
        type: 'expire',
        now: Date.now(),
      });
      if (!result.ok) return null;
      await tx
        .update(bindRequests)
        .set({ status: 'expired', resolvedAt: new Date() })
        .where(eq(bindRequests.id, requestId));
      return { gateway: found.gateway, request };
    });
    if (done) await this.#announce(done.gateway, done.request, 'expired');
    else {
      // still live (a clock that ran early): try again at its expiry
      const [request] = await this.app.db.select().from(bindRequests).where(eq(bindRequests.id, requestId));
      if (request?.status === 'waiting' && request.expiresAt.getTime() > Date.now())
        this.#arm(requestId, request.expiresAt.getTime());
    }
  }

  async #companyRequest(caller: DataCaller, requestId: string): Promise<RequestRow> {
    const [request] = await this.app.db
      .select()
      .from(bindRequests)
      .where(and(eq(bindRequests.id, requestId), eq(bindRequests.companyId, caller.companyId)));
    if (!request) throw new AppError('notFound', {}, { field: 'requestId' });
    return request;
  }

  /** The browser's countdown: where a request of the caller's company stands. */
  async status(caller: DataCaller, requestId: string): Promise<BindStatus> {
    let request = await this.#companyRequest(caller, requestId);
    if (request.status === 'waiting' && request.expiresAt.getTime() <= Date.now()) {
      await this.expire(requestId);
      request = await this.#companyRequest(caller, requestId);
    }
    const state = request.status as BindStatus['state'];
    return {
      requestId,
      state,
      secondsLeft: state === 'waiting' ? secondsLeft(request.expiresAt.getTime(), Date.now()) : 0,
      expiresAt: request.expiresAt.toISOString(),
      deviceId: state === 'bound' ? request.gatewayId : null,
    };
  }

  /** The requesting company gives up its waiting request. */
  async cancel(caller: DataCaller, requestId: string): Promise<void> {
    await this.#companyRequest(caller, requestId);
    const done = await this.app.db.transaction(async (tx) => {
      const [request] = await tx.select().from(bindRequests).where(eq(bindRequests.id, requestId));
      const found = await lockedState(tx, { id: request!.gatewayId });
      const result = bindingTransition(found ? stateOf(found.gateway, found.waiting) : null, {
        type: 'cancel',
        companyId: caller.companyId,
        requestId,
        now: Date.now(),
      });
      if (!result.ok) refused(result);
      await tx
        .update(bindRequests)
        .set({ status: 'cancelled', resolvedAt: new Date() })
        .where(eq(bindRequests.id, requestId));
      return { gateway: found!.gateway, request: request! };
    });
    await this.#announce(done.gateway, done.request, 'cancelled');
  }

  /** Unbinds a device of the caller's company (administrator level): its node leaves the cabin. */
  async unbind(caller: DataCaller, gatewayId: number): Promise<void> {
    await deviceFor(this.app.db, caller, gatewayId, DATA_PERMISSION.admin);
    const gateway = await this.app.db.transaction(async (tx) => {
      const found = await lockedState(tx, { id: gatewayId });
      const result = bindingTransition(found ? stateOf(found.gateway, found.waiting) : null, {
        type: 'unbind',
        companyId: caller.companyId,
      });
      if (!result.ok) refused(result);
      const [device] = await tx
        .select({ nodeId: devices.nodeId })
        .from(devices)
        .where(and(eq(devices.companyId, caller.companyId), eq(devices.gatewayId, gatewayId)));
      await tx
        .update(devices)
        .set({ nodeId: null, boundAt: null, updatedAt: new Date() })
        .where(and(eq(devices.companyId, caller.companyId), eq(devices.gatewayId, gatewayId)));
      if (device?.nodeId != null)
        await tx
          .delete(cabinNodes)
          .where(and(eq(cabinNodes.id, device.nodeId), eq(cabinNodes.companyId, caller.companyId)));
      await tx.update(gateways).set({ companyId: null, boundAt: null }).where(eq(gateways.id, gatewayId));
      return found!.gateway;
    });
    this.app.gateways.forget(gateway.serialNumber);
    await logOperation(this.app.db, {
      companyId: caller.companyId,
      gatewayId,
      kind: 'unbind',
      actor: { userId: caller.userId },
    });
    this.app.live.publishDevice({ type: 'membership', companyId: caller.companyId, gatewayId });
    await this.app.gateways
      .send(gateway.serialNumber, 'bind', { result: 'unbound' })
      .catch((error) => this.app.log.warn({ err: error }, 'could not tell a gateway it was unbound'));
  }
}
