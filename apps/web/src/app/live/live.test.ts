import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type HubSocketHandlers, LiveItemHub, MAX_LIVE_ITEMS } from './hub';
import { ReconnectingSocket, type SocketLike, type Timers } from './socket';

/** A browser WebSocket stand-in; the test plays the server. */
class FakeSocket implements SocketLike {
  readyState = 0;
  readonly sent: unknown[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code = 1000) {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.({ code });
  }
  // the server's side
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  lose(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  /** the item ids of the last subscribe sent */
  subscription(): number[] {
    const last = [...this.sent].reverse().find((m) => (m as { subscribe?: unknown }).subscribe) as
      | { subscribe: number[] }
      | undefined;
    return last ? last.subscribe : [];
  }
}

/** Timers run by hand. */
class Clock implements Timers {
  now = 0;
  private next = 1;
  private tasks = new Map<number, { at: number; run: () => void }>();
  set(run: () => void, ms: number) {
    const id = this.next++;
    this.tasks.set(id, { at: this.now + ms, run });
    return id;
  }
  clear(handle: unknown) {
    this.tasks.delete(handle as number);
  }
  pending(): number[] {
    return [...this.tasks.values()].map((t) => t.at - this.now);
  }
  advance(ms: number) {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.tasks.entries()]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.tasks.delete(due[0]);
      this.now = due[1].at;
      due[1].run();
    }
    this.now = until;
  }
}

function setup(options: { token?: () => string | null; max?: number } = {}) {
  const clock = new Clock();
  const sockets: FakeSocket[] = [];
  const ended: unknown[] = [];
  const token = options.token ?? (() => 't1');
  const hub = new LiveItemHub({
    token,
    onEnded: (envelope) => ended.push(envelope),
    maxItemsPerSocket: options.max,
    now: () => clock.now,
    // flushed by hand (`hub.flush()`), as the end of a turn of the event loop
    defer: () => {},
    openSocket: (handlers: HubSocketHandlers) =>
      new ReconnectingSocket({
        url: (t) => `ws://node/general/smartdata/live?token=${t}`,
        token,
        timers: clock,
        create: (url) => {
          const socket = new FakeSocket(url);
          sockets.push(socket);
          return socket;
        },
        ...handlers,
      }),
  });
  /** the sockets that are not closed */
  const open = () => sockets.filter((s) => s.readyState !== 3);
  return { hub, clock, sockets, open, ended };
}

describe('ReconnectingSocket', () => {
  it('doubles its back-off up to 30 s, starts again at 1 s after an open, and runs onOpen on every connection', () => {
    const clock = new Clock();
    const made: FakeSocket[] = [];
    let opens = 0;
    const socket = new ReconnectingSocket({
      url: (t) => `ws://x/?token=${t}`,
      token: () => 'tok',
      timers: clock,
      create: (url) => {
        const s = new FakeSocket(url);
        made.push(s);
        return s;
      },
      onMessage: () => {},
      onOpen: (send) => {
        opens++;
        send({ subscribe: [1] });
      },
    });
    socket.start();
    expect(made).toHaveLength(1);
    expect(made[0]?.url).toBe('ws://x/?token=tok');
    const delays: number[] = [];
    for (let i = 0; i < 7; i++) {
      made.at(-1)?.lose();
      expect(socket.status).toBe('waiting');
      delays.push(clock.pending()[0] ?? -1);
      clock.advance(delays.at(-1) ?? 0);
    }
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
    made.at(-1)?.open();
    expect(socket.status).toBe('open');
    expect(opens).toBe(1);
    expect(made.at(-1)?.sent).toEqual([{ subscribe: [1] }]);
    made.at(-1)?.lose();
    expect(clock.pending()).toEqual([1000]);
    clock.advance(1000);
    made.at(-1)?.open();
    expect(opens).toBe(2);
    expect(made.at(-1)?.sent).toEqual([{ subscribe: [1] }]);
  });

  it.each([4401, 4403])('ends for good on close code %i', (code) => {
    const clock = new Clock();
    const made: FakeSocket[] = [];
    const ended: unknown[] = [];
    const socket = new ReconnectingSocket({
      url: () => 'ws://x',
      token: () => 'tok',
      timers: clock,
      create: (url) => {
        const s = new FakeSocket(url);
        made.push(s);
        return s;
      },
      onMessage: () => {},
      onEnded: (e) => ended.push(e),
    });
    socket.start();
    made[0]?.open();
    made[0]?.lose(code);
    expect(socket.status).toBe('ended');
    expect(clock.pending()).toEqual([]);
    clock.advance(60_000);
    expect(made).toHaveLength(1);
    expect(ended).toEqual([null]);
  });

  it("ends on the server's ended message, reports its envelope once and never reconnects", () => {
    const clock = new Clock();
    const made: FakeSocket[] = [];
    const ended: unknown[] = [];
    const heard: unknown[] = [];
    const socket = new ReconnectingSocket({
      url: () => 'ws://x',
      token: () => 'tok',
      timers: clock,
      create: (url) => {
        const s = new FakeSocket(url);
        made.push(s);
        return s;
      },
      onMessage: (m) => heard.push(m),
      onEnded: (e) => ended.push(e),
    });
    socket.start();
    made[0]?.open();
    made[0]?.receive({ type: 'ended', code: 70006, message: 'token invalid', data: null });
    made[0]?.lose(4401);
    clock.advance(60_000);
    expect(ended).toEqual([{ code: 70006, message: 'token invalid', data: null }]);
    expect(heard).toEqual([]);
    expect(made).toHaveLength(1);
    expect(made[0]?.readyState).toBe(3);
  });

  it('does not connect without a token', () => {
    const made: FakeSocket[] = [];
    const ended: unknown[] = [];
    const socket = new ReconnectingSocket({
      url: () => 'ws://x',
      token: () => null,
      timers: new Clock(),
      create: (url) => {
        const s = new FakeSocket(url);
        made.push(s);
        return s;
      },
      onMessage: () => {},
      onEnded: (e) => ended.push(e),
    });
    socket.start();
    expect(made).toHaveLength(0);
    expect(socket.status).toBe('ended');
    expect(ended).toEqual([null]);
  });

  it("turns 'open' at the ready message when asked to", () => {
    const made: FakeSocket[] = [];
    const socket = new ReconnectingSocket({
      url: () => 'ws://x',
      token: () => 'tok',
      timers: new Clock(),
      create: (url) => {
        const s = new FakeSocket(url);
        made.push(s);
        return s;
      },
      onMessage: () => {},
      readyWhen: (m) => m.type === 'ready',
    });
    socket.start();
    made[0]?.open();
    expect(socket.status).toBe('connecting');
    made[0]?.receive({ type: 'pong' });
    expect(socket.status).toBe('connecting');
    made[0]?.receive({ type: 'ready' });
    expect(socket.status).toBe('open');
  });
});

