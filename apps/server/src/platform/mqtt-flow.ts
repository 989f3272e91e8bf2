/**
 * The embedded broker's defences on each client socket, below the MQTT parser:
 * - packet size: every packet's length is read from its fixed header as the bytes arrive; a
 *   packet above the limit closes the connection before its body is buffered (the parser would
 *   otherwise collect it whole, however large);
 * - backpressure: while a client has too many submissions unanswered, the socket is not read,
 *   so TCP holds the client back; reading resumes when the answers have gone out.
 * Both work on the socket's `read()`, the one call through which the broker takes bytes.
 */
import type { Server, Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { MqttHandler, MqttInbound } from './mqtt';
import type { MqttStats } from './mqtt-stats';

const HEADER = 0;
const LENGTH = 1;

export class InboundGuard {
  #paused = false;
  #closed = false;
  #state = HEADER;
  #length = 0;
  #multiplier = 1;
  #lengthBytes = 0;
  /** body bytes of the current packet still to come */
  #skip = 0;

  constructor(
    private readonly socket: Socket,
    private readonly maxPacketBytes: number,
    private readonly onTooLarge: () => void,
  ) {
    const read = socket.read.bind(socket);
    socket.read = ((size?: number) => {
      if (this.#paused || this.#closed) return null;
      const chunk = read(size) as Buffer | string | null;
      if (chunk && !this.#scan(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) {
        this.#closed = true;
        this.onTooLarge();
        socket.destroy();
        return null;
      }
      return chunk;
    }) as Socket['read'];
  }

  get paused(): boolean {
    return this.#paused;
  }

  pause(): void {
    this.#paused = true;
  }

  resume(): void {
    if (!this.#paused) return;
    this.#paused = false;
    // the broker stopped asking for bytes when `read` came back empty: tell it there are some
    process.nextTick(() => {
      if (!this.socket.destroyed) this.socket.emit('readable');
    });
  }

  /** Follows packet boundaries through `chunk`; false when a packet is over the limit or malformed. */
  #scan(chunk: Buffer): boolean {
    let i = 0;
    while (i < chunk.length) {
      if (this.#skip > 0) {
        const n = Math.min(this.#skip, chunk.length - i);
        this.#skip -= n;
        i += n;
        continue;
      }
      if (this.#state === HEADER) {
        this.#state = LENGTH;
        this.#length = 0;
        this.#multiplier = 1;
        this.#lengthBytes = 0;
        i += 1;
        continue;
      }
      const byte = chunk[i++]!;
      this.#length += (byte & 0x7f) * this.#multiplier;
      this.#multiplier *= 128;
      this.#lengthBytes += 1;
      if (byte & 0x80) {
        if (this.#lengthBytes >= 4) return false; // a remaining length has at most 4 bytes
        continue;
      }
      if (1 + this.#lengthBytes + this.#length > this.maxPacketBytes) return false;
      this.#skip = this.#length;
      this.#state = HEADER;
    }
    return true;
  }
}

export interface FlowLimits {
  /** largest MQTT packet accepted, header included */
  maxPacketBytes: number;
  /** a client's submissions received and not yet answered before its socket stops being read */
  clientInflight: number;
  /** the same in payload bytes */
  clientBytes: number;
  /** all clients' pending payload bytes beyond which the server is overloaded */
  pendingBytes: number;
}

/** One client connection's submissions in flight. */
export class ClientFlow {
  inflight = 0;
  bytes = 0;

  constructor(
    readonly guard: InboundGuard,
    private readonly limits: FlowLimits,
  ) {}

  take(bytes: number): void {
    this.inflight += 1;
    this.bytes += bytes;
    if (this.inflight >= this.limits.clientInflight || this.bytes >= this.limits.clientBytes)
      this.guard.pause();
  }

  give(bytes: number): void {
    this.inflight -= 1;
    this.bytes -= bytes;
    // resume at half, so a client at its limit is not switched on and off for every answer
    if (
      this.guard.paused &&
      this.inflight <= this.limits.clientInflight / 2 &&
      this.bytes <= this.limits.clientBytes / 2
    )
      this.guard.resume();
  }
}

/**
 * Hands a message to its handler under the server-wide budget and, on the embedded broker,
 * the sending client's own (`flow`), releasing both when the handler is done.
 */
export function dispatch(
  options: { limits: FlowLimits; stats: MqttStats; log: FastifyBaseLogger },
  handler: MqttHandler,
  message: Omit<MqttInbound, 'overloaded'>,
  flow: ClientFlow | null,
): void {
  const { stats, limits } = options;
  const bytes = message.payload.length;
  const overloaded = stats.pending.bytes + bytes > limits.pendingBytes;
  stats.pending.messages += 1;
  stats.pending.bytes += bytes;
  flow?.take(bytes);
  const release = () => {
    stats.pending.messages -= 1;
    stats.pending.bytes -= bytes;
    flow?.give(bytes);
  };
  let handled: Promise<void>;
  try {
    handled = handler({ ...message, overloaded });
  } catch (error) {
    handled = Promise.reject(error);
  }
  handled.then(release, (error) => {
    release();
    options.log.error({ err: error }, 'an MQTT message handler failed');
  });
}

export async function listenOn(server: Server, host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

/**
 * Packets written to a device in one turn of the event loop (a burst of answers and
 * acknowledgements) leave in one system call instead of one each: the socket is corked at the
 * first write of a turn and uncorked when the turn ends.
 */
export function coalesceWrites(socket: Socket): void {
  let corked = false;
  const uncork = () => {
    corked = false;
    socket.uncork();
  };
  const write = socket.write.bind(socket);
  socket.write = ((...args: Parameters<Socket['write']>) => {
    if (!corked) {
      corked = true;
      socket.cork();
      setImmediate(uncork);
    }
    return write(...(args as [string]));
  }) as Socket['write'];
}
