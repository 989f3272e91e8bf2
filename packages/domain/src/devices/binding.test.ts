import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../errors';
import {
  BIND_REQUEST_TTL_MS,
  type BindingEvent,
  type BindingState,
  bindingTransition,
  secondsLeft,
} from './binding';

const T0 = Date.UTC(2026, 10, 27, 8, 0, 0);
const A = 1;
const B = 2;
const unbound: BindingState = { state: 'unbound' };
const awaitingA: BindingState = {
  state: 'awaiting',
  requestId: 'r1',
  companyId: A,
  expiresAt: T0 + BIND_REQUEST_TTL_MS,
};
const boundA: BindingState = { state: 'bound', companyId: A };

const request = (companyId: number, requestId: string, now = T0, online = true): BindingEvent => ({
  type: 'request',
  companyId,
  requestId,
  online,
  now,
});

describe('a bind request', () => {
  it('of an online, unbound gateway waits for the button for 120 s', () => {
    expect(bindingTransition(unbound, request(A, 'r1'))).toEqual({
      ok: true,
      state: awaitingA,
      effect: { kind: 'requested', requestId: 'r1', expiresAt: T0 + 120_000, replaced: null },
    });
    const short = bindingTransition(unbound, { ...request(A, 'r1'), ttlMs: 2_000 } as BindingEvent);
    expect(short.ok && short.state.state === 'awaiting' && short.state.expiresAt).toBe(T0 + 2_000);
  });

  it('is refused for an unknown serial number', () => {
    expect(bindingTransition(null, request(A, 'r1'))).toEqual({ ok: false, error: 'gatewayUnknown' });
  });

  it('is refused when the gateway is offline', () => {
    expect(bindingTransition(unbound, request(A, 'r1', T0, false))).toEqual({
      ok: false,
      error: 'gatewayOfflineBind',
    });
  });

  it('is refused when the gateway is bound, saying whether to the caller or to another company', () => {
    expect(bindingTransition(boundA, request(A, 'r2'))).toEqual({ ok: false, error: 'gatewayAlreadyBound' });
    expect(bindingTransition(boundA, request(B, 'r2'))).toEqual({
      ok: false,
      error: 'gatewayBoundElsewhere',
    });
    // bound wins over offline: the clearer message
    expect(bindingTransition(boundA, request(B, 'r2', T0, false))).toEqual({
      ok: false,
      error: 'gatewayBoundElsewhere',
    });
  });

  it("is refused while another company's request waits, and accepted once that one expired", () => {
    expect(bindingTransition(awaitingA, request(B, 'r2', T0 + 1_000))).toEqual({
      ok: false,
      error: 'gatewayBindPending',
    });
    const later = bindingTransition(awaitingA, request(B, 'r2', T0 + BIND_REQUEST_TTL_MS));
    expect(later).toMatchObject({
      ok: true,
      state: { state: 'awaiting', requestId: 'r2', companyId: B },
      effect: { kind: 'requested', requestId: 'r2', replaced: 'r1' },
    });
  });

  it('of the same company replaces its own waiting request: only the latest counts', () => {
    expect(bindingTransition(awaitingA, request(A, 'r2', T0 + 5_000))).toEqual({
      ok: true,
      state: {
        state: 'awaiting',
        requestId: 'r2',
        companyId: A,
        expiresAt: T0 + 5_000 + BIND_REQUEST_TTL_MS,
      },
      effect: {
        kind: 'requested',
        requestId: 'r2',
        expiresAt: T0 + 5_000 + BIND_REQUEST_TTL_MS,
        replaced: 'r1',
      },
    });
  });
});

describe("the device's confirmation", () => {
  it('of the waiting request binds the gateway to the requesting company', () => {
    expect(bindingTransition(awaitingA, { type: 'confirm', requestId: 'r1', now: T0 + 30_000 })).toEqual({
      ok: true,
      state: boundA,
      effect: { kind: 'bound', requestId: 'r1', companyId: A },
    });
  });

  it('of another request id, a replaced one, or with nothing waiting is refused as unknown', () => {
    const replaced = bindingTransition(awaitingA, request(A, 'r2', T0 + 1));
    expect(replaced.ok).toBe(true);
    const state = (replaced as { state: BindingState }).state;
    expect(bindingTransition(state, { type: 'confirm', requestId: 'r1', now: T0 + 2 })).toEqual({
      ok: false,
      error: 'bindRequestUnknown',
    });
    for (const s of [unbound, boundA, awaitingA])
      expect(bindingTransition(s, { type: 'confirm', requestId: 'nope', now: T0 })).toEqual({
        ok: false,
        error: 'bindRequestUnknown',
      });
    expect(bindingTransition(null, { type: 'confirm', requestId: 'r1', now: T0 })).toEqual({
      ok: false,
      error: 'gatewayUnknown',
    });
  });

  it('after the expiry is refused as expired, even a millisecond late', () => {
    expect(
      bindingTransition(awaitingA, { type: 'confirm', requestId: 'r1', now: T0 + BIND_REQUEST_TTL_MS }),
    ).toEqual({ ok: false, error: 'bindRequestExpired' });
    expect(
      bindingTransition(awaitingA, { type: 'confirm', requestId: 'r1', now: T0 + BIND_REQUEST_TTL_MS - 1 })
        .ok,
    ).toBe(true);
  });
});

