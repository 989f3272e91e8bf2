/**
 * Serial passthrough sessions (docs/device-protocol.md "Serial passthrough", docs/comdebug.md):
 * one person at a time on one port of one gateway. A session is bound to (user, company,
 * gateway, port) and named by a random, unguessable id that travels on `down/passthrough`; an
 * answer on `up/passthrough` reaches only the session that sent, and only when it comes from
 * that session's gateway and port. Anything else (an unknown or closed session, another
 * gateway's serial number, another port, bad hex, a flood) is dropped and counted.
 *
 * This registry lives in the memory of one server node: the sockets it serves are its own.
 */
import { randomBytes } from 'node:crypto';
import { parseHex, toHex } from '@platform/domain';
import type { UpMessage } from '../gateways/hub';

/** bytes one send may carry */
export const MAX_SEND_BYTES = 256;
/** sends a session may make per second (a burst of this many, then this many a second) */
export const SENDS_PER_SECOND = 10;
/** answers a session receives per second at most; a gateway flooding it beyond is dropped */
export const ANSWERS_PER_SECOND = 50;
/** bytes one answer may carry (more is no answer of a serial port in one window) */
export const MAX_ANSWER_BYTES = 4096;

export const PASSTHROUGH_DROPS = ['unknownSession', 'otherGateway', 'otherPort', 'badData', 'flood'] as const;
export type PassthroughDrop = (typeof PASSTHROUGH_DROPS)[number];

export interface SessionOwner {
  userId: number;
  userName: string;
  companyId: number;
  gatewayId: number;
  serialNumber: string;
  port: number;
}

export interface Session extends SessionOwner {
  id: string;
  openedAt: Date;
  sent: number;
  received: number;
  /** delivers an answer to the session's socket */
  deliver: (answer: { port: number; data: string; at: string }) => void;
  /** ends the session from outside (the gateway went offline, access changed) */
  end: (reason: 'offline') => void;
  /** token bucket of sends */
  sendTokens: number;
  sendRefilledAt: number;
  /** answers counted in the current second */
  answerWindow: { start: number; n: number };
}

/** A token bucket: whether one more send is allowed now (and takes it). */
export function takeSend(session: Pick<Session, 'sendTokens' | 'sendRefilledAt'>, now: number): boolean {
  const elapsed = Math.max(0, now - session.sendRefilledAt) / 1000;
  session.sendTokens = Math.min(SENDS_PER_SECOND, session.sendTokens + elapsed * SENDS_PER_SECOND);
  session.sendRefilledAt = now;
  if (session.sendTokens < 1) return false;
  session.sendTokens -= 1;
  return true;
}

export class PassthroughSessions {
  readonly #byId = new Map<string, Session>();
  /** `${gatewayId}:${port}` → session id */
  readonly #byPort = new Map<string, string>();
  readonly drops: Record<PassthroughDrop, number> = Object.fromEntries(
    PASSTHROUGH_DROPS.map((r) => [r, 0]),
  ) as Record<PassthroughDrop, number>;

  /** The session holding a port, if any. */
  holder(gatewayId: number, port: number): Session | null {
    const id = this.#byPort.get(`${gatewayId}:${port}`);
    return id ? (this.#byId.get(id) ?? null) : null;
  }

  /** Opens a session on a free port; null when someone holds it. */
  open(
    owner: SessionOwner,
    deliver: Session['deliver'],
    end: Session['end'],
    now = Date.now(),
  ): Session | null {
    const key = `${owner.gatewayId}:${owner.port}`;
    if (this.#byPort.has(key)) return null;
    const session: Session = {
      ...owner,
      id: randomBytes(16).toString('hex'),
      openedAt: new Date(now),
      sent: 0,
      received: 0,
      deliver,
      end,
      sendTokens: SENDS_PER_SECOND,
      sendRefilledAt: now,
      answerWindow: { start: now, n: 0 },
    };
    this.#byId.set(session.id, session);
    this.#byPort.set(key, session.id);
    return session;
  }

  close(session: Session): void {
    if (this.#byId.get(session.id) !== session) return;
    this.#byId.delete(session.id);
    const key = `${session.gatewayId}:${session.port}`;
    if (this.#byPort.get(key) === session.id) this.#byPort.delete(key);
  }

  /** Open sessions on a gateway's ports. */
  ofGateway(gatewayId: number): Session[] {
    return [...this.#byId.values()].filter((s) => s.gatewayId === gatewayId);
  }

  get size(): number {
    return this.#byId.size;
  }

  #drop(reason: PassthroughDrop): void {
    this.drops[reason] += 1;
  }

  /** An `up/passthrough` message: delivered to its session, or dropped and counted. */
  answer(message: UpMessage): void {
    const payload = message.payload as Record<string, unknown>;
    const id = payload.session;
    const session = typeof id === 'string' ? this.#byId.get(id) : undefined;
    if (!session) {
      this.#drop('unknownSession');
      return;
    }
    if (session.gatewayId !== message.gateway.id || session.companyId !== message.gateway.companyId) {
      this.#drop('otherGateway');
      return;
    }
    if (payload.port !== session.port) {
      this.#drop('otherPort');
      return;
    }
    const data = payload.data;
    if (typeof data !== 'string' || data.length > MAX_ANSWER_BYTES * 3) {
      this.#drop('badData');
      return;
    }
    const bytes = parseHex(data.toUpperCase());
    if (!bytes) {
      this.#drop('badData');
      return;
    }
    const now = message.receivedAt.getTime();
    const window = session.answerWindow;
    if (now - window.start >= 1000) {
      window.start = now;
      window.n = 0;
    }
    if (window.n >= ANSWERS_PER_SECOND) {
      this.#drop('flood');
      return;
    }
    window.n += 1;
    session.received += 1;
    session.deliver({ port: session.port, data: toHex(bytes), at: message.receivedAt.toISOString() });
  }
}

/** the sessions of each running app (keyed by its gateway hub, which every plugin context shares) */
const registries = new WeakMap<object, PassthroughSessions>();

/** The open passthrough sessions of an app (one registry per app). */
export function passthroughSessions(app: { gateways: object }): PassthroughSessions {
  let found = registries.get(app.gateways);
  if (!found) {
    found = new PassthroughSessions();
    registries.set(app.gateways, found);
  }
  return found;
}
