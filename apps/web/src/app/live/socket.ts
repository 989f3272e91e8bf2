/**
 * One reconnecting WebSocket for every live stream of the app (records, devices, device views).
 *
 *   const socket = new ReconnectingSocket({
 *     url: (token) => liveUrl('/smartdata/live', token),
 *     token: () => session.get().token,
 *     onOpen: (send) => send({ subscribe: [1, 2] }),   // after each (re)connect: subscribe again
 *     onMessage: (message) => …,                       // each parsed JSON message
 *     onStatus: (status) => …,                         // 'connecting' | 'open' | 'waiting' | 'ended' | 'stopped'
 *     onEnded: (envelope) => …,                        // access ended: the server's {code,message,data} or null
 *     readyWhen: (message) => message.type === 'ready', // optional: 'open' only at that message
 *   });
 *   socket.start(); socket.send({...}); socket.stop();
 *
 * - It reconnects after a lost connection with a doubling back-off (1 s, 2 s, … 30 s); the delay
 *   goes back to 1 s once a connection reached 'open'. `onOpen` runs on every connection, so a
 *   subscription is made again after each reconnect.
 * - It ends for good (status 'ended', no reconnecting) when the server ends the stream because
 *   access ended: a `{"type":"ended",code,message,data}` message or the close codes 4401
 *   (token gone: logout, expiry, disabled user) and 4403 (company or code lost)
 *   (apps/server/src/modules/records/live-routes.ts). `onEnded` is called once.
 * - Without a token it does not connect (status 'ended' with a null envelope).
 *
 * Pure: no React, no app imports; the WebSocket constructor and the timers can be replaced
 * (tests). The React hooks are in ./hooks.ts.
 */

/** close codes of a stream the server ended because access ended (never just reconnect) */
export const CLOSE_UNAUTHORISED = 4401;
export const CLOSE_FORBIDDEN = 4403;
export const MIN_DELAY_MS = 1000;
export const MAX_DELAY_MS = 30_000;

/** 'waiting': the connection was lost, the next attempt is scheduled */
export type SocketStatus = 'connecting' | 'open' | 'waiting' | 'ended' | 'stopped';

/** The server's reason, the envelope of any refused request. */
export interface EndedEnvelope {
  code: number;
  message: string;
  data: unknown;
}

/** What the class needs of a browser WebSocket. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface ReconnectingSocketOptions {
  url: (token: string) => string;
  token: () => string | null;
  onMessage: (message: Record<string, unknown> & { type?: unknown }) => void;
  /** called with a `send` on every connection once it is open */
  onOpen?: (send: (message: unknown) => boolean) => void;
  onStatus?: (status: SocketStatus) => void;
  onEnded?: (envelope: EndedEnvelope | null) => void;
  /** when set, the status turns 'open' at the first message it accepts, not at the socket's open */
  readyWhen?: (message: Record<string, unknown>) => boolean;
  create?: (url: string) => SocketLike;
  timers?: Timers;
  minDelayMs?: number;
  maxDelayMs?: number;
}

const OPEN = 1;

const browserTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class ReconnectingSocket {
  private socket: SocketLike | null = null;
  private timer: unknown;
  private delay: number;
  private current: SocketStatus = 'stopped';
  private readonly timers: Timers;
  private readonly create: (url: string) => SocketLike;

  constructor(private readonly options: ReconnectingSocketOptions) {
    this.timers = options.timers ?? browserTimers;
    this.create = options.create ?? ((url) => new WebSocket(url) as unknown as SocketLike);
    this.delay = options.minDelayMs ?? MIN_DELAY_MS;
  }

  get status(): SocketStatus {
    return this.current;
  }

  /** Connects (again, after `stop`); does nothing while running or once ended. */
  start(): void {
    if (this.current !== 'stopped') return;
    this.connect();
  }

  /** Closes and stays closed until `start`. */
  stop(): void {
    if (this.current === 'stopped') return;
    this.timers.clear(this.timer);
    this.drop();
    this.setStatus('stopped');
  }

  /** Sends JSON when the socket is open; false when it is not (the next `onOpen` will). */
  send(message: unknown): boolean {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  private setStatus(status: SocketStatus): void {
    if (status === this.current) return;
    this.current = status;
    this.options.onStatus?.(status);
  }

  /** Detaches and closes the present socket, if any. */
  private drop(): void {
    const socket = this.socket;
    this.socket = null;
    if (!socket) return;
    socket.onopen = null;
    socket.onmessage = null;
    socket.onclose = null;
    socket.onerror = null;
    try {
      socket.close();
    } catch {
      // closing a socket that never opened may throw in some browsers
    }
  }

  private end(envelope: EndedEnvelope | null): void {
    if (this.current === 'ended') return;
    this.timers.clear(this.timer);
    this.drop();
    this.setStatus('ended');
    this.options.onEnded?.(envelope);
  }

  private schedule(): void {
    if (this.current === 'ended' || this.current === 'stopped') return;
    this.setStatus('waiting');
    this.timers.clear(this.timer);
    this.timer = this.timers.set(() => this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, this.options.maxDelayMs ?? MAX_DELAY_MS);
  }

  private opened(): void {
    this.delay = this.options.minDelayMs ?? MIN_DELAY_MS;
    this.setStatus('open');
  }

  private connect(): void {
    const token = this.options.token();
    if (!token) {
      this.end(null);
      return;
    }
    this.setStatus('connecting');
    let socket: SocketLike;
    try {
      socket = this.create(this.options.url(token));
    } catch {
      this.schedule();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (!this.options.readyWhen) this.opened();
      this.options.onOpen?.((message) => this.send(message));
    };
    socket.onmessage = (event) => {
      let message: Record<string, unknown>;
      try {
        const parsed = JSON.parse(String(event.data)) as unknown;
        if (typeof parsed !== 'object' || parsed === null) return;
        message = parsed as Record<string, unknown>;
      } catch {
        return;
      }
      if (message.type === 'ended') {
        this.end({
          code: typeof message.code === 'number' ? message.code : 0,
          message: typeof message.message === 'string' ? message.message : '',
          data: message.data ?? null,
        });
        return;
      }
      if (this.options.readyWhen && this.current !== 'open' && this.options.readyWhen(message)) this.opened();
      this.options.onMessage(message);
    };
    socket.onclose = (event) => {
      this.socket = null;
      if (event.code === CLOSE_UNAUTHORISED || event.code === CLOSE_FORBIDDEN) {
        this.end(null);
        return;
      }
      this.schedule();
    };
    socket.onerror = () => {
      // a close follows an error; closing makes sure of it
      try {
        socket.close();
      } catch {
        // already closed
      }
    };
  }
}