describe('expiry, cancel and unbind', () => {
  it('a request past its expiry expires; one still live does not', () => {
    expect(bindingTransition(awaitingA, { type: 'expire', now: T0 + BIND_REQUEST_TTL_MS })).toEqual({
      ok: true,
      state: unbound,
      effect: { kind: 'expired', requestId: 'r1' },
    });
    expect(bindingTransition(awaitingA, { type: 'expire', now: T0 + 1 })).toEqual({
      ok: false,
      error: 'bindRequestUnknown',
    });
    for (const s of [unbound, boundA])
      expect(bindingTransition(s, { type: 'expire', now: T0 }).ok).toBe(false);
  });

  it('the requesting company cancels its own live request, and nobody else can', () => {
    expect(bindingTransition(awaitingA, { type: 'cancel', companyId: A, requestId: 'r1', now: T0 })).toEqual({
      ok: true,
      state: unbound,
      effect: { kind: 'cancelled', requestId: 'r1' },
    });
    expect(bindingTransition(awaitingA, { type: 'cancel', companyId: B, requestId: 'r1', now: T0 })).toEqual({
      ok: false,
      error: 'bindRequestUnknown',
    });
    expect(bindingTransition(awaitingA, { type: 'cancel', companyId: A, requestId: 'r9', now: T0 })).toEqual({
      ok: false,
      error: 'bindRequestUnknown',
    });
    expect(
      bindingTransition(awaitingA, {
        type: 'cancel',
        companyId: A,
        requestId: 'r1',
        now: T0 + BIND_REQUEST_TTL_MS,
      }),
    ).toEqual({ ok: false, error: 'bindRequestExpired' });
    expect(bindingTransition(boundA, { type: 'cancel', companyId: A, requestId: 'r1', now: T0 }).ok).toBe(
      false,
    );
  });

  it('only the bound company unbinds; an unbound or waiting gateway is not bound', () => {
    expect(bindingTransition(boundA, { type: 'unbind', companyId: A })).toEqual({
      ok: true,
      state: unbound,
      effect: { kind: 'unbound', companyId: A },
    });
    for (const [s, company] of [
      [boundA, B],
      [unbound, A],
      [awaitingA, A],
    ] as const)
      expect(bindingTransition(s, { type: 'unbind', companyId: company })).toEqual({
        ok: false,
        error: 'gatewayNotBound',
      });
  });
});

describe('the binding machine', () => {
  it('every refusal is a catalogue entry with its own text in both languages', () => {
    const keys = [
      'gatewayUnknown',
      'gatewayBoundElsewhere',
      'gatewayAlreadyBound',
      'gatewayOfflineBind',
      'gatewayBindPending',
      'bindRequestExpired',
      'bindRequestUnknown',
      'gatewayNotBound',
    ] as const;
    const en = new Set(keys.map((k) => CATALOGUE[k].en));
    const zh = new Set(keys.map((k) => CATALOGUE[k].zh));
    expect(en.size).toBe(keys.length);
    expect(zh.size).toBe(keys.length);
    expect(CATALOGUE.gatewayNotBound.en).toBe('The gateway is not bound.');
  });

  it('never binds a gateway to a company that did not make the confirmed request', () => {
    const event = fc.oneof(
      fc.record({
        type: fc.constant('request' as const),
        companyId: fc.constantFrom(A, B),
        requestId: fc.constantFrom('r1', 'r2', 'r3'),
        online: fc.boolean(),
        now: fc.integer({ min: T0, max: T0 + 600_000 }),
      }),
      fc.record({
        type: fc.constant('confirm' as const),
        requestId: fc.constantFrom('r1', 'r2', 'r3'),
        now: fc.integer({ min: T0, max: T0 + 600_000 }),
      }),
      fc.record({ type: fc.constant('expire' as const), now: fc.integer({ min: T0, max: T0 + 600_000 }) }),
      fc.record({
        type: fc.constant('cancel' as const),
        companyId: fc.constantFrom(A, B),
        requestId: fc.constantFrom('r1', 'r2', 'r3'),
        now: fc.integer({ min: T0, max: T0 + 600_000 }),
      }),
      fc.record({ type: fc.constant('unbind' as const), companyId: fc.constantFrom(A, B) }),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        let state: BindingState = unbound;
        /** who asked for each request id last, and whether it was accepted */
        const requestedBy = new Map<string, number>();
        for (const e of events) {
          const before = state;
          const result = bindingTransition(state, e);
          if (!result.ok) continue;
          if (result.effect.kind === 'requested')
            requestedBy.set(result.effect.requestId, (e as { companyId: number }).companyId);
          if (result.effect.kind === 'bound') {
            expect(e.type).toBe('confirm');
            expect(before.state).toBe('awaiting');
            expect(result.effect.companyId).toBe(requestedBy.get(result.effect.requestId));
            expect((e as { now: number }).now).toBeLessThan((before as { expiresAt: number }).expiresAt);
          }
          state = result.state;
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('counts seconds left down to zero', () => {
    expect(secondsLeft(T0 + 120_000, T0)).toBe(120);
    expect(secondsLeft(T0 + 120_000, T0 + 119_001)).toBe(1);
    expect(secondsLeft(T0 + 120_000, T0 + 120_000)).toBe(0);
    expect(secondsLeft(T0 + 120_000, T0 + 999_999)).toBe(0);
  });
});
