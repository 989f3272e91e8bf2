/**
 * The two ways to a port: a gateway's passthrough session over the WebSocket
 * `/general/devicemanagement/passthrough/session?token=…&id=…&port=…` (docs/comdebug.md), and a
 * port of this computer through Web Serial where the browser has it. Both give the page the
 * same events: opened, TX, RX, a refused send, ended.
 */
import { parseHex, toHex } from '@platform/domain';
import { API_BASE } from '../../app/http/client';

export interface Ended {
  code: number;
  message: string;
}

export interface ConnectionEvents {
  opened(): void;
  tx(bytes: Uint8Array, at: string): void;
  rx(bytes: Uint8Array, at: string): void;
  /** a send was refused; the connection stays */
  refused(message: string): void;
  /** the connection is over (null: closed by the person) */
  ended(reason: Ended | null): void;
}

export interface Connection {
  send(bytes: Uint8Array): Promise<void>;
  close(): void;
}

function sessionUrl(token: string, deviceId: number, port: number): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${window.location.host}${API_BASE}/devicemanagement/passthrough/session?token=${encodeURIComponent(token)}&id=${deviceId}&port=${port}`;
}

/** A passthrough session on a gateway's port. */
export function gatewayConnection(
  token: string,
  deviceId: number,
  port: number,
  events: ConnectionEvents,
): Connection {
  const socket = new WebSocket(sessionUrl(token, deviceId, port));
  let over = false;
  const finish = (reason: Ended | null) => {
    if (over) return;
    over = true;
    events.ended(reason);
  };
  socket.onmessage = (event) => {
    let message: { type?: string; data?: unknown; at?: string; code?: number; message?: string };
    try {
      message = JSON.parse(String(event.data));
    } catch {
      return;
    }
    const bytes = typeof message.data === 'string' ? parseHex(message.data) : null;
    const at = message.at ?? new Date().toISOString();
    if (message.type === 'opened') events.opened();
    else if (message.type === 'tx' && bytes) events.tx(bytes, at);
    else if (message.type === 'rx' && bytes) events.rx(bytes, at);
    else if (message.type === 'error') events.refused(message.message ?? '');
    else if (message.type === 'ended') finish({ code: message.code ?? 0, message: message.message ?? '' });
  };
  socket.onclose = () => finish(null);
  return {
    send: async (bytes) => {
      if (socket.readyState === WebSocket.OPEN)
        socket.send(JSON.stringify({ type: 'send', data: toHex(bytes) }));
    },
    close: () => {
      finish(null);
      socket.close();
    },
  };
}

export interface SerialSettings {
  baudRate: number;
  dataBits: 7 | 8;
  stopBits: 1 | 2;
  parity: 'none' | 'odd' | 'even';
}

interface WebSerialPort {
  open(options: SerialSettings): Promise<void>;
  close(): Promise<void>;
  readable: ReadableStream<Uint8Array> | null;
  writable: WritableStream<Uint8Array> | null;
}

interface WebSerial {
  requestPort(): Promise<WebSerialPort>;
}

/** navigator.serial where the browser has it (Chromium-based desktop browsers, over https or localhost). */
export function webSerial(): WebSerial | null {
  const nav = navigator as Navigator & { serial?: WebSerial };
  return nav.serial ?? null;
}

/** A port of this computer: the browser asks the person which one. */
export async function serialConnection(
  settings: SerialSettings,
  events: ConnectionEvents,
): Promise<Connection> {
  const serial = webSerial();
  if (!serial) throw new Error('Web Serial is not available');
  const port = await serial.requestPort();
  await port.open(settings);
  let over = false;
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  const finish = (reason: Ended | null) => {
    if (over) return;
    over = true;
    events.ended(reason);
  };
  events.opened();
  void (async () => {
    while (!over && port.readable) {
      reader = port.readable.getReader();
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (value?.length) events.rx(value, new Date().toISOString());
        }
      } catch (error) {
        if (!over) finish({ code: 0, message: String(error) });
      } finally {
        reader.releaseLock();
      }
    }
  })();
  return {
    send: async (bytes) => {
      const writer = port.writable?.getWriter();
      if (!writer) return;
      try {
        await writer.write(bytes);
        events.tx(bytes, new Date().toISOString());
      } finally {
        writer.releaseLock();
      }
    },
    close: () => {
      finish(null);
      void (async () => {
        try {
          await reader?.cancel();
          await port.close();
        } catch {
          // already gone (unplugged)
        }
      })();
    },
  };
}
