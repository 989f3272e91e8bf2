/**
 * The real server as a child process (apps/server/src/main.ts through tsx), for the tests that
 * must kill, restart or run it twice: fault tests, the data folder lock.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from '../config';

const START_DEADLINE_MS = 120_000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output(): string;
}

/** Spawns the server with these variables over quiet, embedded defaults; does not wait. */
export async function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const mqttPort = await freePort();
  // `node --import tsx`, not node_modules/.bin/tsx: that one runs the server in a child process
  // of its own and cannot relay SIGKILL, which would leave the real server running. Its own
  // process group, so `killGroup` reaches anything it might start.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'apps/server/src/main.ts')],
    {
      cwd: REPO_ROOT,
      detached: true,
      env: {
        ...process.env,
        DATABASE_URL: '',
        MQTT_URL: '',
        HOST: '127.0.0.1',
        PORT: String(port),
        MQTT_PORT: String(mqttPort),
        SEED_DEMO: 'false',
        DEMO_PUBLISHER: 'off',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk) => {
    out += chunk.toString();
  });
  return { url: `http://127.0.0.1:${port}`, child, output: () => out };
}

/** Spawns the server and waits until it listens. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const server = await spawnServer(env);
  const deadline = Date.now() + START_DEADLINE_MS;
  while (!server.output().includes('is running at')) {
    if (server.child.exitCode != null || server.child.signalCode != null)
      throw new Error(`server exited early:\n${server.output()}`);
    if (Date.now() > deadline) {
      killGroup(server.child);
      throw new Error(`server did not start:\n${server.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return server;
}

/** SIGKILL to the server and its process group */
export function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode != null || child.signalCode != null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function stopGracefully(server: ServerProcess): Promise<void> {
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => killGroup(server.child), 30_000);
  await exited(server.child);
  clearTimeout(timer);
}

/** Stops a server a test left running, whatever state it is in. */
export async function stopIfRunning(server: ServerProcess | null): Promise<void> {
  if (server && server.child.exitCode == null && server.child.signalCode == null) {
    killGroup(server.child);
    await exited(server.child);
  }
}
