/** Starts bench/server.ts in a child process and talks to it over its line protocol. */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = path.resolve(BENCH_DIR, '..');

export interface ServerStats {
  flushes: number;
  records: number;
  queries: number;
  rss: number;
  /** user + system CPU of the server process so far */
  cpuMicros: number;
}

export interface ServerChild {
  port: number;
  mqttPort: number | null;
  pid: number;
  stats(): Promise<ServerStats>;
  /** CPU profile of the window between the two calls, written to `file` (.cpuprofile) */
  profileStart(): Promise<void>;
  profileStop(file: string): Promise<void>;
  close(): Promise<void>;
  /** any other line of the protocol (bench/server.ts); its one answer line */
  command(line: string): Promise<Record<string, unknown>>;
}

export async function startServer(mode: 'app' | 'bare', env: Record<string, string>): Promise<ServerChild> {
  // bench/server.ts compiled as the server is for `npm start` (run.ts built it)
  const child: ChildProcess = spawn(
    process.execPath,
    [path.join(ROOT, 'apps/server/dist/bench-server.mjs'), mode],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines: Interface = createInterface({ input: child.stdout! });
  const waiting: Array<(line: Record<string, unknown>) => void> = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  lines.on('line', (line) => {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line);
    } catch {
      process.stderr.write(`[server] ${line}\n`);
      return;
    }
    waiting.shift()?.(parsed);
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      waiting.push(resolve);
      void exited.then((code) => reject(new Error(`bench server exited (${code})`)));
    });
  const ready = await next();
  return {
    port: ready.port as number,
    mqttPort: (ready.mqttPort as number | null) ?? null,
    pid: child.pid!,
    stats: async () => {
      const answer = next();
      child.stdin!.write('stats\n');
      return (await answer) as unknown as ServerStats;
    },
    profileStart: async () => {
      const answer = next();
      child.stdin!.write('profile-start\n');
      await answer;
    },
    profileStop: async (file) => {
      const answer = next();
      child.stdin!.write(`profile-stop ${file}\n`);
      await answer;
    },
    command: async (line) => {
      const answer = next();
      child.stdin!.write(`${line}\n`);
      return answer;
    },
    close: async () => {
      const answer = next();
      child.stdin!.write('close\n');
      await answer.catch(() => undefined);
      await exited;
    },
  };
}