describe('LiveItemHub', () => {
  it('holds one subscription for ten listeners of one item, and drops it with the last', () => {
    const { hub, sockets, open } = setup();
    const drops = Array.from({ length: 10 }, () => hub.subscribe(7, () => {}));
    hub.flush();
    expect(sockets).toHaveLength(1);
    sockets[0]?.open();
    expect(sockets[0]?.sent).toEqual([{ subscribe: [7] }]);
    expect(hub.references(7)).toBe(10);
    for (const drop of drops.slice(0, 9)) drop();
    // dropping twice counts once
    drops[0]?.();
    hub.flush();
    expect(hub.references(7)).toBe(1);
    expect(sockets[0]?.sent).toEqual([{ subscribe: [7] }]);
    drops[9]?.();
    hub.flush();
    expect(hub.references(7)).toBe(0);
    expect(open()).toHaveLength(0);
  });

  it('sends what changed in one turn as one subscribe', () => {
    const { hub, sockets } = setup();
    hub.subscribe(1);
    hub.flush();
    sockets[0]?.open();
    hub.subscribe(2);
    hub.subscribe(3);
    const drop = hub.subscribe(4);
    drop();
    hub.flush();
    expect(sockets[0]?.sent).toEqual([{ subscribe: [1] }, { subscribe: [1, 2, 3] }]);
  });

  it('opens a further socket for items past 50 and never sends more than 50 in one subscribe', () => {
    const { hub, sockets, open } = setup();
    const drops = new Map<number, () => void>();
    for (let id = 1; id <= 120; id++) drops.set(id, hub.subscribe(id));
    hub.flush();
    for (const s of sockets) s.open();
    expect(sockets.map((s) => s.subscription().length)).toEqual([MAX_LIVE_ITEMS, MAX_LIVE_ITEMS, 20]);
    expect(new Set(sockets.flatMap((s) => s.subscription())).size).toBe(120);
    // emptying the third socket closes it; a new item fills the first socket with room
    for (let id = 101; id <= 120; id++) drops.get(id)?.();
    drops.get(3)?.();
    hub.flush();
    expect(open()).toHaveLength(2);
    hub.subscribe(500);
    hub.flush();
    expect(open()).toHaveLength(2);
    expect(sockets[0]?.subscription()).toContain(500);
    expect(sockets[0]?.subscription()).not.toContain(3);
  });

  it('subscribes again after a reconnect and marks the item offline meanwhile', () => {
    const { hub, sockets, clock } = setup();
    hub.subscribe(5);
    hub.subscribe(6);
    hub.flush();
    sockets[0]?.open();
    clock.advance(10);
    sockets[0]?.receive({ type: 'subscribed', itemIds: [5, 6], refused: [] });
    expect(hub.snapshot(5)).toMatchObject({ status: 'live', since: 10 });
    sockets[0]?.lose();
    expect(hub.snapshot(5).status).toBe('offline');
    clock.advance(1000);
    expect(sockets).toHaveLength(2);
    sockets[1]?.open();
    expect(sockets[1]?.sent).toEqual([{ subscribe: [5, 6] }]);
    expect(hub.snapshot(6).status).toBe('offline');
    sockets[1]?.receive({ type: 'subscribed', itemIds: [5, 6], refused: [] });
    expect(hub.snapshot(6)).toMatchObject({ status: 'live', since: 1010 });
  });

  it('gives each batch to every listener and keeps the newest record as the latest', () => {
    const { hub, sockets, clock } = setup();
    const heardA: unknown[] = [];
    const heardB: unknown[] = [];
    hub.subscribe(9, (records) => heardA.push(...records));
    hub.subscribe(9, (records) => heardB.push(...records));
    hub.flush();
    sockets[0]?.open();
    const r1 = { id: 1, ts: '2026-01-01T00:00:02.000Z', values: { t: 1 } };
    const r2 = { id: 2, ts: '2026-01-01T00:00:01.000Z', values: { t: 2 } };
    clock.advance(50);
    sockets[0]?.receive({ type: 'records', itemId: 9, records: [r1, r2] });
    expect(heardA).toEqual([r1, r2]);
    expect(heardB).toEqual([r1, r2]);
    expect(hub.snapshot(9)).toMatchObject({ record: r1, receivedAt: 50, status: 'live' });
    // an older record arriving late does not replace the newer one
    const r3 = { id: 3, ts: '2026-01-01T00:00:00.000Z', values: { t: 3 } };
    sockets[0]?.receive({ type: 'records', itemId: 9, records: [r3] });
    expect(hub.snapshot(9).record).toEqual(r1);
    // an item nobody holds is not delivered
    sockets[0]?.receive({ type: 'records', itemId: 10, records: [r3] });
    expect(hub.snapshot(10).record).toBeNull();
  });

  it('marks refused and revoked items', () => {
    const { hub, sockets } = setup();
    hub.subscribe(1);
    hub.subscribe(2);
    hub.flush();
    sockets[0]?.open();
    sockets[0]?.receive({ type: 'subscribed', itemIds: [1], refused: [2] });
    expect(hub.snapshot(1).status).toBe('live');
    expect(hub.snapshot(2).status).toBe('refused');
    sockets[0]?.receive({ type: 'revoked', itemIds: [1] });
    expect(hub.snapshot(1).status).toBe('refused');
  });

  it('ends every socket once when access ends, and starts again only for a new login', () => {
    let token: string | null = 't1';
    const { hub, sockets, open, ended, clock } = setup({ token: () => token, max: 2 });
    for (const id of [1, 2, 3]) hub.subscribe(id);
    hub.flush();
    for (const s of sockets) s.open();
    expect(sockets).toHaveLength(2);
    sockets[0]?.receive({ type: 'ended', code: 70006, message: 'invalid', data: null });
    sockets[1]?.lose(4401);
    expect(ended).toEqual([{ code: 70006, message: 'invalid', data: null }]);
    expect(open()).toHaveLength(0);
    expect(hub.snapshot(3).status).toBe('ended');
    clock.advance(120_000);
    hub.subscribe(4);
    hub.flush();
    expect(sockets).toHaveLength(2);
    expect(hub.snapshot(4).status).toBe('ended');
    token = 't2';
    hub.subscribe(5);
    hub.flush();
    expect(open().length).toBeGreaterThan(0);
    expect(open().every((s) => s.url.endsWith('token=t2'))).toBe(true);
    for (const s of open()) s.open();
    expect(new Set(open().flatMap((s) => s.subscription()))).toEqual(new Set([1, 2, 3, 4, 5]));
  });

  it('subscribes, over all sockets, to exactly the items held, each once and at most 50 per socket', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({ op: fc.constant('add' as const), id: fc.integer({ min: 1, max: 130 }) }),
            fc.record({ op: fc.constant('drop' as const), pick: fc.nat() }),
            fc.record({ op: fc.constant('flush' as const) }),
            fc.record({ op: fc.constant('lose' as const), pick: fc.nat() }),
          ),
          { maxLength: 400 },
        ),
        (ops) => {
          const { hub, open, clock } = setup();
          const held: { id: number; drop: () => void }[] = [];
          const count = new Map<number, number>();
          const settle = () => {
            hub.flush();
            clock.advance(60_000);
            for (const s of open()) if (s.readyState === 0) s.open();
          };
          for (const step of ops) {
            if (step.op === 'add') {
              held.push({ id: step.id, drop: hub.subscribe(step.id) });
              count.set(step.id, (count.get(step.id) ?? 0) + 1);
            } else if (step.op === 'drop' && held.length) {
              const [one] = held.splice(step.pick % held.length, 1);
              one?.drop();
              count.set(one?.id ?? 0, (count.get(one?.id ?? 0) ?? 1) - 1);
            } else if (step.op === 'flush') settle();
            else if (step.op === 'lose') {
              const live = open();
              if (live.length) live[step.pick % live.length]?.lose();
            }
          }
          settle();
          const expected = [...count].filter(([, n]) => n > 0).map(([id]) => id);
          const subscribed = open().flatMap((s) => s.subscription());
          expect(subscribed.slice().sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
          for (const s of open()) expect(s.subscription().length).toBeLessThanOrEqual(MAX_LIVE_ITEMS);
          for (const id of expected) expect(hub.references(id)).toBe(count.get(id));
        },
      ),
      { numRuns: 200 },
    );
  });
});
