/**
 * Test helpers of passthrough sessions: a client of the session WebSocket that keeps what it
 * heard and waits for messages by type. Not imported by production code.
 */
import type { TestApp } from '../../test/helper';
import { waitFor } from '../devices/test-support';

export interface Heard {
  type: string;
  [key: string]: unknown;
}

export interface SessionClient {
  heard: Heard[];
  send(message: unknown): void;
  sendHex(data: unknown): void;
  /** the next message of this type not yet taken */
  next(type: string, ms?: number): Promise<Heard>;
  /** the `ended` message and the close code */
  ended(ms?: number): Promise<{ message: Heard; code: number }>;
  /** answered after everything sent before it was handled */
  ping(): Promise<void>;
  close(): void;
}

export async function openSession(
  t: TestApp,
  token: string,
  deviceId: number,
  port: number,
  lang = 'en',
): Promise<SessionClient> {
  const heard: Heard[] = [];
  const taken = new Set<Heard>();
  let closeCode: number | null = null;
  // listeners from the start: the first messages can arrive with the upgrade's answer
  const socket = await t.app.injectWS(
    `/general/devicemanagement/passthrough/session?token=${encodeURIComponent(token)}&id=${deviceId}&port=${port}`,
    { headers: { 'accept-language': lang } },
    {
      onInit: (ws) => {
        ws.on('message', (data) => heard.push(JSON.parse(String(data)) as Heard));
        ws.on('close', (code) => {
          closeCode = code;
        });
      },
    },
  );
  const next = (type: string, ms = 15_000) =>
    waitFor(
      () => {
        const found = heard.find((m) => m.type === type && !taken.has(m));
        if (found) taken.add(found);
        return found;
      },
      ms,
      `a ${type} message (heard ${JSON.stringify(heard).slice(0, 400)})`,
    );
  return {
    heard,
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    sendHex: (data) => socket.send(JSON.stringify({ type: 'send', data })),
    next,
    ended: async (ms = 15_000) => {
      const message = await next('ended', ms);
      const code = await waitFor(() => closeCode ?? undefined, ms, 'the socket closed');
      return { message, code };
    },
    ping: async () => {
      const before = heard.filter((m) => m.type === 'pong').length;
      socket.send(JSON.stringify({ type: 'ping' }));
      await waitFor(() => heard.filter((m) => m.type === 'pong').length > before, 15_000, 'pong');
    },
    close: () => socket.terminate(),
  };
}
