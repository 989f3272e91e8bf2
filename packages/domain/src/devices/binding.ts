/**
 * Binding a gateway to a company (spec point 4; docs/device-protocol.md, "Binding"): unbound →
 * awaiting the device's confirmation (someone pressed "bind" in the platform; the person at
 * the gateway presses its button) → bound → unbound again after a confirmed unbind.
 *
 * Every transition is decided here and nowhere else: (state, event) → the next state, or a
 * refusal carrying its catalogue key. The server persists what this returns; it never decides
 * a transition itself. A request that has passed its expiry counts as no request at all: a new
 * request (from anyone) replaces it, a confirmation of it is refused as expired.
 */
import type { ErrorKey } from '../errors';

/** A bind request waits this long for the button (the protocol's 120 s). */
export const BIND_REQUEST_TTL_MS = 120_000;

export type BindingState =
  | { state: 'unbound' }
  | { state: 'awaiting'; requestId: string; companyId: number; expiresAt: number }
  | { state: 'bound'; companyId: number };

export type BindingEvent =
  /** a company asks to bind the gateway; `online` is whether it is connected now */
  | { type: 'request'; companyId: number; requestId: string; online: boolean; now: number; ttlMs?: number }
  /** the gateway's button confirmed request `requestId` (up/bind) */
  | { type: 'confirm'; requestId: string; now: number }
  /** the clock passed a request's expiry */
  | { type: 'expire'; now: number }
  /** the requesting company gives up its request */
  | { type: 'cancel'; companyId: number; requestId: string; now: number }
  /** the bound company unbinds the gateway */
  | { type: 'unbind'; companyId: number };

/** What the service must also do besides storing the new state. */
export type BindingEffect =
  /** a new request waits: publish it on down/bind; `replaced` is the request it supersedes */
  | { kind: 'requested'; requestId: string; expiresAt: number; replaced: string | null }
  /** the gateway is now the company's: create its device, answer `bound` on down/bind */
  | { kind: 'bound'; requestId: string; companyId: number }
  /** the request ended unconfirmed: answer it on down/bind */
  | { kind: 'expired'; requestId: string }
  | { kind: 'cancelled'; requestId: string }
  /** the gateway left the company: remove its device, publish `unbound` */
  | { kind: 'unbound'; companyId: number };

export type BindingKey =
  | 'gatewayUnknown'
  | 'gatewayBoundElsewhere'
  | 'gatewayAlreadyBound'
  | 'gatewayOfflineBind'
  | 'gatewayBindPending'
  | 'bindRequestExpired'
  | 'bindRequestUnknown'
  | 'gatewayNotBound';

export type BindingResult =
  | { ok: true; state: BindingState; effect: BindingEffect }
  | { ok: false; error: BindingKey & ErrorKey };

const refuse = (error: BindingKey & ErrorKey): BindingResult => ({ ok: false, error });

/** Whether a waiting request is still live at `now`. */
function live(state: BindingState, now: number): boolean {
  return state.state === 'awaiting' && now < state.expiresAt;
}

/**
 * The next state of a gateway's binding. `state` null: no gateway has this serial number.
 */
export function bindingTransition(state: BindingState | null, event: BindingEvent): BindingResult {
  if (state === null) return refuse('gatewayUnknown');
  switch (event.type) {
    case 'request': {
      if (state.state === 'bound')
        return refuse(state.companyId === event.companyId ? 'gatewayAlreadyBound' : 'gatewayBoundElsewhere');
      const waiting = state.state === 'awaiting' && live(state, event.now) ? state : null;
      // only the latest request counts, but another company cannot push a waiting one aside
      if (waiting && waiting.companyId !== event.companyId) return refuse('gatewayBindPending');
      if (!event.online) return refuse('gatewayOfflineBind');
      const expiresAt = event.now + (event.ttlMs ?? BIND_REQUEST_TTL_MS);
      return {
        ok: true,
        state: { state: 'awaiting', requestId: event.requestId, companyId: event.companyId, expiresAt },
        effect: {
          kind: 'requested',
          requestId: event.requestId,
          expiresAt,
          replaced: state.state === 'awaiting' ? state.requestId : null,
        },
      };
    }
    case 'confirm': {
      if (state.state !== 'awaiting' || state.requestId !== event.requestId)
        return refuse('bindRequestUnknown');
      if (!live(state, event.now)) return refuse('bindRequestExpired');
      return {
        ok: true,
        state: { state: 'bound', companyId: state.companyId },
        effect: { kind: 'bound', requestId: state.requestId, companyId: state.companyId },
      };
    }
    case 'expire': {
      if (state.state !== 'awaiting' || live(state, event.now)) return refuse('bindRequestUnknown');
      return {
        ok: true,
        state: { state: 'unbound' },
        effect: { kind: 'expired', requestId: state.requestId },
      };
    }
    case 'cancel': {
      if (
        state.state !== 'awaiting' ||
        state.requestId !== event.requestId ||
        state.companyId !== event.companyId
      )
        return refuse('bindRequestUnknown');
      if (!live(state, event.now)) return refuse('bindRequestExpired');
      return {
        ok: true,
        state: { state: 'unbound' },
        effect: { kind: 'cancelled', requestId: state.requestId },
      };
    }
    case 'unbind': {
      if (state.state !== 'bound' || state.companyId !== event.companyId) return refuse('gatewayNotBound');
      return {
        ok: true,
        state: { state: 'unbound' },
        effect: { kind: 'unbound', companyId: state.companyId },
      };
    }
  }
}

/** What a bind request looks like to the browser counting down. */
export type BindRequestState = 'waiting' | 'bound' | 'expired' | 'cancelled';

/** Whole seconds a waiting request has left at `now` (0 once expired). */
export function secondsLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}
